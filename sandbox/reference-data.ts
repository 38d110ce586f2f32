/**
 * Reference data of the emulated service: document types, number prefixes, type names, series
 * and partner defaults. The input lists (countries, currencies, VAT rates, exemption codes) are the
 * client's (client/input-rules.ts), so the client and the sandbox check input alike.
 */

// The lists both the client and the sandbox check input against live in client/input-rules.ts.
export { COUNTRY_CODES, CURRENCY_CODES, TAX_EXEMPTION_CODES, TAX_RATES } from '../client/input-rules';
import { INVOICE_TYPES, WAYBILL_TYPES } from '../client/input-rules';

/** Document type letters and the number prefix each series uses ("FT A/1"). */
export { INVOICE_TYPES, WAYBILL_TYPES };
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
