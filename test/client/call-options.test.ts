import {
  clientFromEnvironment,
  LocalValidationError,
  MagniFinanceClient,
  RequestEvent,
  ResponseEvent,
  ServiceValidationError,
  settingsFromEnvironment,
  soapClientFromEnvironment,
  TransportTimeoutError,
} from '../../client';
import { urlWithoutSecrets } from '../../client/request-hooks';
import { createUndiciTransport } from '../../client/undici-transport';
import type { RunningSandbox } from '../../sandbox/server';
import { invoiceRequest } from './requests';
import { admin, OWNER, passFinalizeDelay, restClient, soapClient, startTestSandbox, uniqueExternalId } from './sandbox-harness';

/**
 * What a Node developer expects of an API client (stripe-node, openai-node): per-call timeout,
 * AbortSignal and retry count, request/response hooks for logging, credentials from the
 * environment. Against the sandbox over HTTP; faults and latency are the sandbox's own.
 */

let sandbox: RunningSandbox;
let documentId: number;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  documentId = (await restClient(sandbox).createDocument(invoiceRequest({ ExternalId: uniqueExternalId('options') }))).documentId;
  await passFinalizeDelay(sandbox);
});
afterAll(() => sandbox.close());
afterEach(() => admin(sandbox, 'POST', '/config', { errorRate: 0, latencyMs: 0 }));

function recording(options: Parameters<typeof restClient>[2] = {}): { client: MagniFinanceClient; requests: RequestEvent[]; responses: ResponseEvent[] } {
  const requests: RequestEvent[] = [];
  const responses: ResponseEvent[] = [];
  const client = restClient(sandbox, OWNER, { onRequest: (e) => requests.push(e), onResponse: (e) => responses.push(e), ...options });
  return { client, requests, responses };
}

describe('per-call maxRetries', () => {
  it.each([
    [0, 1],
    [2, 3],
  ])('maxRetries %i on a safe call makes %i attempts against a failing service', async (maxRetries, attempts) => {
    await admin(sandbox, 'POST', '/config', { errorRate: 1 });
    const { client, requests } = recording({ retry: { attempts: 5 } });
    await expect(client.getDocumentProperty(documentId, { maxRetries })).rejects.toMatchObject({ status: 500 });
    expect(requests.map((r) => r.attempt)).toEqual(Array.from({ length: attempts }, (_, i) => i + 1));
  });

  it('never repeats a create, whatever maxRetries says (a 500 may have created it)', async () => {
    await admin(sandbox, 'POST', '/config', { errorRate: 1 });
    const { client, requests } = recording();
    await expect(client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId('no-retry') }), { maxRetries: 5 })).rejects.toMatchObject({ status: 500 });
    expect(requests).toHaveLength(1);
  });
});

describe('per-call timeoutMs', () => {
  it('a call slower than its timeoutMs is a TransportTimeoutError; the same call without it succeeds', async () => {
    await admin(sandbox, 'POST', '/config', { latencyMs: 400 });
    const client = restClient(sandbox);
    const error = await client.getDocumentProperty(documentId, { timeoutMs: 50, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportTimeoutError);
    expect((error as TransportTimeoutError).timeoutMs).toBe(50);
    await expect(client.getDocumentProperty(documentId)).resolves.toMatchObject({ details: expect.any(Object) });
  });
});

describe('per-call AbortSignal', () => {
  it('an already aborted signal rejects with its reason and sends nothing', async () => {
    const { client, requests } = recording();
    const controller = new AbortController();
    controller.abort(new Error('user left'));
    await expect(client.getDocument(documentId, { signal: controller.signal })).rejects.toThrow('user left');
    expect(requests).toHaveLength(0);
  });

  it('aborting a request in flight rejects at once with an AbortError', async () => {
    await admin(sandbox, 'POST', '/config', { latencyMs: 2000 });
    const controller = new AbortController();
    const { client } = recording({ onRequest: () => controller.abort() });
    const error = await client.getDocumentProperty(documentId, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('aborting during the retries stops them', async () => {
    await admin(sandbox, 'POST', '/config', { errorRate: 1 });
    const controller = new AbortController();
    const { client, requests } = recording({ onResponse: () => controller.abort(), retry: { attempts: 5 } });
    await expect(client.getDocumentProperty(documentId, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(1);
  });

  it('the SOAP client takes a signal too', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(soapClient(sandbox).documentGet(documentId, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('request and response hooks', () => {
  it('report method, URL, attempt, status, duration and RequestId, and never the token', async () => {
    const { client, requests, responses } = recording();
    const read = await client.getDocumentProperty(documentId);
    expect(requests).toEqual([{ method: 'GET', url: `${sandbox.baseUrl}/document/property?documentId=${documentId}`, attempt: 1 }]);
    expect(responses).toEqual([
      { method: 'GET', url: `${sandbox.baseUrl}/document/property?documentId=${documentId}`, attempt: 1, status: 200, durationMs: expect.any(Number), requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    ]);
    expect(responses[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(read.raw).toBeDefined();
    expect(JSON.stringify([requests, responses])).not.toContain(OWNER.token);
  });

  it('report a refused call with its status and RequestId, and a call with no answer with its error', async () => {
    const { client, responses } = recording();
    const error = await client.getDocument(987654).catch((e: unknown) => e);
    expect(responses[0]).toMatchObject({ status: 404, requestId: (error as { requestId: string }).requestId });
    const closed = restClient(sandbox, OWNER, { baseUrl: 'http://127.0.0.1:9/api/v1.1', retry: false, onResponse: (e) => responses.push(e) });
    await expect(closed.getDocument(1)).rejects.toThrow();
    expect(responses[1]).toMatchObject({ url: 'http://127.0.0.1:9/api/v1.1/document?documentId=1', requestId: null, error: expect.any(Error) });
    expect(responses[1].status).toBeUndefined();
  });

  it('a hook that throws does not fail the call', async () => {
    const client = restClient(sandbox, OWNER, {
      onRequest: () => {
        throw new Error('logger down');
      },
    });
    await expect(client.getDocumentProperty(documentId)).resolves.toBeDefined();
  });

  it('SOAP calls are reported the same way', async () => {
    const events: ResponseEvent[] = [];
    const soap = soapClient(sandbox, OWNER, { onResponse: (e) => events.push(e) });
    await soap.documentGet(documentId);
    expect(events).toEqual([{ method: 'POST', url: sandbox.soapUrl, attempt: 1, status: 200, durationMs: expect.any(Number), requestId: expect.any(String) }]);
  });

  it.each([
    ['https://x.example/api/v1.1/document?documentId=1', 'https://x.example/api/v1.1/document?documentId=1'],
    ['https://x.example/a?token=abc&taxId=1', 'https://x.example/a?token=***&taxId=1'],
    ['https://x.example/a?Password=p', 'https://x.example/a?Password=***'],
  ])('URLs are logged without secrets: %s', (url, logged) => {
    expect(urlWithoutSecrets(url)).toBe(logged);
  });
});

describe('a body the service does not read as JSON', () => {
  it('is HTTP 415 from the service, a ServiceValidationError with UnsupportedMediaType', async () => {
    const undici = createUndiciTransport();
    const client = restClient(sandbox, OWNER, {
      transport: (request) => undici({ ...request, headers: { ...request.headers, 'content-type': 'text/plain' } }),
    });
    const error = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId('plain') })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceValidationError);
    expect(error).toMatchObject({ status: 415, validationErrors: [expect.objectContaining({ Type: 'UnsupportedMediaType', Field: 'Body' })] });
  });
});

describe('credentials from environment variables', () => {
  it('reads MAGNIFINANCE_EMAIL, _TOKEN, _BASE_URL, _TIMEOUT_MS and _MAX_RETRIES, and the client works', async () => {
    const env = {
      MAGNIFINANCE_EMAIL: OWNER.email,
      MAGNIFINANCE_TOKEN: OWNER.token,
      MAGNIFINANCE_BASE_URL: sandbox.baseUrl,
      MAGNIFINANCE_SOAP_URL: sandbox.soapUrl,
      MAGNIFINANCE_TIMEOUT_MS: '5000',
      MAGNIFINANCE_MAX_RETRIES: '0',
    };
    expect(settingsFromEnvironment(env)).toEqual({ email: OWNER.email, token: OWNER.token, baseUrl: sandbox.baseUrl, soapUrl: sandbox.soapUrl, timeoutMs: 5000, maxRetries: 0 });
    await expect(clientFromEnvironment({}, env).getDocumentProperty(documentId)).resolves.toBeDefined();
    await expect(soapClientFromEnvironment({}, env).documentGet(documentId)).resolves.toBeDefined();
  });

  it('names every missing or malformed variable at once, without echoing the token', () => {
    const error = (() => {
      try {
        settingsFromEnvironment({ MAGNIFINANCE_TOKEN: ' ', MAGNIFINANCE_BASE_URL: 'ftp://x', MAGNIFINANCE_TIMEOUT_MS: 'soon' });
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LocalValidationError);
    expect((error as LocalValidationError).issues.map((i) => i.path).sort()).toEqual(
      ['MAGNIFINANCE_BASE_URL', 'MAGNIFINANCE_EMAIL', 'MAGNIFINANCE_TIMEOUT_MS', 'MAGNIFINANCE_TOKEN'].sort(),
    );
  });
});
