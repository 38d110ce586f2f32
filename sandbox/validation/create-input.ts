import {
  ApiForm,
  CORRECTING_TYPES,
  COUNTRY_CODES,
  CURRENCY_CODES,
  CURRENCY_FORM,
  DOCUMENT_REFERENCE_MAX,
  EXEMPTION_CODE_FORM,
  FIELD_MAX,
  hasMoreThanTwoCharacters,
  INVOICE_TYPES,
  isAcceptedTaxRate,
  isEmailAddress,
  isValidPostCode,
  isValidTaxId,
  LINE_TYPES,
  sendToAddresses,
  TAX_EXEMPTION_CODES,
  TAX_RATES,
  WAYBILL_TYPES,
} from '../../client/input-rules';
import { compare, parseDecimal } from '../../client/money';
import type { AddressData, ClientData, CreateInput, DocumentData, DocumentKind, LineData } from '../document-model';
import type { DocumentTypeLetter } from '../reference-data';
import { Checker, isRawObject, RawObject, Violation } from './checker';

/**
 * The service's own input validation of Create Document and Create Waybill, independent of the
 * client's zod schemas: the sandbox must reject bad input that arrives raw. Field tokens follow
 * the service's style (DocumentDetailDate, DocumentDetailExternalId): Client* for the client,
 * DocumentDetail* for the document or waybill, Line* for lines (ElementNumber = 0-based line
 * index), LoadAddress* / DestinationAddress* for waybill addresses. docs/sandbox.md has the table.
 * Every rule's content (lengths, lists, formats) is client/input-rules.ts, the client's own table.
 */

export interface InputLimits {
  /** REST or SOAP: DocumentReference is S(50) in REST and S(100) in SOAP; SOAP's IsToClose is an xsd:boolean. */
  form: ApiForm;
  /** The VAT rates the account has configured (default: TAX_RATES, the Portuguese ones). */
  taxRates?: readonly string[] | undefined;
}

export type InputCheck = { ok: true; input: CreateInput } | { ok: false; violations: Violation[] };

const C = FIELD_MAX.Client;
const D = FIELD_MAX.Document;
const L = FIELD_MAX.Line;
const A = FIELD_MAX.Address;

function checkPostCode(c: Checker, value: string | undefined, countryCode: string | undefined, field: string): void {
  if (value === undefined) return;
  if (!isValidPostCode(countryCode, value)) {
    const hint = countryCode === 'PT' ? ' (Portuguese post codes are written NNNN-NNN)' : '';
    c.add('InvalidPostCode', field, `Invalid post code${hint}`);
  }
}

function checkCountry(c: Checker, value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!COUNTRY_CODES.has(value)) {
    c.add('InvalidCountryCode', field, 'CountryCode must be an ISO 3166-1 alpha-2 code such as PT');
    return undefined;
  }
  return value;
}

function checkClient(c: Checker, raw: RawObject): ClientData | undefined {
  const Name = c.text(raw, 'Name', 'ClientName', { required: true, max: C.Name });
  const NIF = c.text(raw, 'NIF', 'ClientNIF', { required: true, max: C.NIF });
  const CountryCode = checkCountry(c, c.text(raw, 'CountryCode', 'ClientCountryCode', { required: true, max: C.CountryCode }), 'ClientCountryCode');
  const client: Partial<ClientData> = {
    Name,
    NIF,
    CountryCode,
    Address: c.text(raw, 'Address', 'ClientAddress', { max: C.Address }),
    City: c.text(raw, 'City', 'ClientCity', { max: C.City }),
    PostCode: c.text(raw, 'PostCode', 'ClientPostCode', { max: C.PostCode }),
    CountryName: c.text(raw, 'CountryName', 'ClientCountryName', { max: Number.POSITIVE_INFINITY }),
    PhoneNumber: c.text(raw, 'PhoneNumber', 'ClientPhoneNumber', { max: C.PhoneNumber }),
    LegalName: c.text(raw, 'LegalName', 'ClientLegalName', { max: C.LegalName }),
    Email: c.text(raw, 'Email', 'ClientEmail', { max: C.Email }),
    IBAN: c.text(raw, 'IBAN', 'ClientIBAN', { max: C.IBAN }),
  };
  if (NIF !== undefined && CountryCode !== undefined && !isValidTaxId(CountryCode, NIF)) {
    c.add('InvalidTaxId', 'TaxId', 'Invalid Tax Id');
  }
  checkPostCode(c, client.PostCode, CountryCode, 'ClientPostCode');
  if (client.Email !== undefined && !isEmailAddress(client.Email)) c.add('InvalidEmail', 'ClientEmail', 'Email must be an e-mail address');
  if (Name === undefined || NIF === undefined || CountryCode === undefined) return undefined;
  return stripUndefined(client) as ClientData;
}

function checkLine(c: Checker, raw: unknown, index: number, taxRates: readonly string[]): LineData | undefined {
  if (!isRawObject(raw)) {
    c.add('InvalidFormat', 'Line', 'Each line must be an object', index);
    return undefined;
  }
  const at = { element: index };
  const Code = c.text(raw, 'Code', 'LineCode', { required: true, max: L.Code, ...at });
  const Description = c.text(raw, 'Description', 'LineDescription', { required: true, max: L.Description, ...at });
  const UnitPrice = c.decimal(raw, 'UnitPrice', 'LineUnitPrice', true, index);
  const Quantity = c.decimal(raw, 'Quantity', 'LineQuantity', true, index);
  // 19 FailedToCreateNewProductUnit: "check that Lines has the Unit field (required) and that it
  // fits string(50)" (public error list): a missing or oversized Unit is that error.
  const Unit = c.text(raw, 'Unit', 'LineUnit', { required: true, max: L.Unit, ...at, category: 'FailedToCreateNewProductUnit' });
  const Type = c.text(raw, 'Type', 'LineType', { required: true, max: L.Type, ...at });
  const TaxValue = c.decimal(raw, 'TaxValue', 'LineTaxValue', true, index);
  const ProductDiscount = c.percentage(raw, 'ProductDiscount', 'LineProductDiscount', true, index);
  const CostCenter = c.text(raw, 'CostCenter', 'LineCostCenter', { max: L.CostCenter, ...at });
  if (Type !== undefined && !(LINE_TYPES as readonly string[]).includes(Type)) {
    c.add('InvalidLineType', 'LineType', 'Line Type must be S (service) or P (product)', index, 'TypeInvalid');
  }
  if (UnitPrice !== undefined && parseDecimal(UnitPrice).units < 0n) {
    c.add('MustNotBeNegative', 'LineUnitPrice', 'UnitPrice must not be negative', index);
  }
  if (Quantity !== undefined && parseDecimal(Quantity).units <= 0n) {
    c.add('MustBePositive', 'LineQuantity', 'Quantity must be greater than zero', index);
  }
  if (TaxValue !== undefined && !isAcceptedTaxRate(parseDecimal(TaxValue), taxRates)) {
    c.add('InvalidPercentage', 'LineTaxValue', `TaxValue must be one of the account's VAT rates: ${taxRates.join(', ')}`, index, 'InvalidPercentage');
  }
  if (
    Code === undefined ||
    Description === undefined ||
    UnitPrice === undefined ||
    Quantity === undefined ||
    Unit === undefined ||
    (Type !== 'S' && Type !== 'P') ||
    TaxValue === undefined ||
    ProductDiscount === undefined
  ) {
    return undefined;
  }
  return stripUndefined({ Code, Description, UnitPrice, Quantity, Unit, Type, TaxValue, ProductDiscount, CostCenter }) as LineData;
}

function checkLines(c: Checker, raw: RawObject, taxRates: readonly string[]): LineData[] | undefined {
  const lines = raw.Lines;
  if (!Array.isArray(lines) || lines.length === 0) {
    c.add('LinesRequired', 'DocumentDetailLines', 'At least one line is required');
    return undefined;
  }
  const checked = lines.map((line, i) => checkLine(c, line, i, taxRates));
  return checked.every((line): line is LineData => line !== undefined) ? checked : undefined;
}

function checkAddress(c: Checker, doc: RawObject, key: 'LoadAddress' | 'DestinationAddress'): AddressData | undefined {
  const raw = c.object(doc, key, key);
  if (raw === undefined) return undefined;
  const AddressDetail = c.text(raw, 'AddressDetail', `${key}AddressDetail`, { required: true, max: A.AddressDetail });
  const City = c.text(raw, 'City', `${key}City`, { required: true, max: A.City });
  const PostalCode = c.text(raw, 'PostalCode', `${key}PostalCode`, { required: true, max: A.PostalCode });
  const CountryCode = checkCountry(c, c.text(raw, 'CountryCode', `${key}CountryCode`, { required: true, max: A.CountryCode }), `${key}CountryCode`);
  checkPostCode(c, PostalCode, CountryCode, `${key}PostalCode`);
  if (AddressDetail === undefined || City === undefined || PostalCode === undefined || CountryCode === undefined) return undefined;
  return { AddressDetail, City, PostalCode, CountryCode };
}

function checkType(c: Checker, doc: RawObject, kind: DocumentKind): DocumentTypeLetter | undefined {
  const value = c.text(doc, 'Type', 'DocumentDetailType', { required: true, max: D.Type });
  if (value === undefined) return undefined;
  const allowed: readonly string[] = kind === 'document' ? INVOICE_TYPES : WAYBILL_TYPES;
  if (!allowed.includes(value)) {
    c.add('InvalidDocumentType', 'DocumentDetailType', `Type must be one of ${allowed.join(', ')}`, 0, 'TypeInvalid');
    return undefined;
  }
  return value as DocumentTypeLetter;
}

function checkDocument(c: Checker, doc: RawObject, kind: DocumentKind, limits: InputLimits): DocumentData | undefined {
  const isWaybill = kind === 'waybill';
  const Type = checkType(c, doc, kind);
  const Date = c.date(doc, 'Date', 'DocumentDetailDate', true);
  const DueDate = c.date(doc, 'DueDate', 'DocumentDetailDueDate', !isWaybill);
  const Description = c.text(doc, 'Description', 'DocumentDetailDescription', { max: D.Description });
  const DocumentReference = c.text(doc, 'DocumentReference', 'DocumentDetailDocumentReference', {
    max: DOCUMENT_REFERENCE_MAX[limits.form],
  });
  const TaxExemptionReasonCode = c.text(doc, 'TaxExemptionReasonCode', 'DocumentDetailTaxExemptionReasonCode', {
    max: D.TaxExemptionReasonCode,
  });
  const Currency = c.text(doc, 'Currency', 'DocumentDetailCurrency', { max: D.Currency });
  const data: Partial<DocumentData> = {
    Type,
    Serie: c.text(doc, 'Serie', 'DocumentDetailSerie', { max: D.Serie }),
    Id: c.id(doc, 'Id', 'DocumentDetailId'),
    Date,
    DueDate,
    Description,
    DocumentReference,
    TaxExemptionReasonCode,
    Currency,
    EuroRate: c.decimal(doc, 'EuroRate', 'DocumentDetailEuroRate', false),
    Retention: c.percentage(doc, 'Retention', 'DocumentDetailRetention', false),
    ExternalId: c.text(doc, 'ExternalId', 'DocumentDetailExternalId', { max: D.ExternalId }),
    PurchaseOrder: c.text(doc, 'PurchaseOrder', 'DocumentDetailPurchaseOrder', { max: D.PurchaseOrder }),
    Lines: checkLines(c, doc, limits.taxRates ?? TAX_RATES),
  };
  if (Description !== undefined && !hasMoreThanTwoCharacters(Description)) {
    c.add('TooShort', 'DocumentDetailDescription', 'Description must have more than two characters');
  }
  if (!isWaybill && Date !== undefined && DueDate !== undefined && DueDate <= Date) {
    c.add('DueDateMustBePosteriorToDate', 'DocumentDetailDueDate', 'DueDate must be later than Date');
  }
  if (Type !== undefined && CORRECTING_TYPES.includes(Type) && DocumentReference === undefined) {
    c.add('DocumentReferenceRequired', 'DocumentDetailDocumentReference', 'Credit and debit notes must reference the document they correct');
  }
  checkExemption(c, doc, TaxExemptionReasonCode);
  if (Currency !== undefined) {
    if (!CURRENCY_FORM.test(Currency)) c.add('InvalidCurrency', 'DocumentDetailCurrency', 'Currency must be an ISO 4217 code such as EUR');
    else if (!CURRENCY_CODES.has(Currency)) {
      c.add('CurrencyDoesNotExist', 'DocumentDetailCurrency', `Currency ${Currency} does not exist`, 0, 'CurrencyDoesNotExist');
    }
  }
  if (data.EuroRate !== undefined && parseDecimal(data.EuroRate).units <= 0n) {
    c.add('MustBePositive', 'DocumentDetailEuroRate', 'EuroRate must be greater than zero');
  }
  if (isWaybill) {
    data.LoadDateTime = c.dateTime(doc, 'LoadDateTime', 'DocumentDetailLoadDateTime', true);
    data.LoadAddress = checkAddress(c, doc, 'LoadAddress');
    data.DestinationAddress = checkAddress(c, doc, 'DestinationAddress');
    data.VehicleLicence = c.text(doc, 'VehicleLicence', 'DocumentDetailVehicleLicence', { max: D.VehicleLicence });
    if (data.LoadDateTime !== undefined && Date !== undefined && data.LoadDateTime.slice(0, 10) < Date) {
      c.add('LoadDateTimeBeforeDate', 'DocumentDetailLoadDateTime', 'LoadDateTime must be equal to or later than the waybill date');
    }
  }
  if (Type === undefined || Date === undefined || data.Lines === undefined) return undefined;
  return stripUndefined(data) as DocumentData;
}

function checkExemption(c: Checker, doc: RawObject, code: string | undefined): void {
  const lines = Array.isArray(doc.Lines) ? doc.Lines : [];
  const hasZeroRate = lines.some((line) => {
    if (!isRawObject(line)) return false;
    const tax = String(line.TaxValue ?? '').trim();
    return /^[+-]?\d+(\.\d+)?$/.test(tax) && compare(parseDecimal(tax), parseDecimal(0)) === 0;
  });
  if (code === undefined) {
    if (hasZeroRate) {
      c.add('TaxExemptionReasonRequired', 'DocumentDetailTaxExemptionReasonCode', 'TaxExemptionReasonCode is required when a line has 0% tax');
    }
    return;
  }
  if (!EXEMPTION_CODE_FORM.test(code)) {
    c.add('InvalidFormat', 'DocumentDetailTaxExemptionReasonCode', 'TaxExemptionReasonCode looks like M01 or M99');
  } else if (!TAX_EXEMPTION_CODES.has(code)) {
    c.add('TaxExemptionDoesNotExist', 'DocumentDetailTaxExemptionReasonCode', `Tax exemption ${code} does not exist`, 0, 'TaxExemptionDoesNotExist');
  }
}

function checkSendTo(c: Checker, body: RawObject): string | undefined {
  const value = c.text(body, 'SendTo', 'SendTo', { max: FIELD_MAX.SendTo });
  if (value === undefined) return undefined;
  const addresses = sendToAddresses(value);
  if (addresses === undefined) {
    c.add('InvalidEmail', 'SendTo', 'SendTo must be an e-mail address (several may be separated by ; or ,)');
    return undefined;
  }
  return addresses.join(';');
}

/** Validates a Create Document (`Document`) or Create Waybill (`Waybill`) body. */
export function checkCreateInput(body: unknown, kind: DocumentKind, limits: InputLimits): InputCheck {
  const c = new Checker();
  if (!isRawObject(body)) {
    c.add('InvalidFormat', 'Body', 'The body must be a JSON object');
    return { ok: false, violations: c.violations };
  }
  const isToClose = c.boolean(body, 'IsToClose', 'IsToClose', limits.form);
  const sendTo = checkSendTo(c, body);
  const rawClient = c.object(body, 'Client', 'Client');
  const client = rawClient ? checkClient(c, rawClient) : undefined;
  const documentKey = kind === 'document' ? 'Document' : 'Waybill';
  const rawDocument = c.object(body, documentKey, documentKey);
  const document = rawDocument ? checkDocument(c, rawDocument, kind, limits) : undefined;
  if (c.violations.length > 0 || isToClose === undefined || client === undefined || document === undefined) {
    return { ok: false, violations: c.violations };
  }
  return { ok: true, input: stripUndefined({ kind, isToClose, sendTo, client, document }) as CreateInput };
}

function stripUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
