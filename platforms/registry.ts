import type { TenantConfig } from '../connector/config/load-config';
import { admitRefund, admitSale } from '../law/sale-schema';
import type { ShopPlatform } from './shop-platform';
import { shopify } from './shopify/adapter';
import { woocommerce } from './woocommerce/adapter';

/**
 * A platform whose sales and refunds enter the law checked (law/sale-schema.ts): one check for
 * every adapter, before the connector reads the sale, so an adapter that breaks the neutral sale's
 * contract gets its order refused with the fields named (`sale-invalid`), never issued.
 */
function admittedByTheLaw(platform: ShopPlatform): ShopPlatform {
  return {
    ...platform,
    saleOf: (order, mapping, tenant) => admitSale(platform.saleOf(order, mapping, tenant)),
    refundOf: (refund, sale) => admitRefund(platform.refundOf(refund, sale), sale),
  };
}

/** Every shop platform the connector serves, by the name a tenant gives in `platform:`. */
export const PLATFORMS: Readonly<Record<NonNullable<TenantConfig['platform']>, ShopPlatform>> = { woocommerce: admittedByTheLaw(woocommerce), shopify: admittedByTheLaw(shopify) };

export function platformOf(tenant: Pick<TenantConfig, 'platform'>): ShopPlatform {
  return PLATFORMS[tenant.platform ?? 'woocommerce'];
}
