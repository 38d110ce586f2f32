import type { ShopWebhook } from '../../connector/shop/shop';

/**
 * Which of the shop's webhooks are this connector's: one rule for the doctor and the sweep. A
 * webhook is judged by where it delivers, never by its topic alone: another integration's webhook
 * for the same topic delivers nothing to us, and its being disabled is not our problem.
 */

/** The topics the connector needs (docs/connector.md): created starts invoices, updated carries status changes, refunds and cancellations. */
export const NEEDED_TOPICS = ['order.created', 'order.updated'] as const;

/**
 * The topics that keep the connector's copy of the shop's products fresh (WooShop caches them per
 * process for SHOP_FACTS_TTL_MS): without them a product made virtual, moved to another category or
 * deleted reaches invoices only when the copy expires. Recommended, not needed.
 */
export const PRODUCT_TOPICS = ['product.updated', 'product.deleted'] as const;

/** Where the shop must deliver this tenant's orders. */
export function deliveryUrlFor(publicUrl: string, tenantId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/webhooks/woocommerce/${tenantId}`;
}

/** Same delivery URL, whatever trailing slashes WooCommerce or the tenants file added. */
export function sameDeliveryUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/** The shop's webhooks that deliver to `url` (any status, any topic). */
export function webhooksDeliveringTo(hooks: readonly ShopWebhook[], url: string): ShopWebhook[] {
  return hooks.filter((hook) => sameDeliveryUrl(hook.delivery_url, url));
}

/** Needed topics that no active webhook delivers to `url`: those orders never reach the connector. */
export function topicsNotDelivered(hooks: readonly ShopWebhook[], url: string): string[] {
  const ours = webhooksDeliveringTo(hooks, url);
  return NEEDED_TOPICS.filter((topic) => !ours.some((hook) => hook.topic === topic && hook.status === 'active'));
}
