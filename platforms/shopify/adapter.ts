import { Router } from 'express';
import type { TenantConfig } from '../../connector/config/load-config';
import type { ShopServices } from '../../connector/shop/shop-services';
import { shopifySaleSettingsSchema, type ShopifyTenantConfig } from '../../connector/config/shopify-tenant';
import type { ShopPlatform } from '../shop-platform';
import type { Lang } from '../../messages/lang';
import { adminCallProblem, shopifyDoctorChecks } from './doctor-checks';
import { parseShopifyOrder, parseShopifyRefund } from './order-query';
import { shopifyOrderAttributes, shopifyOrderToSale } from './order-to-sale';
import { shopifyRefundToSaleRefund } from './refund-to-sale-refund';
import { ShopifyShop } from './shopify-shop';
import { shopifyOrderWebhooks, shopifyShopOrder } from './shop-order';
import { shopifyAdminOrderUrl } from './admin-links';
import { shopifyWebhookFastPath, shopifyWebhookRouter } from './webhook-route';
import { shopifyInstallRouter } from './install-route';
import { installedTokenSource } from './installed-token';
import { installedTokenCheck } from './token-check';
import { SHOPIFY_WORDS, shopifyStatusLabel } from './shopify-catalogue';
import { markedMetafields, markMeta, shopifyOtherSystemDocument } from './other-apps';
import { SHOPIFY_PARTIALLY_PAID, shopifyAdvancePayment } from './advance-payments';
import { shopifyDeliveryProblemWords, shopifyWebhookFix } from './webhook-words';
import { shopifyRoundingFix, shopifyShopRefusedFix } from './shop-words';

/** Shopify behind the connector's ports: its GraphQL Admin API as the Shop, its signed webhooks, its doctor checks. */
export const shopify: ShopPlatform = {
  name: 'shopify',
  title: 'Shopify',
  numbersOrdersApart: true,
  adminOrderUrl: (tenant, orderId) => shopifyAdminOrderUrl(tenant.shopify?.adminUrl ?? tenant.shop.url, orderId),
  createShop: (tenant, services) => shopOf(tenant, services),
  // Its deliveries on plain Node HTTP ahead of Express, like WooCommerce's (Express serves the encoded forms).
  webhookFastPath: shopifyWebhookFastPath,
  // Its deliveries and the install flow (install and callback routes per tenant).
  webhookRouter: (deps) => Router().use(shopifyWebhookRouter(deps), shopifyInstallRouter(deps)),
  // The store's currency policy and NIF sources are the tenant's (its `shopify.sale`); without a tenant, their defaults.
  saleOf: (order, _mapping, tenant) => shopifyOrderToSale(parseShopifyOrder(order), tenant?.shopify?.sale ?? shopifySaleSettingsSchema.parse({})),
  // Its attributes and app metafields, and other apps' marks (tags, attributes, the note, the named metafields): the worker checks them under the lock.
  attributesOf: (order) => {
    const parsed = parseShopifyOrder(order);
    return [...shopifyOrderAttributes(parsed), ...markMeta({ tags: parsed.tags, attributes: parsed.customAttributes, metafields: parsed.marked?.nodes ?? [], note: parsed.note })];
  },
  orderOf: (order) => shopifyShopOrder(parseShopifyOrder(order)),
  // Other invoicing apps' tags, attributes and metafields, as the tenant names them (./other-apps.ts).
  otherSystemDocument: shopifyOtherSystemDocument,
  // A deposit or a payment-terms order partly paid, held by Shopify itself (CIVA art. 36(1)(c), ./advance-payments.ts).
  advancePayment: shopifyAdvancePayment,
  advancePaymentStatuses: [SHOPIFY_PARTIALLY_PAID],
  orderWebhooks: shopifyOrderWebhooks,
  // A refused delivery and a subscription the watch could not create, in Shopify's words (the client secret, its subscriptions).
  deliveryProblemWords: shopifyDeliveryProblemWords,
  webhookFix: shopifyWebhookFix,
  // A refused token on a console page: install the app again (or a new token in the tenants file).
  refusedWords: (lang, tenant) => tokenRefused(lang, tenant),
  // The sweep's refused listing: the same words, the store's token (never a REST key).
  listingRefusedFix: (lang, tenant) => tokenRefused(lang, tenant),
  roundingFix: shopifyRoundingFix,
  shopRefusedFix: shopifyShopRefusedFix,
  // Its financial statuses as the Shopify admin names them, never the slug (`partially_refunded`).
  statusLabel: shopifyStatusLabel,
  shopCallProblem: (error, tenant) => adminCallProblem(error, tenant.shopify as ShopifyTenantConfig),
  refundOf: (refund, sale) => shopifyRefundToSaleRefund(parseShopifyRefund(refund, sale.id), sale),
  async doctorChecks(tenant, mapping, publicUrl, services) {
    const store = tenant.shopify as ShopifyTenantConfig;
    // A token the install flow keeps: there, and still refreshable (Redis may have lost it).
    const token = await installedTokenCheck(services, tenant.id, store, publicUrl, mapping.shopTimeZone);
    const result = await shopifyDoctorChecks(shopOf(tenant, services).client, tenant, publicUrl);
    return token ? { ...result, checks: [token, ...result.checks] } : result;
  },
};

/** The store refused the connector's token: install the app again (or a new token in the tenants file). */
function tokenRefused(lang: Lang, tenant: TenantConfig): string {
  const store = tenant.shopify as ShopifyTenantConfig;
  return store.accessToken === undefined
    ? SHOPIFY_WORDS.say(lang, 'token-refused', { shop: store.shopDomain, link: `/shopify/install/${encodeURIComponent(tenant.id)}` })
    : SHOPIFY_WORDS.say(lang, 'token-refused-file', { shop: store.shopDomain });
}

/** The tenant's store, its token from the tenants file or, once installed through the connector, from the sealed copy. */
function shopOf(tenant: TenantConfig, services: ShopServices | undefined): ShopifyShop {
  const store = tenant.shopify as ShopifyTenantConfig;
  return new ShopifyShop(store, undefined, {
    ...(store.accessToken === undefined ? { installedToken: installedTokenSource(services, tenant.id, store) } : {}),
    markedMetafields: markedMetafields(tenant.settings.otherSystemMetaKeys),
  });
}
