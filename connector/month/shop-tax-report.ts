import { add, formatDecimal, isZero, parseDecimal, subtract, type Decimal } from '../../client/money';
import type { LedgerDocument } from './ledger-documents';
import type { MonthShop, MonthShopOrder, ShopTaxRow } from './month-shop';

/**
 * Our VAT of the month against the shop's own tax report (WooCommerce's analytics), rate by rate.
 * The two never count the same way, and the differences are explained, order by order, never
 * shown as errors: the shop dates an order by its creation (we by our document's date, the tax
 * point), counts each refund as a row of its own on the day it was made (we by the credit note's
 * date), leaves out the orders of the statuses its analytics excludes (cancelled), and has no taxable
 * base at all (ours is shown alone). What the orders listed do not explain is given as a remainder,
 * with where it may come from (orders without a document, refunds without a credit note, statuses
 * the connector does not invoice, per-line rounding); a rate we never issue at (another country's
 * VAT) is set apart.
 */

export type ShopTaxExplanationCode = 'created-other-month' | 'invoiced-other-month' | 'credited-other-month' | 'refund-credited-other-month' | 'cancelled-document' | 'order-cancelled-in-shop';

export interface ShopTaxExplanation {
  code: ShopTaxExplanationCode;
  /** The orders that make it, ascending. */
  orders: number[];
  /** What these orders add to (shop − ours), decimal text. */
  tax: string;
}

export interface ShopTaxRate {
  /** The rate, decimal text ("23"). */
  percent: string;
  /** The shop's rate rows at this percent ("IVA 23% · PT"). */
  names: string[];
  /** The shop's tax at this rate (refunds taken off) and orders counted; absent when it has no row at it. */
  shopTax?: string;
  shopOrders?: number;
  /** Ours: the VAT and base of our documents dated in the month (credit notes negative, cancelled ones left out). */
  ourTax: string;
  ourBase: string;
  /** shop − ours. */
  difference: string;
  explained: ShopTaxExplanation[];
  /** The difference the listed orders do not explain. */
  rest: string;
  /** A rate the connector never put on a document this month (another country's VAT): not compared. */
  notOurs: boolean;
}

/** `platform`: the shop's platform, as the words name it. */
export type ShopTaxComparison = { platform: string } & (
  | { status: 'compared'; from: string; to: string; rates: ShopTaxRate[]; withoutDocument: number[]; refundsWithoutCreditNote: number[] }
  | { status: 'not-available'; reason: 'no-route' | 'not-allowed' }
  | { status: 'no-report' }
  | { status: 'unread'; error: string }
);

/** Statuses the shop's analytics leaves out by default (WooCommerce: woocommerce_excluded_report_order_statuses). */
const EXCLUDED_BY_SHOP = new Set(['pending', 'failed', 'cancelled', 'checkout-draft', 'trash']);
const ZERO = parseDecimal('0');

function rateKey(percent: string | number): string {
  return String(Number(percent));
}

function taxByRate(doc: LedgerDocument): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const part of doc.parts) out.set(rateKey(part.percent), add(out.get(rateKey(part.percent)) ?? ZERO, part.tax));
  return out;
}

function money(value: Decimal): string {
  return formatDecimal(value, 2);
}

export interface ShopTaxInput {
  month: string;
  shop: MonthShop;
  /** The orders listed for the month, with their creation instants. */
  listed: ReadonlyMap<number, MonthShopOrder>;
  /** Every document of the listed orders, any month. */
  documents: readonly LedgerDocument[];
  /** The order's creation day in the shop's zone. */
  day: (ms: number | undefined) => string | undefined;
  /** When a refund was made, in the shop's zone (the pack's cached reader). */
  refundDay: (orderId: number, refundId: number) => Promise<string | undefined>;
}

function monthEnd(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return `${month}-${String(new Date(Date.UTC(year, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

export async function compareWithShopReport(input: ShopTaxInput): Promise<ShopTaxComparison> {
  const platform = input.shop.platform;
  if (!input.shop.taxReport) return { status: 'no-report', platform };
  const from = `${input.month}-01T00:00:00`;
  const to = `${monthEnd(input.month)}T23:59:59`;
  let rows: ShopTaxRow[];
  try {
    const report = await input.shop.taxReport({ from, to });
    if (!report.available) return { status: 'not-available', reason: report.reason, platform };
    rows = report.rows;
  } catch (error) {
    return { status: 'unread', error: (error as Error).message.slice(0, 300), platform };
  }
  const inMonth = (d: string | undefined): boolean => d !== undefined && d.slice(0, 7) === input.month;

  // Ours, per rate: the documents dated in the month, cancelled ones left out.
  const ours = new Map<string, { tax: Decimal; base: Decimal }>();
  for (const doc of input.documents) {
    if (!inMonth(doc.date) || doc.status === 'A') continue;
    for (const part of doc.parts) {
      const key = rateKey(part.percent);
      const found = ours.get(key) ?? { tax: ZERO, base: ZERO };
      ours.set(key, { tax: add(found.tax, part.tax), base: add(found.base, part.base) });
    }
  }

  // What each order adds to (shop − ours), per rate and reason.
  const explained = new Map<string, Map<ShopTaxExplanationCode, { orders: Set<number>; tax: Decimal }>>();
  const explain = (code: ShopTaxExplanationCode, orderId: number, amounts: Map<string, Decimal>, sign: 1 | -1): void => {
    for (const [key, amount] of amounts) {
      if (isZero(amount)) continue;
      const byCode = explained.get(key) ?? new Map();
      explained.set(key, byCode);
      const found = byCode.get(code) ?? { orders: new Set<number>(), tax: ZERO };
      found.orders.add(orderId);
      found.tax = sign === 1 ? add(found.tax, amount) : subtract(found.tax, amount);
      byCode.set(code, found);
    }
  };
  const byOrder = new Map<number, LedgerDocument[]>();
  for (const doc of input.documents) byOrder.set(doc.orderId, [...(byOrder.get(doc.orderId) ?? []), doc]);
  const withoutDocument: number[] = [];
  const refundsWithoutCreditNote: number[] = [];
  for (const order of input.listed.values()) {
    const docs = byOrder.get(order.id) ?? [];
    const createdHere = inMonth(input.day(order.createdAt));
    if (EXCLUDED_BY_SHOP.has(order.status)) {
      // The shop's report counts nothing of it: ours of the month from it is the difference.
      for (const doc of docs) if (inMonth(doc.date) && doc.status !== 'A') explain('order-cancelled-in-shop', order.id, taxByRate(doc), -1);
      continue;
    }
    const invoice = docs.find((d) => d.purpose === 'invoice');
    if (!invoice && createdHere) withoutDocument.push(order.id);
    if (invoice) {
      const here = inMonth(invoice.date);
      if (invoice.status === 'A') {
        if (createdHere) explain('cancelled-document', order.id, taxByRate(invoice), 1);
      } else if (here && !createdHere) explain('created-other-month', order.id, taxByRate(invoice), -1);
      else if (!here && createdHere) explain('invoiced-other-month', order.id, taxByRate(invoice), 1);
    }
    for (const refund of order.refunds) {
      const note = docs.find((d) => d.purpose === `credit-note-${refund.id}`);
      const madeHere = inMonth(await input.refundDay(order.id, refund.id));
      if (!note) {
        if (madeHere && !docs.some((d) => d.purpose === 'cancellation')) refundsWithoutCreditNote.push(order.id);
        continue;
      }
      if (note.status === 'A') continue;
      const notedHere = inMonth(note.date);
      // A credit note's tax is negative: ours holds it where it is dated, the shop where the refund was made.
      if (notedHere && !madeHere) explain('credited-other-month', order.id, taxByRate(note), -1);
      else if (!notedHere && madeHere) explain('refund-credited-other-month', order.id, taxByRate(note), 1);
    }
  }

  const shop = new Map<string, { tax: Decimal; orders: number; names: string[] }>();
  for (const row of rows) {
    const key = rateKey(row.percent);
    const found = shop.get(key) ?? { tax: ZERO, orders: 0, names: [] };
    shop.set(key, { tax: add(found.tax, parseDecimal(row.totalTax)), orders: found.orders + row.orders, names: [...found.names, [row.name, [row.country, row.state].filter(Boolean).join(':')].filter(Boolean).join(' · ')] });
  }
  const keys = [...new Set([...shop.keys(), ...[...ours].filter(([, o]) => !isZero(o.tax)).map(([k]) => k)])].sort((a, b) => Number(b) - Number(a));
  const rates: ShopTaxRate[] = keys.map((key) => {
    const theirs = shop.get(key);
    const mine = ours.get(key) ?? { tax: ZERO, base: ZERO };
    const notOurs = !ours.has(key) && !explained.has(key);
    const difference = subtract(theirs?.tax ?? ZERO, mine.tax);
    const reasons = [...(explained.get(key) ?? new Map<ShopTaxExplanationCode, { orders: Set<number>; tax: Decimal }>())].map(([code, e]) => ({ code, orders: [...e.orders].sort((a, b) => a - b), tax: money(e.tax) }));
    const accounted = reasons.reduce((total, r) => add(total, parseDecimal(r.tax)), ZERO);
    return {
      percent: key,
      names: theirs?.names ?? [],
      ...(theirs ? { shopTax: money(theirs.tax), shopOrders: theirs.orders } : {}),
      ourTax: money(mine.tax),
      ourBase: money(mine.base),
      difference: money(difference),
      explained: notOurs ? [] : reasons,
      rest: notOurs ? '0.00' : money(subtract(difference, accounted)),
      notOurs,
    };
  });
  return { status: 'compared', platform, from, to, rates, withoutDocument: withoutDocument.sort((a, b) => a - b), refundsWithoutCreditNote: [...new Set(refundsWithoutCreditNote)].sort((a, b) => a - b) };
}
