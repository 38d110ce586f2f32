import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { todayIn } from '../../nodes/MagniFinance/helpers/dates';
import { runNode } from './support/n8n-harness';
import { DEMO, startNodeSandbox, type NodeSandbox } from './support/sandbox';

let s: NodeSandbox;
beforeAll(async () => {
  s = await startNodeSandbox();
});
afterAll(async () => {
  await s.close();
});

const today = todayIn('Europe/Lisbon');

const mugLines = { line: [{ Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 2, TaxValue: 23 }] };

async function run(parameters: INodeParameters, items?: IDataObject[]) {
  const { output, requests } = await runNode({
    credentials: s.credentials,
    parameters,
    ...(items ? { items: items.map((json) => ({ json })) } : {}),
  });
  return { items: output[0].map((item) => item.json), requests };
}

async function createInvoice(extra: INodeParameters = {}): Promise<number> {
  const { items } = await run({ resource: 'document', operation: 'create', clientName: 'Maria Silva', lines: mugLines, ...extra });
  return items[0].documentId as number;
}

describe('Document > Create sends the spec request and returns the document id', () => {
  it.each([
    { type: 'T', label: 'invoice-receipt', extra: {} },
    { type: 'I', label: 'invoice', extra: {} },
    { type: 'S', label: 'simplified invoice', extra: {} },
  ])('$label ($type) from the fixed collection of lines', async ({ type, extra }) => {
    const { items, requests } = await run({
      resource: 'document',
      operation: 'create',
      documentType: type,
      clientName: 'Maria Silva',
      clientTaxId: '999999990',
      lines: mugLines,
      ...extra,
    });
    expect(items[0]).toMatchObject({ documentId: expect.any(Number), closed: true });
    const body = JSON.parse(requests[0].body ?? '{}');
    expect(body).toMatchObject({
      IsToClose: true,
      Client: { Name: 'Maria Silva', NIF: '999999990', CountryCode: 'PT' },
      Document: {
        Type: type,
        Date: today,
        Lines: [{ Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 2, Unit: 'UN', Type: 'P', TaxValue: 23, ProductDiscount: 0 }],
      },
    });
    expect(body.Document.DueDate > body.Document.Date).toBe(true);
  });

  it('takes lines as JSON from the previous node, keeping decimal text exact', async () => {
    const lines = [
      { code: 'TEA', description: 'Chá verde', unitPrice: '3.3333', quantity: '3', unit: 'UN', type: 'P', taxValue: 13, productDiscount: '0' },
      { Code: 'SHIP', Description: 'Portes', UnitPrice: 4.07, Quantity: 1, Unit: 'UN', Type: 'S', TaxValue: 23, ProductDiscount: 0 },
    ];
    const { items, requests } = await run(
      { resource: 'document', operation: 'create', clientName: '={{ $json.name }}', linesInput: 'json', linesJson: '={{ $json.lines }}' },
      [{ name: 'João Sousa', lines }],
    );
    expect(items[0].documentId).toEqual(expect.any(Number));
    // Written verbatim: "3.3333" never became 3.3332999999999999.
    expect(requests[0].body).toContain('"UnitPrice":3.3333');
    expect(requests[0].body).toContain('"Name":"João Sousa"');
    const got = await run({ resource: 'document', operation: 'get', documentId: items[0].documentId as number });
    // 3 × 3.3333 = 9.9999 -> 10.00 net + 13% = 1.30; 4.07 + 23% = 0.94 -> 10 + 1.30 + 4.07 + 0.94
    expect(got.items[0].totalAmount).toBe('16.31');
  });

  it('JSON lines get the form\'s defaults for Unit and Discount: the same line sent either way is the same', async () => {
    const line = { Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 2, Type: 'P', TaxValue: 23 };
    const fromJson = await run(
      { resource: 'document', operation: 'create', clientName: 'Maria Silva', linesInput: 'json', linesJson: '={{ $json.lines }}' },
      [{ lines: [line] }],
    );
    const fromForm = await run({ resource: 'document', operation: 'create', clientName: 'Maria Silva', lines: { line: [line] } });
    const sentLines = (body: string | undefined) => (JSON.parse(body ?? '{}') as { Document: { Lines: unknown[] } }).Document.Lines;
    expect(sentLines(fromJson.requests[0].body)).toEqual([{ ...line, Unit: 'UN', ProductDiscount: 0 }]);
    expect(sentLines(fromJson.requests[0].body)).toEqual(sentLines(fromForm.requests[0].body));
  });

  it('saves a draft when Close Document is off, and the draft has no number', async () => {
    const { items } = await run({ resource: 'document', operation: 'create', clientName: 'Maria Silva', lines: mugLines, isToClose: false });
    expect(items[0]).toMatchObject({ closed: false });
    const got = await run({ resource: 'document', operation: 'get', documentId: items[0].documentId as number });
    expect(got.items[0]).toMatchObject({ statusId: 'D', documentNumber: null, downloadUrl: null });
  });

  it('sends the additional fields under their spec names and SendTo beside Document', async () => {
    const { requests } = await run({
      resource: 'document',
      operation: 'create',
      clientName: 'Maria Silva',
      clientDetails: { email: 'maria@example.com', postalCode: '1100-053', city: 'Lisboa' },
      lines: mugLines,
      additionalFields: { ExternalId: 'order-1001', Description: 'Encomenda 1001', SendTo: 'maria@example.com', Currency: 'usd', EuroRate: 0.92 },
    });
    const body = JSON.parse(requests[0].body ?? '{}');
    expect(body.SendTo).toBe('maria@example.com');
    expect(body.Client).toMatchObject({ Email: 'maria@example.com', PostCode: '1100-053', City: 'Lisboa' });
    expect(body.Document).toMatchObject({ ExternalId: 'order-1001', Description: 'Encomenda 1001', Currency: 'USD', EuroRate: 0.92 });
    expect(body.Document.SendTo).toBeUndefined();
  });
});

describe('Document > Get returns number, PDF link, status and exact amounts', () => {
  it('reads a closed invoice-receipt', async () => {
    const documentId = await createInvoice();
    const { items } = await run({ resource: 'document', operation: 'get', documentId });
    expect(items[0]).toMatchObject({
      documentId,
      documentNumber: expect.stringMatching(/\S+/),
      downloadUrl: expect.stringMatching(/^http/),
      status: 'Closed',
      statusId: 'C',
      type: 'T',
      totalAmount: '24.60',
    });
    expect(items[0].details).toMatchObject({ receiver: { Name: 'Maria Silva' } });
  });
});

describe('Document > Get Payment Status follows payments', () => {
  it.each([
    { paid: null, status: 'NoPayment', unpaid: '24.60', isPaid: false },
    { paid: '10.00', status: 'Incomplete', unpaid: '14.60', isPaid: false },
    { paid: '24.60', status: 'Complete', unpaid: '0.00', isPaid: true },
  ])('invoice of 24.60 with $paid paid -> $status', async ({ paid, status, unpaid, isPaid }) => {
    const documentId = await createInvoice({ documentType: 'I' });
    if (paid) expect((await s.admin('POST', '/payments', { documentId, amount: paid })).status).toBe(200);
    const { items } = await run({ resource: 'document', operation: 'getPaymentStatus', documentId });
    expect(items[0]).toMatchObject({ documentId, paymentStatus: status, unpaidAmount: unpaid, totalAmount: '24.60', isPaid });
  });
});

describe('Document > Cancel cancels a closed document', () => {
  it('cancels, and Get then shows the cancellation', async () => {
    const documentId = await createInvoice();
    const { items, requests } = await run({ resource: 'document', operation: 'cancel', documentId });
    expect(items[0]).toEqual({ documentId, cancelled: true });
    expect(requests[0].method).toBe('PATCH');
    const got = await run({ resource: 'document', operation: 'get', documentId });
    expect(got.items[0].statusId).toBe('A');
  });
});

describe('Waybill > Create sends addresses and load time', () => {
  it.each([
    { type: 'W', vehicle: 'AA-00-BB' },
    { type: 'Y', vehicle: undefined },
  ])('type $type', async ({ type, vehicle }) => {
    const { items, requests } = await run({
      resource: 'waybill',
      operation: 'create',
      waybillType: type,
      clientName: 'Loja do Porto',
      loadDateTime: `${today}T18:30`,
      loadAddress: { address: { address: 'Rua Augusta 100', city: 'Lisboa', postalCode: '1100-053', countryCode: 'pt' } },
      destinationAddress: { address: { address: 'Rua de Santa Catarina 1', city: 'Porto', postalCode: '4000-447' } },
      lines: mugLines,
      additionalFields: vehicle ? { VehicleLicence: vehicle } : {},
    });
    expect(items[0]).toMatchObject({ documentId: expect.any(Number), closed: true });
    const body = JSON.parse(requests[0].body ?? '{}');
    expect(body.Waybill).toMatchObject({
      Type: type,
      Date: today,
      LoadDateTime: `${today}T18:30:00`,
      LoadAddress: { AddressDetail: 'Rua Augusta 100', City: 'Lisboa', PostalCode: '1100-053', CountryCode: 'PT' },
      DestinationAddress: { City: 'Porto', PostalCode: '4000-447', CountryCode: 'PT' },
    });
    expect(body.Waybill.VehicleLicence).toBe(vehicle);
  });
});

describe('Partner > Add and Get Access Tokens', () => {
  it('adds a partner and then reads its token', async () => {
    const added = await run({
      resource: 'partner',
      operation: 'add',
      companyTaxId: '501964843',
      partnerFields: { contactName: 'Ana Costa', contactEmail: 'ana@example.com', companyCountryCode: 'PT' },
    });
    expect(added.items[0]).toMatchObject({ companyTaxId: '501964843', requestId: expect.any(String) });
    expect(JSON.parse(added.requests[0].body ?? '{}')).toEqual({
      CompanyTaxId: '501964843',
      UserName: 'Ana Costa',
      UserEmail: 'ana@example.com',
      CompanyCountry: 'PT',
    });
    const tokens = await run({ resource: 'partner', operation: 'getAccessTokens', partnerTaxId: '501964843', mainUserPassword: 'sandbox-password' });
    expect(tokens.items).toEqual([expect.objectContaining({ partnerTaxId: '501964843', token: expect.stringMatching(/\S+/), description: expect.stringContaining('501964843') })]);
    expect(tokens.requests.at(-1)).toMatchObject({ method: 'GET', url: expect.stringContaining('/partner/accessTokens?partnerTaxId=501964843') });
    const spec = await run({ resource: 'partner', operation: 'getAccessTokens', partnerTaxId: '501964843', tokensEndpoint: 'spec' });
    expect(spec.items).toEqual([expect.objectContaining({ partnerTaxId: '501964843', token: tokens.items[0].token })]);
    expect(spec.requests.at(-1)).toMatchObject({ url: expect.stringContaining('/partner/tokens?taxId=501964843') });
  });
});

describe('Client > Get returns the registered company data', () => {
  it('reads the demo company', async () => {
    const { items } = await run({ resource: 'client', operation: 'get', countryCode: 'PT', taxId: DEMO.taxId });
    expect(items[0]).toMatchObject({ NIF: DEMO.taxId, Name: expect.stringMatching(/\S+/), CountryCode: 'PT' });
  });
});

describe('Tax ID > Validate answers valid or not, per item', () => {
  it('one output item per input item, invalid is an answer not an error', async () => {
    const { items } = await run(
      { resource: 'taxId', operation: 'validate', countryCode: 'PT', taxId: '={{ $json.nif }}' },
      [{ nif: '509442013' }, { nif: '123456780' }, { nif: '999999990' }],
    );
    expect(items.map((i) => [i.taxId, i.valid])).toEqual([
      ['509442013', true],
      ['123456780', false],
      ['999999990', true],
    ]);
  });
});
