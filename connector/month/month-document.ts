import type { Decimal } from '../../client/money';

/**
 * A certified sales document as the month pack compares it, whichever source it came from (our
 * ledger through Get Document, or the month's SAF-T): its number, type, date, status, and its base
 * and VAT per rate and region in euros. Credit notes carry negative amounts, so a sum over the
 * month is what the VAT return declares.
 */

export type TaxRegion = 'PT' | 'PT-AC' | 'PT-MA';
export const TAX_REGIONS: readonly TaxRegion[] = ['PT', 'PT-AC', 'PT-MA'];

export interface TaxPart {
  region: TaxRegion;
  /** The VAT rate, "23", "0". */
  percent: string;
  base: Decimal;
  tax: Decimal;
  /** The exemption code of a 0 % part (M05, M16...). */
  exemptionCode?: string;
}

/** SAF-T's document types: FT invoice, FR invoice-receipt, FS simplified, NC credit note, ND debit note. */
export type SaftType = 'FT' | 'FR' | 'FS' | 'NC' | 'ND';

export interface MonthDocument {
  /** "FR A/12": SAF-T InvoiceNo, MagniFinance DocumentNumber. */
  number: string;
  type: SaftType;
  /** yyyy-mm-dd */
  date: string;
  /** N normal, A cancelled. */
  status: 'N' | 'A';
  customerTaxId?: string;
  customerCountry?: string;
  parts: TaxPart[];
  /** In euros, signed (credit notes negative). */
  net: Decimal;
  tax: Decimal;
  gross: Decimal;
  /** The document's own currency and, when not the euro, its gross in it and the rate to euros. */
  currency: string;
  currencyGross?: Decimal;
  euroRate?: string;
  /** The invoices a credit note corrects. */
  references: string[];
}

/** MagniFinance's type letters as SAF-T names them. */
export const SAFT_TYPE_OF_LETTER: Readonly<Record<string, SaftType>> = { T: 'FR', I: 'FT', S: 'FS', C: 'NC', D: 'ND' };
