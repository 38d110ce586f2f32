import { z } from 'zod';
import { MoneyText } from '../../connector/shop/money-text';
import type { ListedOrderField } from '../../connector/shop/shop';
import type { ListedOrder, OrderSummary } from '../../connector/shop/order-summary';

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
