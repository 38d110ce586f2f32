import { z } from 'zod';
import { DECIMAL_TEXT, MoneyText } from '../../connector/shop/money-text';
import type { ListedOrderField } from '../../connector/shop/shop';
import type { ListedOrder, OrderSummary } from '../../connector/shop/order-summary';
import { isRecord } from './order-fast-path';

/**
 * A WooCommerce order (REST v3 and its webhooks) in the port's words (connector/shop/order-summary.ts):
 * what the webhook route plans from, checked with zod (a payload that is not an order is refused
 * with 400). The full order is parsed by the worker from the shop's current copy: the route stays
 * cheap, and no customer data sits in Redis.
 */
export const WooOrderSummarySchema = z.object({
  id: z.number({ message: 'is required (the order id)' }).int().positive(),
  status: z.string({ message: 'is required' }),
  currency: z.string({ message: 'is required' }).regex(/^[A-Za-z]{3}$/, { message: 'must be a 3-letter currency code' }),
  total: MoneyText,
  billing: z.object({}, { message: 'is required' }),
  line_items: z.array(z.unknown(), { message: 'is required (a list)' }),
  meta_data: z
    .array(z.object({ key: z.string(), value: z.unknown() }))
    .optional()
    .transform((list) => list ?? []),
  /** The go-live cut-off reads when the order was sold (connector/ingest/go-live.ts). */
  date_paid_gmt: z.string().nullish(),
  date_created_gmt: z.string().nullish(),
  /** A gateway that records the payment only on completion (cash on delivery) is dated by creation. */
  payment_method: z.string().nullish(),
  refunds: z
    // A refund's total only feeds the coverage check (connector/pipeline/coverage.ts): one that is not money text leaves it unjudged, never refuses the delivery.
    .array(z.object({ id: z.number().int().positive(), total: MoneyText.optional().catch(undefined) }))
    .optional()
    .transform((list) => list ?? []),
});
type WooOrderSummary = z.output<typeof WooOrderSummarySchema>;

type SummaryResult = ReturnType<typeof WooOrderSummarySchema.safeParse>;

/**
 * WooOrderSummarySchema.safeParse, with the common case proven by hand: every delivery (an order's
 * own, then our write-backs' two echoes) is summarised, and zod's walk of the summary was a tenth
 * of the route's cost. An order whose fields are all of the expected kinds gets the summary zod
 * would give (the same fields, the amounts normalized the same way); anything else (a missing or
 * odd field, an amount in PHP's float print) goes to zod, which decides and words the refusal.
 */
export function readWooOrderSummary(json: unknown): SummaryResult {
  const fast = commonSummary(json);
  return fast ? { success: true, data: fast } : WooOrderSummarySchema.safeParse(json);
}

const CURRENCY = /^[A-Za-z]{3}$/;

/** A date field as the schema reads it (nullish text): absent, null or text. */
function dateLike(value: unknown): value is string | null | undefined {
  return value === undefined || value === null || typeof value === 'string';
}

function commonSummary(json: unknown): WooOrderSummary | undefined {
  if (!isRecord(json)) return undefined;
  const { id, status, currency, total, billing, line_items: lines, meta_data: meta, date_paid_gmt: paid, date_created_gmt: created, payment_method: method, refunds } = json;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return undefined;
  if (typeof status !== 'string' || typeof currency !== 'string' || !CURRENCY.test(currency)) return undefined;
  // Plain decimal text only: zod's transform would trim it and read a PHP float print.
  if (typeof total !== 'string' || !DECIMAL_TEXT.test(total)) return undefined;
  if (!isRecord(billing) || !Array.isArray(lines)) return undefined;
  if (!dateLike(paid) || !dateLike(created) || !dateLike(method)) return undefined;
  const metaList: WooOrderSummary['meta_data'] = [];
  if (meta !== undefined) {
    if (!Array.isArray(meta)) return undefined;
    for (const entry of meta) {
      if (!isRecord(entry) || typeof entry.key !== 'string' || !('value' in entry)) return undefined;
      metaList.push({ key: entry.key, value: entry.value });
    }
  }
  const refundList: WooOrderSummary['refunds'] = [];
  if (refunds !== undefined) {
    if (!Array.isArray(refunds)) return undefined;
    for (const refund of refunds) {
      if (!isRecord(refund) || typeof refund.id !== 'number' || !Number.isSafeInteger(refund.id) || refund.id <= 0) return undefined;
      if (typeof refund.total !== 'string' || !DECIMAL_TEXT.test(refund.total)) return undefined;
      refundList.push({ id: refund.id, total: refund.total });
    }
  }
  // The lines as they came: nothing reads them past this check (zod's copy was a 40-entry array per delivery).
  const summary: WooOrderSummary = { id, status, currency, total, billing: {}, line_items: lines, meta_data: metaList, refunds: refundList };
  if (paid !== undefined) summary.date_paid_gmt = paid;
  if (created !== undefined) summary.date_created_gmt = created;
  if (method !== undefined) summary.payment_method = method;
  return summary;
}

/** The parsed summary in the port's words. */
export function summaryOfWooOrder(order: Omit<WooOrderSummary, 'billing' | 'line_items'>): OrderSummary {
  return {
    id: order.id,
    status: order.status,
    currency: order.currency,
    total: order.total,
    attributes: order.meta_data,
    paidAt: order.date_paid_gmt || null,
    createdAt: order.date_created_gmt || null,
    paymentMethod: order.payment_method || null,
    refunds: order.refunds,
  };
}

/**
 * One order of a listing (GET orders): the same fields, each optional where `_fields` may have left
 * it out, and what the console shows (the buyer's name, the number).
 */
const WooListedOrderSchema = WooOrderSummarySchema.omit({ billing: true, line_items: true }).extend({
  billing: z.looseObject({ first_name: z.string().optional(), last_name: z.string().optional(), company: z.string().optional() }).optional(),
  date_modified_gmt: z.string().nullish(),
  number: z.string().optional(),
});

/** A listed order in the port's words, or why it is not one. */
export function listedWooOrder(raw: unknown, narrowed: boolean): ListedOrder | { unusable: string } {
  const parsed = WooListedOrderSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { unusable: issue ? `${issue.path.join('.') || '(order)'}: ${issue.message}` : 'invalid' };
  }
  const order = parsed.data;
  const billing = order.billing;
  return {
    ...summaryOfWooOrder(order),
    modifiedAt: order.date_modified_gmt || null,
    ...(order.number !== undefined && order.number !== String(order.id) ? { number: order.number } : {}),
    ...(billing ? { buyer: { firstName: billing.first_name ?? '', lastName: billing.last_name ?? '', company: billing.company ?? '' } } : {}),
    ...(narrowed ? {} : { source: raw }),
  };
}

/** The port's field names as WooCommerce's (`_fields`). */
const WOO_FIELDS: Record<ListedOrderField, string> = {
  id: 'id',
  status: 'status',
  currency: 'currency',
  total: 'total',
  paidAt: 'date_paid_gmt',
  createdAt: 'date_created_gmt',
  refunds: 'refunds',
};

export function wooFieldsOf(fields: readonly ListedOrderField[]): string {
  return [...new Set(fields.map((field) => WOO_FIELDS[field]))].join(',');
}
