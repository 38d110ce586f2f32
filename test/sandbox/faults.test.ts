import { request } from 'undici';
import { RunningSandbox, startTestSandbox, TEST_ACCOUNT } from '../support/sandbox';
import { documentBody } from './bodies';
import { admin, api } from './http';

/** Injected faults: errors, lost answers, determinism with a seed, runtime config. */

const headers = { 'content-type': 'application/json', email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token };

describe('errorRate: 500 GeneralUnknownError and nothing done', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ errorRate: 1 });
  });
  afterAll(() => sandbox.close());

  it('answers REST with the envelope', async () => {
    const result = await api(sandbox, 'POST', '/document', { body: documentBody() });
    expect(result.status).toBe(500);
    expect(result.envelope).toMatchObject({ Type: 1, ErrorValue: { Value: 3, Name: 'GeneralUnknownError' } });
    expect((await admin<{ documents: unknown[] }>(sandbox, 'GET', '/documents')).body.documents).toHaveLength(0);
  });

  it('answers SOAP with a server Fault', async () => {
    const response = await request(sandbox.soapUrl, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<x/>' });
    expect(response.statusCode).toBe(500);
    expect(await response.body.text()).toContain('<faultcode>soap:Server</faultcode>');
  });

  it('leaves the admin routes alone', async () => {
    expect((await admin(sandbox, 'GET', '/health')).status).toBe(200);
  });
});

describe('timeoutRate: the request is carried out but the answer never comes', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ timeoutRate: 1, timeoutHoldMs: 10 });
  });
  afterAll(() => sandbox.close());

  it('drops the connection, and a retry finds the document already created', async () => {
    const body = JSON.stringify(documentBody({ ExternalId: 'lost-answer' }));
    await expect(request(`${sandbox.baseUrl}/document`, { method: 'POST', headers, body })).rejects.toThrow();
    await admin(sandbox, 'POST', '/config', { timeoutRate: 0 });
    const retry = await api(sandbox, 'POST', '/document', { rawBody: body });
    expect(retry.envelope.ValidationErrors?.[0].Type).toBe('DocumentIsADuplicate');
  });

  it('a client-side timeout gives up while the sandbox holds the answer', async () => {
    await admin(sandbox, 'POST', '/config', { timeoutRate: 1, timeoutHoldMs: 60_000 });
    const call = request(`${sandbox.baseUrl}/taxIdValidation?countryCode=PT&taxId=505123452`, { headers, headersTimeout: 100 });
    await expect(call).rejects.toThrow(/timeout/i);
    await admin(sandbox, 'POST', '/config', { timeoutRate: 0 });
  });
});

describe('seed: the same seed fails the same requests', () => {
  async function statuses(seed: number): Promise<number[]> {
    const sandbox = await startTestSandbox({ seed, errorRate: 0.5 });
    try {
      const out: number[] = [];
      for (let i = 0; i < 24; i += 1) out.push((await api(sandbox, 'GET', '/taxIdValidation?countryCode=PT&taxId=505123452')).status);
      return out;
    } finally {
      await sandbox.close();
    }
  }

  it('repeats the pattern and mixes failures with successes', async () => {
    const [a, b] = [await statuses(42), await statuses(42)];
    expect(a).toEqual(b);
    expect(new Set(a)).toEqual(new Set([200, 500]));
    expect(await statuses(7)).not.toEqual(a);
  });
});

describe('runtime config (POST /_sandbox/config)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  it.each([
    ['an unknown key', { speed: 3 }],
    ['a rate above 1', { errorRate: 2 }],
    ['a negative latency', { latencyMs: -1 }],
  ])('refuses %s', async (_name, body) => {
    expect((await admin(sandbox, 'POST', '/config', body)).status).toBe(400);
  });

  it('applies latency and returns the whole config', async () => {
    const result = await admin<Record<string, number>>(sandbox, 'POST', '/config', { latencyMs: 5 });
    expect(result.body).toMatchObject({ latencyMs: 5, errorRate: 0, timeoutRate: 0, finalizeDelayMs: 50, downloadUrlTtlSeconds: 7200 });
    expect((await api(sandbox, 'GET', '/taxIdValidation?countryCode=PT&taxId=505123452')).status).toBe(200);
  });
});
