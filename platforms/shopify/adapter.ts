import type { ShopifyTenantConfig } from '../../connector/config/shopify-tenant';
import type { ShopPlatform } from '../shop-platform';
import { shopifyDoctorChecks } from './doctor-checks';
import { ShopifyShop } from './shopify-shop';
import { shopifyWebhookRouter } from './webhook-route';

/** Shopify behind the connector's ports: its GraphQL Admin API as the Shop, its signed webhooks, its doctor checks. */
export const shopify: ShopPlatform = {
  name: 'shopify',
  createShop: (tenant) => new ShopifyShop(tenant.shopify as ShopifyTenantConfig),
  // Shopify's deliveries are few per order (no write-back echo storm like WooCommerce's): Express serves them.
  webhookFastPath: () => () => false,
  webhookRouter: shopifyWebhookRouter,
  async doctorChecks(tenant, _mapping, publicUrl) {
    const shop = new ShopifyShop(tenant.shopify as ShopifyTenantConfig);
    return shopifyDoctorChecks(shop.client, tenant, publicUrl);
  },
};
