import { plannedChecks } from '../../nodes/MagniFinance/helpers/await-finalized-document';
import { runNode, type SentRequest } from './support/n8n-harness';
import { startNodeSandbox } from './support/sandbox';

const TEN_SECONDS = 10_000;

describe('"Wait for Number and PDF" plans its checks inside the timeout', () => {
  it.each([
    { first: 10, interval: 5, timeout: 60, checks: 11 },
    { first: 10, interval: 5, timeout: 10, checks: 1 },
    { first: 10, interval: 5, timeout: 5, checks: 1 },
    { first: 20, interval: 7, timeout: 40, checks: 3 },
  ])('first $first s, every $interval s, timeout $timeout s -> $checks checks', ({ first, interval, timeout, checks }) => {
    expect(plannedChecks({ firstCheckAfterSeconds: first, checkIntervalSeconds: interval, waitTimeoutSeconds: timeout })).toBe(checks);
  });
});

// The two cases below really wait 10 s (the service's minimum); they run side by side.
describe('"Wait for Number and PDF" polls Get Document no sooner than 10 s after the create', () => {
  it.concurrent.each([
    {
      case: 'finalized in time: number and PDF link come out',
      finalizeDelayMs: 0,
      options: { firstCheckAfterSeconds: 10, waitTimeoutSeconds: 60 },
      expected: { finalized: true, checks: 1, documentNumber: expect.stringMatching(/\S+/), downloadUrl: expect.stringMatching(/^http/) },
    },
    {
      // Not numbered at the first check (the real service then answers error 6 ElementDoesNotExist,
      // the sandbox a document without number): the node keeps waiting instead of failing.
      case: 'not numbered at the first check, numbered at a later one: waits, then number and PDF',
      finalizeDelayMs: 12_500,
      options: { firstCheckAfterSeconds: 10, checkIntervalSeconds: 1, waitTimeoutSeconds: 30 },
      expected: { finalized: true, checks: expect.any(Number), documentNumber: expect.stringMatching(/\S+/) },
    },
    {
      case: 'not finalized within the timeout: the created document is still reported, not an error',
      finalizeDelayMs: 3_600_000,
      // 3 s is below the service's minimum: the node waits 10 s anyway.
      options: { firstCheckAfterSeconds: 3, waitTimeoutSeconds: 10 },
      expected: { finalized: false, checks: 1 },
    },
  ])('$case', async ({ finalizeDelayMs, options, expected }) => {
    const s = await startNodeSandbox({ finalizeDelayMs });
    try {
      const { output, requests } = await runNode({
        credentials: s.credentials,
        parameters: {
          resource: 'document',
          operation: 'create',
          clientName: 'Maria Silva',
          lines: { line: [{ Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 1 }] },
          waitForDocument: true,
          options,
        },
      });
      expect(output[0][0].json).toMatchObject({ documentId: expect.any(Number), closed: true, ...expected });
      if (!expected.finalized) expect(output[0][0].json.documentNumber ?? null).toBeNull();
      const [create, ...gets] = requests;
      expect(create.method).toBe('POST');
      if (expected.finalized && expected.checks !== 1) {
        expect(gets.length).toBeGreaterThan(1);
        expect(output[0][0].json.checks).toBe(gets.length);
      } else {
        expect(gets).toHaveLength(1);
      }
      expect(gets[0].url).toContain(`documentId=${output[0][0].json.documentId}`);
      expect(gets[0].at - create.at).toBeGreaterThanOrEqual(TEN_SECONDS);
    } finally {
      await s.close();
    }
  }, 30_000);
});

describe('"Wait for Number and PDF" stops when the execution is cancelled', () => {
  it('a cancel during the wait ends the run there, with no Get Document sent', async () => {
    const s = await startNodeSandbox({ finalizeDelayMs: 0 });
    try {
      const started = Date.now();
      const sent: SentRequest[] = [];
      const run = runNode({
        credentials: s.credentials,
        cancelAfterMs: 1_000,
        sent,
        parameters: {
          resource: 'document',
          operation: 'create',
          clientName: 'Maria Silva',
          lines: { line: [{ Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 1 }] },
          waitForDocument: true,
        },
      });
      // The first check is 10 s after the create: a run that ended by the cancel, with only the create
      // sent, ended in the wait (a wait that ignored the cancel would have sent Get Document first).
      await expect(run).rejects.toThrow('The execution was cancelled manually');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      expect(sent.map((request) => request.method)).toEqual(['POST']);
      const documents = (await s.admin('GET', '/documents')).body as { documents: unknown[] };
      expect(documents.documents).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});
