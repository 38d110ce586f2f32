import {
  CreateDocumentRequestSchema,
  CreateWaybillRequestSchema,
  DocumentGetOutSchema,
  EnvelopeSchema,
  LocalValidationError,
  PartnerInformationSchema,
  validateInput,
} from '../../client';
import { copy, invoiceRequest, waybillRequest } from './requests';

type Path = (string | number)[];

/** Sets (or, with `undefined`, deletes) one field of a request copy, typed loosely on purpose. */
function withField<T>(request: T, path: Path, value: unknown): unknown {
  const clone = copy(request) as unknown as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = clone;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return clone;
}

function pathsOf(schema: Parameters<typeof validateInput>[0], input: unknown): string[] {
  try {
    validateInput(schema, input);
  } catch (error) {
    if (error instanceof LocalValidationError) return error.issues.map((i) => i.path);
    throw error;
  }
  return [];
}

describe('valid requests pass', () => {
  it('an invoice with number and text decimals', () => {
    expect(pathsOf(CreateDocumentRequestSchema, invoiceRequest())).toEqual([]);
  });
  it('a waybill', () => {
    expect(pathsOf(CreateWaybillRequestSchema, waybillRequest())).toEqual([]);
  });
  it.each([
    ['credit note with reference', { Type: 'C' as const, DocumentReference: 'FT FT/47' }],
    ['0% line with exemption code', { TaxExemptionReasonCode: 'M07' }],
    ['foreign currency', { Currency: 'USD', EuroRate: '1.0856' }],
    ['leap day', { Date: '2028-02-29', DueDate: '2028-03-01' }],
    ['draft update by Id', { Id: 42 }],
  ])('%s', (_name, overrides) => {
    expect(pathsOf(CreateDocumentRequestSchema, invoiceRequest(overrides))).toEqual([]);
  });
  it('the consumer NIF with no address', () => {
    const request = invoiceRequest();
    request.Client = { Name: 'Consumidor final', NIF: '999999990', CountryCode: 'PT' };
    expect(pathsOf(CreateDocumentRequestSchema, request)).toEqual([]);
  });
});

const longText = (n: number) => 'x'.repeat(n);

describe('each bad document field is named with its element index', () => {
  const rows: [string, Path, unknown, string][] = [
    ['Client.Name missing', ['Client', 'Name'], undefined, 'Client.Name'],
    ['Client.Name over 75', ['Client', 'Name'], longText(76), 'Client.Name'],
    ['Client.NIF missing', ['Client', 'NIF'], undefined, 'Client.NIF'],
    ['Client.NIF over 20', ['Client', 'NIF'], longText(21), 'Client.NIF'],
    ['Client.NIF bad check digit (PT)', ['Client', 'NIF'], '123456780', 'Client.NIF'],
    ['Client.NIF obsolete prefix 8 (PT)', ['Client', 'NIF'], '800000005', 'Client.NIF'],
    ['Client.CountryCode lower case', ['Client', 'CountryCode'], 'pt', 'Client.CountryCode'],
    ['Client.CountryCode UK is not ISO', ['Client', 'CountryCode'], 'UK', 'Client.CountryCode'],
    ['Client.CountryCode missing', ['Client', 'CountryCode'], undefined, 'Client.CountryCode'],
    ['Client.Address over 200', ['Client', 'Address'], longText(201), 'Client.Address'],
    ['Client.City over 50', ['Client', 'City'], longText(51), 'Client.City'],
    ['Client.PostCode not PT form', ['Client', 'PostCode'], '1100048', 'Client.PostCode'],
    ['Client.PhoneNumber over 50', ['Client', 'PhoneNumber'], longText(51), 'Client.PhoneNumber'],
    ['Client.LegalName over 500', ['Client', 'LegalName'], longText(501), 'Client.LegalName'],
    ['Client.Email not an address', ['Client', 'Email'], 'maria-at-example', 'Client.Email'],
    ['Client.IBAN over 300', ['Client', 'IBAN'], longText(301), 'Client.IBAN'],
    ['IsToClose as text', ['IsToClose'], 'yes', 'IsToClose'],
    ['SendTo not an address', ['SendTo'], 'nobody', 'SendTo'],
    ['Document.Type X', ['Document', 'Type'], 'X', 'Document.Type'],
    ['Document.Type waybill letter', ['Document', 'Type'], 'W', 'Document.Type'],
    ['Document.Serie over 30', ['Document', 'Serie'], longText(31), 'Document.Serie'],
    ['Document.Id not an int', ['Document', 'Id'], 1.5, 'Document.Id'],
    ['Document.Date not a real day', ['Document', 'Date'], '2026-02-30', 'Document.Date'],
    ['Document.Date wrong form', ['Document', 'Date'], '20/11/2026', 'Document.Date'],
    ['Document.Date missing', ['Document', 'Date'], undefined, 'Document.Date'],
    ['Document.DueDate equal to Date', ['Document', 'DueDate'], '2026-11-20', 'Document.DueDate'],
    ['Document.DueDate before Date', ['Document', 'DueDate'], '2026-11-01', 'Document.DueDate'],
    ['Document.DueDate month 13', ['Document', 'DueDate'], '2026-13-01', 'Document.DueDate'],
    ['Document.Description two characters', ['Document', 'Description'], 'ab', 'Document.Description'],
    ['Document.Description over 300', ['Document', 'Description'], longText(301), 'Document.Description'],
    ['Document.DocumentReference over 50', ['Document', 'DocumentReference'], longText(51), 'Document.DocumentReference'],
    ['Document.TaxExemptionReasonCode over 3', ['Document', 'TaxExemptionReasonCode'], 'M016', 'Document.TaxExemptionReasonCode'],
    ['Document.Currency not ISO 4217', ['Document', 'Currency'], 'EUX', 'Document.Currency'],
    ['Document.EuroRate zero', ['Document', 'EuroRate'], 0, 'Document.EuroRate'],
    ['Document.Retention over 100', ['Document', 'Retention'], '101', 'Document.Retention'],
    ['Document.ExternalId over 50', ['Document', 'ExternalId'], longText(51), 'Document.ExternalId'],
    ['Document.PurchaseOrder over 50', ['Document', 'PurchaseOrder'], longText(51), 'Document.PurchaseOrder'],
    ['Document.Lines empty', ['Document', 'Lines'], [], 'Document.Lines'],
    ['Document.Lines missing', ['Document', 'Lines'], undefined, 'Document.Lines'],
    ['Lines[0].Code missing', ['Document', 'Lines', 0, 'Code'], undefined, 'Document.Lines[0].Code'],
    ['Lines[1].Code over 60', ['Document', 'Lines', 1, 'Code'], longText(61), 'Document.Lines[1].Code'],
    ['Lines[2].Description over 200', ['Document', 'Lines', 2, 'Description'], longText(201), 'Document.Lines[2].Description'],
    ['Lines[1].UnitPrice with comma', ['Document', 'Lines', 1, 'UnitPrice'], '4,50', 'Document.Lines[1].UnitPrice'],
    ['Lines[0].UnitPrice NaN', ['Document', 'Lines', 0, 'UnitPrice'], Number.NaN, 'Document.Lines[0].UnitPrice'],
    ['Lines[2].Quantity text', ['Document', 'Lines', 2, 'Quantity'], 'one', 'Document.Lines[2].Quantity'],
    ['Lines[0].Unit over 50', ['Document', 'Lines', 0, 'Unit'], longText(51), 'Document.Lines[0].Unit'],
    ['Lines[1].Type X', ['Document', 'Lines', 1, 'Type'], 'X', 'Document.Lines[1].Type'],
    ['Lines[2].TaxValue over 100', ['Document', 'Lines', 2, 'TaxValue'], 123, 'Document.Lines[2].TaxValue'],
    ['Lines[2].TaxValue negative', ['Document', 'Lines', 2, 'TaxValue'], '-6', 'Document.Lines[2].TaxValue'],
    ['Lines[0].ProductDiscount missing', ['Document', 'Lines', 0, 'ProductDiscount'], undefined, 'Document.Lines[0].ProductDiscount'],
    ['Lines[0].CostCenter over 50', ['Document', 'Lines', 0, 'CostCenter'], longText(51), 'Document.Lines[0].CostCenter'],
    ['0% line without exemption code', ['Document', 'Lines', 1, 'TaxValue'], '0.00', 'Document.TaxExemptionReasonCode'],
  ];

  it.each(rows)('%s -> %s', (_name, path, value, expected) => {
    expect(pathsOf(CreateDocumentRequestSchema, withField(invoiceRequest(), path, value))).toContain(expected);
  });
});

describe('credit and debit notes need DocumentReference', () => {
  it.each(['C', 'D'] as const)('type %s without reference', (type) => {
    expect(pathsOf(CreateDocumentRequestSchema, invoiceRequest({ Type: type }))).toEqual(['Document.DocumentReference']);
  });
});

describe('each bad waybill field is named', () => {
  const rows: [string, Path, unknown, string][] = [
    ['Waybill.Type T is not a transport type', ['Waybill', 'Type'], 'T', 'Waybill.Type'],
    ['Waybill.Date not real', ['Waybill', 'Date'], '2026-04-31', 'Waybill.Date'],
    ['Waybill.Description too short', ['Waybill', 'Description'], 'ok', 'Waybill.Description'],
    ['LoadDateTime before Date', ['Waybill', 'LoadDateTime'], '2026-11-19T23:59:59', 'Waybill.LoadDateTime'],
    ['LoadDateTime without seconds', ['Waybill', 'LoadDateTime'], '2026-11-20T15:30', 'Waybill.LoadDateTime'],
    ['LoadDateTime hour 24', ['Waybill', 'LoadDateTime'], '2026-11-20T24:00:00', 'Waybill.LoadDateTime'],
    ['LoadDateTime missing', ['Waybill', 'LoadDateTime'], undefined, 'Waybill.LoadDateTime'],
    ['LoadAddress missing', ['Waybill', 'LoadAddress'], undefined, 'Waybill.LoadAddress'],
    ['LoadAddress.AddressDetail over 100', ['Waybill', 'LoadAddress', 'AddressDetail'], longText(101), 'Waybill.LoadAddress.AddressDetail'],
    ['LoadAddress.City missing', ['Waybill', 'LoadAddress', 'City'], undefined, 'Waybill.LoadAddress.City'],
    ['DestinationAddress.PostalCode over 20', ['Waybill', 'DestinationAddress', 'PostalCode'], longText(21), 'Waybill.DestinationAddress.PostalCode'],
    ['DestinationAddress.CountryCode not ISO', ['Waybill', 'DestinationAddress', 'CountryCode'], 'XX', 'Waybill.DestinationAddress.CountryCode'],
    ['VehicleLicence over 30', ['Waybill', 'VehicleLicence'], longText(31), 'Waybill.VehicleLicence'],
    ['Lines empty', ['Waybill', 'Lines'], [], 'Waybill.Lines'],
    ['Lines[0].TaxValue 0 without code', ['Waybill', 'Lines', 0, 'TaxValue'], 0, 'Waybill.TaxExemptionReasonCode'],
  ];
  it.each(rows)('%s -> %s', (_name, path, value, expected) => {
    expect(pathsOf(CreateWaybillRequestSchema, withField(waybillRequest(), path, value))).toContain(expected);
  });

  it('LoadDateTime on the waybill day at midnight is allowed', () => {
    expect(pathsOf(CreateWaybillRequestSchema, waybillRequest({ LoadDateTime: '2026-11-20T00:00:00' }))).toEqual([]);
  });
});

describe('partner information', () => {
  it.each([
    ['CompanyTaxId', longText(21)],
    ['UserName', longText(76)],
    ['UserEmail', 'not-an-address'],
    ['CompanyLegalName', longText(51)],
    ['CompanyCountry', 'Portugal'],
    ['CompanyTaxId', '503000001'],
  ])('%s is checked', (field, value) => {
    expect(pathsOf(PartnerInformationSchema, { CompanyTaxId: '503000000', [field]: value })).toEqual([field]);
  });
  it('CompanyTaxId is required (the partnership is that tax id); everything else is optional', () => {
    expect(pathsOf(PartnerInformationSchema, {})).toEqual(['CompanyTaxId']);
    expect(pathsOf(PartnerInformationSchema, { CompanyTaxId: '503000000' })).toEqual([]);
  });
});

describe('every problem is reported at once', () => {
  it('three broken fields give three paths', () => {
    const request = withField(withField(withField(invoiceRequest(), ['Client', 'CountryCode'], 'UK'), ['Document', 'Date'], '2026-02-30'), ['Document', 'Lines', 2, 'TaxValue'], 'x');
    expect(pathsOf(CreateDocumentRequestSchema, request)).toEqual(
      expect.arrayContaining(['Client.CountryCode', 'Document.Date', 'Document.Lines[2].TaxValue']),
    );
  });
});

describe('response envelope', () => {
  const success = { RequestId: 'r1', Type: 0, Object: { DocumentId: 1 }, ErrorValue: null, ErrorHumanReadable: null, ValidationErrors: null, IsSuccess: true, IsError: false };
  it('accepts the spec form and extra fields', () => {
    expect(EnvelopeSchema.safeParse({ ...success, Extra: 'kept' }).success).toBe(true);
  });
  it('accepts ElementNumber as int or text', () => {
    const error = { ...success, Type: 1, Object: null, IsSuccess: false, IsError: true, ErrorValue: { Value: 6, Name: 'ElementDoesNotExist' } };
    for (const ElementNumber of [0, '0']) {
      expect(EnvelopeSchema.safeParse({ ...error, ValidationErrors: [{ Type: 'X', Field: 'Y', ElementNumber, Detail: 'd' }] }).success).toBe(true);
    }
  });
  it.each([
    ['Type 2', { Type: 2 }],
    ['IsSuccess disagrees with Type', { IsSuccess: false }],
    ['ErrorValue without Name', { Type: 1, IsSuccess: false, IsError: true, ErrorValue: { Value: 3 } }],
  ])('rejects %s', (_name, change) => {
    expect(EnvelopeSchema.safeParse({ ...success, ...change }).success).toBe(false);
  });
  it('reads DocumentGetOut with decimal-comma amounts', () => {
    const parsed = DocumentGetOutSchema.parse({
      DocumentNumber: 'FR 2026/1',
      TotalAmount: '1234,50',
      UnpaidAmount: '0,00',
      PaymentStatus: 'Complete',
      Details: { Totals: { Amount: 1234.5, AmountText: '1234,50' }, Document: { Id: 5, Lines: [] }, Receiver: { TaxId: 123456789 } },
    });
    expect(parsed.TotalAmount).toBe('1234,50');
  });
});
