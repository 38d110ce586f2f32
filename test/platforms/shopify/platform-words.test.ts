import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { parseConfig } from '../../../connector/config/load-config';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import { startConnector, type RunningConnector } from '../../../connector/main/runtime';
import { statusLabelOf } from '../../../connector/console/order-page';
import { invoiceRequest } from '../../../connector/pipeline/document-requests';
import { problemWords, SHOP_NAMED_PROBLEMS, type Problem } from '../../../connector/pipeline/problems';
import type { SweepReport } from '../../../connector/core/sweep-report';
import { type MappingMessage, mappingText, namingPlatform } from '../../../law/mapping-messages';
import { MappingSettingsSchema } from '../../../law/mapping-settings';
import { documentForSale } from '../../../law/order-to-document';
import { creditNoteForRefund } from '../../../law/refund-to-credit-note';
import type { Sale, SaleLine } from '../../../law/sale';
import type { Lang } from '../../../messages/lang';
import { platformOf } from '../../../platforms/registry';
import { ShopifyAdminClient } from '../../../platforms/shopify/admin-client';
import { ShopifyShop } from '../../../platforms/shopify/shopify-shop';
import { readShopifyOrder, readShopifyRefund } from '../../../platforms/shopify/order-query';
import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { eventually, quietLogger, rawTestConfig } from '../../connector/support/harness';
import { sweaterAndShippingRefund, TAXES_INCLUDED } from './fixtures/orders';

/**
 * Issue 27: no WooCommerce word reaches the owner of a Shopify store. The law's notes that send a
 * person to the platform name the sale's platform (`Sale.platformTitle`, set by each adapter), the
 * connector's rounding problem says Shopify's own words, the console shows Shopify's statuses as
 * the Shopify admin names them, and the sweep's refused listing says the store's token, not a REST
 * key. The WooCommerce wording of each is checked unchanged, word for word.
 */

const LANGS: Lang[] = ['pt', 'en'];
const shopify = platformOf({ platform: 'shopify' });
const woocommerce = platformOf({ platform: 'woocommerce' });
const mapping = MappingSettingsSchema.parse({ shopTimeZone: 'Europe/Lisbon', externalIdPrefix: 'shopify-' });
const issue = { issueDate: '2026-11-27', invoiceDate: '2026-11-27' };
const store = new FakeShopify();
let client: ShopifyAdminClient;

beforeAll(async () => {
  await store.start();
  client = new ShopifyAdminClient({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken });
  store.addOrder(TAXES_INCLUDED);
});
afterAll(() => store.close());

async function shopifySale(): Promise<Sale> {
  return shopify.saleOf(await readShopifyOrder(client, String(TAXES_INCLUDED.legacyResourceId)), mapping);
}

/** The sale without some of its products (by name), its total less what they cost. */
function without(sale: Sale, names: string[]): Sale {
  const gone = sale.lines.filter((line) => line.kind === 'product' && names.includes(line.name));
  const gross = gone.reduce((sum, line) => sum + Number(line.total) + line.taxes.reduce((tax, t) => tax + Number(t.amount), 0), 0);
  return { ...sale, lines: sale.lines.filter((line) => !gone.includes(line)), total: (Number(sale.total) - gross).toFixed(2) };
}

/** Every message in both languages, one text. */
function texts(messages: readonly MappingMessage[]): string {
  return LANGS.flatMap((lang) => messages.map((message) => mappingText(lang, message))).join('\n');
}

/** The codes among the messages. */
const codes = (messages: readonly MappingMessage[]): string[] => messages.map((m) => m.code);

describe("a Shopify sale's notes through the law name Shopify, never WooCommerce", () => {
  it('the adapter names its platform on the sale', async () => {
    expect((await shopifySale()).platformTitle).toBe('Shopify');
  });

  it('a discount code shown as line discounts: "as Shopify spread them"', async () => {
    const doc = documentForSale(await shopifySale(), mapping, issue);
    expect(codes(doc.notes)).toContain('coupons-as-line-discounts');
    const words = texts(doc.notes.filter((n) => n.code === 'coupons-as-line-discounts'));
    expect(words).toContain('as Shopify spread them');
    expect(words).toContain('tal como o Shopify o repartiu');
    expect(texts(doc.notes)).not.toMatch(/WooCommerce/);
    // The note's English text (what the library's callers read) says it too, not only its code's words.
    expect(doc.notes.find((n) => n.code === 'coupons-as-line-discounts')?.message).toContain('as Shopify spread them');
    expect(doc.notes.map((n) => n.message).join('\n')).not.toMatch(/WooCommerce/);
  });

  it('a net moved by a cent to reach the total: "Shopify rounded the tax"', async () => {
    const sale = await shopifySale();
    // The store's total one cent off what the lines give (Shopify rounds each line's tax): the law moves a net.
    const moved = documentForSale({ ...sale, total: (Number(sale.total) + 0.01).toFixed(2) }, mapping, issue);
    expect(codes(moved.notes)).toContain('rounding-net-moved');
    const words = texts(moved.notes);
    expect(words).toContain('(Shopify rounded the tax per line');
    expect(words).toContain('o Shopify arredondou o imposto');
    expect(words).not.toMatch(/WooCommerce/);
  });

  it('a total no net reaches: the difference named as Shopify\'s, no WooCommerce setting to turn on; the connector\'s note says Shopify has none', async () => {
    // One rate only (the sweater and its shipping at 23 %): a cent of net moves the total by one or two, so some totals are out of reach.
    const sale = without(await shopifySale(), ['Os Lusíadas']);
    const unreachable = [0.01, -0.01, 0.02, -0.02, 0.03, -0.03]
      .map((cents) => invoiceRequest({ ...sale, total: (Number(sale.total) + cents).toFixed(2) }, mapping, issue, { taxRoundAtSubtotal: false, products: new Map() }))
      .find((request) => request.totalDifference !== undefined);
    if (!unreachable) throw new Error('no total the nets cannot reach');
    expect(codes(unreachable.notes)).toEqual(expect.arrayContaining(['total-unreachable', 'shop-rounds-per-line']));
    const words = texts(unreachable.notes);
    expect(words).toContain(': Shopify rounded the tax per line');
    expect(words).toContain('Shopify has no setting to round it per rate');
    expect(words).toContain('o Shopify não tem uma opção');
    expect(words).not.toMatch(/WooCommerce|Round tax at subtotal|Arredondar imposto/);
  });

  it('a refund beyond what was invoiced: "Correct the refund in Shopify"', async () => {
    const sale = await shopifySale();
    const refunded = store.refund(String(TAXES_INCLUDED.id), sweaterAndShippingRefund());
    const refund = shopify.refundOf(await readShopifyRefund(client, String(refunded.id)), sale);
    // The same refund credited before: together more than the invoice.
    const credit = creditNoteForRefund(sale, { ...refund, id: `${refund.id}2` }, 'FT 1/1', mapping, issue, [refund, refund]);
    expect(codes(credit.holds).some((code) => code.startsWith('credit-over-'))).toBe(true);
    const words = texts(credit.holds);
    expect(words).toContain('Correct the refund in Shopify');
    expect(words).toContain('Corrija o reembolso no Shopify');
    expect(credit.holdReasons.join('\n')).toContain('Correct the refund in Shopify');
    expect(credit.notes.map((n) => n.message).join('\n')).toContain('Held: Refund');
    expect(`${words}\n${credit.holdReasons.join('\n')}\n${credit.notes.map((n) => n.message).join('\n')}`).not.toMatch(/WooCommerce/);
  });

  it('a negative fee without VAT, and shipping at another rate than the goods: "in Shopify", no WooCommerce setting named', async () => {
    const sale = await shopifySale();
    const coupon: SaleLine = { id: 'fee-1', kind: 'fee', name: 'Desconto', sku: '', quantity: 1, subtotal: '-5.00', total: '-5.00', taxes: [], taxClass: '', attributes: [] };
    const withFee = documentForSale({ ...sale, total: (Number(sale.total) - 5).toFixed(2), lines: [...sale.lines, coupon] }, mapping, issue);
    expect(codes(withFee.holds)).toContain('unknown-negative-fee');
    expect(texts(withFee.holds)).toContain('give the fee the tax in Shopify');
    expect(texts(withFee.holds)).toContain('dê ao encargo o imposto no Shopify');
    // Only the 6 % book ships, at 23 %: the shipping rate differs from the goods'.
    const book = without(sale, sale.lines.filter((line) => line.kind === 'product' && line.name !== 'Os Lusíadas').map((line) => line.name));
    const shipped = documentForSale(book, MappingSettingsSchema.parse({ ...mapping, shippingRate: { otherRate: 'hold' } }), issue);
    const differs = shipped.holds.filter((hold) => hold.code === 'shipping-rate-differs');
    expect(differs).toHaveLength(1);
    expect(texts(differs)).toContain("Give shipping the goods' rate in Shopify, or set");
    expect(texts(differs)).toContain('Dê aos portes a taxa dos bens no Shopify ou defina');
    expect(texts([...withFee.holds, ...shipped.holds])).not.toMatch(/WooCommerce|tax class|classe de imposto/);
  });
});

describe('WooCommerce wording unchanged', () => {
  const woo = <M extends MappingMessage>(message: M): M => namingPlatform(message, 'WooCommerce');
  it.each<[MappingMessage, string, string]>([
    [
      { code: 'coupons-as-line-discounts', params: { codes: 'A, B' } },
      'Coupons A, B shown as line discounts as WooCommerce spread them.',
      'Cupões "A", "B" apresentados como descontos nas linhas, tal como o WooCommerce os repartiu.',
    ],
    [
      { code: 'total-unreachable', params: { totalKind: 'order', total: '10.00', difference: '0.01' } },
      'Total: the document total differs from the order total 10.00 by 0.01: WooCommerce rounded the tax per line, the invoice rounds it once per rate, and no change of line nets reaches the shop total. Turn on WooCommerce > Settings > Tax > "Round tax at subtotal level, instead of rounding per line" so the shop rounds like the invoice.',
      'Total: o total do documento difere do total da encomenda (10,00 €) em 0,01 €: o WooCommerce arredondou o imposto por linha, a fatura arredonda-o uma vez por taxa, e nenhuma alteração dos valores sem IVA das linhas chega ao total da loja. Ative em WooCommerce > Definições > Impostos a opção "Arredondar imposto ao nível do subtotal, em vez de arredondar por linha" para que a loja arredonde como a fatura.',
    ],
    [
      { code: 'shipping-rate-differs', params: { shipping: 'CTT', rate: '23', goodsRate: '6' } },
      `Shipping "CTT" is taxed at 23% but the goods it carries at 6%: shipping is part of the goods' taxable amount (CIVA art. 16(5)(b)). Give shipping the goods' rate in WooCommerce (shipping tax class: based on cart items), or set shippingRate.otherRate: goods-rate.`,
      'Os portes "CTT" têm IVA a 23 %, mas os bens que transportam estão a 6 %: os portes fazem parte do valor tributável dos bens (art. 16.º, n.º 5, alínea b), do CIVA). Dê aos portes a taxa dos bens no WooCommerce (classe de imposto dos portes: com base nos artigos do carrinho) ou defina shippingRate.otherRate: "goods-rate".',
    ],
    [
      { code: 'shop-rounds-per-line', params: {} },
      'The shop rounds tax per line: turn on WooCommerce > Settings > Tax > "Round tax at subtotal level" so it rounds per rate as the invoice does (measured: every single-rate order with prices without tax and no shipping or fees then matches).',
      'A loja arredonda o imposto por linha: ative em WooCommerce > Definições > Impostos a opção "Arredondar imposto ao nível do subtotal" para que arredonde por taxa, como a fatura (medido: todas as encomendas com uma só taxa, preços sem IVA e sem portes nem encargos passam então a coincidir).',
    ],
    [
      { code: 'negative-fee-spread', params: { names: '"X"', amount: '5.00', split: 1 } },
      `Negative fee "X" of 5.00 spread as a discount over the products following WooCommerce's split of the fee across rates (no negative lines).`,
      'Encargo negativo "X" de 5,00 € repartido como desconto pelos produtos, seguindo a repartição do WooCommerce pelas taxas (sem linhas negativas).',
    ],
  ])('%j', (message, en, pt) => {
    expect(mappingText('en', woo(message))).toBe(en);
    expect(mappingText('pt', woo(message))).toBe(pt);
  });

  it('a sale that names no platform: the shop, in general', () => {
    const message: MappingMessage = { code: 'coupons-as-line-discounts', params: { codes: 'A' } };
    expect(mappingText('en', namingPlatform(message, undefined))).toBe('Coupons A shown as line discounts as the shop spread them.');
    expect(mappingText('pt', namingPlatform(message, undefined))).toBe('Cupão "A" apresentado como desconto nas linhas, tal como a loja o repartiu.');
  });

  it("the WooCommerce adapter's sale names WooCommerce", () => {
    expect(woocommerce.title).toBe('WooCommerce');
  });
});

describe("the connector's words on a Shopify order", () => {
  const ref = { tenant: 'loja', orderId: 1001, purpose: 'invoice' as const };
  const differs = (shop?: string): Problem => ({ code: 'total-differs', number: 'FR 1/7', total: '10.00', difference: '0.01', currency: 'EUR', ...(shop ? { shop } : {}) });

  it.each(LANGS)('a document 0.01 off the store total (%s): Shopify rounds per line and has no setting; WooCommerce\'s setting for WooCommerce', (lang) => {
    const shopifyWords = problemWords(lang, differs('Shopify'), ref);
    expect(`${shopifyWords.reason} ${shopifyWords.action}`).toContain('Shopify');
    expect(`${shopifyWords.reason} ${shopifyWords.action}`).not.toMatch(/WooCommerce/);
    const wooWords = problemWords(lang, differs(), ref);
    expect(wooWords.action).toContain(lang === 'en' ? 'Turn on WooCommerce > Settings > Tax' : 'Ative WooCommerce > Definições > Impostos');
  });

  it.each(LANGS)('an order deleted after its invoice, and an invoice credited in full while the order stands (%s): Shopify\'s words, recorded for a Shopify tenant', (lang) => {
    const deleted = problemWords(lang, { code: 'order-deleted', number: 'FR 1/7', shop: 'Shopify' }, ref);
    expect(`${deleted.reason} ${deleted.action}`).not.toMatch(/WooCommerce|restore it|reponha-a/);
    expect(deleted.action).toContain(lang === 'en' ? 'Shopify cannot restore a deleted order' : 'o Shopify não repõe uma encomenda apagada');
    const credited = problemWords(lang, { code: 'order-changed', number: 'FR 1/7', shopNet: '10.00', covered: '0.00', difference: '10.00', currency: 'EUR', way: 'ask', creditedBy: 'NC 1/1', shop: 'Shopify' }, ref);
    expect(`${credited.reason} ${credited.action}`).not.toMatch(/WooCommerce/);
    expect(credited.action).toContain(lang === 'en' ? 'cancel the order in Shopify' : 'cancele a encomenda no Shopify');
    // WooCommerce's (no shop recorded): as before.
    expect(problemWords(lang, { code: 'order-deleted', number: 'FR 1/7' }, ref).action).toContain(lang === 'en' ? 'restore it in WooCommerce' : 'reponha-a no WooCommerce');
    for (const code of ['total-differs', 'shop-refused', 'order-deleted', 'order-changed']) expect(SHOP_NAMED_PROBLEMS.has(code)).toBe(true);
  });

  it.each(['pending', 'authorized', 'partially_paid', 'paid', 'partially_refunded', 'refunded', 'voided', 'expired', 'cancelled', 'test'])(
    'the status %s as the Shopify admin names it, in both languages',
    (status) => {
      for (const lang of LANGS) {
        const label = statusLabelOf(shopify)(lang, status);
        expect(label).not.toBe(status);
        expect(label).not.toMatch(/_|WooCommerce/);
      }
    },
  );

  it("WooCommerce's statuses unchanged", () => {
    expect(statusLabelOf(woocommerce)('pt', 'processing')).toBe('Em processamento');
    expect(statusLabelOf(woocommerce)('en', 'on-hold')).toBe('On hold');
  });
});

describe('a Shopify store in the running connector: the console and the sweep in Shopify\'s words', () => {
  let connector: RunningConnector;
  const headers = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

  beforeAll(async () => {
    const prefix = `mft-${randomBytes(6).toString('hex')}`;
    const raw = rawTestConfig({ prefix, wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: 'http://127.0.0.1:9' });
    const base = (raw.tenants as JsonObject[])[0];
    delete base.shop;
    const tenant = (id: string, accessToken: string): JsonObject => ({
      ...structuredClone(base),
      id,
      platform: 'shopify',
      shopify: { shopDomain: store.shopDomain, adminUrl: store.url, accessToken, clientSecret: store.clientSecret },
      settings: { language: 'pt', goLiveAt: '2030-01-01T00:00:00Z', onCancelled: 'ignore', mapping: { externalIdPrefix: `${id}-`, shopTimeZone: 'Europe/Lisbon' } },
    });
    raw.tenants = [tenant('loja', store.accessToken), tenant('loja-sem-token', 'shpat_revoked')];
    connector = await startConnector(parseConfig(raw, 'tenants.yaml', {}), { role: 'serve', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
  });
  afterAll(() => connector.close());

  it.each<[Lang, string]>([
    ['pt', 'Parcialmente reembolsado'],
    ['en', 'Partially refunded'],
  ])("the order's page shows the store's status as Shopify names it (%s)", async (lang, label) => {
    const id = String(TAXES_INCLUDED.legacyResourceId);
    await eventually('the refund on the order', () => ((store.orders.get(String(TAXES_INCLUDED.id)) as JsonObject).displayFinancialStatus === 'PARTIALLY_REFUNDED' ? true : undefined));
    const page = await request(`${connector.origin}/console/loja/orders/${id}?lang=${lang}`, { headers });
    const html = await page.body.text();
    expect(page.statusCode).toBe(200);
    expect(html).toContain(`<span class="tag">${label}</span>`);
    expect(html).not.toContain('partially_refunded');
    expect(html).not.toMatch(/WooCommerce/);
  });

  it('the order is called as the merchant knows it (#1001, not its id), and searching "#1001" opens it', async () => {
    const id = String(TAXES_INCLUDED.legacyResourceId);
    expect(TAXES_INCLUDED.name).toBe('#1001');
    const page = await request(`${connector.origin}/console/loja/orders/${id}?lang=pt`, { headers });
    const html = await page.body.text();
    expect(html).toContain('<h2>Encomenda #1001 · ');
    expect(html).toContain('<title>Encomenda #1001 · ');
    expect(html).not.toContain(`#${id}`);
    const search = await request(`${connector.origin}/console/loja/search?q=${encodeURIComponent('#1001')}&lang=pt`, { headers });
    expect(search.statusCode).toBe(303);
    expect(search.headers.location).toBe(`/console/loja/orders/${id}`);
    await search.body.dump();
  });

  it("the shop's lists name the order #1001 too (the not-invoiced list: an update of an order from before go-live)", async () => {
    const id = String(TAXES_INCLUDED.legacyResourceId);
    // What the webhook watch does on its first round: the store's subscriptions to this connector.
    const shop = new ShopifyShop({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecrets: [store.clientSecret], timeoutMs: 5_000, sale: { currency: 'shop', nifSources: [] } });
    await shop.ensureWebhooks(connector.origin as string, 'loja');
    store.setAttributes(String(TAXES_INCLUDED.id), [{ key: 'nota', value: 'entregar de manhã' }]);
    await store.settled();
    const html = await eventually('the order on the not-invoiced list', async () => {
      const page = await request(`${connector.origin}/console/loja?lang=pt`, { headers });
      const text = await page.body.text();
      return text.includes(`<tr data-order="${id}"`) ? text : undefined;
    });
    const row = html.slice(html.indexOf(`<tr data-order="${id}"`));
    expect(row.slice(0, row.indexOf('</tr>'))).toContain('>#1001</a>');
    expect(html).not.toContain(`>#${id}<`);
  });

  it("the sweep refused by the store: the fix is the store's token, never a REST API key", async () => {
    const response = await request(`${connector.origin}/admin/api/sweep`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'loja-sem-token' }) });
    const [report] = (await response.body.json()) as SweepReport[];
    expect(report.refusedListings).toBeGreaterThan(0);
    const problems = report.problems.join('\n');
    expect(problems).toContain(`Shopify refused the access token of ${store.shopDomain} (shopify.accessToken)`);
    expect(problems).not.toMatch(/REST|WooCommerce/);
  });
});

