import {
  ApiError,
  AuthenticationError,
  DocumentDuplicateError,
  ElementDoesNotExistError,
  LocalValidationError,
  MagniFinanceClient,
  MagniFinanceSoapClient,
  ServiceValidationError,
} from '../../client';
import type { RunningSandbox } from '../../sandbox/server';
import { invoiceRequest, waybillRequest } from './requests';
import { admin, OWNER, passFinalizeDelay, restClient, soapClient, startTestSandbox, uniqueExternalId } from './sandbox-harness';

let sandbox: RunningSandbox;
let rest: MagniFinanceClient;
let soap: MagniFinanceSoapClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  rest = restClient(sandbox);
  soap = soapClient(sandbox);
});
afterAll(() => sandbox.close());
afterEach(() => admin(sandbox, 'POST', '/config', { errorRate: 0 }));

/** What must match between a REST-made and a SOAP-made document (ids and ExternalId differ). */
async function comparable(documentId: number) {
  const read = await rest.getDocument(documentId);
  const { Id: _id, ExternalId: _externalId, ...document } = read.details.document;
  return { status: document.DocumentStatusId, type: document.Type, lines: document.Lines, totals: read.details.totals, total: read.totalAmount };
}

describe('REST and SOAP give the same results for the same input', () => {
  it.each([
    ['closed invoice/receipt', {}, true],
    ['closed credit note', { Type: 'C' as const, DocumentReference: 'FR A/1' }, true],
    ['draft invoice', { Type: 'I' as const }, false],
    ['0% line with exemption', { TaxExemptionReasonCode: 'M07', Lines: [{ Code: 'EXP', Description: 'Export', UnitPrice: '99.99', Quantity: '3', Unit: 'un', Type: 'P' as const, TaxValue: '0', ProductDiscount: '5' }] }, true],
  ])('%s', async (_name, overrides, close) => {
    const viaRest = await rest.createDocument({ ...invoiceRequest({ ...overrides, ExternalId: uniqueExternalId('rest') }), IsToClose: close });
    const viaSoap = await soap.documentCreate({ ...invoiceRequest({ ...overrides, ExternalId: uniqueExternalId('soap') }), IsToClose: close });
    expect(viaSoap).toEqual({ documentId: expect.any(Number), errorMessage: null, requestId: expect.any(String) });
    await passFinalizeDelay(sandbox);
    const [a, b] = [await comparable(viaSoap.documentId), await comparable(viaRest.documentId)];
    expect(a.totals.AmountText).toMatch(/\d,\d\d$/);
    expect(a).toEqual(b);
  });

  it('SOAP 1.2 (application/soap+xml) works the same', async () => {
    const soap12 = soapClient(sandbox, OWNER, { soapVersion: '1.2' });
    const created = await soap12.documentCreate(invoiceRequest({ ExternalId: uniqueExternalId('soap12') }));
    await expect(rest.getDocumentProperty(created.documentId)).resolves.toMatchObject({ details: { document: expect.objectContaining({ DocumentStatusId: 'C' }) } });
  });

  it('SOAP WaybillCreate gives the same kind of result as REST', async () => {
    const viaRest = await rest.createWaybill(waybillRequest({ ExternalId: uniqueExternalId('rest-wb') }));
    const viaSoap = await soap.waybillCreate(waybillRequest({ ExternalId: uniqueExternalId('soap-wb') }));
    expect(Object.keys(viaSoap).sort()).toEqual(Object.keys(viaRest).sort());
    expect(viaSoap.documentNumber).toMatch(/\S/);
  });

  it('SOAP DocumentGet reads what REST Get Document reads', async () => {
    const created = await soap.documentCreate(invoiceRequest({ ExternalId: uniqueExternalId('soap-get') }));
    await passFinalizeDelay(sandbox);
    const viaRest = await rest.getDocument(created.documentId);
    const viaSoap = await soap.documentGet(created.documentId);
    expect(viaSoap.documentNumber).toBe(viaRest.documentNumber);
    expect(viaSoap.totalAmount).toEqual(viaRest.totalAmount);
    expect(viaSoap.paymentStatus).toBe(viaRest.paymentStatus);
    expect(viaSoap.details.document.DocumentStatusId).toBe('C');
    expect(viaSoap.details.totals.AmountText).toBe(viaRest.details.totals.AmountText);
  });

  it('SOAP DocumentCancel cancels like REST', async () => {
    const created = await soap.documentCreate(invoiceRequest({ ExternalId: uniqueExternalId('soap-cancel') }));
    await soap.documentCancel(created.documentId);
    const read = await rest.getDocument(created.documentId);
    expect(read.details.document.DocumentStatus).toBe('Cancelled');
  });

  it('AddPartner gives the same partnership state', async () => {
    const viaRest = await rest.addPartner({ CompanyTaxId: '514000007', CompanyCountry: 'PT' });
    const viaSoap = await soap.addPartner({ CompanyTaxId: '505000008', CompanyCountry: 'PT' });
    expect(viaRest.object).toMatchObject({ Status: 'AccessGranted' });
    expect(viaSoap.object).toMatchObject({ Status: 'AccessGranted' });
  });
});

describe('REST and SOAP fail the same way', () => {
  it('a duplicate ExternalId is a DocumentDuplicateError with the same validation errors', async () => {
    const request = invoiceRequest({ ExternalId: uniqueExternalId('dup') });
    await rest.createDocument(request);
    const viaRest = await rest.createDocument(request).catch((e: unknown) => e);
    const viaSoap = await soap.documentCreate(request).catch((e: unknown) => e);
    expect(viaRest).toBeInstanceOf(DocumentDuplicateError);
    expect(viaSoap).toBeInstanceOf(DocumentDuplicateError);
    const strip = (e: unknown) => ({ ...(e as ApiError).errorValue, issues: (e as ApiError).validationErrors, human: (e as ApiError).errorHumanReadable });
    expect(strip(viaSoap)).toEqual(strip(viaRest));
  });

  it('bad credentials are an AuthenticationError', async () => {
    const error = await soapClient(sandbox, { email: OWNER.email, token: 'wrong' }).documentCreate(invoiceRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
  });

  it('an unknown document is ElementDoesNotExist on both', async () => {
    await expect(soap.documentGet(987654)).rejects.toBeInstanceOf(ElementDoesNotExistError);
    await expect(rest.getDocument(987654)).rejects.toBeInstanceOf(ElementDoesNotExistError);
  });

  it('bad input fails locally with the same paths', async () => {
    const request = invoiceRequest();
    request.Document.Lines[1].Type = 'X' as 'P';
    const paths = async (call: Promise<unknown>) => ((await call.catch((e: unknown) => e)) as LocalValidationError).issues.map((i) => i.path);
    expect(await paths(soap.documentCreate(request))).toEqual(await paths(rest.createDocument(request)));
  });

  it.each([
    ['DueDate before Date', (r: ReturnType<typeof invoiceRequest>) => (r.Document.DueDate = '2026-11-01')],
    ['0% tax without exemption', (r: ReturnType<typeof invoiceRequest>) => (r.Document.Lines[2].TaxValue = '0')],
    ['credit note without reference', (r: ReturnType<typeof invoiceRequest>) => (r.Document.Type = 'C')],
  ])('service-side validation (%s) gives the same Field tokens', async (_name, breakIt) => {
    const request = invoiceRequest({ ExternalId: uniqueExternalId('bad') });
    breakIt(request);
    const viaRest = await restClient(sandbox, OWNER, { validateLocally: false }).createDocument(request).catch((e: unknown) => e);
    const viaSoap = await soapClient(sandbox, OWNER, { validateLocally: false }).documentCreate(request).catch((e: unknown) => e);
    expect(viaRest).toBeInstanceOf(ServiceValidationError);
    expect(viaSoap).toBeInstanceOf(ServiceValidationError);
    const fields = (e: unknown) => (e as ServiceValidationError).validationErrors.map((v) => `${v.Type}/${v.Field}/${v.ElementNumber}`);
    expect(fields(viaSoap)).toEqual(fields(viaRest));
  });

  it('a server failure is an ApiError with status 500 (SOAP Fault)', async () => {
    await admin(sandbox, 'POST', '/config', { errorRate: 1 });
    const error = await soap.documentCreate(invoiceRequest({ ExternalId: uniqueExternalId() })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500 });
  });
});
