import { SHOP_FACTS_TTL_MS, WooShop } from '../../platforms/woocommerce/woo-shop';
import { woocommerce } from '../../platforms/woocommerce/adapter';
import { ShopRequestError } from '../../connector/shop/shop';
import { META } from '../../connector/shop/order-meta';
import { invoiceRequest, readShopFacts, settingsWithShopFacts } from '../../connector/pipeline/document-requests';
import { MappingSettingsSchema, parseMappingSettings } from '../../law/mapping-settings';
import { startViesStandIn, type StandIn } from './support/vies-stand-in';
import { sendWooWebhook, startFakeWooCommerce, type RunningFakeWoo } from '../support/fake-woocommerce';
import { buildRefund, eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { wooRefundJson } from '../support/payloads';

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

  it('products: one list call for the uncached ids, with their categories; a deleted product is unknown, not an error', async () => {
    woo.putProduct({ id: 501, name: 'Curso de fotografia', virtual: true, downloadable: false, categories: [{ id: 40, name: 'Cursos', slug: 'cursos' }] });
    woo.putProduct({ id: 502, name: 'Ebook', virtual: true, downloadable: true });
    woo.putProduct({ id: 503, name: 'Caneca', virtual: false, downloadable: false });
    const items = [501, 502, 503, 599, 501].map((id) => ({ product_id: id, variation_id: 0 }));
    const first = await shop.productFacts(items, 5_000);
    const uncategorized = [{ id: 15, slug: 'uncategorized' }];
    expect([...first.values()]).toEqual([
      { id: 501, virtual: true, downloadable: false, categories: [{ id: 40, slug: 'cursos' }] },
      { id: 502, virtual: true, downloadable: true, categories: uncategorized },
      { id: 503, virtual: false, downloadable: false, categories: uncategorized },
    ]);
    const before = calls('products');
    expect(before).toBe(1);
    await shop.productFacts([{ product_id: 503, variation_id: 0 }], 6_000);
    expect(calls('products')).toBe(before);
  });

  it("variations: their own virtual flag with the parent's categories, keyed by variation id; a deleted variation falls back to its parent", async () => {
    woo.putProduct({ id: 610, name: 'Workshop', type: 'variable', virtual: false, downloadable: false, categories: [{ id: 41, name: 'Formação', slug: 'formacao' }] });
    woo.putVariation(610, { id: 611, virtual: true, downloadable: false });
    woo.putVariation(610, { id: 612, virtual: false, downloadable: false });
    const items = [611, 612, 619].map((variation) => ({ product_id: 610, variation_id: variation }));
    const facts = await shop.productFacts(items, 7_000);
    const formacao = [{ id: 41, slug: 'formacao' }];
    expect(facts.get(611)).toEqual({ id: 611, virtual: true, downloadable: false, categories: formacao });
    expect(facts.get(612)).toEqual({ id: 612, virtual: false, downloadable: false, categories: formacao });
    expect(facts.get(619)).toEqual({ id: 610, virtual: false, downloadable: false, categories: formacao });
    const variationCalls = woo.requests.filter((r) => r.path.endsWith('/products/610/variations')).length;
    expect(variationCalls).toBe(1);
    await shop.productFacts(items, 8_000);
    expect(woo.requests.filter((r) => r.path.endsWith('/products/610/variations')).length).toBe(variationCalls);
  });

  it('refuses a wrong key like WooCommerce (401), as a permanent shop error', async () => {
    const wrong = new WooShop({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: 'cs_wrong', webhookSecret: 'x', timeoutMs: 3_000 });
    const error = await wrong.taxRoundAtSubtotal().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopRequestError);
    expect((error as ShopRequestError).status).toBe(401);
    expect((error as ShopRequestError).permanent).toBe(true);
    const missing = await shop.productFacts([{ product_id: 1, variation_id: 0 }]).then(() => 'ok');
    expect(missing).toBe('ok');
  });
});

describe("CIVA art. 6(1): the shop's store address (GET settings/general) gives the region its goods ship from", () => {
  let woo: RunningFakeWoo;
  let shop: WooShop;
  beforeAll(async () => {
    woo = await startFakeWooCommerce();
    shop = new WooShop({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, webhookSecret: 'x', timeoutMs: 3_000 });
  });
  afterAll(async () => woo.close());

  it('a Lisbon store is mainland; moved to Ponta Delgada it is the Azores after the cache time; abroad it is none', async () => {
    expect(await shop.storeAddressRegion(1_000)).toBe('mainland');
    woo.setSetting('general', 'woocommerce_store_postcode', '9500-050');
    expect(await shop.storeAddressRegion(2_000)).toBe('mainland');
    expect(await shop.storeAddressRegion(1_000 + SHOP_FACTS_TTL_MS)).toBe('azores');
    woo.setSetting('general', 'woocommerce_default_country', 'ES:M');
    expect(await shop.storeAddressRegion(1_000 + 2 * SHOP_FACTS_TTL_MS)).toBeUndefined();
  });

  it('an Azores store: its 16 % order is issued, not held; the setting dispatchRegion overrides the store address', async () => {
    woo.setSetting('general', 'woocommerce_default_country', 'PT');
    woo.setSetting('general', 'woocommerce_store_postcode', '9500-050');
    const azores = new WooShop({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, webhookSecret: 'x', timeoutMs: 3_000 });
    const order = woocommerce.saleOf(portugueseOrder({ items: [{ name: 'Queijo São Jorge', sku: 'QSJ', productId: 41, price: '13.00', quantity: 1, rate: '16' }], shipping: [] }), parseMappingSettings({}));
    const facts = await readShopFacts(azores, order, 5_000);
    expect(facts.storeAddressRegion).toBe('azores');
    const issue = { issueDate: '2026-03-10' };
    expect(invoiceRequest(order, parseMappingSettings({}), issue, facts).hold).toBe(false);
    const overridden = invoiceRequest(order, parseMappingSettings({ dispatchRegion: 'mainland' }), issue, facts);
    expect(overridden.hold).toBe(true);
    expect(overridden.notes.map((n) => n.message).join('\n')).toMatch(/carries 16%, the VAT of the Azores, but goods are taxed where their transport begins \(CIVA art\. 6\(1\)\), and the shop dispatches from mainland Portugal \(setting dispatchRegion\)/);
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

/**
 * One goods/service rule for an order's documents (line-type.ts): the credit note of a refunded
 * service keeps the service's legal basis (CIVA art. 6(6)(a), M40), never goods' (RITI art. 14,
 * M16); a waybill carries only goods. A category can make a product a service (an in-person course
 * the shop did not mark virtual).
 */
describe('the shop says what is a service: categories and virtual flags, on invoices, credit notes and waybills', () => {
  let h: Harness;
  let vies: StandIn;
  beforeAll(async () => {
    // Reg. 282/2011 art. 18(1)(a): M40 only with the buyer's number confirmed in VIES (issue 26.1).
    vies = await startViesStandIn();
    vies.valid.add('DE123456789');
    h = await startHarness({
      tenant: { vies: { url: vies.url, timeoutMs: 2_000 } },
      settings: {
        waybill: true,
        mapping: {
          lineTypes: { serviceCategories: ['formacao-presencial'] },
          waybill: { loadAddress: { addressDetail: 'Armazém 3, Zona Industrial', city: 'Maia', postalCode: '4470-000', countryCode: 'PT' } },
        },
      },
    });
    h.woo.putProduct({ id: 31, name: 'Curso presencial de fotografia', virtual: false, categories: [{ id: 50, name: 'Formação presencial', slug: 'formacao-presencial' }] });
    h.woo.putProduct({ id: 32, name: 'Guia de fotografia (e-book)', virtual: true, downloadable: true });
    h.woo.putProduct({ id: 33, name: 'Tripé', virtual: false });
  });
  afterAll(async () => {
    await h.close();
    await vies.close();
  });

  const germanBusiness = {
    billing: { first_name: 'Jonas', last_name: 'Weber', company: 'Weber Fotografie GmbH', address_1: 'Torstraße 5', city: 'Berlin', postcode: '10119', country: 'DE', email: 'jonas@weber.example', phone: '' },
    meta: [{ key: '_billing_vat', value: 'DE123456789' }],
  };
  type Line = { Code: string; Type: string; TaxValue: string };
  const docOf = (d: { document: unknown }) => d.document as { Lines: Line[]; TaxExemptionReasonCode?: string; DocumentReference?: string };

  it("a course in the service category, sold to a German business: invoice M40; its refund's credit note is a service with M40 too", async () => {
    const order = portugueseOrder({
      items: [{ name: 'Curso presencial de fotografia', sku: 'CURSO-PF', productId: 31, price: '180.00', quantity: 1 }],
      shipping: [],
      ...germanBusiness,
    });
    const id = Number(order.id);
    await h.deliver(order);
    const invoiceNumber = await eventually('invoice number', () => h.woo.meta(id, META.documentNumber) as string | undefined);
    const [invoice] = await h.documentsOf(id);
    expect(docOf(invoice).Lines.map((l) => l.Type)).toEqual(['S']);
    expect(docOf(invoice).TaxExemptionReasonCode).toBe('M40');
    expect(vies.asked).toContainEqual({ countryCode: 'DE', vatNumber: '123456789' });

    const refund = h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 951, items: [{ index: 0, quantity: 1 }], reason: 'Curso cancelado' })));
    await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) });
    await eventually('credit note meta', () => h.woo.meta(id, `${META.creditNotePrefix}${String(refund.id)}`));
    const credit = (await h.documentsOf(id)).find((d) => d.document.Type === 'C');
    expect(credit && docOf(credit)).toMatchObject({ DocumentReference: invoiceNumber, TaxExemptionReasonCode: 'M40', Lines: [expect.objectContaining({ Code: 'CURSO-PF', Type: 'S' })] });
  });

  it('the waybill carries the tripod only: the virtual e-book is not transported', async () => {
    const order = portugueseOrder({
      items: [
        { name: 'Tripé', sku: 'TRI-01', productId: 33, price: '45.00', quantity: 1, rate: '23' },
        { name: 'Guia de fotografia (e-book)', sku: 'EB-01', productId: 32, price: '9.90', quantity: 1, rate: '23' },
      ],
    });
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('waybill meta', () => h.woo.meta(id, META.waybill));
    await eventually('invoice meta', () => h.woo.meta(id, META.documentNumber));
    const docs = await h.documentsOf(id);
    const waybill = docs.find((d) => d.kind === 'waybill' || d.document.Type === 'W');
    const invoice = docs.find((d) => d.document.Type === 'T');
    expect(waybill && docOf(waybill).Lines.map((l) => l.Code)).toEqual(['TRI-01']);
    expect(invoice && docOf(invoice).Lines.map((l) => [l.Code, l.Type])).toEqual([['TRI-01', 'P'], ['EB-01', 'S'], ['PORTES', 'S']]);
  });
});

describe("the shop's facts merged into the settings per order are taken as parsed", () => {
  it('the merged settings are what the schema gives for them (so validating them again per order would change nothing)', () => {
    const settings = parseMappingSettings({ exemptions: { byProduct: [{ code: 'M07', categories: ['cursos'] }] }, lineTypes: { serviceCategories: ['servicos'] } });
    const products = new Map([
      [501, { id: 501, virtual: true, downloadable: false, categories: [{ id: 40, slug: 'cursos' }] }],
      [502, { id: 502, virtual: false, downloadable: false, categories: [{ id: 41, slug: 'servicos' }] }],
      [503, { id: 503, virtual: false, downloadable: false, categories: [] }],
    ]);
    const merged = settingsWithShopFacts(settings, { taxRoundAtSubtotal: true, products, storeAddressRegion: 'azores' });
    expect(merged.lineTypes.shopProductTypes).toEqual({ '501': 'S', '502': 'S', '503': 'P' });
    expect(merged.exemptions.shopProductCodes).toEqual({ '501': 'M07' });
    expect(MappingSettingsSchema.parse(merged)).toEqual(merged);
  });
});
