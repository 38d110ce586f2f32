import { randomBytes } from 'node:crypto';
import { parseConfig } from '../../../connector/config/load-config';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import { startConnector, type RunningConnector } from '../../../connector/main/runtime';
import { OrderMappingError } from '../../../law/mapping-errors';
import { mappingText } from '../../../law/mapping-messages';
import { MappingSettingsSchema } from '../../../law/mapping-settings';
import { documentForSale } from '../../../law/order-to-document';
import { creditNoteForRefund } from '../../../law/refund-to-credit-note';
import type { Sale } from '../../../law/sale';
import { shopify } from '../../../platforms/shopify/adapter';
import { ShopifyAdminClient } from '../../../platforms/shopify/admin-client';
import { readShopifyOrder, readShopifyRefund } from '../../../platforms/shopify/order-query';
import { ShopifyShop } from '../../../platforms/shopify/shopify-shop';
import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { startTestSandbox, type RunningSandbox } from '../../support/sandbox';
import { eventually, quietLogger, rawTestConfig } from '../../connector/support/harness';
import { bag, GIFT_CARD_TIP_CASH } from './fixtures/orders';

/**
 * Issue 27: a refunded gift card on Shopify. A multi-purpose voucher's sale is no supply (CIVA art.
 * 7(13)-(14)): the invoice leaves the gift card out (giftCardSales: left-out), so a refund that gives
 * its money back has nothing on the invoice to correct, and a credit note never credits what was not
 * invoiced (art. 29(7), 78(2)). A refund of the card alone issues nothing and says so; a refund of
 * the card and a mug credits the mug only.
 */

/** #1003 without its tip: a gift card (25.00, no VAT) and a mug (11.98 with 23 %), paid in cash. */
const ORDER: JsonObject = {
  ...GIFT_CARD_TIP_CASH,
  id: 'gid://shopify/Order/5962412737101',
  legacyResourceId: '5962412737101',
  name: '#1101',
  totalPriceSet: bag('36.98'),
  totalTipReceivedSet: bag('0.00'),
  totalReceivedSet: bag('36.98'),
  currentTotalPriceSet: bag('36.98'),
  totalCashRoundingAdjustment: { paymentSet: bag('0.00'), refundSet: bag('0.00') },
  paymentGatewayNames: ['cash'],
  transactions: [{ id: 'gid://shopify/OrderTransaction/389405101', kind: 'SALE', status: 'SUCCESS', gateway: 'cash', formattedGateway: 'Cash', amountSet: bag('36.98'), processedAt: '2026-11-22T16:00:05Z', test: false }],
};
const [GIFT_CARD, MUG] = ORDER.lineItems as JsonObject[];

/** A Shopify refund (GraphQL shape) of the given lines, in cash. */
function refundOf(lines: { line: JsonObject; subtotal: string; tax: string }[]): JsonObject {
  const total = lines.reduce((sum, l) => sum + Number(l.subtotal), 0).toFixed(2);
  return {
    note: 'Devolução',
    totalRefundedSet: bag(total),
    refundLineItems: lines.map((l, i) => ({ id: `gid://shopify/RefundLineItem/77${i}`, lineItem: l.line, quantity: 1, restockType: 'NO_RESTOCK', priceSet: bag(l.subtotal), subtotalSet: bag(l.subtotal), totalTaxSet: bag(l.tax) })),
    refundShippingLines: [],
    orderAdjustments: [],
    transactions: [{ id: `gid://shopify/OrderTransaction/38940${Math.floor(Math.random() * 9000) + 1000}`, kind: 'REFUND', status: 'SUCCESS', gateway: 'cash', formattedGateway: 'Cash', amountSet: bag(total), processedAt: '2026-11-24T09:00:00Z', test: false }],
    duties: [],
  };
}

describe('a refunded gift card sold through the law', () => {
  const store = new FakeShopify();
  const mapping = MappingSettingsSchema.parse({ shopTimeZone: 'Europe/Lisbon', externalIdPrefix: 'shopify-' });
  const issue = { issueDate: '2026-11-27', invoiceDate: '2026-11-27' };
  let client: ShopifyAdminClient;
  let sale: Sale;

  beforeAll(async () => {
    await store.start();
    client = new ShopifyAdminClient({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken });
    store.addOrder(ORDER);
    sale = shopify.saleOf(await readShopifyOrder(client, String(ORDER.legacyResourceId)), mapping);
  });
  afterAll(() => store.close());

  const refunded = async (lines: { line: JsonObject; subtotal: string; tax: string }[]) =>
    shopify.refundOf(await readShopifyRefund(client, String(store.refund(String(ORDER.id), refundOf(lines)).id)), sale);

  it('the invoice leaves the gift card out (the mug only)', () => {
    const invoice = documentForSale(sale, mapping, issue);
    expect(invoice.request.Document.Lines.map((l) => l.Description)).toEqual(['Caneca azulejo']);
  });

  it('a refund of the gift card alone: nothing to credit, refused with the reason (pt and en), never a credit line', async () => {
    const refund = await refunded([{ line: GIFT_CARD, subtotal: '25.00', tax: '0.00' }]);
    let refusal: unknown;
    try {
      creditNoteForRefund(sale, refund, 'FR 2026/1', mapping, issue);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(OrderMappingError);
    const error = refusal as OrderMappingError;
    expect(error.code).toBe('only-vouchers-refunded');
    expect(error.text('pt')).toBe(
      `O reembolso ${refund.id} só devolve um cartão-oferta vendido ("Cartão-presente 25 €"): a sua venda não foi uma transmissão tributável e não está na fatura (art. 7.º, n.os 13 e 14, do CIVA), por isso não há nada a creditar. Nada foi emitido: marque este reembolso como tratado.`,
    );
    expect(error.text('en')).toContain('so there is nothing to credit. Nothing was issued: mark this refund as handled.');
  });

  it('a refund of the gift card and the mug: the mug is credited, the card is not, and the note says why', async () => {
    const refund = await refunded([
      { line: GIFT_CARD, subtotal: '25.00', tax: '0.00' },
      { line: MUG, subtotal: '11.98', tax: '2.24' },
    ]);
    expect(refund.amount).toBe('36.98');
    const credit = creditNoteForRefund(sale, refund, 'FR 2026/1', mapping, issue);
    expect(credit.hold).toBe(false);
    expect(credit.request.Document.Lines.map((l) => [l.Description, l.UnitPrice, l.TaxValue])).toEqual([['Caneca azulejo', '9.74', '23']]);
    const note = credit.notes.find((n) => n.code === 'voucher-refund-left-out');
    expect(note && mappingText('pt', note)).toBe(
      `O reembolso ${refund.id} devolve 25,00 € de um cartão-oferta vendido ("Cartão-presente 25 €"): a sua venda não foi uma transmissão tributável e não está na fatura (art. 7.º, n.os 13 e 14, do CIVA), por isso essa parte não é creditada.`,
    );
  });

  it('an earlier refund of the card counts nothing against the invoice: the mug is still creditable in full', async () => {
    const card = await refunded([{ line: GIFT_CARD, subtotal: '25.00', tax: '0.00' }]);
    const mug = await refunded([{ line: MUG, subtotal: '11.98', tax: '2.24' }]);
    const credit = creditNoteForRefund(sale, mug, 'FR 2026/1', mapping, issue, [card]);
    expect(credit.hold).toBe(false);
    expect(credit.request.Document.Lines).toHaveLength(1);
  });
});

describe('a refunded gift card in the running connector', () => {
  const store = new FakeShopify({ retryDelayMs: () => 5 });
  let sandbox: RunningSandbox;
  let connector: RunningConnector;
  const TENANT = 'loja-cartoes';

  beforeAll(async () => {
    await store.start();
    sandbox = await startTestSandbox();
    const raw = rawTestConfig({ prefix: `mft-${randomBytes(6).toString('hex')}`, wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: sandbox.baseUrl });
    const tenant = (raw.tenants as JsonObject[])[0];
    delete tenant.shop;
    Object.assign(tenant, {
      id: TENANT,
      platform: 'shopify',
      shopify: { shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecret: store.clientSecret },
      settings: { language: 'pt', goLiveAt: '2020-01-01T00:00:00Z', onCancelled: 'ignore', mapping: { externalIdPrefix: 'gc-', shopTimeZone: 'Europe/Lisbon' } },
    });
    connector = await startConnector(parseConfig(raw, 'tenants.yaml', {}), { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    const shop = new ShopifyShop({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecrets: [store.clientSecret], timeoutMs: 5_000, sale: { currency: 'shop', nifSources: [{ from: 'attribute', key: 'nif' }] } });
    await shop.ensureWebhooks(connector.origin as string, TENANT);
  });
  afterAll(async () => {
    await connector.close();
    await store.close();
    await sandbox.close();
  });

  it('the gift card refunded: no credit note, the order says there is nothing to credit; the invoice stands', async () => {
    store.addOrder(ORDER);
    const order = (): JsonObject => store.orders.get(String(ORDER.id)) as JsonObject;
    const documents = () => sandbox.store.documents().filter((doc) => String(doc.document.ExternalId).startsWith('gc-5962412737101') && doc.status !== 'draft');
    await eventually('the invoice on the order', () => ((order().metafields as JsonObject[]).find((m) => m.key === 'magnifinance_document_number')?.value as string | undefined) ?? undefined);
    store.refund(String(ORDER.id), refundOf([{ line: GIFT_CARD, subtotal: '25.00', tax: '0.00' }]));
    await eventually('the refund told on the order', () => (String(order().note ?? '').includes('não há nada a creditar') ? true : undefined));
    expect(String(order().note)).toContain('marque este reembolso como tratado');
    expect(documents().map((doc) => doc.document.Type)).toEqual(['T']);
  });
});
