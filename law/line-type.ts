import type { MappingSettings } from './mapping-settings';
import type { Sale, SaleLine, SupplyNature } from './sale';

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
 *  4. the nature of the supply as the platform tells it on the line (law/sale.ts `SupplyNature`);
 *  5. `servicesWhenOrderNeedsNoProcessing` (the sale says nothing in it travels: WooCommerce marks
 *     an order whose items are all virtual and downloadable);
 *  6. `lineTypes.default`.
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

/** What a line sells, as the type rules read it (a sale's line or a refund's). */
export type ProductRef = Pick<SaleLine, 'sku' | 'productId' | 'variantId'> & { nature?: SupplyNature };

/** The id a line's product is known by: its variant when it has one ("T-shirt S" and "T-shirt M" apart); "" for none. */
export function lineProductId(item: Pick<SaleLine, 'productId' | 'variantId'>): string {
  return item.variantId ?? item.productId ?? '';
}

/** The line's product and variant ids, for the settings that list ids (numbers or text). */
export function productIdsOf(item: Pick<SaleLine, 'productId' | 'variantId'>): string[] {
  // Asked three times per line per document: one list, not a list and its filtered copy.
  const ids: string[] = [];
  if (item.productId !== undefined && item.productId !== '') ids.push(item.productId);
  if (item.variantId !== undefined && item.variantId !== '') ids.push(item.variantId);
  return ids;
}

/** Whether `ids` (a line's) meet a settings list of product ids. */
export function listsProduct(list: readonly (number | string)[], ids: readonly string[]): boolean {
  return ids.some((id) => list.some((wanted) => String(wanted) === id));
}

/** Goods or a service by the nature the platform told (undefined when it told none). */
function typeOfNature(nature: SupplyNature | undefined): LineType | undefined {
  if (nature === undefined) return undefined;
  return nature === 'goods' ? 'P' : 'S';
}

export function itemType(sale: Pick<Sale, 'needsShipping'>, item: ProductRef, settings: MappingSettings): LineType {
  const rules = settings.lineTypes;
  const ids = productIdsOf(item);
  if (listsProduct(rules.goodsProductIds, ids)) return 'P';
  if (listsProduct(rules.serviceProductIds, ids)) return 'S';
  if (item.sku && rules.goodsSkuPrefixes.some((prefix) => item.sku.startsWith(prefix))) return 'P';
  if (item.sku && rules.serviceSkuPrefixes.some((prefix) => item.sku.startsWith(prefix))) return 'S';
  const fromShop = rules.shopProductTypes[lineProductId(item)];
  if (fromShop) return fromShop;
  const told = typeOfNature(item.nature);
  if (told) return told;
  if (rules.servicesWhenOrderNeedsNoProcessing && sale.needsShipping === false) return 'S';
  return rules.default;
}

type ProductList = { productIds: readonly (number | string)[]; skuPrefixes: readonly string[] };

function listed(list: ProductList, item: ProductRef): boolean {
  return listsProduct(list.productIds, productIdsOf(item)) || (item.sku !== '' && list.skuPrefixes.some((prefix) => item.sku.startsWith(prefix)));
}

/**
 * A service whose place of supply is not simply the buyer's or the shop's: taxed where performed
 * (CIVA art. 6(7): events, immovable property) or electronic (art. 6-A). By the accountant's lists
 * (ids, SKU prefixes), then what the shop says (categories, virtual and downloadable, read by the
 * connector), then the nature the platform tells. Goods have none.
 */
export function specialSupply(item: ProductRef, type: LineType, settings: MappingSettings): 'electronic' | 'where-performed' | undefined {
  if (type !== 'S') return undefined;
  const rules = settings.services;
  if (listed(rules.taxedWherePerformed, item)) return 'where-performed';
  if (listed(rules.electronic, item)) return 'electronic';
  const fromShop = rules.shopSupplyKinds[lineProductId(item)];
  if (fromShop) return fromShop;
  if (item.nature === 'event-admission' || item.nature === 'property-service') return 'where-performed';
  if (item.nature === 'electronic-service') return 'electronic';
  return undefined;
}

/** What the connector puts in `services.shopSupplyKinds` for a product (its categories, then virtual or downloadable). */
export function supplyKindFromShop(facts: ProductFacts, settings: MappingSettings): 'electronic' | 'where-performed' | undefined {
  const rules = settings.services;
  if (inCategories(facts, rules.taxedWherePerformed.categories)) return 'where-performed';
  if (inCategories(facts, rules.electronic.categories)) return 'electronic';
  if (rules.electronic.virtualOrDownloadable && (facts.virtual || facts.downloadable)) return 'electronic';
  return undefined;
}
