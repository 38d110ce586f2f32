import type { OrderSummary } from '../../connector/shop/order-summary';
import { summaryOfWooOrder } from './order-summary';
import { parseWooOrderSummary } from './order-schema';
import { deliveryUrlFor, topicsNotDelivered, webhooksDeliveringTo } from './webhook-delivery';
import type { ShopWebhook } from '../../connector/shop/shop';

/** A WooCommerce order (REST v3) in the port's words; throws an OrderMappingError naming the fields. */
export function wooShopOrder(raw: unknown): OrderSummary {
  return summaryOfWooOrder(parseWooOrderSummary(raw));
}

/** The shop's order webhooks delivering to this tenant's WooCommerce URL (any status), and the needed topics no active one delivers. */
export function wooOrderWebhooks(hooks: readonly ShopWebhook[], publicUrl: string, tenantId: string): { ours: ShopWebhook[]; missingTopics: string[] } {
  const url = deliveryUrlFor(publicUrl, tenantId);
  return { ours: webhooksDeliveringTo(hooks, url).filter((hook) => hook.topic.startsWith('order.')), missingTopics: topicsNotDelivered(hooks, url) };
}
