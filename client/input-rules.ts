import { compare, Decimal, parseDecimal } from './money';
import { CONSUMER_NIF, isValidPortugueseNif } from './nif';
import { ISO_COUNTRY_CODES, ISO_CURRENCY_CODES } from './schemas/iso-codes';

/**
 * The one table of input rules of the invoicing service. The client's zod schemas
 * (`client/schemas/`) and the sandbox's own validator (`sandbox/validation/`) both read it, so
 * the client never refuses what the service accepts, nor lets through what it refuses. Imports
 * only relative paths (the n8n bundle includes it).
 */

/** S(n) of every text field, per resource. A field absent here has no length limit. */
export const FIELD_MAX = {
  Client: {
    Name: 75,
    NIF: 20,
    CountryCode: 2,
    Address: 200,
    City: 50,
    PostCode: 50,
    // CountryName: "string" in the spec and the public docs, no length given.
    PhoneNumber: 50,
    LegalName: 500,
    Email: 255,
    IBAN: 300,
  },
  Document: {
    Type: 1,
    Serie: 30,
    Description: 300,
    TaxExemptionReasonCode: 3,
    Currency: 3,
    ExternalId: 50,
    PurchaseOrder: 50,
    VehicleLicence: 30,
  },
  Line: { Code: 60, Description: 200, Unit: 50, Type: 1, CostCenter: 50 },
  Address: { AddressDetail: 100, City: 50, PostalCode: 20, CountryCode: 2 },
  Partner: {
    CompanyTaxId: 20,
    UserName: 75,
    UserEmail: 75,
    UserPhone: 50,
    CompanyLegalName: 50,
    CompanyAddress: 200,
    CompanyCity: 50,
    CompanyPostCode: 50,
    CompanyCountry: 2,
  },
  SendTo: 500,
} as const;

/** DocumentReference is S(50) in REST and S(100) in SOAP (spec, Document table). */
export const DOCUMENT_REFERENCE_MAX = { rest: 50, soap: 100 } as const;
export type ApiForm = keyof typeof DOCUMENT_REFERENCE_MAX;

/** Document type letters: T invoice/receipt, I invoice, S simplified, C credit note, D debit note. */
export const INVOICE_TYPES = ['T', 'I', 'S', 'C', 'D'] as const;
/** W waybill, Y delivery note. */
export const WAYBILL_TYPES = ['W', 'Y'] as const;
/** P product, S service. */
export const LINE_TYPES = ['P', 'S'] as const;
/** Types that correct another document and must name it in DocumentReference. */
export const CORRECTING_TYPES: readonly string[] = ['C', 'D'];

/**
 * The VAT percentages an account has by default: mainland 23/13/6, Madeira 22/12/4 (5 before
 * October 2024), Azores 16/9/4, 21 (the spec lists it among the service's defaults), and 0 with an
 * exemption code. This is account configuration ("default rates of the service", spec, Line), so
 * only the service checks it (the sandbox answers 22 InvalidPercentage for another rate); the
 * client checks the percentage range, which is all it can know.
 */
export const TAX_RATES: readonly string[] = ['0', '4', '5', '6', '9', '12', '13', '16', '21', '22', '23'];
/** Whether `value` is one of `rates` (default TAX_RATES), compared as exact decimals (23 = 23.00). */
export function isAcceptedTaxRate(value: Decimal, rates: readonly string[] = TAX_RATES): boolean {
  return rates.some((rate) => compare(rateDecimal(rate), value) === 0);
}

/** Each configured rate read once (the sandbox asks for every line of every document). */
const RATE_DECIMALS = new Map<string, Decimal>();
const RATES_REMEMBERED = 256;

function rateDecimal(rate: string): Decimal {
  let read = RATE_DECIMALS.get(rate);
  if (read === undefined) {
    read = parseDecimal(rate);
    if (RATE_DECIMALS.size >= RATES_REMEMBERED) RATE_DECIMALS.clear();
    RATE_DECIMALS.set(rate, read);
  }
  return read;
}

/**
 * Exemption reason codes of the tax authority's SAF-T table (M08 was retired in 2023). A code of
 * the right form (`M` + two digits) that is not listed is 10 TaxExemptionDoesNotExist.
 */
export const TAX_EXEMPTION_CODES: ReadonlySet<string> = new Set(
  (
    'M01 M02 M04 M05 M06 M07 M09 M10 M11 M12 M13 M14 M15 M16 M19 M20 M21 M25 M26 ' +
    'M30 M31 M32 M33 M34 M40 M41 M42 M43 M44 M45 M46 M99'
  ).split(' '),
);
export const EXEMPTION_CODE_FORM = /^M\d{2}$/;

/** ISO 4217: three capitals (else a format error), and a known code (else 11 CurrencyDoesNotExist). */
export const CURRENCY_FORM = /^[A-Z]{3}$/;
export const CURRENCY_CODES: ReadonlySet<string> = ISO_CURRENCY_CODES;
/** ISO 3166-1 alpha-2, capitals. */
export const COUNTRY_CODES: ReadonlySet<string> = ISO_COUNTRY_CODES;

/** Percentages (ProductDiscount, Retention) are within 0..100. */
export const PERCENTAGE_RANGE = { min: 0, max: 100 } as const;

/** "More than two characters" (Description), counted without surrounding spaces. */
export function hasMoreThanTwoCharacters(value: string): boolean {
  return value.trim().length > 2;
}

/** Blank text counts as absent (an empty SOAP element, a shop's ""): required fields refuse it. */
export function isBlank(value: string): boolean {
  return value.trim() === '';
}

const PT_POSTCODE = /^\d{4}-\d{3}$/;
const FOREIGN_POSTCODE = /^[A-Za-z0-9][A-Za-z0-9 -]*$/;

/** Portugal: NNNN-NNN; elsewhere letters, digits, spaces and dashes. */
export function isValidPostCode(countryCode: string | undefined, value: string): boolean {
  return countryCode === 'PT' ? PT_POSTCODE.test(value) : FOREIGN_POSTCODE.test(value);
}

const EMAIL_ADDRESS = /^[^\s@;,]+@[^\s@;,]+\.[^\s@;,]+$/;

export function isEmailAddress(value: string): boolean {
  return EMAIL_ADDRESS.test(value);
}

/** SendTo: one address or several separated by ";" or ","; undefined when any is not an address. */
export function sendToAddresses(value: string): string[] | undefined {
  const addresses = value.split(/[;,]/).map((a) => a.trim()).filter((a) => a !== '');
  return addresses.length > 0 && addresses.every(isEmailAddress) ? addresses : undefined;
}

/**
 * The service validates tax ids itself. Portugal gets the full NIF check (digits, prefix, check
 * digit); other countries a format check, since their check digits are not the service's business.
 * An optional leading country prefix ("PT", "ES") and spaces are tolerated.
 */
const FOREIGN_TAX_ID_FORMATS: Readonly<Record<string, RegExp>> = {
  ES: /^[0-9A-Z]\d{7}[0-9A-Z]$/,
  FR: /^[0-9A-Z]{2}\d{9}$/,
  DE: /^\d{9}$/,
  IT: /^\d{11}$/,
  NL: /^\d{9}B\d{2}$/,
  BE: /^[01]\d{9}$/,
  GB: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  IE: /^\d{7}[A-Z]{1,2}$|^\d[A-Z+*]\d{5}[A-Z]$/,
};
const GENERIC_TAX_ID_FORMAT = /^[0-9A-Z][0-9A-Z.\-/]{3,19}$/;


export function isValidTaxId(countryCode: string, taxId: string): boolean {
  const country = countryCode.toUpperCase();
  const compact = taxId.replace(/\s+/g, '').toUpperCase();
  // The generic final-consumer number stands for any consumer without a tax id, foreign ones too.
  if (compact === CONSUMER_NIF) return true;
  if (country === 'PT') return /^(PT)?\d{9}$/.test(compact) && isValidPortugueseNif(compact);
  const withoutPrefix = compact.startsWith(country) ? compact.slice(country.length) : compact;
  const format = FOREIGN_TAX_ID_FORMATS[country];
  return format ? format.test(withoutPrefix) : GENERIC_TAX_ID_FORMAT.test(withoutPrefix);
}

/** "PT509442013" and "509 442 013" are the same Portuguese NIF, "509442013". */
export function normaliseTaxId(taxId: string): string {
  return taxId.replace(/\s+/g, '').toUpperCase().replace(/^PT(?=\d{9}$)/, '');
}

/**
 * IsToClose as each form writes it: REST JSON true/false (the spec's samples also send the text
 * "true"); SOAP an xsd:boolean, whose lexical forms are true, false, 1 and 0.
 */
export function readIsToClose(raw: unknown, form: ApiForm): boolean | undefined {
  if (raw === true || raw === false) return raw;
  if (typeof raw !== 'string') return undefined;
  const text = form === 'soap' ? raw.trim() : raw;
  if (text === 'true' || (form === 'rest' && text === 'True')) return true;
  if (text === 'false' || (form === 'rest' && text === 'False')) return false;
  if (form === 'soap' && text === '1') return true;
  if (form === 'soap' && text === '0') return false;
  return undefined;
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(T00:00:00)?$/;

/**
 * A date field's day (yyyy-mm-dd) when it names a real day, else undefined. The service writes
 * dates as `yyyy-mm-ddT00:00:00` in its answers, and takes that form back as well.
 */
export function dateDay(value: string): string | undefined {
  const m = DATE_TEXT.exec(value);
  if (!m) return undefined;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return undefined;
  if (day > new Date(Date.UTC(Number(m[1]), month, 0)).getUTCDate()) return undefined;
  return value.slice(0, 10);
}
