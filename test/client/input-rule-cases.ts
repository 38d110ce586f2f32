import type { CreateDocumentRequestInput, CreateWaybillRequestInput, PartnerInformation } from '../../client';
import { copy, invoiceRequest, waybillRequest } from './requests';

/**
 * One table of input cases, run through both the client's local validation
 * (test/client/input-rules-agreement.test.ts) and the sandbox's own validator over HTTP
 * (test/sandbox/input-rules-agreement.test.ts). Each case is accepted by both, or refused by both
 * at the same field: `path` as the client names it, `field` (and the line index) as the service does.
 */

type Json = Record<string, unknown>;

export interface Refusal {
  /** The client's LocalValidationError path. */
  path: string;
  /** The service's ValidationError Field token. */
  field: string;
  /** ElementNumber of the service's item (0 unless a line). */
  element?: number;
}

export interface InputCase<B> {
  rule: string;
  body: () => B;
  /** undefined: both accept it. */
  refused?: Refusal;
  /**
   * A rule of the account's configuration (its VAT rates), which only the service knows: the
   * client accepts the input and the service refuses it at this field.
   */
  accountRule?: Refusal;
}

/** Drafts, so the closing-date rule never mixes in; ExternalIds absent, so no duplicates. */
function invoice(change: (body: Json & { Client: Json; Document: Json & { Lines: Json[] } }) => void): () => CreateDocumentRequestInput {
  return () => {
    const body = copy(invoiceRequest()) as unknown as Json & { Client: Json; Document: Json & { Lines: Json[] } };
    body.IsToClose = false;
    change(body);
    return body as unknown as CreateDocumentRequestInput;
  };
}

function waybill(change: (body: Json & { Client: Json; Waybill: Json & { LoadAddress: Json } }) => void): () => CreateWaybillRequestInput {
  return () => {
    const body = copy(waybillRequest()) as unknown as Json & { Client: Json; Waybill: Json & { LoadAddress: Json } };
    body.IsToClose = false;
    change(body);
    return body as unknown as CreateWaybillRequestInput;
  };
}

const text = (n: number): string => 'x'.repeat(n);

export const DOCUMENT_CASES: InputCase<CreateDocumentRequestInput>[] = [
  { rule: 'a valid invoice', body: invoice(() => undefined) },
  // Lengths (S(n) of the shared table)
  { rule: 'Client.Name of 75 characters', body: invoice((b) => (b.Client.Name = text(75))) },
  { rule: 'Client.Name of 76 characters', body: invoice((b) => (b.Client.Name = text(76))), refused: { path: 'Client.Name', field: 'ClientName' } },
  { rule: 'Client.Name blank', body: invoice((b) => (b.Client.Name = '   ')), refused: { path: 'Client.Name', field: 'ClientName' } },
  { rule: 'Client.CountryName of 300 characters (no length given)', body: invoice((b) => (b.Client.CountryName = text(300))) },
  { rule: 'Client.Address of 201 characters', body: invoice((b) => (b.Client.Address = text(201))), refused: { path: 'Client.Address', field: 'ClientAddress' } },
  { rule: 'Document.ExternalId of 51 characters', body: invoice((b) => (b.Document.ExternalId = text(51))), refused: { path: 'Document.ExternalId', field: 'DocumentDetailExternalId' } },
  { rule: 'Document.Serie of 31 characters', body: invoice((b) => (b.Document.Serie = text(31))), refused: { path: 'Document.Serie', field: 'DocumentDetailSerie' } },
  { rule: 'REST DocumentReference of 51 characters', body: invoice((b) => (b.Document.DocumentReference = text(51))), refused: { path: 'Document.DocumentReference', field: 'DocumentDetailDocumentReference' } },
  { rule: 'Line Code of 61 characters', body: invoice((b) => (b.Document.Lines[1].Code = text(61))), refused: { path: 'Document.Lines[1].Code', field: 'LineCode', element: 1 } },
  // Blank optional values count as absent
  { rule: 'optional fields sent empty', body: invoice((b) => Object.assign(b.Document, { Serie: '', Currency: '', TaxExemptionReasonCode: '', Description: '', PurchaseOrder: '' })) },
  { rule: 'Client.Email and SendTo empty', body: invoice((b) => Object.assign(b, { SendTo: '' }, { Client: { ...b.Client, Email: '' } })) },
  // Description: more than two characters, spaces aside
  { rule: 'Description of three characters', body: invoice((b) => (b.Document.Description = 'abc')) },
  { rule: 'Description "  ab  " (two characters padded)', body: invoice((b) => (b.Document.Description = '  ab  ')), refused: { path: 'Document.Description', field: 'DocumentDetailDescription' } },
  // VAT: a percentage for both; which rates exist is the account's configuration (the service's)
  { rule: 'TaxValue 13', body: invoice((b) => (b.Document.Lines[0].TaxValue = 13)) },
  { rule: 'TaxValue 22 as text', body: invoice((b) => (b.Document.Lines[0].TaxValue = '22')) },
  { rule: 'TaxValue 101', body: invoice((b) => (b.Document.Lines[0].TaxValue = 101)), refused: { path: 'Document.Lines[0].TaxValue', field: 'LineTaxValue' } },
  { rule: 'TaxValue 7 (not a rate of the account)', body: invoice((b) => (b.Document.Lines[0].TaxValue = 7)), accountRule: { path: 'Document.Lines[0].TaxValue', field: 'LineTaxValue' } },
  { rule: 'TaxValue 23.5 (not a rate of the account)', body: invoice((b) => (b.Document.Lines[2].TaxValue = '23.5')), accountRule: { path: 'Document.Lines[2].TaxValue', field: 'LineTaxValue', element: 2 } },
  { rule: 'TaxValue 0 with M07', body: invoice((b) => { b.Document.Lines[0].TaxValue = 0; b.Document.TaxExemptionReasonCode = 'M07'; }) },
  { rule: 'TaxValue 0 without a code', body: invoice((b) => (b.Document.Lines[0].TaxValue = 0)), refused: { path: 'Document.TaxExemptionReasonCode', field: 'DocumentDetailTaxExemptionReasonCode' } },
  // Exemption codes
  { rule: 'exemption code M08 (retired)', body: invoice((b) => (b.Document.TaxExemptionReasonCode = 'M08')), refused: { path: 'Document.TaxExemptionReasonCode', field: 'DocumentDetailTaxExemptionReasonCode' } },
  { rule: 'exemption code X01', body: invoice((b) => (b.Document.TaxExemptionReasonCode = 'X01')), refused: { path: 'Document.TaxExemptionReasonCode', field: 'DocumentDetailTaxExemptionReasonCode' } },
  // Percentages and amounts
  { rule: 'ProductDiscount 100', body: invoice((b) => (b.Document.Lines[0].ProductDiscount = 100)) },
  { rule: 'ProductDiscount 101', body: invoice((b) => (b.Document.Lines[0].ProductDiscount = 101)), refused: { path: 'Document.Lines[0].ProductDiscount', field: 'LineProductDiscount' } },
  { rule: 'Retention -1', body: invoice((b) => (b.Document.Retention = -1)), refused: { path: 'Document.Retention', field: 'DocumentDetailRetention' } },
  { rule: 'Quantity 0', body: invoice((b) => (b.Document.Lines[0].Quantity = 0)), refused: { path: 'Document.Lines[0].Quantity', field: 'LineQuantity' } },
  { rule: 'UnitPrice -0.01', body: invoice((b) => (b.Document.Lines[0].UnitPrice = '-0.01')), refused: { path: 'Document.Lines[0].UnitPrice', field: 'LineUnitPrice' } },
  { rule: 'UnitPrice 0', body: invoice((b) => (b.Document.Lines[0].UnitPrice = 0)) },
  { rule: 'EuroRate 0', body: invoice((b) => Object.assign(b.Document, { Currency: 'USD', EuroRate: 0 })), refused: { path: 'Document.EuroRate', field: 'DocumentDetailEuroRate' } },
  // Currencies: ISO 4217, one list
  { rule: 'Currency AFN (ISO 4217)', body: invoice((b) => Object.assign(b.Document, { Currency: 'AFN', EuroRate: '80.5' })) },
  { rule: 'Currency usd (lower case)', body: invoice((b) => (b.Document.Currency = 'usd')), refused: { path: 'Document.Currency', field: 'DocumentDetailCurrency' } },
  { rule: 'Currency XYZ (no such currency)', body: invoice((b) => (b.Document.Currency = 'XYZ')), refused: { path: 'Document.Currency', field: 'DocumentDetailCurrency' } },
  // Countries, tax ids, post codes
  { rule: 'CountryCode pt (lower case)', body: invoice((b) => (b.Client.CountryCode = 'pt')), refused: { path: 'Client.CountryCode', field: 'ClientCountryCode' } },
  { rule: 'CountryCode UK (not ISO)', body: invoice((b) => Object.assign(b.Client, { CountryCode: 'UK', NIF: '123456789', PostCode: 'SW1A 1AA' })), refused: { path: 'Client.CountryCode', field: 'ClientCountryCode' } },
  { rule: 'a Portuguese NIF with a wrong check digit', body: invoice((b) => (b.Client.NIF = '123456780')), refused: { path: 'Client.NIF', field: 'TaxId' } },
  { rule: 'a Portuguese NIF with the PT prefix', body: invoice((b) => (b.Client.NIF = 'PT123456789')) },
  { rule: 'a Spanish tax id in its format', body: invoice((b) => Object.assign(b.Client, { CountryCode: 'ES', NIF: 'B12345678', PostCode: '28001' })) },
  { rule: 'the final-consumer NIF with a French address', body: invoice((b) => Object.assign(b.Client, { CountryCode: 'FR', NIF: '999999990', PostCode: '75001' })) },
  { rule: 'a Spanish tax id out of format', body: invoice((b) => Object.assign(b.Client, { CountryCode: 'ES', NIF: '12', PostCode: '28001' })), refused: { path: 'Client.NIF', field: 'TaxId' } },
  { rule: 'a Portuguese post code without the dash', body: invoice((b) => (b.Client.PostCode = '1100048')), refused: { path: 'Client.PostCode', field: 'ClientPostCode' } },
  { rule: 'a foreign post code with symbols', body: invoice((b) => Object.assign(b.Client, { CountryCode: 'ES', NIF: 'B12345678', PostCode: '#28001' })), refused: { path: 'Client.PostCode', field: 'ClientPostCode' } },
  // E-mail
  { rule: 'SendTo two addresses', body: invoice((b) => (b.SendTo = 'a@example.com; b@example.com')) },
  { rule: 'SendTo not an address', body: invoice((b) => (b.SendTo = 'not-an-address')), refused: { path: 'SendTo', field: 'SendTo' } },
  { rule: 'Client.Email with a comma', body: invoice((b) => (b.Client.Email = 'a,b@example.com')), refused: { path: 'Client.Email', field: 'ClientEmail' } },
  // Types, dates, references, IsToClose
  { rule: 'document Type X', body: invoice((b) => (b.Document.Type = 'X')), refused: { path: 'Document.Type', field: 'DocumentDetailType' } },
  { rule: 'line Type X', body: invoice((b) => (b.Document.Lines[0].Type = 'X')), refused: { path: 'Document.Lines[0].Type', field: 'LineType' } },
  { rule: 'DueDate equal to Date', body: invoice((b) => (b.Document.DueDate = b.Document.Date)), refused: { path: 'Document.DueDate', field: 'DocumentDetailDueDate' } },
  { rule: 'Date 2026-02-30', body: invoice((b) => (b.Document.Date = '2026-02-30')), refused: { path: 'Document.Date', field: 'DocumentDetailDate' } },
  { rule: 'a credit note without DocumentReference', body: invoice((b) => (b.Document.Type = 'C')), refused: { path: 'Document.DocumentReference', field: 'DocumentDetailDocumentReference' } },
  { rule: 'no lines', body: invoice((b) => (b.Document.Lines = [])), refused: { path: 'Document.Lines', field: 'DocumentDetailLines' } },
  { rule: 'IsToClose as the text "false" (the spec\'s samples)', body: invoice((b) => (b.IsToClose = 'false')) },
  { rule: 'IsToClose "yes"', body: invoice((b) => (b.IsToClose = 'yes')), refused: { path: 'IsToClose', field: 'IsToClose' } },
  { rule: 'Client.Email of 256 characters', body: invoice((b) => (b.Client.Email = `${text(244)}@example.com`)), refused: { path: 'Client.Email', field: 'ClientEmail' } },
  { rule: 'Client.IBAN of 301 characters', body: invoice((b) => (b.Client.IBAN = text(301))), refused: { path: 'Client.IBAN', field: 'ClientIBAN' } },
  { rule: 'UnitPrice with a decimal comma', body: invoice((b) => (b.Document.Lines[0].UnitPrice = '12,50')), refused: { path: 'Document.Lines[0].UnitPrice', field: 'LineUnitPrice' } },
  { rule: 'Quantity 0.001', body: invoice((b) => (b.Document.Lines[0].Quantity = '0.001')) },
  { rule: 'UnitPrice with ten decimals', body: invoice((b) => (b.Document.Lines[0].UnitPrice = '8.1300813008')) },
  { rule: 'Date as the service writes it (yyyy-mm-ddT00:00:00)', body: invoice((b) => (b.Document.Date = '2026-11-20T00:00:00')) },
  { rule: 'Retention 100', body: invoice((b) => (b.Document.Retention = 100)) },
  { rule: 'Line Unit of 51 characters', body: invoice((b) => (b.Document.Lines[0].Unit = text(51))), refused: { path: 'Document.Lines[0].Unit', field: 'LineUnit' } },
];

export const WAYBILL_CASES: InputCase<CreateWaybillRequestInput>[] = [
  { rule: 'a valid waybill', body: waybill(() => undefined) },
  { rule: 'LoadDateTime before the waybill Date', body: waybill((b) => (b.Waybill.LoadDateTime = '2026-11-19T23:00:00')), refused: { path: 'Waybill.LoadDateTime', field: 'DocumentDetailLoadDateTime' } },
  { rule: 'LoadAddress PostalCode of a foreign country with symbols', body: waybill((b) => Object.assign(b.Waybill.LoadAddress, { CountryCode: 'ES', PostalCode: '#1' })), refused: { path: 'Waybill.LoadAddress.PostalCode', field: 'LoadAddressPostalCode' } },
  { rule: 'VehicleLicence of 31 characters', body: waybill((b) => (b.Waybill.VehicleLicence = text(31))), refused: { path: 'Waybill.VehicleLicence', field: 'DocumentDetailVehicleLicence' } },
  { rule: 'waybill Type T', body: waybill((b) => (b.Waybill.Type = 'T')), refused: { path: 'Waybill.Type', field: 'DocumentDetailType' } },
];

export const PARTNER_CASES: InputCase<PartnerInformation>[] = [
  { rule: 'AddPartner with a valid tax id', body: () => ({ CompanyTaxId: '503000000', CompanyLegalName: 'Parceiro, Lda.' }) },
  { rule: 'AddPartner without CompanyTaxId', body: () => ({ CompanyLegalName: 'Parceiro, Lda.' }) as PartnerInformation, refused: { path: 'CompanyTaxId', field: 'CompanyTaxId' } },
  { rule: 'AddPartner with an invalid NIF', body: () => ({ CompanyTaxId: '503000001' }), refused: { path: 'CompanyTaxId', field: 'CompanyTaxId' } },
  { rule: 'AddPartner with a lower-case country', body: () => ({ CompanyTaxId: '503000000', CompanyCountry: 'pt' }), refused: { path: 'CompanyCountry', field: 'CompanyCountry' } },
  { rule: 'AddPartner with CompanyLegalName of 51 characters', body: () => ({ CompanyTaxId: '503000000', CompanyLegalName: text(51) }), refused: { path: 'CompanyLegalName', field: 'CompanyLegalName' } },
  { rule: 'AddPartner with a UserEmail that is not an address', body: () => ({ CompanyTaxId: '503000000', UserEmail: 'nobody' }), refused: { path: 'UserEmail', field: 'UserEmail' } },
];
