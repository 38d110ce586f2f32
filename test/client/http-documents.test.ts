import { computeTotals, DocumentType, ElementDoesNotExistError, MagniFinanceClient, money, ServiceValidationError } from '../../client';
import type { RunningSandbox } from '../../sandbox/server';
import { invoiceRequest, waybillRequest } from './requests';
import { admin, AT_ACCOUNT, outbox, passFinalizeDelay, restClient, startTestSandbox, uniqueExternalId } from './sandbox-harness';

let sandbox: RunningSandbox;
let client: MagniFinanceClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = restClient(sandbox);
});
afterAll(() => sandbox.close());

describe('state table: (none) -> Draft with IsToClose=false', () => {
  it('returns a DocumentId; the draft has no number and no PDF', async () => {
    const created = await client.createDocument({ ...invoiceRequest({ ExternalId: uniqueExternalId() }), IsToClose: false });
    expect(created.documentId).toBeGreaterThan(0);
    expect(created.requestId).toEqual(expect.any(String));
    await passFinalizeDelay(sandbox);
    const read = await client.getDocument(created.documentId);
    expect(read.details.document.DocumentStatusId).toBe('D');
    expect(read.documentNumber).toBeUndefined();
    expect(read.downloadUrl).toBeUndefined();
  });
});

describe('state table: (none) -> Closed with IsToClose=true', () => {
  it('number and PDF come from Get Document once the finalize delay has passed', async () => {
    const request = invoiceRequest({ ExternalId: uniqueExternalId() });
    request.SendTo = 'cliente@example.com';
    const created = await client.createDocument(request);

    // Read too early, the service answers 6 ElementDoesNotExist (its error list's description).
    await expect(client.getDocument(created.documentId)).rejects.toBeInstanceOf(ElementDoesNotExistError);

    await passFinalizeDelay(sandbox);
    const read = await client.getDocument(created.documentId);
    expect(read.details.document.DocumentStatusId).toBe('C');
    expect(read.documentNumber).toMatch(/\S/);
    expect(read.downloadUrl).toMatch(/^http/);

    const pdf = await fetch(read.downloadUrl!);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('the total is the documented totals rule, read exactly from decimal-comma text', async () => {
    // Type I (invoice): unlike T (invoice/receipt) it is not paid at issue.
    const request = invoiceRequest({ Type: 'I', ExternalId: uniqueExternalId() });
    const created = await client.createDocument(request);
    await passFinalizeDelay(sandbox);
    const read = await client.getDocument(created.documentId);
    const expected = computeTotals(request.Document.Lines);
    expect(money.compare(read.totalAmount!, expected.amount)).toBe(0);
    expect(read.paymentStatus).toBe('NoPayment');
    expect(money.compare(read.unpaidAmount!, expected.amount)).toBe(0);
  });

  it('SendTo gets the notification e-mail on closing', async () => {
    const request = invoiceRequest({ ExternalId: uniqueExternalId() });
    request.SendTo = 'notify-me@example.com';
    const created = await client.createDocument(request);
    const emails = await outbox(sandbox, 'notify-me@example.com');
    expect(emails.map((e) => e.documentId)).toContain(created.documentId);
  });

  it.each(['T', 'I', 'S', 'C', 'D'] as DocumentType[])('type %s is created and numbered', async (type) => {
    const reference = type === 'C' || type === 'D' ? { DocumentReference: 'FR A/1' } : {};
    const created = await client.createDocument(invoiceRequest({ Type: type, ExternalId: uniqueExternalId(), ...reference }));
    await passFinalizeDelay(sandbox);
    const read = await client.getDocument(created.documentId);
    expect(read.details.document.Type).toBe(type);
    expect(read.documentNumber).toMatch(/\S/);
  });
});

describe('state table: Draft -> Draft with Id and IsToClose=false', () => {
  it('updates the draft data', async () => {
    const externalId = uniqueExternalId();
    const draft = await client.saveDraft(invoiceRequest({ ExternalId: externalId, Description: 'First version' }));
    const updated = await client.updateDraft(draft.documentId, invoiceRequest({ ExternalId: externalId, Description: 'Second version' }));
    expect(updated.documentId).toBe(draft.documentId);
    const read = await client.getDocument(draft.documentId);
    expect(read.details.document.DocumentStatusId).toBe('D');
    expect(read.details.document.Description).toBe('Second version');
  });
});

describe('state table: Draft -> Closed with Id and IsToClose=true', () => {
  it('closes the draft: it gets a number', async () => {
    const externalId = uniqueExternalId();
    const draft = await client.saveDraft(invoiceRequest({ ExternalId: externalId }));
    const closed = await client.closeDraft(draft.documentId, invoiceRequest({ ExternalId: externalId }));
    expect(closed.documentId).toBe(draft.documentId);
    await passFinalizeDelay(sandbox);
    const read = await client.getDocument(draft.documentId);
    expect(read.details.document.DocumentStatusId).toBe('C');
    expect(read.documentNumber).toMatch(/\S/);
  });
});

describe('state table: Closed -> Canceled by Cancel Document', () => {
  it('cancels a closed document; status A, text Cancelled', async () => {
    const created = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }));
    await client.cancelDocument(created.documentId);
    await passFinalizeDelay(sandbox);
    const read = await client.getDocument(created.documentId);
    expect(read.details.document.DocumentStatusId).toBe('A');
    expect(read.details.document.DocumentStatus).toBe('Cancelled');
  });

  it('is irreversible: a second cancel is refused', async () => {
    const created = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }));
    await client.cancelDocument(created.documentId);
    await expect(client.cancelDocument(created.documentId)).rejects.toBeInstanceOf(ServiceValidationError);
  });
});

describe('only documents that are not closed can be edited; only Closed ones cancelled', () => {
  it('updating a closed document by Id is refused', async () => {
    const externalId = uniqueExternalId();
    const created = await client.createDocument(invoiceRequest({ ExternalId: externalId }));
    const attempt = client.updateDraft(created.documentId, invoiceRequest({ ExternalId: externalId }));
    await expect(attempt).rejects.toBeInstanceOf(ServiceValidationError);
    await expect(attempt).rejects.toMatchObject({ validationErrors: [expect.objectContaining({ Field: 'DocumentDetailId' })] });
  });

  it('cancelling a draft is refused', async () => {
    const draft = await client.saveDraft(invoiceRequest({ ExternalId: uniqueExternalId() }));
    await expect(client.cancelDocument(draft.documentId)).rejects.toBeInstanceOf(ServiceValidationError);
  });
});

describe('Get Document Property: payment status and unpaid amount', () => {
  it('an invoice/receipt (T) is paid at issue', async () => {
    const created = await client.createDocument(invoiceRequest({ Type: 'T', ExternalId: uniqueExternalId() }));
    const read = await client.getDocumentProperty(created.documentId);
    expect(read.paymentStatus).toBe('Complete');
    expect(money.isZero(read.unpaidAmount!)).toBe(true);
  });

  it('an invoice (I): NoPayment -> Incomplete -> Complete as payments are recorded', async () => {
    const request = invoiceRequest({ Type: 'I', ExternalId: uniqueExternalId() });
    const created = await client.createDocument(request);
    const total = computeTotals(request.Document.Lines).amount;

    const before = await client.getDocumentProperty(created.documentId);
    expect(before.paymentStatus).toBe('NoPayment');

    await admin(sandbox, 'POST', '/payments', { documentId: created.documentId, amount: '10.00' });
    const partly = await client.getDocumentProperty(created.documentId);
    expect(partly.paymentStatus).toBe('Incomplete');
    expect(money.compare(partly.unpaidAmount!, money.subtract(total, money.parseDecimal('10.00')))).toBe(0);

    await admin(sandbox, 'POST', '/payments', { documentId: created.documentId, amount: money.formatDecimal(money.subtract(total, money.parseDecimal('10.00'))) });
    const paid = await client.getDocumentProperty(created.documentId);
    expect(paid.paymentStatus).toBe('Complete');
    expect(money.isZero(paid.unpaidAmount!)).toBe(true);
  });
});

describe('Create Waybill: W and Y', () => {
  it.each(['W', 'Y'] as const)('type %s is created closed with its number', async (type) => {
    const created = await client.createWaybill(waybillRequest({ Type: type, ExternalId: uniqueExternalId('wb') }));
    expect(created.documentId).toBeGreaterThan(0);
    await passFinalizeDelay(sandbox);
    const read = await client.getDocument(created.documentId);
    expect(read.details.document.Type).toBe(type);
    expect(read.details.document.LoadDateTime).toMatch(/^2026-11-20T15:30:00/);
    expect(read.details.document.LoadAddress?.City).toBe('Porto');
  });

  it('an account with tax-authority communication gets an ATCode', async () => {
    const atClient = restClient(sandbox, AT_ACCOUNT);
    const created = await atClient.createWaybill(waybillRequest({ ExternalId: uniqueExternalId('wb') }));
    expect(created.documentId).toBeGreaterThan(0);
    await passFinalizeDelay(sandbox);
    const read = await atClient.getDocument(created.documentId);
    expect(JSON.stringify(read.raw)).toMatch(/ATCode/);
  });
});

describe('Client Get and TaxId Validation', () => {
  it('Client Get returns the registered company data', async () => {
    const company = await client.getClient('PT', '505123452');
    expect(company.Name).toBe('Livraria Atlântica');
    expect(company.PostCode).toBe('4000-447');
  });
  it.each([
    ['PT', '505123452', true],
    ['PT', '999999990', true],
    ['PT', '505123453', false],
    ['ES', 'B12345678', true],
  ])('TaxId Validation %s %s -> valid %s', async (country, taxId, valid) => {
    await expect(client.validateTaxId(country, taxId)).resolves.toMatchObject({ valid });
  });
});

describe('decimals reach the service verbatim (no float round-trip)', () => {
  it('text decimals arrive as the same number literals', async () => {
    const request = invoiceRequest({ ExternalId: uniqueExternalId('exact') });
    request.Document.Lines[0].UnitPrice = '8.130081300813008130';
    request.Document.Lines[0].Quantity = '3.000';
    const created = await client.createDocument(request);
    const { body } = await admin<{ documents: { id: number; document: { Lines: { UnitPrice: string; Quantity: string }[] } }[] }>(
      sandbox,
      'GET',
      '/documents',
    );
    const stored = body.documents.find((d) => d.id === created.documentId);
    // 20 significant digits: a float round-trip would have cut it to 8.130081300813008.
    const line = stored!.document.Lines[0];
    expect(money.compare(money.parseDecimal(line.UnitPrice), money.parseDecimal('8.130081300813008130'))).toBe(0);
    expect(money.compare(money.parseDecimal(line.Quantity), money.parseDecimal('3'))).toBe(0);
  });
});
