import { settingsFrom } from '../../../law/order-to-document';
import type { MappingSettings, MappingSettingsInput } from '../../../law/mapping-settings';
import type { Sale } from '../../../law/sale';
import { parseWooOrder } from '../../../platforms/woocommerce/order-schema';
import { saleOfWooOrder } from '../../../platforms/woocommerce/order-to-sale';

/** A WooCommerce order payload as the neutral sale the law reads (through the WooCommerce adapter). */
export function wooSale(order: unknown, settings?: MappingSettingsInput | MappingSettings): Sale {
  return saleOfWooOrder(parseWooOrder(order), settingsFrom(settings));
}
