import { add, Decimal, formatDecimal, isZero, subtract } from '../../client/money';
import type { DispatchRegion } from '../../law/vat-rates';
import { localDateTime } from '../../law/shop-date';
import { shopInstant } from '../../law/shop-date';
import { listNotInvoiced, type NotInvoicedEntry } from '../ingest/not-invoiced';
import type { Ledger, LedgerEntry } from '../core/ledger';
import type { RedisClient } from '../core/redis-connection';
import { ledgerDocuments, type DocumentReader, type LedgerDocument } from './ledger-documents';
import type { MonthDocument } from './month-document';
import type { MonthShop, MonthShopOrder } from './month-shop';
import type { MonthFinding } from './month-words';
import type { SaftSalesFile } from './saft-reader';
import type { SignOff } from './sign-off';
import { ossOfMonth, type OssCountry, type OssQuarter } from './oss';
import { compareWithShopReport, type ShopTaxComparison } from './shop-tax-report';
import { boxDifferences, boxesOf, type BoxField, type VatBoxes } from './vat-boxes';

/**
 * The accountant's month for one shop: the shop's orders and refunds of the month, every document
 * the connector issued, and (when given) the month's SAF-T, reconciled. Each finding is a code with
 * its facts (month-words.ts words it); the VAT boxes are computed from both sides, and a difference
 * between them is either explained by the documents the findings name or said as such.
 */

export interface MonthPackInput {
  tenant: string;
  /** yyyy-mm */
  month: string;
  timeZone: string;
  companyTaxId: string | undefined;
  triggerStatuses: readonly string[];
  /** Every status the sweep reconciles (trigger statuses, refunded, cancelled). */
  listedStatuses: readonly string[];
  shop: MonthShop;
  ledger: Ledger;
  redis: RedisClient;
  prefix: string;
  reader: DocumentReader;
  dispatchRegion: DispatchRegion | undefined;
  saft?: SaftSalesFile;
  /** The accountant's sign-off of the month, when closed. */
  signOff?: SignOff;
  now?: () => number;
}

export interface ExemptionUse {
  code: string;
  documents: number;
  base: string;
}

export interface OrderOfMonth {
  order: number;
  /** The tax point: our invoice's date. */
  documentDay?: string;
  createdDay?: string;
  paidDay?: string;
}

export interface MonthPack {
  tenant: string;
  month: string;
  timeZone: string;
  /** When it was computed and how long it took (ms). */
  computedAt: number;
  computeMs: number;
  orders: { listed: number; ofMonth: number; otherMonth: OrderOfMonth[] };
  documents: LedgerDocument[];
  saft?: { companyTaxId: string; encoding: string; documents: number; start: string; end: string };
  findings: MonthFinding[];
  boxes: { ours: VatBoxes; saft?: VatBoxes };
  exemptions: ExemptionUse[];
  signOff?: SignOff;
  /** Our VAT per rate against the shop's own tax report, each difference explained by its orders. */
  shopReport: ShopTaxComparison;
  /** Taxed sales to buyers in other member states, per country: the month's, and the quarter's so far (month-service.ts adds it). */
  oss: { month: OssCountry[]; quarter?: OssQuarter };
}

const IN_FLIGHT: ReadonlySet<string | undefined> = new Set(['drafting', 'draft', 'creating', 'created', 'finalized', undefined]);
const WAITING: ReadonlySet<string | undefined> = new Set(['held', 'mapping-failed', 'failed', 'duplicate-unknown-id', 'alert-no-number']);

function nextMonth(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

function money(value: Decimal): string {
  return formatDecimal(value, 2);
}

export async function monthPack(input: MonthPackInput): Promise<MonthPack> {
  const now = input.now ?? Date.now;
  const started = now();
  const startMs = shopInstant(`${input.month}-01`, input.timeZone);
  const endMs = shopInstant(`${nextMonth(input.month)}-01`, input.timeZone);
  const day = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : localDateTime(new Date(ms), input.timeZone).date);
  const inMonth = (d: string | undefined): boolean => d !== undefined && d.slice(0, 7) === input.month;
  /** An instant in the month, in the shop's zone (no date text made: the common case of thousands of orders). */
  const whenInMonth = (ms: number | undefined): boolean => ms !== undefined && ms >= startMs && ms < endMs;

  // A refund's day is asked of the shop once, for the findings and the shop's report alike.
  const refundDays = new Map<string, Promise<string | undefined>>();
  const refundDay = (orderId: number, refundId: number): Promise<string | undefined> => {
    const key = `${orderId}:${refundId}`;
    let found = refundDays.get(key);
    if (!found) refundDays.set(key, (found = input.shop.refundDate(orderId, refundId).then(day)));
    return found;
  };
  const listed = new Map<number, MonthShopOrder>();
  for (const order of await input.shop.ordersModifiedSince(startMs, input.listedStatuses)) listed.set(order.id, order);
  const entries = await input.ledger.forOrders(input.tenant, [...listed.keys()]);
  const { documents: all, unread } = await ledgerDocuments({ redis: input.redis, prefix: input.prefix, tenant: input.tenant, entries, reader: input.reader, dispatchRegion: input.dispatchRegion });
  const documents = all.filter((d) => inMonth(d.date));
  const byOrder = new Map<number, LedgerDocument[]>();
  for (const doc of all) {
    const ofOrder = byOrder.get(doc.orderId);
    if (ofOrder) ofOrder.push(doc);
    else byOrder.set(doc.orderId, [doc]);
  }
  const notInvoiced = new Map((await listNotInvoiced(input.redis, input.prefix, input.tenant)).map((e) => [e.orderId, e]));
  const findings: MonthFinding[] = [];
  const explained: MonthFinding[] = [];

  for (const u of unread) findings.push({ code: 'document-unread', params: { order: u.orderId, number: entries.get(u.orderId)?.[u.purpose]?.documentNumber ?? u.purpose, error: u.error.slice(0, 300) } });

  // The shop's side: every order sold in the month in a trigger status has its invoice.
  const otherMonth: OrderOfMonth[] = [];
  let ofMonth = 0;
  for (const order of listed.values()) {
    const ofOrder = byOrder.get(order.id) ?? [];
    const invoice = ofOrder.find((d) => d.purpose === 'invoice');
    const soldAt = order.paidAt ?? order.createdAt;
    if (invoice) {
      // An invoice of another month still has this month's refunds to credit (below).
      if (inMonth(invoice.date)) {
        ofMonth += 1;
        if ((order.createdAt !== undefined && !whenInMonth(order.createdAt)) || (order.paidAt !== undefined && !whenInMonth(order.paidAt))) {
          otherMonth.push({ order: order.id, documentDay: invoice.date, createdDay: day(order.createdAt), paidDay: day(order.paidAt) });
        }
      }
    } else if (input.triggerStatuses.includes(order.status) && whenInMonth(soldAt)) {
      ofMonth += 1;
      findings.push(...orderWithoutDocument(order, entries.get(order.id)?.invoice, gateReason(notInvoiced.get(order.id)?.reason), day(soldAt) ?? input.month));
    }
    // Refunds: each one of the month has its credit note (unless the whole invoice was already credited).
    const orderEntries = entries.get(order.id) ?? {};
    const creditedInFull = ofOrder.some((d) => d.purpose === 'cancellation');
    for (const refund of order.refunds) {
      const purpose = `credit-note-${refund.id}`;
      if (ofOrder.some((d) => d.purpose === purpose) || creditedInFull) continue;
      const entry: LedgerEntry | undefined = orderEntries[purpose];
      if (entry?.state === 'dismissed' || entry?.state === 'skipped') continue;
      if (!invoice) continue;
      const madeOn = await refundDay(order.id, refund.id);
      if (madeOn !== undefined && !inMonth(madeOn)) continue;
      findings.push({ code: 'refund-without-credit-note', params: { order: order.id, refund: refund.id, amount: refund.amount, currency: order.currency, day: madeOn } });
    }
  }
  for (const doc of documents) {
    const refund = /^credit-note-(\d+)$/.exec(doc.purpose)?.[1];
    const order = listed.get(doc.orderId);
    if (refund && order && !order.refunds.some((r) => r.id === Number(refund))) findings.push({ code: 'credit-note-without-refund', params: { number: doc.number, order: doc.orderId, refund: Number(refund) } });
    if (doc.status === 'A') explained.push({ code: 'cancelled-document', params: { number: doc.number, day: doc.date, order: doc.orderId } });
    // Issued after the accountant closed the month: the return sent may not hold it.
    const finalizedAt = entries.get(doc.orderId)?.[doc.purpose]?.finalizedAt;
    if (input.signOff && finalizedAt !== undefined && finalizedAt > input.signOff.at) {
      findings.push({ code: 'document-after-sign-off', params: { number: doc.number, order: doc.orderId, day: doc.date, by: input.signOff.by, closedOn: day(input.signOff.at) ?? '' } });
    }
  }

  // The SAF-T's side: both directions, totals, and the VAT boxes from each.
  let saftBoxes: VatBoxes | undefined;
  let saftSummary: MonthPack['saft'];
  if (input.saft) {
    const saft = input.saft;
    saftSummary = { companyTaxId: saft.companyTaxId, encoding: saft.encoding, documents: saft.documents.length, start: saft.startDate, end: saft.endDate };
    if (input.companyTaxId && saft.companyTaxId.replace(/^PT/i, '') !== input.companyTaxId) findings.push({ code: 'saft-other-company', params: { saft: saft.companyTaxId, ours: input.companyTaxId } });
    if (saft.startDate.slice(0, 7) > input.month || saft.endDate.slice(0, 7) < input.month) findings.push({ code: 'saft-other-period', params: { start: saft.startDate, end: saft.endDate, month: input.month } });
    if (!saft.controlTotalsMatch) findings.push({ code: 'saft-control-totals', params: { debit: money(saft.totalDebit), credit: money(saft.totalCredit) } });
    const saftDocs = saft.documents.filter((d) => inMonth(d.date));
    const saftByNumber = new Map(saftDocs.map((d) => [d.number, d]));
    const oursByNumber = new Map(documents.map((d) => [d.number, d]));
    const unmatched = new Set<string>();
    for (const doc of saftDocs) {
      const mine = oursByNumber.get(doc.number);
      if (!mine) {
        unmatched.add(doc.number);
        if (doc.status === 'A') explained.push({ code: 'cancelled-document', params: { number: doc.number, day: doc.date } });
        else findings.push({ code: 'document-without-order', params: { number: doc.number, day: doc.date, gross: money(doc.gross) } });
        continue;
      }
      if (doc.status === 'A' && mine.status !== 'A') {
        // Cancelled on the service after its facts were kept (by hand in the back-office): the SAF-T says so.
        documents[documents.indexOf(mine)] = { ...mine, status: 'A' };
        explained.push({ code: 'cancelled-document', params: { number: doc.number, day: doc.date, order: mine.orderId } });
      } else if (!isZero(subtract(doc.gross, mine.gross)) && doc.status !== 'A') {
        unmatched.add(doc.number);
        findings.push({ code: 'totals-differ', params: { number: doc.number, ours: money(mine.gross), saft: money(doc.gross) } });
      }
    }
    for (const doc of documents) {
      if (saftByNumber.has(doc.number)) continue;
      unmatched.add(doc.number);
      findings.push({ code: 'document-not-in-saft', params: { number: doc.number, order: doc.orderId, day: doc.date } });
    }
    saftBoxes = boxesOf(saftDocs);
    const ours = boxesOf(documents);
    // A difference is explained when, without the documents the findings name, both sides agree.
    const rest = (docs: readonly MonthDocument[]): MonthDocument[] => docs.filter((d) => !unmatched.has(d.number));
    const unexplained = boxDifferences(boxesOf(rest(documents)), boxesOf(rest(saftDocs)));
    const names = [...unmatched].sort().join(', ');
    for (const d of boxDifferences(ours, saftBoxes)) {
      const alone = unexplained.some((u) => u.region === d.region && u.field === d.field);
      findings.push({ code: 'vat-difference', params: { region: d.region, field: d.field as BoxField, difference: money(d.difference), documents: alone ? '' : names } });
    }
  }

  const exemptions = new Map<string, { documents: number; base: Decimal }>();
  for (const doc of documents) {
    if (doc.status === 'A') continue;
    for (const part of doc.parts) {
      if (!part.exemptionCode) continue;
      const found = exemptions.get(part.exemptionCode) ?? { documents: 0, base: { units: 0n, scale: 2 } };
      exemptions.set(part.exemptionCode, { documents: found.documents + 1, base: add(found.base, part.base) });
    }
  }
  const shopReport = await compareWithShopReport({ month: input.month, shop: input.shop, listed, documents: all, day, refundDay });
  return {
    tenant: input.tenant,
    month: input.month,
    timeZone: input.timeZone,
    computedAt: started,
    computeMs: now() - started,
    orders: { listed: listed.size, ofMonth, otherMonth },
    documents,
    saft: saftSummary,
    findings: [...findings, ...explained],
    boxes: { ours: boxesOf(documents), saft: saftBoxes },
    exemptions: [...exemptions].sort(([a], [b]) => a.localeCompare(b)).map(([code, e]) => ({ code, documents: e.documents, base: money(e.base) })),
    signOff: input.signOff,
    shopReport,
    oss: { month: ossOfMonth(documents) },
  };
}

/** The gate's reasons explain a missing document; an advance payment kept by its plugin does not (its invoice is missing: order-not-received). */
function gateReason(reason: NotInvoicedEntry['reason'] | undefined): Exclude<NotInvoicedEntry['reason'], { code: 'advance-payment' }> | undefined {
  return reason?.code === 'advance-payment' ? undefined : reason;
}

function orderWithoutDocument(order: MonthShopOrder, entry: LedgerEntry | undefined, reason: { code: 'before-go-live'; soldAt: string; goLiveAt: string } | { code: 'other-system'; system: string } | undefined, soldOn: string): MonthFinding[] {
  if (entry?.state === 'dismissed') return [{ code: 'order-handled', params: { order: order.id } }];
  if (entry && WAITING.has(entry.state)) return [{ code: 'order-waiting', params: { order: order.id, state: entry.state ?? 'failed', soldOn } }];
  if (entry && IN_FLIGHT.has(entry.state)) return [{ code: 'order-in-flight', params: { order: order.id, soldOn } }];
  if (reason?.code === 'before-go-live') return [{ code: 'order-before-go-live', params: { order: order.id, soldOn, goLiveOn: reason.goLiveAt.slice(0, 10) } }];
  if (reason?.code === 'other-system') return [{ code: 'order-other-system', params: { order: order.id, system: reason.system } }];
  return [{ code: 'order-not-received', params: { order: order.id, status: order.status, soldOn } }];
}
