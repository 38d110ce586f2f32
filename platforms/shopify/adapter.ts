import { shopifySaleSettingsSchema, type ShopifyTenantConfig } from '../../connector/config/shopify-tenant';
import type { ShopPlatform } from '../shop-platform';
import { adminCallProblem, shopifyDoctorChecks } from './doctor-checks';
import { parseShopifyOrder, parseShopifyRefund } from './order-query';
import { shopifyOrderAttributes, shopifyOrderToSale } from './order-to-sale';
import { shopifyRefundToSaleRefund } from './refund-to-sale-refund';
import { ShopifyShop } from './shopify-shop';
import { shopifyOrderWebhooks, shopifyOtherSystemDocument, shopifyShopOrder } from './shop-order';
import { shopifyAdminOrderUrl } from './admin-links';
import { shopifyWebhookRouter } from './webhook-route';

/** Shopify behind the connector's ports: its GraphQL Admin API as the Shop, its signed webhooks, its doctor checks. */
export const shopify: ShopPlatform = {
  name: 'shopify',
  title: 'Shopify',
  adminOrderUrl: (tenant, orderId) => shopifyAdminOrderUrl(tenant.shopify?.adminUrl ?? tenant.shop.url, orderId),
  createShop: (tenant) => new ShopifyShop(tenant.shopify as ShopifyTenantConfig),
  // Shopify's deliveries are few per order (no write-back echo storm like WooCommerce's): Express serves them.
  webhookFastPath: () => () => false,
  webhookRouter: shopifyWebhookRouter,
  // The store's currency policy and NIF sources are the tenant's (its `shopify.sale`); without a tenant, their defaults.
  saleOf: (order, _mapping, tenant) => shopifyOrderToSale(parseShopifyOrder(order), tenant?.shopify?.sale ?? shopifySaleSettingsSchema.parse({})),
  attributesOf: (order) => shopifyOrderAttributes(parseShopifyOrder(order)),
  orderOf: (order) => shopifyShopOrder(parseShopifyOrder(order)),
  otherSystemDocument: shopifyOtherSystemDocument,
  orderWebhooks: shopifyOrderWebhooks,
  shopCallProblem: (error, tenant) => adminCallProblem(error, tenant.shopify as ShopifyTenantConfig),
  refundOf: (refund, sale) => shopifyRefundToSaleRefund(parseShopifyRefund(refund, sale.id), sale),
  async doctorChecks(tenant, _mapping, publicUrl) {
    const shop = new ShopifyShop(tenant.shopify as ShopifyTenantConfig);
    return shopifyDoctorChecks(shop.client, tenant, publicUrl);
  },
};
