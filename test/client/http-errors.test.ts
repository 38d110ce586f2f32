import {
  ApiError,
  AuthenticationError,
  createUndiciTransport,
  DocumentDuplicateError,
  ElementDoesNotExistError,
  LocalValidationError,
  MagniFinanceClient,
  RateLimitError,
  ServiceValidationError,
  Transport,
  TransportNetworkError,
  TransportTimeoutError,
} from './client-with-transport';
import type { RunningSandbox } from '../../sandbox/server';
import { copy, invoiceRequest, waybillRequest } from './requests';
import { admin, OWNER, restClient, startTestSandbox, uniqueExternalId } from './sandbox-harness';

let sandbox: RunningSandbox;
let client: MagniFinanceClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = restClient(sandbox);
});
afterAll(() => sandbox.close());
afterEach(() => admin(sandbox, 'POST', '/config', { latencyMs: 0, errorRate: 0, timeoutRate: 0 }));

/** The real undici transport, counting the requests that go on the wire. */
function countingTransport(): { transport: Transport; calls: string[] } {
  const real = createUndiciTransport();
  const calls: string[] = [];
  return {
    calls,
    transport: (request) => {
      calls.push(request.method);
      return real(request);
    },
  };
}

describe('401: bad credentials are an AuthenticationError', () => {
  it.each([
    ['wrong token', { email: OWNER.email, token: 'wrong' }],
    ['unknown e-mail', { email: 'nobody@example.com', token: OWNER.token }],
  ])('%s', async (_name, account) => {
    const error = await restClient(sandbox, account).getDocument(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401 });
  });
  it('is never retried', async () => {
    const { transport, calls } = countingTransport();
    const bad = restClient(sandbox, { email: OWNER.email, token: 'wrong' }, { transport, retry: { attempts: 3 } });
    await expect(bad.getDocument(1)).rejects.toBeInstanceOf(AuthenticationError);
    expect(calls).toHaveLength(1);
  });
});

describe('ElementDoesNotExist (6): unknown document id on Get and Cancel', () => {
  it.each([
    ['getDocument', (c: MagniFinanceClient) => c.getDocument(987654)],
    ['getDocumentProperty', (c: MagniFinanceClient) => c.getDocumentProperty(987654)],
    ['cancelDocument', (c: MagniFinanceClient) => c.cancelDocument(987654)],
  ])('%s', async (_name, call) => {
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElementDoesNotExistError);
    expect(error).toMatchObject({ errorValue: { Value: 6, Name: 'ElementDoesNotExist' }, requestId: expect.any(String) });
  });
});

describe('DocumentIsADuplicate: the same ExternalId for the same client', () => {
  it('is a DocumentDuplicateError carrying the spec form', async () => {
    const request = invoiceRequest({ ExternalId: uniqueExternalId() });
    await client.createDocument(request);
    const error = await client.createDocument(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentDuplicateError);
    expect(error).toMatchObject({
      errorHumanReadable: 'ValidationError',
      validationErrors: [expect.objectContaining({ Type: 'DocumentIsADuplicate', Field: 'DocumentDetailExternalId', Detail: 'Duplicate Document' })],
    });
  });
  it('the same ExternalId for another client is not a duplicate', async () => {
    const request = invoiceRequest({ ExternalId: uniqueExternalId() });
    await client.createDocument(request);
    const other = copy(request);
    other.Client.NIF = '505123452';
    await expect(client.createDocument(other)).resolves.toMatchObject({ documentId: expect.any(Number) });
  });
});

describe('MustBePosteriorToMostCurrentClosedDocument: dates ordered per series', () => {
  it('a date before the latest closed one of the series is refused; equal is allowed', async () => {
    const serie = `S${process.pid}`;
    await client.createDocument(invoiceRequest({ Serie: serie, Date: '2026-11-20', DueDate: '2026-11-30' }));
    await expect(client.createDocument(invoiceRequest({ Serie: serie, Date: '2026-11-20', DueDate: '2026-11-30' }))).resolves.toBeDefined();
    const error = await client.createDocument(invoiceRequest({ Serie: serie, Date: '2026-11-19', DueDate: '2026-11-30' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceValidationError);
    expect(error).toMatchObject({
      validationErrors: [expect.objectContaining({ Type: 'MustBePosteriorToMostCurrentClosedDocument', Field: 'DocumentDetailDate' })],
    });
  });
});

describe('InvalidTaxId: ValidationError (2) on Client Get, InvalidTaxId (4) on TaxId Validation', () => {
  it('Client Get with an invalid tax id', async () => {
    const error = await client.getClient('PT', '123456780').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceValidationError);
    expect(error).toMatchObject({
      errorValue: { Value: 2, Name: 'ValidationError' },
      validationErrors: [expect.objectContaining({ Type: 'InvalidTaxId', Field: 'TaxId' })],
    });
  });
  it('TaxId Validation answers valid: false (not a throw)', async () => {
    await expect(client.validateTaxId('PT', '123456780')).resolves.toEqual({ valid: false, requestId: expect.any(String) });
  });
  it.each([
    ['save-failed', 14],
    ['validation-error', 2],
  ] as const)('waybill create with an invalid tax id (sent unchecked): createFailure %s -> %d, a ServiceValidationError', async (createFailure, value) => {
    await admin(sandbox, 'POST', '/config', { createFailure });
    try {
      const unchecked = restClient(sandbox, OWNER, { validateLocally: false });
      const request = waybillRequest();
      request.Client.NIF = '123456780';
      const error = await unchecked.createWaybill(request).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceValidationError);
      expect(error).toMatchObject({ errorValue: { Value: value }, validationErrors: [expect.objectContaining({ Type: 'InvalidTaxId' })] });
    } finally {
      await admin(sandbox, 'POST', '/config', { createFailure: 'save-failed' });
    }
  });
});

describe('PartnershipNotFound (38): tokens for a company that is not a partner', () => {
  it('is an ApiError with the value and name', async () => {
    const error = await client.getPartnerAccessTokens('505123452', { password: 'sandbox-password' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ errorValue: { Value: 38, Name: 'PartnershipNotFound' } });
  });
});

describe('GeneralUnknownError (3): retried for safe calls only', () => {
  it('a GET is tried `attempts` times, then the error surfaces', async () => {
    await admin(sandbox, 'POST', '/config', { errorRate: 1 });
    const { transport, calls } = countingTransport();
    const retrying = restClient(sandbox, OWNER, { transport, retry: { attempts: 3 } });
    const error = await retrying.getDocumentProperty(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, errorValue: { Value: 3, Name: 'GeneralUnknownError' } });
    expect(calls).toEqual(['GET', 'GET', 'GET']);
  });
  it('a GET recovers from transient failures within its attempts', async () => {
    const created = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }));
    await admin(sandbox, 'POST', '/config', { errorRate: 0.5 });
    const { transport, calls } = countingTransport();
    const retrying = restClient(sandbox, OWNER, { transport, retry: { attempts: 12 } });
    for (let i = 0; i < 5; i += 1) {
      await expect(retrying.getDocumentProperty(created.documentId)).resolves.toMatchObject({ paymentStatus: 'Complete' });
    }
    // The sandbox's faults are seeded: some of those reads needed more than one request.
    expect(calls.length).toBeGreaterThan(5);
  });

  it('a create is sent once: it may have happened', async () => {
    await admin(sandbox, 'POST', '/config', { errorRate: 1 });
    const { transport, calls } = countingTransport();
    const retrying = restClient(sandbox, OWNER, { transport, retry: { attempts: 3 } });
    await expect(retrying.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }))).rejects.toBeInstanceOf(ApiError);
    expect(calls).toEqual(['POST']);
  });
  it('retry: false sends a GET once', async () => {
    await admin(sandbox, 'POST', '/config', { errorRate: 1 });
    const { transport, calls } = countingTransport();
    await expect(restClient(sandbox, OWNER, { transport, retry: false }).getDocument(1)).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });
});

describe('the service enforces the same field rules (local validation off): its tokens come back', () => {
  const unchecked = () => restClient(sandbox, OWNER, { validateLocally: false });
  const rows: [string, string, (r: ReturnType<typeof invoiceRequest>) => void][] = [
    ['DueDate not later than Date', 'DocumentDetailDueDate', (r) => (r.Document.DueDate = r.Document.Date)],
    ['Description of two characters', 'DocumentDetailDescription', (r) => (r.Document.Description = 'ab')],
    ['0% line without exemption code', 'DocumentDetailTaxExemptionReasonCode', (r) => (r.Document.Lines[0].TaxValue = 0)],
    ['credit note without DocumentReference', 'DocumentDetailDocumentReference', (r) => (r.Document.Type = 'C')],
    ['no lines', 'DocumentDetailLines', (r) => (r.Document.Lines = [])],
    ['invalid PostCode', 'ClientPostCode', (r) => (r.Client.PostCode = '1100')],
    ['country code not ISO', 'ClientCountryCode', (r) => (r.Client.CountryCode = 'UK')],
    ['Client.Name over 75', 'ClientName', (r) => (r.Client.Name = 'x'.repeat(76))],
    ['line Code over 60', 'LineCode', (r) => (r.Document.Lines[1].Code = 'x'.repeat(61))],
  ];
  it.each(rows)('%s -> Field %s', async (_name, field, breakIt) => {
    const request = invoiceRequest({ ExternalId: uniqueExternalId() });
    breakIt(request);
    const error = await unchecked().createDocument(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceValidationError);
    expect((error as ServiceValidationError).validationErrors.map((v) => v.Field)).toContain(field);
  });
  it('LoadDateTime before the waybill date -> DocumentDetailLoadDateTime', async () => {
    const request = waybillRequest({ LoadDateTime: '2026-11-19T10:00:00' });
    const error = await unchecked().createWaybill(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceValidationError);
    expect((error as ServiceValidationError).validationErrors.map((v) => v.Field)).toContain('DocumentDetailLoadDateTime');
  });
});

describe('bad input fails locally, before any request', () => {
  it('names the field path and element index; nothing is sent', async () => {
    const { transport, calls } = countingTransport();
    const checked = restClient(sandbox, OWNER, { transport });
    const request = invoiceRequest();
    request.Document.Lines[2].TaxValue = 'twenty';
    const error = await checked.createDocument(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalValidationError);
    expect((error as LocalValidationError).issues.map((i) => i.path)).toEqual(['Document.Lines[2].TaxValue']);
    expect(calls).toHaveLength(0);
  });
  it.each([
    ['getDocument(0)', 'documentId', (c: MagniFinanceClient) => c.getDocument(0)],
    ['getClient with bad country', 'countryCode', (c: MagniFinanceClient) => c.getClient('Portugal', '505123452')],
  ])('%s -> %s', async (_name, path, call) => {
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalValidationError);
    expect((error as LocalValidationError).issues[0].path).toBe(path);
  });
});

describe('timeouts and network failures are their own errors', () => {
  it('a slow service beyond the client timeout is a TransportTimeoutError', async () => {
    await admin(sandbox, 'POST', '/config', { latencyMs: 2000 });
    const impatient = restClient(sandbox, OWNER, { timeoutMs: 150, retry: false });
    const error = await impatient.getDocument(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 150 });
  });
  it('an answer that never comes (held connection) is a TransportTimeoutError, and a create is not repeated', async () => {
    await admin(sandbox, 'POST', '/config', { timeoutRate: 1, timeoutHoldMs: 5000 });
    const { transport, calls } = countingTransport();
    const impatient = restClient(sandbox, OWNER, { timeoutMs: 150, transport, retry: { attempts: 3 } });
    await expect(impatient.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }))).rejects.toBeInstanceOf(TransportTimeoutError);
    expect(calls).toEqual(['POST']);
  });
  it('a closed port is a TransportNetworkError (ECONNREFUSED)', async () => {
    const { startSandbox } = await import('../../sandbox/server');
    const gone = await startSandbox({ port: 0 });
    const baseUrl = gone.baseUrl;
    await gone.close();
    const error = await new MagniFinanceClient({ email: 'a@b.pt', token: 't', baseUrl, retry: false }).getDocument(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportNetworkError);
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
  });
  // The transport hands undici's dispatcher the origin and path itself: a base URL undici's own
  // request() refuses is refused the same way, before anything is sent.
  it.each([
    ['ftp://127.0.0.1:1/api', 'UND_ERR_INVALID_ARG'],
    ['file:///api', 'UND_ERR_INVALID_ARG'],
    ['not a url', 'ERR_INVALID_URL'],
    ['http://[::1/api', 'ERR_INVALID_URL'],
  ])('a base URL %s is a TransportNetworkError (%s)', async (baseUrl, code) => {
    const error = await new MagniFinanceClient({ email: 'a@b.pt', token: 't', baseUrl, retry: false }).getDocument(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportNetworkError);
    expect(error).toMatchObject({ code });
  });
});

describe('HTTP 429 with Retry-After (as a gateway in front of the service answers)', () => {
  /** The first answer is the gateway's 429; the rest reach the sandbox over HTTP. */
  function gatewayThen429(retryAfter: string): { transport: Transport; slept: number[] } {
    let first = true;
    const real = createUndiciTransport();
    const transport: Transport = async (request) => {
      if (!first) return real(request);
      first = false;
      return { status: 429, headers: { 'Retry-After': retryAfter, 'content-type': 'text/plain' }, body: 'Too Many Requests' };
    };
    return { transport, slept: [] };
  }

  it('the client waits the Retry-After seconds (not its own 300 ms step), then succeeds', async () => {
    await admin(sandbox, 'POST', '/config', { errorRate: 0 });
    const { transport, slept } = gatewayThen429('5');
    const retrying = restClient(sandbox, OWNER, { transport, retry: { attempts: 3 }, sleep: async (ms) => void slept.push(ms) });
    await expect(retrying.validateTaxId('PT', OWNER.taxId)).resolves.toMatchObject({ valid: true });
    expect(slept).toEqual([5_000]);
  });

  it('a create is retried after a 429 too (it was not processed), honouring Retry-After', async () => {
    const { transport, slept } = gatewayThen429('2');
    const retrying = restClient(sandbox, OWNER, { transport, retry: { attempts: 2 }, sleep: async (ms) => void slept.push(ms) });
    await expect(retrying.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }))).resolves.toMatchObject({ documentId: expect.any(Number) });
    expect(slept).toEqual([2_000]);
  });

  it('out of attempts: a RateLimitError carrying the Retry-After', async () => {
    const { transport } = gatewayThen429('7');
    const error = await restClient(sandbox, OWNER, { transport, retry: false }).validateTaxId('PT', OWNER.taxId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfter: '7' });
  });
});
