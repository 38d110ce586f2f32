/**
 * Reference lists the emulated service checks input against. The spec shows none of these lists
 * beyond their formats, so they are the public standards (ISO 3166-1, ISO 4217) and the
 * Portuguese tax rules (rates and exemption codes), written out here once.
 */

/** ISO 3166-1 alpha-2: the officially assigned codes. */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS ' +
    'BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE ' +
    'EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM ' +
    'HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC ' +
    'LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA ' +
    'NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
    'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO ' +
    'TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** ISO 4217 codes of currencies in circulation (the ones a Portuguese shop plausibly invoices in). */
export const CURRENCY_CODES: ReadonlySet<string> = new Set(
  (
    'AED AOA ARS AUD BGN BRL CAD CHF CLP CNY COP CVE CZK DKK EGP EUR GBP HKD HUF IDR ILS INR ISK JPY ' +
    'KRW MAD MOP MXN MYR MZN NOK NZD PEN PHP PLN QAR RON RSD SAR SEK SGD STN THB TRY TWD UAH USD UYU ZAR'
  ).split(' '),
);

/**
 * VAT percentages accepted on a line: mainland 23/13/6, Madeira 22/12/4 (5 before Oct 2024),
 * Azores 16/9/4, 21 (listed by the spec among the defaults), and 0 with an exemption code.
 */
export const TAX_RATES: readonly string[] = ['0', '4', '5', '6', '9', '12', '13', '16', '21', '22', '23'];

/**
 * Exemption reason codes of the Portuguese tax authority's SAF-T table (M08 was retired in 2023).
 * Well-formed but absent from this list gives TaxExemptionDoesNotExist (ErrorValue 10).
 */
export const TAX_EXEMPTION_CODES: ReadonlySet<string> = new Set(
  (
    'M01 M02 M04 M05 M06 M07 M09 M10 M11 M12 M13 M14 M15 M16 M19 M20 M21 M25 M26 ' +
    'M30 M31 M32 M33 M34 M40 M41 M42 M43 M44 M45 M46 M99'
  ).split(' '),
);

/** Document type letters and the number prefix each series uses ("FT A/1"). */
export const INVOICE_TYPES = ['T', 'I', 'S', 'C', 'D'] as const;
export const WAYBILL_TYPES = ['W', 'Y'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export type WaybillType = (typeof WAYBILL_TYPES)[number];
export type DocumentTypeLetter = InvoiceType | WaybillType;

export const NUMBER_PREFIX: Readonly<Record<DocumentTypeLetter, string>> = {
  T: 'FR',
  I: 'FT',
  S: 'FS',
  C: 'NC',
  D: 'ND',
  W: 'GT',
  Y: 'GR',
};

export const TYPE_NAMES: Readonly<Record<DocumentTypeLetter, string>> = {
  T: 'Fatura-Recibo',
  I: 'Fatura',
  S: 'Fatura Simplificada',
  C: 'Nota de Crédito',
  D: 'Nota de Débito',
  W: 'Guia de Transporte',
  Y: 'Guia de Remessa',
};

/** The series used when a document names none. */
export const DEFAULT_SERIE = 'A';

/** Types a partner token may issue unless the partnership enables more (spec: T and C). */
export const DEFAULT_PARTNER_TYPES: readonly DocumentTypeLetter[] = ['T', 'C'];
