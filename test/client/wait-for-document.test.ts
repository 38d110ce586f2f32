import { DocumentNotNumberedError, MagniFinanceClient, plannedReadTimes } from '../../client';
import type { RunningSandbox } from '../../sandbox/server';
import { invoiceRequest } from './requests';
import { admin, OWNER, startTestSandbox, uniqueExternalId } from './sandbox-harness';

/**
 * waitForDocument and freshPdfLink against the sandbox over HTTP. The sandbox emulates the real
 * service's answer to an early read (6 ElementDoesNotExist); the client's sleep moves the sandbox
 * clock, so the 10 s minimum and the backoff are real delays on the service's clock without
 * waiting for them.
 */

const FINALIZE_MS = 15_000;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  await admin(sandbox, 'POST', '/config', { finalizeDelayMs: FINALIZE_MS });
});
afterAll(() => sandbox.close());

/** A client whose waits move the sandbox clock; `slept` lists every wait it made. */
function clockedClient(): { client: MagniFinanceClient; slept: number[] } {
  const slept: number[] = [];
  let now = 1_000_000;
  const client = new MagniFinanceClient({
    email: OWNER.email,
    token: OWNER.token,
    baseUrl: sandbox.baseUrl,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
      await admin(sandbox, 'POST', '/clock', { advanceMs: ms });
    },
  });
  return { client, slept };
}

describe('waitForDocument', () => {
  it('plans the first read at 10 s or later, then doubles the interval within the timeout', () => {
    expect(plannedReadTimes({})).toEqual([10_000, 12_000, 16_000, 24_000, 40_000, 70_000, 100_000]);
    expect(plannedReadTimes({ firstReadAfterMs: 1_000, timeoutMs: 5_000 })).toEqual([10_000]);
    expect(plannedReadTimes({ firstReadAfterMs: 20_000, intervalMs: 5_000, maxIntervalMs: 8_000, timeoutMs: 45_000 })).toEqual([
      20_000, 25_000, 33_000, 41_000,
    ]);
  });

  it('treats "not numbered yet" (6 ElementDoesNotExist) as waiting and returns number and link', async () => {
    const { client, slept } = clockedClient();
    const { documentId } = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }));
    const doc = await client.waitForDocument(documentId);
    // Reads at 10 s (too early), 12 s (too early), 16 s (numbered: the sandbox numbers at 15 s).
    expect(slept).toEqual([10_000, 2_000, 4_000]);
    expect(doc.documentNumber).toMatch(/^FR A\/\d+$/);
    expect(doc.downloadUrl).toMatch(/^http/);
  });

  it('the same with the spec reading (success with a null number)', async () => {
    await admin(sandbox, 'POST', '/config', { notNumberedAnswer: 'null-number' });
    try {
      const { client, slept } = clockedClient();
      const { documentId } = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }));
      const doc = await client.waitForDocument(documentId);
      expect(slept).toEqual([10_000, 2_000, 4_000]);
      expect(doc.documentNumber).toMatch(/^FR A\/\d+$/);
    } finally {
      await admin(sandbox, 'POST', '/config', { notNumberedAnswer: 'element-does-not-exist' });
    }
  });

  it('counts the 10 s from createdAt, not from the call', async () => {
    const { client, slept } = clockedClient();
    const { documentId } = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }));
    await admin(sandbox, 'POST', '/clock', { advanceMs: 16_000 });
    const doc = await client.waitForDocument(documentId, { createdAt: 1_000_000 - 16_000 });
    expect(slept).toEqual([]);
    expect(doc.documentNumber).toMatch(/\S/);
  });

  it('gives up with DocumentNotNumberedError when the timeout runs out (the document exists)', async () => {
    const { client, slept } = clockedClient();
    const { documentId } = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }));
    const error = await client.waitForDocument(documentId, { timeoutMs: 12_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentNotNumberedError);
    expect(error).toMatchObject({ documentId, reads: 2 });
    expect(slept).toEqual([10_000, 2_000]);
  });

  it('an AbortSignal ends the wait at once with its reason (real timer)', async () => {
    const client = new MagniFinanceClient({ email: OWNER.email, token: OWNER.token, baseUrl: sandbox.baseUrl });
    const { documentId } = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('shop closed')), 50);
    // Ended by the signal, with its reason: not by the wait's own end (DocumentNotNumberedError) nor with a document.
    await expect(client.waitForDocument(documentId, { signal: controller.signal })).rejects.toThrow('shop closed');
  });

  it('a genuinely unknown id is not an error of the wait either: it ends as not numbered', async () => {
    const { client } = clockedClient();
    await expect(client.waitForDocument(999_999, { timeoutMs: 10_000 })).rejects.toBeInstanceOf(DocumentNotNumberedError);
  });
});

describe('freshPdfLink', () => {
  it('before the number: DocumentNotNumberedError; after: a new signed link on every call', async () => {
    const { client } = clockedClient();
    const { documentId } = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }));
    await expect(client.freshPdfLink(documentId)).rejects.toBeInstanceOf(DocumentNotNumberedError);
    await admin(sandbox, 'POST', '/clock', { advanceMs: FINALIZE_MS });
    const first = await client.freshPdfLink(documentId);
    await admin(sandbox, 'POST', '/clock', { advanceMs: 1_000 });
    const second = await client.freshPdfLink(documentId);
    expect(first.documentNumber).toBe(second.documentNumber);
    expect(second.url).not.toBe(first.url);
    const pdf = await fetch(second.url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });
});
