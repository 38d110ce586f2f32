import {
  ApiError,
  AuthenticationError,
  DocumentDuplicateError,
  ElementDoesNotExistError,
  LocalValidationError,
  MagniFinanceClient,
  MagniFinanceSoapClient,
  ServiceValidationError,
  DEFAULT_SOAP_NAMESPACE,
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

describe('SOAP like the real service', () => {
  it('reads the endpoint\'s WSDL and calls the service at the address and namespace it names', async () => {
    const description = await soap.describeService();
    expect(description).toMatchObject({ serviceName: 'Invoicing', targetNamespace: DEFAULT_SOAP_NAMESPACE, soap11Address: sandbox.soapUrl, soap12Address: sandbox.soapUrl });
    expect(description.operations).toEqual(
      expect.arrayContaining([
        { name: 'DocumentCreate', inputMessage: 'DocumentCreateSoapIn', inputElement: 'DocumentCreate', outputMessage: 'DocumentCreateSoapOut', outputElement: 'DocumentCreateResponse', soapAction: `${DEFAULT_SOAP_NAMESPACE}DocumentCreate` },
        expect.objectContaining({ name: 'AddPartner', inputElement: 'AddPartner' }),
      ]),
    );
    const fromWsdl = new MagniFinanceSoapClient({ email: OWNER.email, token: OWNER.token, soapUrl: description.soap12Address, namespace: description.targetNamespace, soapVersion: '1.2' });
    await expect(fromWsdl.documentCreate(invoiceRequest({ ExternalId: uniqueExternalId('wsdl') }))).resolves.toMatchObject({ documentId: expect.any(Number) });
  });

  it('a client in another namespace gets the service\'s Client fault as an ApiError, nothing created', async () => {
    const wrong = soapClient(sandbox, OWNER, { namespace: 'http://www.magnifinance.com/api/v1' });
    const error = await wrong.documentCreate(invoiceRequest({ ExternalId: uniqueExternalId('wrong-ns') })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, errorHumanReadable: expect.stringMatching(/^soap:Client: Server did not recognize the request element DocumentCreate/) });
  });

  it('reads a SOAP 1.2 fault (Code/Value, Reason/Text)', async () => {
    const wrong = soapClient(sandbox, OWNER, { namespace: 'urn:other', soapVersion: '1.2' });
    const error = await wrong.documentGet(1).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 500, errorHumanReadable: expect.stringMatching(/^soap:Sender: Server did not recognize/) });
  });

  it('sends DocumentReference of 100 characters (S(100) in SOAP) where REST refuses it locally', async () => {
    const reference = 'R'.repeat(100);
    const request = invoiceRequest({ Type: 'C', DocumentReference: reference, ExternalId: uniqueExternalId('ref100') });
    await expect(rest.createDocument(request)).rejects.toBeInstanceOf(LocalValidationError);
    const created = await soap.documentCreate(request);
    await passFinalizeDelay(sandbox);
    expect((await rest.getDocument(created.documentId)).details.document.DocumentReference).toBe(reference);
  });

  it.each([
    ['REST', 'true'],
    ['SOAP', 'true'],
    ['REST', 'false'],
    ['SOAP', 'false'],
  ])('%s takes IsToClose as the text %s, as the spec\'s samples send it', async (form, text) => {
    const request = { ...invoiceRequest({ ExternalId: uniqueExternalId('text-bool') }), IsToClose: text };
    const created = form === 'REST' ? await rest.createDocument(request) : await soap.documentCreate(request);
    const { body } = await admin<{ documents: { id: number; status: string }[] }>(sandbox, 'GET', '/documents');
    expect(body.documents.find((d) => d.id === created.documentId)?.status).toBe(text === 'true' ? 'closed' : 'draft');
  });
});
