import type { TenantConfig } from '../connector/config/load-config';
import type { ShopPlatform } from './shop-platform';
import { shopify } from './shopify/adapter';
import { woocommerce } from './woocommerce/adapter';

/** Every shop platform the connector serves, by the name a tenant gives in `platform:`. */
export const PLATFORMS: Readonly<Record<NonNullable<TenantConfig['platform']>, ShopPlatform>> = { woocommerce, shopify };

export function platformOf(tenant: Pick<TenantConfig, 'platform'>): ShopPlatform {
  return PLATFORMS[tenant.platform ?? 'woocommerce'];
}
