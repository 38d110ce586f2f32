import {
  CORRECTING_TYPES,
  COUNTRY_CODES,
  CURRENCY_CODES,
  CURRENCY_FORM,
  DOCUMENT_REFERENCE_MAX,
  EXEMPTION_CODE_FORM,
  FIELD_MAX,
  INVOICE_TYPES,
  LINE_TYPES,
  PERCENTAGE_RANGE,
  TAX_EXEMPTION_CODES,
  dateDay,
  hasMoreThanTwoCharacters,
  isBlank,
  isEmailAddress,
  isValidPostCode,
  isValidTaxId,
  readIsToClose,
  sendToAddresses,
} from '../client/input-rules';
import { compare, type Decimal, parseDecimal } from '../client/money';
import { FAIL, type Field, list, object } from '../client/schemas/hand-proof';
import { hasZeroTaxLine, type CreateDocumentRequest } from '../client/schemas/document';

/**
 * CreateDocumentRequestSchema's answer (REST form) proven by hand for the request the law composes,
 * or undefined: then zod reads it, decides and words any refusal (order-to-document.ts
 * checkedRequest). The answer is zod's: each object's keys in the schema's order (only those the
 * input has; unknown ones left out), a blank optional text kept as undefined (it is left out of the
 * JSON sent), IsToClose as a boolean, every other value as given. zod's walk of the request was
 * about 130 KB and 0.25 ms per document (issue 29); test/law/request-fast-path.test.ts holds this
 * to zod's answer on every order fixture's request and on each field broken in turn. It may give up
 * where zod would accept (zod then answers), never answer where zod refuses.
 */

type Fields = Record<string, unknown>;

/** sized(max): text of at most `max` UTF-16 units. */
const sized = (max: number, also?: (text: string) => boolean): Field => (value) => (typeof value === 'string' && value.length <= max && (also === undefined || also(value)) ? value : FAIL);
/** requiredText(max): present, not blank, at most `max`. */
const required = (max: number): Field => sized(max, (text) => !isBlank(text));
/** optionalField(schema): blank text counts as absent (undefined), absent is fine, anything else is read by `schema`. */
const optionalField = (schema: Field): Field => (value) => (value === undefined || (typeof value === 'string' && isBlank(value)) ? undefined : schema(value));
/** schema.optional(): absent is fine (no blank rule). */
const optional = (schema: Field): Field => (value) => (value === undefined ? undefined : schema(value));
const oneOf = (values: readonly string[]): Field => (value) => (typeof value === 'string' && values.includes(value) ? value : FAIL);

const DECIMAL_INPUT = /^-?\d+(\.\d+)?$/;
const MINUS = 45;
const NONZERO_DIGIT = /[1-9]/;
/** DecimalInput within [min, max], or (max undefined) above `min`, kept as given. */
function decimal(min: number, max: number | undefined): Field {
  const low = parseDecimal(min);
  const high = max === undefined ? undefined : parseDecimal(max);
  const maxDigits = max === undefined ? 0 : String(Math.trunc(max)).length;
  return (value) => {
    // A number written without an exponent (0, or 1e-6 to 1e21) compares as its shortest decimal text
    // does, which is what zod's rule reads; any other is zod's (5e-324 reads as 0.000…0 there).
    if (typeof value === 'number') {
      const plain = value === 0 || (Math.abs(value) >= 1e-6 && Math.abs(value) < 1e21);
      return plain && (max === undefined ? value > min : value >= min && value <= max) ? value : FAIL;
    }
    if (typeof value !== 'string' || !DECIMAL_INPUT.test(value)) return FAIL;
    // Plain text without a sign: at least 0, and below `max` when its whole part has fewer digits.
    if (min === 0 && value.charCodeAt(0) !== MINUS) {
      const dot = value.indexOf('.');
      if (max === undefined ? NONZERO_DIGIT.test(value) : (dot === -1 ? value.length : dot) < maxDigits) return value;
    }
    const d: Decimal = parseDecimal(value);
    const within = high === undefined ? compare(d, low) > 0 : compare(d, low) >= 0 && compare(d, high) <= 0;
    return within ? value : FAIL;
  };
}
const percentage = decimal(PERCENTAGE_RANGE.min, PERCENTAGE_RANGE.max);
/** PositiveDecimal: any DecimalInput above 0. */
const positive = decimal(0, undefined);

const C = FIELD_MAX.Client;
const client = object({
  Name: required(C.Name),
  NIF: required(C.NIF),
  CountryCode: (value) => (typeof value === 'string' && COUNTRY_CODES.has(value) ? value : FAIL),
  Address: optionalField(sized(C.Address)),
  City: optionalField(sized(C.City)),
  PostCode: optionalField(sized(C.PostCode)),
  CountryName: optionalField(sized(Number.MAX_SAFE_INTEGER)),
  PhoneNumber: optionalField(sized(C.PhoneNumber)),
  LegalName: optionalField(sized(C.LegalName)),
  Email: optionalField(sized(C.Email, isEmailAddress)),
  IBAN: optionalField(sized(C.IBAN)),
});

const L = FIELD_MAX.Line;
const line = object({
  Code: required(L.Code),
  Description: required(L.Description),
  UnitPrice: decimal(0, Number.MAX_SAFE_INTEGER),
  Quantity: positive,
  Unit: required(L.Unit),
  Type: oneOf(LINE_TYPES),
  TaxValue: percentage,
  ProductDiscount: percentage,
  CostCenter: optionalField(sized(L.CostCenter)),
});

const D = FIELD_MAX.Document;
const lines = list(line, false);
const document = object({
  Type: oneOf(INVOICE_TYPES),
  Serie: optionalField(sized(D.Serie)),
  Id: optional((value) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : FAIL)),
  Date: (value) => (typeof value === 'string' && dateDay(value) !== undefined ? value : FAIL),
  DueDate: (value) => (typeof value === 'string' && dateDay(value) !== undefined ? value : FAIL),
  Description: optionalField(sized(D.Description, hasMoreThanTwoCharacters)),
  DocumentReference: optionalField(sized(DOCUMENT_REFERENCE_MAX.rest)),
  TaxExemptionReasonCode: optionalField(sized(D.TaxExemptionReasonCode, (code) => EXEMPTION_CODE_FORM.test(code) && TAX_EXEMPTION_CODES.has(code))),
  Currency: optionalField((value) => (typeof value === 'string' && CURRENCY_FORM.test(value) && CURRENCY_CODES.has(value) ? value : FAIL)),
  EuroRate: optional(positive),
  Retention: optional(percentage),
  ExternalId: optionalField(sized(D.ExternalId)),
  PurchaseOrder: optionalField(sized(D.PurchaseOrder)),
  // At least one line.
  Lines: (value) => (Array.isArray(value) && value.length > 0 ? lines(value) : FAIL),
});

const request = object({
  IsToClose: (value) => readIsToClose(value, 'rest') ?? FAIL,
  SendTo: optionalField(sized(FIELD_MAX.SendTo, (text) => sendToAddresses(text) !== undefined)),
  Client: client,
  Document: document,
});

/** The client's rules across fields: the tax id and the postcode read against the country. */
function clientAgrees(c: Fields): boolean {
  const country = c.CountryCode as string;
  if (!isValidTaxId(country, c.NIF as string)) return false;
  return typeof c.PostCode !== 'string' || isValidPostCode(country, c.PostCode);
}

/** The document's rules across fields: due after the date, a corrected document named, a 0% line's code. */
function documentAgrees(d: Fields): boolean {
  if ((dateDay(d.DueDate as string) as string) <= (dateDay(d.Date as string) as string)) return false;
  if (CORRECTING_TYPES.includes(d.Type as string) && !(typeof d.DocumentReference === 'string' && d.DocumentReference.trim() !== '')) return false;
  return !(hasZeroTaxLine(d.Lines) && !d.TaxExemptionReasonCode);
}

/** zod's answer for `input` when the hand proof covers it, else undefined (zod decides). */
export function commonDocumentRequest(input: unknown): CreateDocumentRequest | undefined {
  const out = request(input);
  if (out === FAIL || !clientAgrees(out.Client as Fields) || !documentAgrees(out.Document as Fields)) return undefined;
  return out as unknown as CreateDocumentRequest;
}
