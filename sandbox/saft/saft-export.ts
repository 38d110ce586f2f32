import { XMLBuilder } from 'fast-xml-parser';
import { add, Decimal, divide, formatDecimal, isZero, multiply, parseDecimal, round, sum } from '../../client/money';
import { documentTotals } from '../document-view';
import { exemptionText } from '../pdf/exemption-reasons';
import { atcud, sandboxSignature, seriesValidationCode } from '../pdf/legal-marks';
import { classifyRate, qrAmount, type TaxRegion } from '../pdf/qr-payload';
import { DEFAULT_SERIE, NUMBER_PREFIX } from '../reference-data';
import type { SandboxAccount, StoredDocument } from '../state';
import { encodeWindows1252 } from './windows-1252';

/**
 * The SAF-T (PT) 1.04_01 sales file of one account and month, as a MagniFinance user exports it from
 * the back-office for the accountant (the real service has no API for it): Header, MasterFiles
 * (customers, products, the tax table of the rates used) and SourceDocuments/SalesInvoices with every
 * closed or cancelled invoice, invoice-receipt, simplified invoice, credit and debit note dated in
 * the month. Amounts are in euros (a foreign-currency document converts with its EuroRate and says
 * its own currency in DocumentTotals/Currency); control totals leave cancelled documents out, as the
 * AT's structure asks. Pure: the store's documents in, the file's text out.
 */

export const SAFT_NAMESPACE = 'urn:OECD:StandardAuditFile-Tax:PT_1.04_01';
export type SaftEncoding = 'utf-8' | 'windows-1252';

export interface SaftExportInput {
  account: SandboxAccount;
  documents: readonly StoredDocument[];
  /** yyyy-mm */
  month: string;
  /** When the file is made (DateCreated), epoch ms. */
  now: number;
}

const SALES_TYPES = new Set(['T', 'I', 'S', 'C', 'D']);
const TAX_CODE: Record<'reduced' | 'intermediate' | 'normal', string> = { reduced: 'RED', intermediate: 'INT', normal: 'NOR' };
const TAX_NAME: Record<string, string> = { RED: 'Taxa reduzida', INT: 'Taxa intermédia', NOR: 'Taxa normal', ISE: 'Isento' };
const CONSUMER_NIF = '999999990';

function lastDay(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return `${month}-${String(new Date(Date.UTC(year, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

const LISBON = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

/** "2026-11-05T10:12:00": SAF-T date-times carry no zone; the sandbox writes Lisbon's wall clock. */
function lisbonDateTime(ms: number): string {
  const parts = LISBON.formatToParts(new Date(ms));
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}`;
}

function text(value: string | undefined, max: number, fallback = 'Desconhecido'): string {
  const trimmed = (value ?? '').trim();
  return (trimmed === '' ? fallback : trimmed).slice(0, max);
}

function money(value: Decimal): string {
  return qrAmount(value);
}

interface TaxOfLine {
  region: TaxRegion;
  code: string;
  percent: Decimal;
}

function taxOfLine(percent: Decimal, documentRates: readonly Decimal[]): TaxOfLine {
  if (isZero(percent)) {
    // An exempt line belongs to the region of the document's taxed lines, the mainland when there are none.
    const taxed = documentRates.filter((r) => !isZero(r)).map((r) => classifyRate(r, documentRates)?.[0]);
    return { region: taxed.find((r) => r !== undefined) ?? 'PT', code: 'ISE', percent };
  }
  const where = classifyRate(percent, documentRates);
  // A rate outside the table (the sandbox accepts an account's own rates) is written as the mainland's normal band.
  return { region: where?.[0] ?? 'PT', code: where ? TAX_CODE[where[1]] : 'NOR', percent };
}

function customerId(doc: StoredDocument): string {
  return `${doc.client.NIF}-${doc.client.CountryCode}`.slice(0, 30);
}

function customerOf(doc: StoredDocument): Record<string, unknown> {
  const c = doc.client;
  const consumer = c.NIF === CONSUMER_NIF;
  return {
    CustomerID: customerId(doc),
    AccountID: 'Desconhecido',
    CustomerTaxID: c.NIF,
    CompanyName: consumer && !c.Name ? 'Consumidor final' : text(c.LegalName ?? c.Name, 100),
    BillingAddress: {
      AddressDetail: text(c.Address, 210),
      City: text(c.City, 50),
      PostalCode: text(c.PostCode, 20),
      Country: c.CountryCode || 'Desconhecido',
    },
    SelfBillingIndicator: 0,
  };
}

function toEuro(doc: StoredDocument): (value: Decimal) => Decimal {
  const currency = (doc.document.Currency ?? 'EUR').toUpperCase();
  if (currency === 'EUR' || doc.document.EuroRate === undefined) return (value) => value;
  const rate = parseDecimal(doc.document.EuroRate);
  return (value) => round(multiply(value, rate), 2);
}

interface InvoiceOut {
  xml: Record<string, unknown>;
  debit: Decimal;
  credit: Decimal;
  cancelled: boolean;
}

function invoiceOf(doc: StoredDocument, month: string): InvoiceOut {
  const d = doc.document;
  const serie = d.Serie ?? DEFAULT_SERIE;
  const number = doc.number ?? `${NUMBER_PREFIX[d.Type]} ${serie}/${doc.sequence ?? 0}`;
  const totals = documentTotals(doc);
  const euro = toEuro(doc);
  const credit = d.Type === 'C';
  const rates = d.Lines.map((l) => parseDecimal(l.TaxValue));
  const entry = lisbonDateTime(doc.closedAt ?? doc.createdAt);
  const signature = sandboxSignature({ date: d.Date, entryTime: doc.closedAt ?? doc.createdAt, number, grossTotal: qrAmount(totals.amount) });
  const lineAmounts = totals.lineNets.map(euro);
  const lines = d.Lines.map((line, i) => {
    const tax = taxOfLine(rates[i], rates);
    // UnitPrice: without tax and after the line's discount, in euros (the line's amount over its quantity).
    const quantity = parseDecimal(line.Quantity);
    const netUnit = isZero(quantity) ? lineAmounts[i] : divide(lineAmounts[i], quantity, 6);
    const out: Record<string, unknown> = {
      LineNumber: i + 1,
      ProductCode: text(line.Code, 60),
      ProductDescription: text(line.Description, 200),
      Quantity: line.Quantity,
      UnitOfMeasure: text(line.Unit, 20),
      UnitPrice: formatDecimal(netUnit),
      TaxPointDate: d.Date,
    };
    if (credit) out.References = { Reference: text(d.DocumentReference, 60), Reason: text(d.Description, 50, 'Devolução') };
    out.Description = text(line.Description, 200);
    out[credit ? 'CreditAmount' : 'DebitAmount'] = money(lineAmounts[i]);
    out.Tax = { TaxType: 'IVA', TaxCountryRegion: tax.region, TaxCode: tax.code, TaxPercentage: formatDecimal(tax.percent) };
    if (isZero(tax.percent) && d.TaxExemptionReasonCode) {
      out.TaxExemptionReason = exemptionText(d.TaxExemptionReasonCode).slice(0, 60);
      out.TaxExemptionCode = d.TaxExemptionReasonCode;
    }
    return out;
  });
  const net = sum(lineAmounts);
  const tax = euro(totals.tax);
  const gross = add(net, tax);
  const documentTotalsXml: Record<string, unknown> = { TaxPayable: money(tax), NetTotal: money(net), GrossTotal: money(gross) };
  const currency = (d.Currency ?? 'EUR').toUpperCase();
  if (currency !== 'EUR' && d.EuroRate !== undefined) {
    documentTotalsXml.Currency = { CurrencyCode: currency, CurrencyAmount: money(totals.amount), ExchangeRate: d.EuroRate };
  }
  const cancelled = doc.status === 'canceled';
  return {
    cancelled,
    debit: credit ? { units: 0n, scale: 2 } : net,
    credit: credit ? net : { units: 0n, scale: 2 },
    xml: {
      InvoiceNo: number,
      ATCUD: atcud(seriesValidationCode(doc.accountTaxId, d.Type, serie), doc.sequence),
      DocumentStatus: {
        InvoiceStatus: cancelled ? 'A' : 'N',
        InvoiceStatusDate: lisbonDateTime(doc.canceledAt ?? doc.closedAt ?? doc.createdAt),
        SourceID: 'api',
        SourceBilling: 'P',
      },
      Hash: signature,
      HashControl: 1,
      Period: Number(month.slice(5, 7)),
      InvoiceDate: d.Date,
      InvoiceType: NUMBER_PREFIX[d.Type],
      SpecialRegimes: { SelfBillingIndicator: 0, CashVATSchemeIndicator: 0, ThirdPartiesBillingIndicator: 0 },
      SourceID: 'api',
      SystemEntryDate: entry,
      CustomerID: customerId(doc),
      Line: lines,
      DocumentTotals: documentTotalsXml,
    },
  };
}

/** The documents of the month the file carries, in number order per type and series. */
export function saftDocuments(documents: readonly StoredDocument[], accountTaxId: string, month: string): StoredDocument[] {
  return documents
    .filter((d) => d.accountTaxId === accountTaxId && d.kind === 'document' && SALES_TYPES.has(d.document.Type))
    .filter((d) => (d.status === 'closed' || d.status === 'canceled') && d.document.Date.slice(0, 7) === month)
    .sort((a, b) => (a.document.Type + (a.document.Serie ?? DEFAULT_SERIE)).localeCompare(b.document.Type + (b.document.Serie ?? DEFAULT_SERIE)) || (a.sequence ?? 0) - (b.sequence ?? 0));
}

export function saftSalesFile(input: SaftExportInput): string {
  const { account, month } = input;
  const documents = saftDocuments(input.documents, account.taxId, month);
  const invoices = documents.map((doc) => invoiceOf(doc, month));
  const customers = new Map<string, Record<string, unknown>>();
  const products = new Map<string, Record<string, unknown>>();
  const taxes = new Map<string, Record<string, unknown>>();
  for (const doc of documents) {
    customers.set(customerId(doc), customers.get(customerId(doc)) ?? customerOf(doc));
    const rates = doc.document.Lines.map((l) => parseDecimal(l.TaxValue));
    doc.document.Lines.forEach((line, i) => {
      const code = text(line.Code, 60);
      if (!products.has(code)) products.set(code, { ProductType: line.Type, ProductCode: code, ProductDescription: text(line.Description, 200), ProductNumberCode: code });
      const tax = taxOfLine(rates[i], rates);
      const key = `${tax.region}:${tax.code}:${formatDecimal(tax.percent)}`;
      if (!taxes.has(key)) taxes.set(key, { TaxType: 'IVA', TaxCountryRegion: tax.region, TaxCode: tax.code, Description: TAX_NAME[tax.code] ?? tax.code, TaxPercentage: formatDecimal(tax.percent) });
    });
  }
  const counted = invoices.filter((i) => !i.cancelled);
  const year = month.slice(0, 4);
  const audit = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    AuditFile: {
      '@_xmlns': SAFT_NAMESPACE,
      Header: {
        AuditFileVersion: '1.04_01',
        CompanyID: account.taxId,
        TaxRegistrationNumber: account.taxId,
        TaxAccountingBasis: 'F',
        CompanyName: text(account.companyName, 100),
        CompanyAddress: { AddressDetail: text(account.address, 210), City: text(account.city, 50), PostalCode: text(account.postCode, 20), Country: 'PT' },
        FiscalYear: year,
        StartDate: `${month}-01`,
        EndDate: lastDay(month),
        CurrencyCode: 'EUR',
        DateCreated: lisbonDateTime(input.now).slice(0, 10),
        TaxEntity: 'Global',
        ProductCompanyTaxID: account.taxId,
        SoftwareCertificateNumber: 0,
        ProductID: 'MagniFinance sandbox/magnifinance',
        ProductVersion: '1.0',
      },
      MasterFiles: {
        Customer: [...customers.values()],
        Product: [...products.values()],
        ...(taxes.size > 0 ? { TaxTable: { TaxTableEntry: [...taxes.values()] } } : {}),
      },
      SourceDocuments: {
        SalesInvoices: {
          NumberOfEntries: invoices.length,
          TotalDebit: money(sum(counted.map((i) => i.debit))),
          TotalCredit: money(sum(counted.map((i) => i.credit))),
          Invoice: invoices.map((i) => i.xml),
        },
      },
    },
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, indentBy: '  ', suppressEmptyNode: false });
  return builder.build(audit) as string;
}

/** The file's bytes in the encoding asked: UTF-8, or Windows-1252 as many Portuguese programs write it. */
export function saftBytes(xml: string, encoding: SaftEncoding): Buffer {
  if (encoding === 'utf-8') return Buffer.from(xml, 'utf8');
  return encodeWindows1252(xml.replace('encoding="UTF-8"', 'encoding="Windows-1252"'));
}
