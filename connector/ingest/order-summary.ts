import { z } from 'zod';
import { DECIMAL_TEXT, MoneyText } from '../shop/money-text';

/**
 * What the webhook route needs from an order to decide which documents it calls for, checked with
 * zod (a payload that is not an order is refused with 400). The full order is parsed by the worker
 * from the shop's current copy: the route stays cheap, and no customer data sits in Redis.
 */
export const OrderSummarySchema = z.object({
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
  /** The go-live cut-off reads when the order was sold (ingest/go-live.ts). */
  date_paid_gmt: z.string().nullish(),
  date_created_gmt: z.string().nullish(),
  /** A gateway that records the payment only on completion (cash on delivery) is dated by creation. */
  payment_method: z.string().nullish(),
  refunds: z
    // A refund's total only feeds the coverage check (pipeline/coverage.ts): one that is not money text leaves it unjudged, never refuses the delivery.
    .array(z.object({ id: z.number().int().positive(), total: MoneyText.optional().catch(undefined) }))
    .optional()
    .transform((list) => list ?? []),
});
export type OrderSummary = z.infer<typeof OrderSummarySchema>;

type SummaryResult = ReturnType<typeof OrderSummarySchema.safeParse>;

/**
 * OrderSummarySchema.safeParse, with the common case proven by hand: every delivery (an order's
 * own, then our write-backs' two echoes) is summarised, and zod's walk of the summary was a tenth
 * of the route's cost. An order whose fields are all of the expected kinds gets the summary zod
 * would give (the same fields, the amounts normalized the same way); anything else (a missing or
 * odd field, an amount in PHP's float print) goes to zod, which decides and words the refusal.
 */
export function readOrderSummary(json: unknown): SummaryResult {
  const fast = commonSummary(json);
  return fast ? { success: true, data: fast } : OrderSummarySchema.safeParse(json);
}

const CURRENCY = /^[A-Za-z]{3}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A date field as the schema reads it (nullish text): absent, null or text. */
function dateLike(value: unknown): value is string | null | undefined {
  return value === undefined || value === null || typeof value === 'string';
}

function commonSummary(json: unknown): OrderSummary | undefined {
  if (!isRecord(json)) return undefined;
  const { id, status, currency, total, billing, line_items: lines, meta_data: meta, date_paid_gmt: paid, date_created_gmt: created, payment_method: method, refunds } = json;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return undefined;
  if (typeof status !== 'string' || typeof currency !== 'string' || !CURRENCY.test(currency)) return undefined;
  // Plain decimal text only: zod's transform would trim it and read a PHP float print.
  if (typeof total !== 'string' || !DECIMAL_TEXT.test(total)) return undefined;
  if (!isRecord(billing) || !Array.isArray(lines)) return undefined;
  if (!dateLike(paid) || !dateLike(created) || !dateLike(method)) return undefined;
  const metaList: OrderSummary['meta_data'] = [];
  if (meta !== undefined) {
    if (!Array.isArray(meta)) return undefined;
    for (const entry of meta) {
      if (!isRecord(entry) || typeof entry.key !== 'string' || !('value' in entry)) return undefined;
      metaList.push({ key: entry.key, value: entry.value });
    }
  }
  const refundList: OrderSummary['refunds'] = [];
  if (refunds !== undefined) {
    if (!Array.isArray(refunds)) return undefined;
    for (const refund of refunds) {
      if (!isRecord(refund) || typeof refund.id !== 'number' || !Number.isSafeInteger(refund.id) || refund.id <= 0) return undefined;
      if (typeof refund.total !== 'string' || !DECIMAL_TEXT.test(refund.total)) return undefined;
      refundList.push({ id: refund.id, total: refund.total });
    }
  }
  const summary: OrderSummary = { id, status, currency, total, billing: {}, line_items: [...lines], meta_data: metaList, refunds: refundList };
  if (paid !== undefined) summary.date_paid_gmt = paid;
  if (created !== undefined) summary.date_created_gmt = created;
  if (method !== undefined) summary.payment_method = method;
  return summary;
}
