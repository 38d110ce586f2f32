import type { MappingSettings } from './mapping-settings';
import type { WooLineItem, WooOrder } from '../platforms/woocommerce/order-schema';

/**
 * Goods (P) or service (S), per line: it decides the exemption code of a sale abroad (goods to an
 * EU business M16, exported goods M05, services to a business abroad M40, CIVA art. 6(6)(a)) and
 * the simplified-invoice limit (CIVA art. 40(1)). One rule for invoices, credit notes and
 * waybills, in this order (the first that speaks decides):
 *  1. `lineTypes.goodsProductIds` / `serviceProductIds` (product or variation id);
 *  2. `goodsSkuPrefixes` / `serviceSkuPrefixes`;
 *  3. what the shop says of the product (`shopProductTypes`, filled by the connector with
 *     `productTypeFromShop`: its categories against `goodsCategories` / `serviceCategories`,
 *     then WooCommerce's `virtual` flag);
 *  4. `servicesWhenOrderNeedsNoProcessing` (WooCommerce marks an order whose items are all virtual
 *     and downloadable);
 *  5. `lineTypes.default`.
 */
export type LineType = 'P' | 'S';

/** What the shop's REST API tells of a product or variation (a variation carries its parent's categories). */
export interface ProductFacts {
  id: number;
  virtual: boolean;
  downloadable: boolean;
  categories: readonly { id: number; slug: string }[];
}

type LineTypeRules = MappingSettings['lineTypes'];

function inCategories(facts: ProductFacts, wanted: readonly (string | number)[]): boolean {
  return facts.categories.some((category) => wanted.some((w) => (typeof w === 'number' ? w === category.id : w === category.slug)));
}

/** Rule 3: a product's type from the shop (a goods category wins over a service one, as goods are the safe default). */
export function productTypeFromShop(facts: ProductFacts, rules: LineTypeRules): LineType {
  if (inCategories(facts, rules.goodsCategories)) return 'P';
  if (inCategories(facts, rules.serviceCategories)) return 'S';
  return facts.virtual ? 'S' : 'P';
}

/** The id a line's product is known by: its variation when it has one ("T-shirt S" and "T-shirt M" apart). */
export function lineProductId(item: Pick<WooLineItem, 'product_id' | 'variation_id'>): number {
  return item.variation_id || item.product_id;
}

export function itemType(order: WooOrder, item: Pick<WooLineItem, 'sku' | 'product_id' | 'variation_id'>, settings: MappingSettings): LineType {
  const rules = settings.lineTypes;
  const ids = [item.product_id, item.variation_id].filter((id) => id > 0);
  if (ids.some((id) => rules.goodsProductIds.includes(id))) return 'P';
  if (ids.some((id) => rules.serviceProductIds.includes(id))) return 'S';
  if (item.sku && rules.goodsSkuPrefixes.some((prefix) => item.sku.startsWith(prefix))) return 'P';
  if (item.sku && rules.serviceSkuPrefixes.some((prefix) => item.sku.startsWith(prefix))) return 'S';
  const fromShop = rules.shopProductTypes[String(lineProductId(item))];
  if (fromShop) return fromShop;
  if (rules.servicesWhenOrderNeedsNoProcessing && order.needs_processing === false) return 'S';
  return rules.default;
}
