import { itemType, productTypeFromShop, type ProductFacts } from '../../law/line-type';
import { MappingSettingsSchema, type MappingSettingsInput } from '../../law/mapping-settings';
import { wooSale } from './support/sale';
import { buildOrder } from './support/woo-cart';

/**
 * Goods or service per line (CIVA art. 6(6)(a): services to a business abroad are reverse-charged,
 * M40; RITI art. 14 / CIVA art. 14: goods to an EU business M16, exported goods M05; CIVA art.
 * 40(1): the simplified-invoice limit depends on it). The first rule that speaks decides, in the
 * order of line-type.ts.
 */
const facts = (over: Partial<ProductFacts> = {}): ProductFacts => ({ id: 7, virtual: false, downloadable: false, categories: [{ id: 15, slug: 'uncategorized' }], ...over });

describe('productTypeFromShop: categories, then WooCommerce\'s virtual flag', () => {
  it.each<[string, Partial<ProductFacts>, MappingSettingsInput['lineTypes'], 'P' | 'S']>([
    ['a physical product is goods', {}, {}, 'P'],
    ['a virtual product is a service (nothing is shipped)', { virtual: true }, {}, 'S'],
    ['downloadable but not virtual: something is shipped, goods', { downloadable: true }, {}, 'P'],
    ['a service category by slug makes a physical-looking product a service', { categories: [{ id: 50, slug: 'formacao' }] }, { serviceCategories: ['formacao'] }, 'S'],
    ['a service category by id', { categories: [{ id: 50, slug: 'formacao' }] }, { serviceCategories: [50] }, 'S'],
    ['a goods category wins over the virtual flag (a gift card posted as a card)', { virtual: true, categories: [{ id: 60, slug: 'cartoes' }] }, { goodsCategories: ['cartoes'] }, 'P'],
    ['in a goods and a service category: goods, the safe default', { categories: [{ id: 50, slug: 'formacao' }, { id: 60, slug: 'cartoes' }] }, { serviceCategories: ['formacao'], goodsCategories: ['cartoes'] }, 'P'],
  ])('%s', (_name, over, lineTypes, expected) => {
    expect(productTypeFromShop(facts(over), MappingSettingsSchema.parse({ lineTypes }).lineTypes)).toBe(expected);
  });
});

describe('itemType: settings by id, then SKU, then what the shop says, then the order, then the default', () => {
  const order = (needsProcessing?: boolean) =>
    wooSale({ ...buildOrder({ id: 1, currency: 'EUR', status: 'processing', items: [{ name: 'X', productId: 7, price: '10.00', quantity: 1, rate: '23' }] }), ...(needsProcessing === undefined ? {} : { needs_processing: needsProcessing }) });
  const item = { productId: '7', variantId: '8', sku: 'EB-01' };
  it.each<[string, MappingSettingsInput['lineTypes'], boolean | undefined, 'P' | 'S']>([
    ['default goods', {}, undefined, 'P'],
    ['default service', { default: 'S' }, undefined, 'S'],
    ['service by product id', { serviceProductIds: [7] }, undefined, 'S'],
    ['service by variation id', { serviceProductIds: [8] }, undefined, 'S'],
    ['goods by id beats the shop\'s virtual flag', { goodsProductIds: [7], shopProductTypes: { 8: 'S' } }, undefined, 'P'],
    ['goods by id beats a service SKU prefix', { goodsProductIds: [8], serviceSkuPrefixes: ['EB'] }, undefined, 'P'],
    ['service by SKU prefix', { serviceSkuPrefixes: ['EB'] }, undefined, 'S'],
    ['goods by SKU prefix beats the shop', { goodsSkuPrefixes: ['EB'], shopProductTypes: { 8: 'S' } }, undefined, 'P'],
    ['the shop says service for the variation', { shopProductTypes: { 8: 'S' } }, undefined, 'S'],
    ['the shop speaks of the variation, not the parent', { shopProductTypes: { 7: 'S' } }, undefined, 'P'],
    ['the shop says goods beats needs_processing=false', { shopProductTypes: { 8: 'P' } }, false, 'P'],
    ['needs_processing=false (all virtual and downloadable): services', {}, false, 'S'],
    ['needs_processing=false ignored when turned off', { servicesWhenOrderNeedsNoProcessing: false }, false, 'P'],
  ])('%s', (_name, lineTypes, needsProcessing, expected) => {
    expect(itemType(order(needsProcessing), item, MappingSettingsSchema.parse({ lineTypes }))).toBe(expected);
  });
});
