import { ServiceValidationError } from '../../client';
import { RunningSandbox, startSandbox } from '../../sandbox/server';
import { invoiceRequest } from './requests';
import { OWNER, restClient, soapClient, uniqueExternalId } from './sandbox-harness';

/**
 * Error values 18 and 19 of MagniFinance's public error list, where their conditions apply:
 * 18 SerieDataNotMatch ("an invalid series value ... Settings -> General -> Document series") and
 * 19 FailedToCreateNewProductUnit ("Lines ... the Unit field (required) ... string(50)"). Both are
 * input the caller must fix: ServiceValidationError, REST and SOAP alike.
 */

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    accounts: [{ ...OWNER, series: { T: ['A', 'LOJA'], C: ['NC'] }, taxRates: ['0', '6', '13', '23', '7.5'] }],
  });
});
afterAll(() => sandbox.close());

describe('18 SerieDataNotMatch: a series the account has not configured for the type', () => {
  it.each([
    ['REST', (r: ReturnType<typeof invoiceRequest>) => restClient(sandbox).createDocument(r)],
    ['SOAP', (r: ReturnType<typeof invoiceRequest>) => soapClient(sandbox).documentCreate(r)],
  ])('%s: ServiceValidationError with ErrorValue 18 on DocumentDetailSerie', async (form, create) => {
    const error = await create(invoiceRequest({ Serie: 'WEB', ExternalId: uniqueExternalId('serie') })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceValidationError);
    // SOAP answers application errors with HTTP 200, REST with 400.
    expect(error).toMatchObject({
      status: form === 'REST' ? 400 : 200,
      errorValue: { Value: 18, Name: 'SerieDataNotMatch' },
      validationErrors: [expect.objectContaining({ Type: 'SerieDataNotMatch', Field: 'DocumentDetailSerie' })],
    });
  });

  it.each([
    ['a configured series', { Serie: 'LOJA' }],
    ['no series (the type\'s default)', {}],
    ['any series of a type the account did not configure', { Type: 'I' as const, Serie: 'QUALQUER' }],
  ])('%s is accepted', async (_name, overrides) => {
    await expect(restClient(sandbox).createDocument(invoiceRequest({ ...overrides, ExternalId: uniqueExternalId('serie-ok') }))).resolves.toMatchObject({
      documentId: expect.any(Number),
    });
  });
});

describe('19 FailedToCreateNewProductUnit: a line without a usable Unit', () => {
  it.each([
    ['no Unit', undefined],
    ['a Unit of 51 characters', 'u'.repeat(51)],
  ])('%s (unchecked by the client) is ServiceValidationError 19 on LineUnit', async (_name, unit) => {
    const request = invoiceRequest({ ExternalId: uniqueExternalId('unit') });
    const lines = request.Document.Lines.map((line, i) => (i === 1 ? { ...line, Unit: unit } : line));
    const unchecked = restClient(sandbox, OWNER, { validateLocally: false });
    const error = await unchecked.createDocument({ ...request, Document: { ...request.Document, Lines: lines as typeof request.Document.Lines } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceValidationError);
    expect(error).toMatchObject({
      errorValue: { Value: 19, Name: 'FailedToCreateNewProductUnit' },
      validationErrors: [expect.objectContaining({ Field: 'LineUnit', ElementNumber: 1 })],
    });
  });
});

describe('VAT rates are the account\'s configuration, checked by the service alone', () => {
  const withRate = (rate: string) => {
    const request = invoiceRequest({ ExternalId: uniqueExternalId('rate') });
    return { ...request, Document: { ...request.Document, Lines: [{ ...request.Document.Lines[0], TaxValue: rate }] } };
  };

  it('a rate the account has (7.5 here) is accepted', async () => {
    await expect(restClient(sandbox).createDocument(withRate('7.5'))).resolves.toMatchObject({ documentId: expect.any(Number) });
  });

  it('a Portuguese rate the account has not configured (22) passes the client and is 22 InvalidPercentage', async () => {
    const error = await restClient(sandbox).createDocument(withRate('22')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceValidationError);
    expect(error).toMatchObject({ errorValue: { Value: 22, Name: 'InvalidPercentage' }, validationErrors: [expect.objectContaining({ Field: 'LineTaxValue' })] });
  });
});
