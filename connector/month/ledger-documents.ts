import { z } from 'zod';
import type { DocumentDetails } from '../../client/document-details';
import { add, compare, Decimal, formatDecimal, isZero, multiply, negate, parseDecimal, round, sum } from '../../client/money';
import { computeTotals } from '../../client/totals';
import { regionsWithRate, type DispatchRegion } from '../../law/vat-rates';
import type { LedgerEntry } from '../core/ledger';
import type { RedisClient } from '../core/redis-connection';
import { SAFT_TYPE_OF_LETTER, type MonthDocument, type TaxPart, type TaxRegion } from './month-document';

/**
 * Our side of the month: every document the ledger says we issued for the shop's orders, with its
 * base and VAT per rate and region as the service holds it. The ledger keeps each document's id,
 * number and type, not its lines, so the lines come from Get Document once per document and are
 * kept in Redis (a closed document's lines never change; whether it was cancelled is read again
 * from the ledger and the SAF-T each time). Only the buyer's country is kept, never a name or tax id:
 * the connector keeps no personal data in Redis.
 */

export interface LedgerDocument extends MonthDocument {
  orderId: number;
  /** The ledger purpose: invoice, credit-note-<refund>, cancellation. */
  purpose: string;
  documentId: number;
}

export interface DocumentReader {
  getDocument(documentId: number): Promise<DocumentDetails>;
}

const REGION_CODE: Record<DispatchRegion, TaxRegion> = { mainland: 'PT', azores: 'PT-AC', madeira: 'PT-MA' };
const LINE_PURPOSES = /^(invoice|cancellation|credit-note-\d+)$/;
const DOCUMENT_STATES = new Set(['finalized', 'written-back', 'cancelled', 'alert-no-number']);

/** What is cached per document: its facts with decimals as text. */
const CachedPart = z.object({ region: z.enum(['PT', 'PT-AC', 'PT-MA']), percent: z.string(), base: z.string(), tax: z.string(), exemptionCode: z.string().optional() });
const CachedDocument = z.object({
  number: z.string(),
  type: z.enum(['FT', 'FR', 'FS', 'NC', 'ND']),
  date: z.string(),
  cancelledOnService: z.boolean(),
  customerCountry: z.string().optional(),
  parts: z.array(CachedPart),
  net: z.string(),
  tax: z.string(),
  currency: z.string(),
  currencyGross: z.string().optional(),
  euroRate: z.string().optional(),
  references: z.array(z.string()),
});
type Cached = z.infer<typeof CachedDocument>;

function decimalText(value: Decimal): string {
  return formatDecimal(value, 2);
}

/**
 * The region of a rate on the document's day: the one region that has it, else (4 %: both islands)
 * the region of the document's other island rates, else the shop's dispatch region when it is an
 * island, else Madeira (the service's and the sandbox's reading).
 */
function regionOfRate(percent: Decimal, date: string, otherRates: readonly Decimal[], dispatch: DispatchRegion | undefined): TaxRegion {
  const regions = regionsWithRate(percent, date);
  if (regions.length === 1) return REGION_CODE[regions[0]];
  if (regions.length === 0) return 'PT';
  const other = otherRates.flatMap((r) => (compare(r, percent) === 0 ? [] : regionsWithRate(r, date))).find((r) => regions.includes(r));
  if (other) return REGION_CODE[other];
  if (dispatch && regions.includes(dispatch)) return REGION_CODE[dispatch];
  return regions.includes('madeira') ? 'PT-MA' : REGION_CODE[regions[0]];
}

/** A document as the service returned it, in euros and signed, ready to cache. */
export function documentFromDetails(details: DocumentDetails, dispatch: DispatchRegion | undefined): Cached {
  const doc = details.details.document;
  const lines = (doc.Lines ?? []).map((line) => ({
    UnitPrice: String(line.UnitPrice ?? 0),
    Quantity: String(line.Quantity ?? 0),
    ProductDiscount: String(line.ProductDiscount ?? 0),
    TaxValue: String(line.TaxValue ?? 0),
  }));
  const currency = (doc.Currency ?? 'EUR').toUpperCase();
  const euroRate = doc.EuroRate === null || doc.EuroRate === undefined || currency === 'EUR' ? undefined : String(doc.EuroRate);
  const totals = computeTotals(lines, { currency, euroRate });
  const euro = (value: Decimal): Decimal => (euroRate === undefined ? value : round(multiply(value, parseDecimal(euroRate)), 2));
  const type = SAFT_TYPE_OF_LETTER[doc.Type ?? 'T'] ?? 'FR';
  const sign = (value: Decimal): Decimal => (type === 'NC' ? negate(value) : value);
  const date = (doc.Date ?? '').slice(0, 10);
  const rates = totals.byRate.map((r) => r.rate);
  const parts = totals.byRate.map((r) => ({
    region: isZero(r.rate) ? (rates.filter((x) => !isZero(x)).map((x) => regionOfRate(x, date, rates, dispatch))[0] ?? 'PT') : regionOfRate(r.rate, date, rates, dispatch),
    percent: formatDecimal(r.rate),
    base: decimalText(sign(euro(r.base))),
    tax: decimalText(sign(euro(r.tax))),
    exemptionCode: isZero(r.rate) ? (doc.TaxExemptionReasonCode ?? undefined) : undefined,
  }));
  const receiver = details.details.receiver;
  return {
    number: details.documentNumber ?? '',
    type,
    date,
    cancelledOnService: doc.DocumentStatusId === 'A',
    customerCountry: receiver.CountryCode ?? undefined,
    parts,
    net: decimalText(sum(parts.map((p) => parseDecimal(p.base)))),
    tax: decimalText(sum(parts.map((p) => parseDecimal(p.tax)))),
    currency,
    currencyGross: euroRate === undefined ? undefined : decimalText(sign(totals.amount)),
    euroRate,
    references: doc.DocumentReference ? [doc.DocumentReference] : [],
  };
}

function toMonthDocument(cached: Cached, cancelled: boolean): MonthDocument {
  const parts: TaxPart[] = cached.parts.map((p) => ({ region: p.region, percent: p.percent, base: parseDecimal(p.base), tax: parseDecimal(p.tax), exemptionCode: p.exemptionCode }));
  const net = parseDecimal(cached.net);
  const tax = parseDecimal(cached.tax);
  return {
    number: cached.number,
    type: cached.type,
    date: cached.date,
    status: cancelled ? 'A' : 'N',
    customerCountry: cached.customerCountry,
    parts,
    net,
    tax,
    gross: add(net, tax),
    currency: cached.currency,
    currencyGross: cached.currencyGross === undefined ? undefined : parseDecimal(cached.currencyGross),
    euroRate: cached.euroRate,
    references: cached.references,
  };
}

export interface LedgerDocumentsInput {
  redis: RedisClient;
  prefix: string;
  tenant: string;
  /** Every purpose of each order, as Ledger.forOrders answers. */
  entries: Map<number, Record<string, LedgerEntry>>;
  reader: DocumentReader;
  dispatchRegion: DispatchRegion | undefined;
  /** Get Document calls at once (the service is asked only for documents not yet cached). */
  concurrency?: number;
}

function factsKey(prefix: string, tenant: string): string {
  return `${prefix}:month:documents:${tenant}`;
}

/**
 * The tax facts of a document, kept when the pipeline finalizes it (it has just read the document
 * with Get Document for its number): the month pack then reads them from Redis instead of asking the
 * service once per document. Kept only if missing (a fact already kept is the same document's).
 */
export class DocumentFacts {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  remember(tenant: string, documentId: number, details: DocumentDetails, dispatch: DispatchRegion | undefined): Promise<void> {
    if (!details.documentNumber) return Promise.resolve();
    let text: string;
    try {
      text = JSON.stringify(documentFromDetails(details, dispatch));
    } catch (error) {
      return Promise.reject(error);
    }
    // Not an async function: its frame would keep the service's whole answer across the write (issue 29).
    return this.keep(factsKey(this.prefix, tenant), String(documentId), text);
  }

  private async keep(key: string, field: string, text: string): Promise<void> {
    await this.redis.hsetnx(key, field, text);
  }
}

/** Our numbered documents of the given orders (any date: the pack keeps those of its month). */
export async function ledgerDocuments(input: LedgerDocumentsInput): Promise<{ documents: LedgerDocument[]; unread: { orderId: number; purpose: string; error: string }[] }> {
  const cacheKey = factsKey(input.prefix, input.tenant);
  const wanted: { orderId: number; purpose: string; entry: LedgerEntry; documentId: number }[] = [];
  for (const [orderId, purposes] of input.entries) {
    for (const [purpose, entry] of Object.entries(purposes)) {
      if (!LINE_PURPOSES.test(purpose) || entry.documentId === undefined || !entry.documentNumber || !DOCUMENT_STATES.has(entry.state ?? '')) continue;
      // A cancellation in place (onCancelled: cancel) issues no document of its own: the invoice is marked cancelled.
      if (purpose === 'cancellation' && entry.state === 'cancelled') continue;
      wanted.push({ orderId, purpose, entry, documentId: entry.documentId });
    }
  }
  const cachedTexts = wanted.length === 0 ? [] : await input.redis.hmget(cacheKey, ...wanted.map((w) => String(w.documentId)));
  const documents: LedgerDocument[] = [];
  const unread: { orderId: number; purpose: string; error: string }[] = [];
  const missing: number[] = [];
  wanted.forEach((_, i) => {
    if (cachedTexts[i] === null) missing.push(i);
  });
  const fetched = new Map<number, Cached>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < missing.length) {
      const w = wanted[missing[next++]];
      try {
        fetched.set(w.documentId, documentFromDetails(await input.reader.getDocument(w.documentId), input.dispatchRegion));
      } catch (error) {
        unread.push({ orderId: w.orderId, purpose: w.purpose, error: (error as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(input.concurrency ?? 8, missing.length) }, worker));
  if (fetched.size > 0) await input.redis.hset(cacheKey, Object.fromEntries([...fetched].map(([id, doc]) => [String(id), JSON.stringify(doc)])));
  wanted.forEach((w, i) => {
    const text = cachedTexts[i];
    const cached = text === null ? fetched.get(w.documentId) : CachedDocument.parse(JSON.parse(text));
    if (!cached) return;
    const invoiceCancelled = w.purpose === 'invoice' && (input.entries.get(w.orderId)?.cancellation?.state === 'cancelled' || w.entry.detail === 'cancelled on MagniFinance');
    documents.push({ ...toMonthDocument({ ...cached, number: cached.number || (w.entry.documentNumber ?? '') }, cached.cancelledOnService || invoiceCancelled), orderId: w.orderId, purpose: w.purpose, documentId: w.documentId });
  });
  return { documents, unread };
}
