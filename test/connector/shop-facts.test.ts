import { SHOP_FACTS_TTL_MS, ShopRequestError, WooShop } from '../../connector/shop/woo-shop';
import { META } from '../../connector/shop/order-meta';
import { startFakeWooCommerce, type RunningFakeWoo } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, startHarness, type Harness } from './support/harness';

/**
 * Issue 9 (CIVA art. 16(1), art. 40(1), art. 6(6)): the connector reads the shop's
 * "Round tax at subtotal level" setting and its products' virtual/downloadable flags through the
 * REST API (OAuth 1.0a over http, like the official client), cached per shop.
 */
describe("the shop's tax rounding setting and products, read over REST and cached", () => {
  let woo: RunningFakeWoo;
  let shop: WooShop;
  beforeAll(async () => {
    woo = await startFakeWooCommerce();
    shop = new WooShop({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, webhookSecret: 'x', timeoutMs: 3_000 });
  });
  afterAll(async () => woo.close());
  const calls = (path: string) => woo.requests.filter((r) => r.path.endsWith(`/${path}`)).length;

  it('woocommerce_tax_round_at_subtotal: WooCommerce default "no", re-read only after the cache time', async () => {
    const t0 = 1_000_000;
    expect(await shop.taxRoundAtSubtotal(t0)).toBe(false);
    woo.setSetting('tax', 'woocommerce_tax_round_at_subtotal', 'yes');
    expect(await shop.taxRoundAtSubtotal(t0 + 1_000)).toBe(false);
    expect(calls('settings/tax/woocommerce_tax_round_at_subtotal')).toBe(1);
    expect(await shop.taxRoundAtSubtotal(t0 + SHOP_FACTS_TTL_MS)).toBe(true);
    expect(calls('settings/tax/woocommerce_tax_round_at_subtotal')).toBe(2);
  });

  it('products: one list call for the uncached ids; a deleted product is unknown, not an error', async () => {
    woo.putProduct({ id: 501, name: 'Curso de fotografia', virtual: true, downloadable: false });
    woo.putProduct({ id: 502, name: 'Ebook', virtual: true, downloadable: true });
    woo.putProduct({ id: 503, name: 'Caneca', virtual: false, downloadable: false });
    const first = await shop.products([501, 502, 503, 599, 501], 5_000);
    expect([...first.values()]).toEqual([
      { id: 501, virtual: true, downloadable: false },
      { id: 502, virtual: true, downloadable: true },
      { id: 503, virtual: false, downloadable: false },
    ]);
    const before = calls('products');
    expect(before).toBe(1);
    await shop.products([503, 502], 6_000);
    expect(calls('products')).toBe(before);
  });

  it('refuses a wrong key like WooCommerce (401), as a permanent shop error', async () => {
    const wrong = new WooShop({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: 'cs_wrong', webhookSecret: 'x', timeoutMs: 3_000 });
    const error = await wrong.taxRoundAtSubtotal().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopRequestError);
    expect((error as ShopRequestError).status).toBe(401);
    expect((error as ShopRequestError).permanent).toBe(true);
    const missing = await shop.products([1]).then(() => 'ok');
    expect(missing).toBe('ok');
  });
});

describe('CIVA art. 40(1)(b) / art. 6(6): a virtual product in the shop becomes a service line on the invoice', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { documentType: 'S' } });
  });
  afterAll(async () => h.close());

  it('product 11 virtual in the shop: its line is a service (S), the book stays goods (P); the round-at-subtotal setting was read', async () => {
    h.woo.putProduct({ id: 11, name: 'Caneca de cerâmica', virtual: true, downloadable: false });
    h.woo.putProduct({ id: 12, name: 'Livro', virtual: false, downloadable: false });
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('the number on the order', () => h.woo.meta(id, META.documentNumber) as string | undefined);
    const [doc] = await h.documentsOf(id);
    const lines = (doc.document as unknown as { Lines: { Code: string; Type: string }[] }).Lines;
    expect(lines.find((l) => l.Code === 'CAN-01')?.Type).toBe('S');
    expect(lines.find((l) => l.Code === 'LIV-02')?.Type).toBe('P');
    expect(h.woo.requests.some((r) => r.path.endsWith('/settings/tax/woocommerce_tax_round_at_subtotal') && r.status === 200)).toBe(true);
  });
});
