import type { ShopWebhook } from '../../connector/shop/shop';
import type { OrderSummary } from '../../connector/shop/order-summary';
import { legacyIdOf, type ShopifyOrder } from './order-query';
import { shopifyStatus, summaryOfHead } from './order-summary';
import { missingTopics, shopifyDeliveryUrl } from './webhook-subscriptions';
import { markMeta } from './other-apps';

/**
 * A Shopify order in the port's words (connector/shop/order-summary.ts), its other apps' marks, and which webhook subscriptions are this connector's.
 */

/** The order (as the Shop reads it) as the review reads it: the summary's status, total and dates; refunds without totals (the order does not carry them). */
export function shopifyShopOrder(order: ShopifyOrder): OrderSummary {
  const { modifiedAt: _modified, ...summary } = summaryOfHead({
    id: order.legacyResourceId,
    status: shopifyStatus(order.displayFinancialStatus, order.cancelledAt, order.test),
    currency: order.currencyCode,
    total: order.totalPriceSet.shopMoney.amount,
    createdAt: order.createdAt,
    paidAt: order.processedAt,
    updatedAt: order.updatedAt,
    refunds: order.refunds.map((r) => ({ id: legacyIdOf(r.id) })),
    metafields: order.metafields.nodes,
    paymentMethod: order.paymentGatewayNames[0] ?? null,
    outstanding: order.totalOutstandingSet?.shopMoney.amount,
    // Other invoicing apps' marks (tags, attributes, the note, the named metafields): a person's "issue" meets the same gate.
    marks: markMeta({ tags: order.tags, attributes: order.customAttributes, metafields: order.marked?.nodes ?? [], note: order.note }),
  });
  return summary;
}

/** The subscriptions delivering to this connector's Shopify URL for the tenant, and the needed topics none delivers. */
export function shopifyOrderWebhooks(hooks: readonly ShopWebhook[], publicUrl: string, tenantId: string): { ours: ShopWebhook[]; missingTopics: string[] } {
  const uri = shopifyDeliveryUrl(publicUrl, tenantId);
  return {
    ours: hooks.filter((hook) => hook.delivery_url === uri),
    missingTopics: missingTopics(
      hooks.map((hook) => ({ id: String(hook.id), topic: hook.topic, uri: hook.delivery_url, apiVersion: hook.api_version ?? '' })),
      uri,
    ),
  };
}
