import { z } from 'zod';
import { MoneyText } from '../shop/money-text';

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
