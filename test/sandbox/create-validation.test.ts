import { RunningSandbox, startTestSandbox } from '../support/sandbox';
import { client, documentBody, Json, line, waybillBody } from './bodies';
import { api } from './http';

/**
 * The service's own validation of raw input: every rule gives HTTP 400, the error envelope, and a
 * ValidationError naming the rule (Type), the field (Field) and the line (ElementNumber).
 */

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

interface Case {
  rule: string;
  body: Json;
  type: string;
  field: string;
  element?: number;
  errorValue?: number;
}

const long = (n: number): string => 'x'.repeat(n);

const documentCases: Case[] = [
  { rule: 'IsToClose is required', body: documentBody({}, { IsToClose: undefined }), type: 'Required', field: 'IsToClose' },
  { rule: 'IsToClose is a boolean', body: documentBody({}, { IsToClose: 'yes' }), type: 'InvalidFormat', field: 'IsToClose' },
  { rule: 'SendTo is an e-mail', body: documentBody({}, { SendTo: 'not-an-email' }), type: 'InvalidEmail', field: 'SendTo' },
  { rule: 'Client is required', body: documentBody({}, { Client: undefined }), type: 'Required', field: 'Client' },
  { rule: 'Client.Name is required', body: documentBody({}, { Client: client({ Name: '' }) }), type: 'Required', field: 'ClientName' },
  { rule: 'Client.Name is S(75)', body: documentBody({}, { Client: client({ Name: long(76) }) }), type: 'TooLong', field: 'ClientName' },
  { rule: 'Client.NIF is required', body: documentBody({}, { Client: client({ NIF: undefined }) }), type: 'Required', field: 'ClientNIF' },
  { rule: 'Client.NIF is S(20)', body: documentBody({}, { Client: client({ NIF: long(21) }) }), type: 'TooLong', field: 'ClientNIF' },
  { rule: 'a Portuguese NIF has a valid check digit', body: documentBody({}, { Client: client({ NIF: '123456780' }) }), type: 'InvalidTaxId', field: 'TaxId' },
  { rule: 'a Portuguese NIF has nine digits', body: documentBody({}, { Client: client({ NIF: '12345' }) }), type: 'InvalidTaxId', field: 'TaxId' },
  { rule: 'a foreign tax id has its country format', body: documentBody({}, { Client: client({ CountryCode: 'ES', NIF: '12' }) }), type: 'InvalidTaxId', field: 'TaxId' },
  { rule: 'Client.CountryCode is required', body: documentBody({}, { Client: client({ CountryCode: undefined }) }), type: 'Required', field: 'ClientCountryCode' },
  { rule: 'Client.CountryCode is ISO 3166-1', body: documentBody({}, { Client: client({ CountryCode: 'UK', NIF: '123456789' }) }), type: 'InvalidCountryCode', field: 'ClientCountryCode' },
  { rule: 'Client.Address is S(200)', body: documentBody({}, { Client: client({ Address: long(201) }) }), type: 'TooLong', field: 'ClientAddress' },
  { rule: 'Client.City is S(50)', body: documentBody({}, { Client: client({ City: long(51) }) }), type: 'TooLong', field: 'ClientCity' },
  { rule: 'a Portuguese PostCode is NNNN-NNN', body: documentBody({}, { Client: client({ PostCode: '1100053' }) }), type: 'InvalidPostCode', field: 'ClientPostCode' },
  { rule: 'a foreign PostCode has no symbols', body: documentBody({}, { Client: client({ CountryCode: 'FR', NIF: 'FR12345678901', PostCode: '75*001' }) }), type: 'InvalidPostCode', field: 'ClientPostCode' },
  { rule: 'Client.PhoneNumber is S(50)', body: documentBody({}, { Client: client({ PhoneNumber: long(51) }) }), type: 'TooLong', field: 'ClientPhoneNumber' },
  { rule: 'Client.LegalName is S(500)', body: documentBody({}, { Client: client({ LegalName: long(501) }) }), type: 'TooLong', field: 'ClientLegalName' },
  { rule: 'Client.Email is S(255)', body: documentBody({}, { Client: client({ Email: `${long(251)}@x.pt` }) }), type: 'TooLong', field: 'ClientEmail' },
  { rule: 'Client.Email is an e-mail', body: documentBody({}, { Client: client({ Email: 'maria' }) }), type: 'InvalidEmail', field: 'ClientEmail' },
  { rule: 'Client.IBAN is S(300)', body: documentBody({}, { Client: client({ IBAN: long(301) }) }), type: 'TooLong', field: 'ClientIBAN' },
  { rule: 'Document is required', body: documentBody({}, { Document: undefined }), type: 'Required', field: 'Document' },
  { rule: 'Document.Type is required', body: documentBody({ Type: undefined }), type: 'Required', field: 'DocumentDetailType' },
  { rule: 'Document.Type is T, I, S, C or D', body: documentBody({ Type: 'W' }), type: 'InvalidDocumentType', field: 'DocumentDetailType', errorValue: 7 },
  { rule: 'Document.Serie is S(30)', body: documentBody({ Serie: long(31) }), type: 'TooLong', field: 'DocumentDetailSerie' },
  { rule: 'Document.Id is an integer', body: documentBody({ Id: 'abc' }), type: 'InvalidFormat', field: 'DocumentDetailId' },
  { rule: 'Document.Date is required', body: documentBody({ Date: undefined }), type: 'Required', field: 'DocumentDetailDate' },
  { rule: 'Document.Date is yyyy-mm-dd', body: documentBody({ Date: '02/03/2026' }), type: 'InvalidDate', field: 'DocumentDetailDate' },
  { rule: 'Document.Date is a real day', body: documentBody({ Date: '2026-02-30' }), type: 'InvalidDate', field: 'DocumentDetailDate' },
  { rule: 'Document.DueDate is required', body: documentBody({ DueDate: undefined }), type: 'Required', field: 'DocumentDetailDueDate' },
  { rule: 'DueDate is later than Date', body: documentBody({ DueDate: '2026-03-01' }), type: 'DueDateMustBePosteriorToDate', field: 'DocumentDetailDueDate' },
  { rule: 'DueDate equal to Date is refused', body: documentBody({ DueDate: '2026-03-02' }), type: 'DueDateMustBePosteriorToDate', field: 'DocumentDetailDueDate' },
  { rule: 'Description has more than two characters', body: documentBody({ Description: 'ab' }), type: 'TooShort', field: 'DocumentDetailDescription' },
  { rule: 'Description is S(300)', body: documentBody({ Description: long(301) }), type: 'TooLong', field: 'DocumentDetailDescription' },
  { rule: 'DocumentReference is S(50) in REST', body: documentBody({ Type: 'C', DocumentReference: long(51) }), type: 'TooLong', field: 'DocumentDetailDocumentReference' },
  { rule: 'a credit note needs DocumentReference', body: documentBody({ Type: 'C' }), type: 'DocumentReferenceRequired', field: 'DocumentDetailDocumentReference' },
  { rule: 'a debit note needs DocumentReference', body: documentBody({ Type: 'D' }), type: 'DocumentReferenceRequired', field: 'DocumentDetailDocumentReference' },
  { rule: 'a 0% line needs TaxExemptionReasonCode', body: documentBody({ Lines: [line(), line({ TaxValue: 0 })] }), type: 'TaxExemptionReasonRequired', field: 'DocumentDetailTaxExemptionReasonCode' },
  { rule: 'TaxExemptionReasonCode looks like M01', body: documentBody({ TaxExemptionReasonCode: 'X1' }), type: 'InvalidFormat', field: 'DocumentDetailTaxExemptionReasonCode' },
  { rule: 'TaxExemptionReasonCode is S(3)', body: documentBody({ TaxExemptionReasonCode: 'M001' }), type: 'TooLong', field: 'DocumentDetailTaxExemptionReasonCode' },
  { rule: 'an unknown exemption code does not exist', body: documentBody({ TaxExemptionReasonCode: 'M98' }), type: 'TaxExemptionDoesNotExist', field: 'DocumentDetailTaxExemptionReasonCode', errorValue: 10 },
  { rule: 'Currency is three capitals', body: documentBody({ Currency: 'eu' }), type: 'InvalidCurrency', field: 'DocumentDetailCurrency' },
  { rule: 'an unknown currency does not exist', body: documentBody({ Currency: 'XYZ' }), type: 'CurrencyDoesNotExist', field: 'DocumentDetailCurrency', errorValue: 11 },
  { rule: 'EuroRate is a decimal', body: documentBody({ EuroRate: 'abc' }), type: 'InvalidDecimal', field: 'DocumentDetailEuroRate' },
  { rule: 'EuroRate is positive', body: documentBody({ EuroRate: 0 }), type: 'MustBePositive', field: 'DocumentDetailEuroRate' },
  { rule: 'Retention is a percentage', body: documentBody({ Retention: 101 }), type: 'InvalidPercentage', field: 'DocumentDetailRetention', errorValue: 22 },
  { rule: 'ExternalId is S(50)', body: documentBody({ ExternalId: long(51) }), type: 'TooLong', field: 'DocumentDetailExternalId' },
  { rule: 'PurchaseOrder is S(50)', body: documentBody({ PurchaseOrder: long(51) }), type: 'TooLong', field: 'DocumentDetailPurchaseOrder' },
  { rule: 'Lines are required', body: documentBody({ Lines: undefined }), type: 'LinesRequired', field: 'DocumentDetailLines' },
  { rule: 'Lines are not empty', body: documentBody({ Lines: [] }), type: 'LinesRequired', field: 'DocumentDetailLines' },
  { rule: 'a line is an object', body: documentBody({ Lines: [line(), 'x'] }), type: 'InvalidFormat', field: 'Line', element: 1 },
  { rule: 'Line.Code is required', body: documentBody({ Lines: [line(), line({ Code: '' })] }), type: 'Required', field: 'LineCode', element: 1 },
  { rule: 'Line.Code is S(60)', body: documentBody({ Lines: [line({ Code: long(61) })] }), type: 'TooLong', field: 'LineCode', element: 0 },
  { rule: 'Line.Description is required', body: documentBody({ Lines: [line(), line(), line({ Description: '' })] }), type: 'Required', field: 'LineDescription', element: 2 },
  { rule: 'Line.Description is S(200)', body: documentBody({ Lines: [line({ Description: long(201) })] }), type: 'TooLong', field: 'LineDescription', element: 0 },
  { rule: 'Line.UnitPrice is required', body: documentBody({ Lines: [line({ UnitPrice: undefined })] }), type: 'Required', field: 'LineUnitPrice', element: 0 },
  { rule: 'Line.UnitPrice is a decimal', body: documentBody({ Lines: [line(), line({ UnitPrice: '12,50' })] }), type: 'InvalidDecimal', field: 'LineUnitPrice', element: 1 },
  { rule: 'Line.UnitPrice is not negative', body: documentBody({ Lines: [line({ UnitPrice: -1 })] }), type: 'MustNotBeNegative', field: 'LineUnitPrice', element: 0 },
  { rule: 'Line.Quantity is required', body: documentBody({ Lines: [line({ Quantity: undefined })] }), type: 'Required', field: 'LineQuantity', element: 0 },
  { rule: 'Line.Quantity is positive', body: documentBody({ Lines: [line(), line({ Quantity: 0 })] }), type: 'MustBePositive', field: 'LineQuantity', element: 1 },
  // 19 FailedToCreateNewProductUnit: the public error list's value for a missing or oversized Unit.
  { rule: 'Line.Unit is required', body: documentBody({ Lines: [line({ Unit: '' })] }), type: 'Required', field: 'LineUnit', element: 0, errorValue: 19 },
  { rule: 'Line.Unit is S(50)', body: documentBody({ Lines: [line({ Unit: long(51) })] }), type: 'TooLong', field: 'LineUnit', element: 0, errorValue: 19 },
  { rule: 'Line.Type is required', body: documentBody({ Lines: [line({ Type: '' })] }), type: 'Required', field: 'LineType', element: 0 },
  { rule: 'Line.Type is S or P', body: documentBody({ Lines: [line({ Type: 'X' })] }), type: 'InvalidLineType', field: 'LineType', element: 0, errorValue: 7 },
  { rule: 'Line.TaxValue is required', body: documentBody({ Lines: [line({ TaxValue: undefined })] }), type: 'Required', field: 'LineTaxValue', element: 0 },
  { rule: 'Line.TaxValue is a Portuguese rate', body: documentBody({ Lines: [line(), line({ TaxValue: 19 })] }), type: 'InvalidPercentage', field: 'LineTaxValue', element: 1, errorValue: 22 },
  { rule: 'Line.ProductDiscount is required', body: documentBody({ Lines: [line({ ProductDiscount: undefined })] }), type: 'Required', field: 'LineProductDiscount', element: 0 },
  { rule: 'Line.ProductDiscount is at most 100', body: documentBody({ Lines: [line({ ProductDiscount: 100.5 })] }), type: 'InvalidPercentage', field: 'LineProductDiscount', element: 0, errorValue: 22 },
  { rule: 'Line.ProductDiscount is not negative', body: documentBody({ Lines: [line({ ProductDiscount: -5 })] }), type: 'InvalidPercentage', field: 'LineProductDiscount', element: 0, errorValue: 22 },
  { rule: 'Line.CostCenter is S(50)', body: documentBody({ Lines: [line({ CostCenter: long(51) })] }), type: 'TooLong', field: 'LineCostCenter', element: 0 },
];

const waybillCases: Case[] = [
  { rule: 'Waybill is required', body: waybillBody({}, { Waybill: undefined }), type: 'Required', field: 'Waybill' },
  { rule: 'Waybill.Type is W or Y', body: waybillBody({ Type: 'T' }), type: 'InvalidDocumentType', field: 'DocumentDetailType', errorValue: 7 },
  { rule: 'LoadDateTime is required', body: waybillBody({ LoadDateTime: undefined }), type: 'Required', field: 'DocumentDetailLoadDateTime' },
  { rule: 'LoadDateTime is yyyy-mm-ddThh:mm:ss', body: waybillBody({ LoadDateTime: '2026-03-02 09:30' }), type: 'InvalidDateTime', field: 'DocumentDetailLoadDateTime' },
  { rule: 'LoadDateTime is not before the waybill date', body: waybillBody({ LoadDateTime: '2026-03-01T23:59:59' }), type: 'LoadDateTimeBeforeDate', field: 'DocumentDetailLoadDateTime' },
  { rule: 'LoadAddress is required', body: waybillBody({ LoadAddress: undefined }), type: 'Required', field: 'LoadAddress' },
  { rule: 'DestinationAddress is required', body: waybillBody({ DestinationAddress: undefined }), type: 'Required', field: 'DestinationAddress' },
  { rule: 'an address needs AddressDetail', body: waybillBody({ LoadAddress: { City: 'Lisboa', PostalCode: '1100-053', CountryCode: 'PT' } }), type: 'Required', field: 'LoadAddressAddressDetail' },
  { rule: 'an address needs City', body: waybillBody({ DestinationAddress: { AddressDetail: 'Rua', PostalCode: '1100-053', CountryCode: 'PT' } }), type: 'Required', field: 'DestinationAddressCity' },
  { rule: 'an address AddressDetail is S(100)', body: waybillBody({ LoadAddress: { AddressDetail: long(101), City: 'Lisboa', PostalCode: '1100-053', CountryCode: 'PT' } }), type: 'TooLong', field: 'LoadAddressAddressDetail' },
  { rule: 'a Portuguese address PostalCode is NNNN-NNN', body: waybillBody({ LoadAddress: { AddressDetail: 'Rua', City: 'Lisboa', PostalCode: '1100', CountryCode: 'PT' } }), type: 'InvalidPostCode', field: 'LoadAddressPostalCode' },
  { rule: 'an address CountryCode is ISO 3166-1', body: waybillBody({ DestinationAddress: { AddressDetail: 'Rua', City: 'X', PostalCode: '1', CountryCode: 'XX' } }), type: 'InvalidCountryCode', field: 'DestinationAddressCountryCode' },
  { rule: 'VehicleLicence is S(30)', body: waybillBody({ VehicleLicence: long(31) }), type: 'TooLong', field: 'DocumentDetailVehicleLicence' },
  { rule: 'a 0% waybill line needs an exemption code', body: waybillBody({ Lines: [line({ TaxValue: 0 })] }), type: 'TaxExemptionReasonRequired', field: 'DocumentDetailTaxExemptionReasonCode' },
  { rule: 'waybill lines are required', body: waybillBody({ Lines: [] }), type: 'LinesRequired', field: 'DocumentDetailLines' },
];

function expectRule(result: Awaited<ReturnType<typeof api>>, c: Case): void {
  expect(result.status).toBe(400);
  expect(result.envelope).toMatchObject({ Type: 1, IsError: true, IsSuccess: false, Object: null });
  expect(result.envelope.ErrorValue?.Value).toBe(c.errorValue ?? 14);
  expect(result.envelope.ValidationErrors).toContainEqual(
    expect.objectContaining({ Type: c.type, Field: c.field, ElementNumber: c.element ?? 0 }),
  );
}

describe('Create Document rejects invalid input with the rule, field and line', () => {
  it.each(documentCases)('$rule -> $type on $field', async (c) => {
    expectRule(await api(sandbox, 'POST', '/document', { body: c.body }), c);
  });
});

describe('Create Waybill rejects invalid input with the rule, field and line', () => {
  it.each(waybillCases)('$rule -> $type on $field', async (c) => {
    expectRule(await api(sandbox, 'POST', '/document/waybill', { body: c.body }), c);
  });
});

describe('validation reports every failure at once and stores nothing', () => {
  it('lists each failing field of one request', async () => {
    const body = documentBody(
      { Date: 'x', Lines: [line({ Code: '' }), line({ TaxValue: 7 })] },
      { Client: client({ Name: '', NIF: '1' }) },
    );
    const result = await api(sandbox, 'POST', '/document', { body });
    const found = result.envelope.ValidationErrors?.map((v) => `${v.Type}:${v.Field}:${v.ElementNumber}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'Required:ClientName:0',
        'InvalidTaxId:TaxId:0',
        'InvalidDate:DocumentDetailDate:0',
        'Required:LineCode:0',
        'InvalidPercentage:LineTaxValue:1',
      ]),
    );
    const listed = await fetch(`${sandbox.origin}/_sandbox/documents`).then((r) => r.json() as Promise<{ documents: unknown[] }>);
    expect(listed.documents).toHaveLength(0);
  });
});

describe('accepted inputs of the same rules', () => {
  it.each([
    ['every Portuguese rate', documentBody({ TaxExemptionReasonCode: 'M99', Lines: ['0', '4', '6', '9', '12', '13', '16', '21', '22', '23'].map((rate) => line({ TaxValue: rate })) })],
    ['decimal strings', documentBody({ Lines: [line({ UnitPrice: '12.3456', Quantity: '1.5', ProductDiscount: '12.5' })] })],
    ['IsToClose sent as the text true', documentBody({}, { IsToClose: 'true' })],
    ['a foreign client with its own format', documentBody({}, { Client: client({ CountryCode: 'ES', NIF: 'B12345678', PostCode: '28013' }) })],
    ['a credit note with its reference', documentBody({ Type: 'C', DocumentReference: 'FR A/1' })],
    ['a foreign currency with a rate', documentBody({ Currency: 'USD', EuroRate: '1.0825' })],
    ['several SendTo addresses', documentBody({}, { SendTo: 'a@example.com; b@example.com' })],
  ])('%s', async (_name, body) => {
    const result = await api(sandbox, 'POST', '/document', { body: { ...body, IsToClose: false } });
    expect(result.status).toBe(200);
    expect(result.envelope.Type).toBe(0);
  });
});
