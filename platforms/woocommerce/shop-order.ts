import { z } from 'zod';
import type { ShopOrder } from '../shop-platform';
import { parseWooOrder } from './order-schema';
import { deliveryUrlFor, topicsNotDelivered, webhooksDeliveringTo } from './webhook-delivery';
import type { ShopWebhook } from '../../connector/shop/shop';

/** The order's refund summaries (id and total, "-5.00"): the order schema leaves them out. */
const RefundSummariesSchema = z.object({ refunds: z.array(z.looseObject({ id: z.number().int().positive(), total: z.string() })).default([]) });

/** A WooCommerce order (REST v3) as the review and the dry run read it; throws an OrderMappingError naming the fields, or zod's error on its refund summaries. */
export function wooShopOrder(raw: unknown): ShopOrder {
  const order = parseWooOrder(raw);
  const { refunds } = RefundSummariesSchema.parse(raw);
  return {
    status: order.status,
    total: order.total,
    currency: order.currency,
    meta_data: order.meta_data,
    date_paid_gmt: order.date_paid_gmt,
    date_created_gmt: order.date_created_gmt,
    payment_method: order.payment_method,
    refunds,
  };
}

/** The shop's order webhooks delivering to this tenant's WooCommerce URL (any status), and the needed topics no active one delivers. */
export function wooOrderWebhooks(hooks: readonly ShopWebhook[], publicUrl: string, tenantId: string): { ours: ShopWebhook[]; missingTopics: string[] } {
  const url = deliveryUrlFor(publicUrl, tenantId);
  return { ours: webhooksDeliveringTo(hooks, url).filter((hook) => hook.topic.startsWith('order.')), missingTopics: topicsNotDelivered(hooks, url) };
}
