import { createServer } from 'node:net';

import type { NodeApiError, NodeOperationError, INodeParameters } from 'n8n-workflow';

import { addDays, todayIn } from '../../nodes/MagniFinance/helpers/dates';
import { n8nErrors, runNode } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';

let s: NodeSandbox;
beforeAll(async () => {
  s = await startNodeSandbox();
});
afterAll(async () => {
  await s.close();
});

const today = todayIn('Europe/Lisbon');

/** A port that was just free: nothing listens there, so a connection is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
const mugLine = { Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 1, TaxValue: 23 };
const invoice = (extra: INodeParameters = {}): INodeParameters => ({
  resource: 'document',
  operation: 'create',
  clientName: 'Maria Silva',
  lines: { line: [mugLine] },
  ...extra,
});

async function failure(parameters: INodeParameters, credentials = s.credentials) {
  const requests: unknown[] = [];
  try {
    const result = await runNode({ credentials, parameters });
    requests.push(...result.requests);
  } catch (error) {
    return { error, requests };
  }
  throw new Error('expected the node to fail');
}

describe('local validation fails with the field name before any request', () => {
  it.each([
    { case: 'invalid Portuguese NIF', parameters: invoice({ clientTaxId: '123456780' }), field: 'Client Tax ID (Client.NIF)' },
    { case: 'empty client name', parameters: invoice({ clientName: '' }), field: 'Client Name (Client.Name)' },
    { case: 'due date not after date', parameters: invoice({ date: `${today}T00:00:00`, dueDate: `${today}T00:00:00` }), field: 'Due Date (Document.DueDate)' },
    {
      case: '0% line without exemption code',
      parameters: invoice({ lines: { line: [{ ...mugLine, TaxValue: 0 }] } }),
      field: 'Tax Exemption Reason Code (Document.TaxExemptionReasonCode)',
    },
    {
      case: 'credit note without reference',
      parameters: invoice({ documentType: 'C' }),
      field: 'Document Reference (Document.DocumentReference)',
    },
    {
      case: 'JSON line with a non-decimal price',
      parameters: invoice({ linesInput: 'json', linesJson: JSON.stringify([{ ...mugLine, Unit: 'UN', Type: 'P', ProductDiscount: 0, UnitPrice: 'ten' }]) }),
      field: 'Lines > line 1 > Unit Price (Document.Lines[0].UnitPrice)',
    },
    { case: 'no lines at all', parameters: invoice({ lines: {} }), field: 'Lines (Document.Lines)' },
    {
      case: 'waybill loaded before its date',
      parameters: {
        resource: 'waybill',
        operation: 'create',
        clientName: 'Loja',
        date: today,
        loadDateTime: `${addDays(today, -1)}T10:00:00`,
        loadAddress: { address: { address: 'Rua A 1', city: 'Lisboa', postalCode: '1100-053' } },
        destinationAddress: { address: { address: 'Rua B 2', city: 'Porto', postalCode: '4000-001' } },
        lines: { line: [mugLine] },
      },
      field: 'Load Date and Time (Waybill.LoadDateTime)',
    },
    { case: 'document id 0', parameters: { resource: 'document', operation: 'get', documentId: 0 }, field: 'Document ID (documentId)' },
    { case: 'tax id with symbols', parameters: { resource: 'taxId', operation: 'validate', countryCode: 'PT', taxId: '50-94' }, field: 'Tax ID (taxId)' },
    { case: 'unknown country code', parameters: { resource: 'client', operation: 'get', countryCode: 'XX', taxId: '509442013' }, field: 'Country Code (countryCode)' },
  ])('$case -> names "$field"', async ({ parameters, field }) => {
    const { error, requests } = await failure(parameters);
    expect(error).toBeInstanceOf(n8nErrors.NodeOperationError);
    expect((error as NodeOperationError).message).toContain(field);
    expect(requests).toHaveLength(0);
  });

  it.each([
    { case: 'lines JSON that is not JSON', linesJson: '[{"Code": ', message: 'Lines (JSON) is not valid JSON' },
    { case: 'lines JSON that is not an array', linesJson: '{"Code": "A"}', message: 'Lines (JSON) must be a JSON array of line objects' },
  ])('$case', async ({ linesJson, message }) => {
    const { error } = await failure(invoice({ linesInput: 'json', linesJson }));
    expect(error).toBeInstanceOf(n8nErrors.NodeOperationError);
    expect((error as Error).message).toBe(message);
  });
});

describe('service errors become NodeApiError with the service message, error value and validation errors', () => {
  it('unknown document: ElementDoesNotExist (6)', async () => {
    const { error } = await failure({ resource: 'document', operation: 'get', documentId: 987654 });
    expect(error).toBeInstanceOf(n8nErrors.NodeApiError);
    const apiError = error as NodeApiError;
    expect(apiError.message).toContain('ElementDoesNotExist (6)');
    expect(apiError.httpCode).toBe('404');
    expect(apiError.context.errorValue).toEqual({ Value: 6, Name: 'ElementDoesNotExist' });
    expect(apiError.description).toContain('Error value: ElementDoesNotExist (6)');
    expect(apiError.description).toMatch(/Request ID: \S+/);
  });

  it('a date before the series\' latest closed document: the validation error in the error', async () => {
    // Series "Z9" has a closed document dated tomorrow; today's is then refused by the service.
    const tomorrow = addDays(today, 1);
    await runNode({ credentials: s.credentials, parameters: invoice({ date: tomorrow, dueDate: addDays(tomorrow, 30), additionalFields: { Serie: 'Z9' } }) });
    const { error } = await failure(invoice({ additionalFields: { Serie: 'Z9' } }));
    expect(error).toBeInstanceOf(n8nErrors.NodeApiError);
    const apiError = error as NodeApiError;
    expect(apiError.message).toContain('MustBePosteriorToMostCurrentClosedDocument');
    expect(apiError.context.validationErrors).toEqual(
      expect.arrayContaining([expect.objectContaining({ Type: 'MustBePosteriorToMostCurrentClosedDocument', Field: 'DocumentDetailDate' })]),
    );
    expect(apiError.description).toContain('Validation: DocumentDetailDate');
  });

  it('cancelling a draft is refused by the service', async () => {
    const draft = await runNode({ credentials: s.credentials, parameters: invoice({ isToClose: false }) });
    const documentId = draft.output[0][0].json.documentId as number;
    const { error } = await failure({ resource: 'document', operation: 'cancel', documentId });
    expect(error).toBeInstanceOf(n8nErrors.NodeApiError);
    expect((error as NodeApiError).context.errorValue).toEqual(expect.objectContaining({ Name: expect.any(String) }));
  });

  it('a wrong token: HTTP 401 named as refused credentials', async () => {
    const { error } = await failure(
      { resource: 'taxId', operation: 'validate', countryCode: 'PT', taxId: '509442013' },
      { ...s.credentials, token: 'wrong' },
    );
    expect(error).toBeInstanceOf(n8nErrors.NodeApiError);
    expect((error as NodeApiError).httpCode).toBe('401');
    expect((error as Error).message).toContain('MagniFinance refused the e-mail or token');
  });

  it('a service that cannot be reached: NodeApiError with the socket code', async () => {
    const { error } = await failure(invoice(), { ...s.credentials, baseUrl: `http://127.0.0.1:${await closedPort()}/api/v1.1` });
    expect(error).toBeInstanceOf(n8nErrors.NodeApiError);
    expect((error as NodeApiError).httpCode).toBe('ECONNREFUSED');
    expect((error as Error).message).toMatch(/refused the connection/);
  });
});

describe('every item runs in its own try/catch; continueOnFail keeps paired items', () => {
  const perItem: INodeParameters = invoice({ clientTaxId: '={{ $json.nif }}', clientName: '={{ $json.name }}' });
  const items = [
    { json: { name: 'Ana', nif: '999999990' } },
    { json: { name: 'Bruno', nif: '123456780' } },
    { json: { name: 'Carla', nif: '509442013' } },
  ];

  it('with continueOnFail the bad item becomes an error item and the others are created', async () => {
    const { output, requests } = await runNode({ credentials: s.credentials, parameters: perItem, items, continueOnFail: true });
    expect(output[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
    expect(output[0][0].json.documentId).toEqual(expect.any(Number));
    expect(output[0][1].json).toMatchObject({ error: expect.stringContaining('Client Tax ID (Client.NIF)') });
    expect(output[0][1].json.documentId).toBeUndefined();
    expect(output[0][2].json.documentId).toEqual(expect.any(Number));
    expect(requests).toHaveLength(2);
  });

  it('service errors in continueOnFail items carry error value and validation errors', async () => {
    const { output } = await runNode({
      credentials: s.credentials,
      parameters: { resource: 'document', operation: 'get', documentId: '={{ $json.id }}' },
      items: [{ json: { id: 424242 } }],
      continueOnFail: true,
    });
    expect(output[0][0]).toMatchObject({
      pairedItem: { item: 0 },
      json: {
        error: expect.stringContaining('ElementDoesNotExist'),
        httpCode: '404',
        errorValue: { Value: 6, Name: 'ElementDoesNotExist' },
        validationErrors: [expect.objectContaining({ Field: 'DocumentId' })],
        requestId: expect.any(String),
      },
    });
  });

  it('without continueOnFail the first failure stops the node and names its item', async () => {
    let thrown: unknown;
    try {
      await runNode({ credentials: s.credentials, parameters: perItem, items });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(n8nErrors.NodeOperationError);
    expect((thrown as NodeOperationError).context.itemIndex).toBe(1);
  });
});

describe('reads are retried through n8n\'s request helper, creates are not', () => {
  let flaky: NodeSandbox;
  beforeAll(async () => {
    flaky = await startNodeSandbox({ errorRate: 1 });
  });
  afterAll(async () => {
    await flaky.close();
  });

  it.each([
    { case: 'tax ID validation (a read)', parameters: { resource: 'taxId', operation: 'validate', countryCode: 'PT', taxId: '509442013' }, attempts: 3 },
    { case: 'document create (could issue twice)', parameters: invoice(), attempts: 1 },
  ])('$case: $attempts attempt(s), then GeneralUnknownError', async ({ parameters, attempts }) => {
    const { output, requests } = await runNode({ credentials: flaky.credentials, parameters, continueOnFail: true });
    expect(requests).toHaveLength(attempts);
    expect(output[0][0].json).toMatchObject({ errorValue: { Value: 3, Name: 'GeneralUnknownError' } });
  });
});
