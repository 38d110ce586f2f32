import { OUR_META_PREFIX } from '../../connector/shop/order-meta';
import { woocommerce } from '../../platforms/woocommerce/adapter';
import { shopify } from '../../platforms/shopify/adapter';
import { FakeShopify, restOrderPayload, type JsonObject } from '../support/fake-shopify';
import { ShopifyShop } from '../../platforms/shopify/shopify-shop';
import { portugueseOrder } from '../connector/support/harness';
import { TAXES_INCLUDED } from './shopify/fixtures/orders';

/**
 * What proves, under the order's lock, that the copy a delivery carried is still the shop's
 * (connector/pipeline/issue-step.ts): the platform's modification stamp and our own attributes, read
 * by the platform (no connector file reads a platform's field names).
 */
describe("the carried copy's proof, as each platform reads it", () => {
  it("WooCommerce: the order's date_modified_gmt, the same in a webhook's payload and a REST read", () => {
    const order = { ...portugueseOrder(), date_modified_gmt: '2026-11-28T10:15:02' };
    expect(woocommerce.modifiedStamp?.(order)).toBe('2026-11-28T10:15:02');
    expect(woocommerce.modifiedStamp?.({ ...order, date_modified_gmt: null })).toBeUndefined();
    expect(woocommerce.modifiedStamp?.({ id: 1 })).toBeUndefined();
    expect(woocommerce.modifiedStamp?.(null)).toBeUndefined();
  });

  it("WooCommerce: our own attributes are the order's meta under our prefix (key and value), another plugin's left out", () => {
    const order = { ...portugueseOrder(), meta_data: [{ id: 1, key: '_billing_nif', value: '232013969' }, { id: 2, key: `${OUR_META_PREFIX}issuing_invoice`, value: '{"documentId":7}' }, { id: 3, key: '_moloni_sent', value: '0' }] };
    const ours = (woocommerce.attributesOf?.(order) ?? []).filter((attribute) => attribute.key.startsWith(OUR_META_PREFIX));
    expect(ours).toEqual([{ key: `${OUR_META_PREFIX}issuing_invoice`, value: '{"documentId":7}' }]);
  });

  it("Shopify: no stamp: its deliveries carry no copy (the webhook's body is the REST order, the read the GraphQL one), so the worker always reads", () => {
    expect(shopify.modifiedStamp).toBeUndefined();
    const delivered = restOrderPayload(TAXES_INCLUDED as JsonObject);
    expect(delivered.updated_at).toBeDefined();
    expect(delivered.updatedAt).toBeUndefined();
  });

  it("Shopify: the order read under the lock (the Shop's getOrder) carries other apps' marks beside its attributes (tags, the merchant's note)", async () => {
    const store = new FakeShopify({ retryDelayMs: () => 5 });
    await store.start();
    try {
      store.addOrder({ ...structuredClone(TAXES_INCLUDED), tags: ['Moloni-Faturado'], note: 'Embrulhar.' });
      const shop = new ShopifyShop({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecrets: [store.clientSecret], timeoutMs: 5_000, sale: { currency: 'shop', nifSources: [] } });
      const attributes = shopify.attributesOf?.(await shop.getOrder(Number(TAXES_INCLUDED.legacyResourceId))) ?? [];
      expect(attributes).toEqual(expect.arrayContaining([{ key: 'tag:moloni-faturado', value: 'Moloni-Faturado' }, { key: 'note', value: 'Embrulhar.' }]));
      expect(shopify.otherSystemDocument(attributes, ['Moloni=tag:moloni-faturado'])).toEqual({ system: 'Moloni', key: 'tag:moloni-faturado', value: 'Moloni-Faturado' });
    } finally {
      await store.close();
    }
  });
});
