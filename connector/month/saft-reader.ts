import { z } from 'zod';
import { add, Decimal, isZero, multiply, negate, parseDecimal, round, shift, subtract, sum } from '../../client/money';
import { xmlTree, XmlError } from './xml-tree';
import { TAX_REGIONS, type MonthDocument, type SaftType, type TaxPart, type TaxRegion } from './month-document';

/**
 * Reads a SAF-T (PT) 1.04_01 file's sales documents (`SourceDocuments/SalesInvoices`): read, never
 * written. The file comes from the invoicing software (MagniFinance's back-office export, or any
 * other certified program), in UTF-8 or Windows-1252 as its XML declaration says. Amounts are the
 * file's euros; the VAT per rate of a document is its lines' base per rate times the rate, rounded
 * once per rate, and when the file's TaxPayable differs from that sum the difference is kept on the
 * document (`taxDifference`) rather than hidden.
 */

export class SaftFileError extends Error {
  constructor(
    readonly code: 'not-xml' | 'encoding' | 'not-saft' | 'version' | 'invalid',
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

export interface SaftSalesFile {
  version: string;
  companyTaxId: string;
  companyName: string;
  startDate: string;
  endDate: string;
  encoding: 'utf-8' | 'windows-1252';
  documents: (MonthDocument & { taxDifference?: Decimal })[];
  /** The file's own control totals (cancelled documents excluded), and whether the documents add up to them. */
  totalDebit: Decimal;
  totalCredit: Decimal;
  controlTotalsMatch: boolean;
}

/** The five XML entities and character references, in the texts the pack keeps (numbers have none). */
function decodeText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[lower] ?? whole;
  });
}

const Text = z.union([z.string(), z.number()]).transform((value) => decodeText(String(value)));
const OptionalText = Text.optional();
const LineSchema = z.object({
  LineNumber: OptionalText,
  DebitAmount: OptionalText,
  CreditAmount: OptionalText,
  Tax: z.object({ TaxType: Text, TaxCountryRegion: Text, TaxCode: OptionalText, TaxPercentage: OptionalText, TaxAmount: OptionalText }),
  TaxExemptionCode: OptionalText,
  References: z.array(z.object({ Reference: OptionalText })).optional(),
});
const InvoiceSchema = z.object({
  InvoiceNo: Text,
  DocumentStatus: z.object({ InvoiceStatus: Text }),
  InvoiceDate: Text,
  InvoiceType: z.enum(['FT', 'FR', 'FS', 'NC', 'ND']),
  CustomerID: Text,
  Line: z.array(LineSchema).min(1),
  DocumentTotals: z.object({
    TaxPayable: Text,
    NetTotal: Text,
    GrossTotal: Text,
    Currency: z.object({ CurrencyCode: Text, CurrencyAmount: Text, ExchangeRate: Text }).optional(),
  }),
});
const CustomerSchema = z.object({ CustomerID: Text, CustomerTaxID: Text, BillingAddress: z.object({ Country: OptionalText }).optional() });
const FileSchema = z.object({
  AuditFile: z.object({
    Header: z.object({ AuditFileVersion: Text, TaxRegistrationNumber: Text, CompanyName: Text, StartDate: Text, EndDate: Text }),
    MasterFiles: z.object({ Customer: z.array(CustomerSchema).optional() }).optional(),
    SourceDocuments: z
      .object({
        SalesInvoices: z.object({ TotalDebit: Text, TotalCredit: Text, Invoice: z.array(InvoiceSchema).optional() }).optional(),
      })
      .optional(),
  }),
});

/** The encoding the XML declaration names (a BOM means UTF-8); UTF-8 when it names none, as XML says. */
function declaredEncoding(bytes: Buffer): 'utf-8' | 'windows-1252' {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  const head = bytes.subarray(0, 200).toString('latin1');
  const named = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1]?.toLowerCase();
  if (named === undefined || named === 'utf-8' || named === 'utf8') return 'utf-8';
  if (named === 'windows-1252' || named === 'cp1252' || named === 'iso-8859-1' || named === 'latin1' || named === 'iso-8859-15') return 'windows-1252';
  throw new SaftFileError('encoding', named);
}

function decode(bytes: Buffer): { text: string; encoding: 'utf-8' | 'windows-1252' } {
  const encoding = declaredEncoding(bytes);
  try {
    return { text: new TextDecoder(encoding, { fatal: true }).decode(bytes), encoding };
  } catch {
    throw new SaftFileError('encoding', encoding);
  }
}

function amount(text: string | undefined): Decimal {
  return parseDecimal(text === undefined || text.trim() === '' ? '0' : text.trim());
}

function regionOf(text: string): TaxRegion {
  const region = text.trim().toUpperCase();
  return (TAX_REGIONS as readonly string[]).includes(region) ? (region as TaxRegion) : 'PT';
}

/** Base per rate and region of a document's lines, and the VAT of each, rounded once per rate. */
function partsOf(lines: z.infer<typeof LineSchema>[], sign: 1 | -1): TaxPart[] {
  const byKey = new Map<string, TaxPart>();
  for (const line of lines) {
    if (line.Tax.TaxType.trim().toUpperCase() !== 'IVA') continue;
    const lineAmount = subtract(amount(line.DebitAmount), amount(line.CreditAmount));
    // An invoice's lines are debits and a credit note's credits: the document's sign makes both positive here.
    const base = sign === 1 ? lineAmount : negate(lineAmount);
    const region = regionOf(line.Tax.TaxCountryRegion);
    const exemptionCode = isZero(amount(line.Tax.TaxPercentage)) ? line.TaxExemptionCode?.trim() : undefined;
    const key = `${region}:${trimPercent(line.Tax.TaxPercentage)}:${exemptionCode ?? ''}`;
    const found = byKey.get(key);
    if (found) found.base = add(found.base, base);
    else byKey.set(key, { region, percent: trimPercent(line.Tax.TaxPercentage), base, tax: { units: 0n, scale: 2 }, exemptionCode });
  }
  return [...byKey.values()].map((part) => {
    const tax = round(shift(multiply(part.base, amount(part.percent)), 2), 2);
    return sign === 1 ? { ...part, tax } : { ...part, base: negate(part.base), tax: negate(tax) };
  });
}

function trimPercent(text: string | undefined): string {
  const value = (text ?? '0').trim();
  return value.includes('.') ? value.replace(/\.?0+$/, '') || '0' : value;
}

/** The elements that may repeat, read as lists even when there is one. */
const LISTS: ReadonlySet<string> = new Set(['Invoice', 'Line', 'Customer', 'References', 'TaxTableEntry', 'Product']);
/** What the reader never looks at: jumped over (a month's file is mostly these). */
const NOT_READ: ReadonlySet<string> = new Set([
  'Product', 'TaxTable', 'GeneralLedgerAccounts', 'Supplier', 'GeneralLedgerEntries', 'MovementOfGoods', 'WorkingDocuments', 'Payments',
  'ProductCode', 'ProductDescription', 'Quantity', 'UnitOfMeasure', 'UnitPrice', 'TaxPointDate', 'Description', 'TaxExemptionReason', 'Reason', 'SettlementAmount',
  'ATCUD', 'Hash', 'HashControl', 'Period', 'SpecialRegimes', 'SourceID', 'SystemEntryDate', 'InvoiceStatusDate', 'SourceBilling', 'ShipTo', 'ShipFrom', 'MovementEndTime', 'MovementStartTime',
  'AccountID', 'AddressDetail', 'City', 'PostalCode', 'Region', 'SelfBillingIndicator', 'Telephone', 'Fax', 'Email', 'Website', 'Contact', 'ShipToAddress',
  'CompanyAddress', 'Settlement', 'Payment', 'WithholdingTax', 'OrderReferences', 'ProductSerialNumber', 'CustomsInformation', 'TransactionID', 'EACCode',
]);

export function readSaft(bytes: Buffer): SaftSalesFile {
  const { text, encoding } = decode(bytes);
  let raw: unknown;
  try {
    raw = xmlTree(text, LISTS, NOT_READ);
  } catch (error) {
    if (!(error instanceof XmlError)) throw error;
    throw new SaftFileError('not-xml', error.message.slice(0, 300));
  }
  if (typeof raw !== 'object' || raw === null || !('AuditFile' in raw)) throw new SaftFileError('not-saft', 'no AuditFile element');
  const parsed = FileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SaftFileError('invalid', `${issue.path.join('/')}: ${issue.message}`);
  }
  const file = parsed.data.AuditFile;
  if (!file.Header.AuditFileVersion.startsWith('1.04')) throw new SaftFileError('version', file.Header.AuditFileVersion);
  const customers = new Map((file.MasterFiles?.Customer ?? []).map((c) => [c.CustomerID, c]));
  const sales = file.SourceDocuments?.SalesInvoices;
  const documents = (sales?.Invoice ?? []).map((invoice) => {
    const type: SaftType = invoice.InvoiceType;
    const sign = type === 'NC' ? -1 : 1;
    const parts = partsOf(invoice.Line, sign);
    const signed = (value: Decimal): Decimal => (sign === 1 ? value : negate(value));
    const totals = invoice.DocumentTotals;
    const taxPayable = signed(amount(totals.TaxPayable));
    const taxOfParts = sum(parts.map((p) => p.tax));
    const customer = customers.get(invoice.CustomerID);
    const references = invoice.Line.flatMap((l) => (l.References ?? []).map((r) => r.Reference?.trim() ?? '')).filter((r) => r !== '');
    const document: MonthDocument & { taxDifference?: Decimal } = {
      number: invoice.InvoiceNo.trim(),
      type,
      date: invoice.InvoiceDate.slice(0, 10),
      status: invoice.DocumentStatus.InvoiceStatus.trim() === 'A' ? 'A' : 'N',
      customerTaxId: customer?.CustomerTaxID,
      customerCountry: customer?.BillingAddress?.Country,
      parts,
      net: signed(amount(totals.NetTotal)),
      tax: taxPayable,
      gross: signed(amount(totals.GrossTotal)),
      currency: totals.Currency?.CurrencyCode.trim().toUpperCase() ?? 'EUR',
      currencyGross: totals.Currency ? signed(amount(totals.Currency.CurrencyAmount)) : undefined,
      euroRate: totals.Currency?.ExchangeRate,
      references: [...new Set(references)],
    };
    if (!isZero(subtract(taxPayable, taxOfParts))) document.taxDifference = subtract(taxPayable, taxOfParts);
    return document;
  });
  const counted = documents.filter((d) => d.status !== 'A');
  const totalDebit = amount(sales?.TotalDebit);
  const totalCredit = amount(sales?.TotalCredit);
  const debit = sum(counted.filter((d) => d.type !== 'NC').map((d) => d.net));
  const credit = negate(sum(counted.filter((d) => d.type === 'NC').map((d) => d.net)));
  return {
    version: file.Header.AuditFileVersion,
    companyTaxId: file.Header.TaxRegistrationNumber,
    companyName: file.Header.CompanyName,
    startDate: file.Header.StartDate,
    endDate: file.Header.EndDate,
    encoding,
    documents,
    totalDebit,
    totalCredit,
    controlTotalsMatch: isZero(subtract(debit, totalDebit)) && isZero(subtract(credit, totalCredit)),
  };
}
