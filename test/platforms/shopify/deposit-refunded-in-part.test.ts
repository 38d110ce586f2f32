/**
 * CIVA art. 36(1)(c) on Shopify: a deposit refunded in part before the rest is paid. Shopify then
 * says PARTIALLY_REFUNDED (a trigger status, as for a paid order refunded in part) while it still has
 * money to receive (totalOutstandingSet above zero): the order summary carries that amount
 * (`outstanding`, from the webhook body's total_outstanding and the listing's totalOutstandingSet) and
 * the advance-payment rule holds it; it is never invoiced as the whole order.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { parseConfig } from '../../../connector/config/load-config';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import type { SweepReport } from '../../../connector/core/sweep-report';
import { startConnector, type RunningConnector } from '../../../connector/main/runtime';
import { shopifyAdvancePayment } from '../../../platforms/shopify/advance-payments';
import { ShopifyShop } from '../../../platforms/shopify/shopify-shop';
import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { startTestSandbox, type RunningSandbox } from '../../support/sandbox';
import { deleteKeys, eventually, quietLogger, rawTestConfig, REDIS_URL } from '../../connector/support/harness';
import { bag, ON_PAYMENT_TERMS } from './fixtures/orders';

const TENANT = 'loja';
const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

describe("CIVA art. 36(1)(c): Shopify's partially_refunded is an advance payment while the shop still has money to receive", () => {
  it.each([
    ['CIVA art. 36(1)(c): a deposit (partially_paid)', 'partially_paid', '79.72', true],
    ['CIVA art. 36(1)(c): a deposit refunded in part, the rest not paid (partially_refunded, outstanding 79.72)', 'partially_refunded', '79.72', true],
    ['CIVA art. 36(1)(a)-(b): a paid order refunded in part (partially_refunded, outstanding 0.00): invoiced as usual', 'partially_refunded', '0.00', false],
    ['a refund owed to the buyer (outstanding negative): no advance payment', 'partially_refunded', '-5.00', false],
    ['the read did not say (no outstanding): as before, invoiced', 'partially_refunded', undefined, false],
    ['paid: invoiced as usual', 'paid', '0.00', false],
  ])('%s', (_name, status, outstanding, held) => {
    const advance = shopifyAdvancePayment({ status, attributes: [], paidAt: null, ...(outstanding === undefined ? {} : { outstanding }) });
    expect(advance !== undefined).toBe(held);
    if (held) expect(advance).toEqual({ kind: 'deposit', status, plugin: 'Shopify', received: true });
  });
});

describe('CIVA art. 36(1)(c), through the fake Shopify: a deposit refunded in part before the rest is paid is not invoiced as the whole order', () => {
  const store = new FakeShopify({ retryDelayMs: () => 5 });
  let sandbox: RunningSandbox;
  let connector: RunningConnector;
  const prefix = `mft-${randomBytes(6).toString('hex')}`;
  const id = Number(ON_PAYMENT_TERMS.legacyResourceId);
  const order = (): JsonObject => store.orders.get(String(ON_PAYMENT_TERMS.id)) as JsonObject;
  const documents = () => sandbox.store.documents().filter((doc) => String(doc.document.ExternalId).startsWith(`shopify-${id}`));

  beforeAll(async () => {
    await store.start();
    sandbox = await startTestSandbox();
    const raw = rawTestConfig({ prefix, wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: sandbox.baseUrl });
    const tenant = (raw.tenants as JsonObject[])[0];
    delete tenant.shop;
    Object.assign(tenant, {
      id: TENANT,
      platform: 'shopify',
      shopify: { shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecret: store.clientSecret },
      settings: { language: 'en', goLiveAt: '2020-01-01T00:00:00Z', mapping: { externalIdPrefix: 'shopify-', shopTimeZone: 'Europe/Lisbon' } },
    });
    connector = await startConnector(parseConfig(raw, 'tenants.yaml', {}), { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    const shop = new ShopifyShop({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecrets: [store.clientSecret], timeoutMs: 5_000, sale: { currency: 'shop', nifSources: [{ from: 'attribute', key: 'nif' }] } });
    await shop.ensureWebhooks(connector.origin as string, TENANT);
  });
  afterAll(async () => {
    await connector.close();
    await store.close();
    await sandbox.close();
    await deleteKeys(REDIS_URL, prefix);
  });

  it('deposit of 30.00, 10.00 of it refunded: partially_refunded with money still outstanding -> told on the order, reported by the sweep, no document', async () => {
    store.addOrder(ON_PAYMENT_TERMS);
    store.capturePart(String(ON_PAYMENT_TERMS.id), '30.00');
    await eventually('the deposit told on the order', () => String(order().note ?? '').includes('"partially_paid"'), 15_000);
    store.refund(String(ON_PAYMENT_TERMS.id), {
      note: 'Parte do sinal devolvida',
      totalRefundedSet: bag('10.00'),
      refundLineItems: [],
      refundShippingLines: [],
      orderAdjustments: [{ id: 'gid://shopify/OrderAdjustment/7', amountSet: bag('-10.00'), taxAmountSet: bag('0.00'), reason: 'REFUND_DISCREPANCY' }],
      transactions: [{ id: 'gid://shopify/OrderTransaction/7001', kind: 'REFUND', status: 'SUCCESS', gateway: 'manual', formattedGateway: 'manual', amountSet: bag('10.00'), processedAt: '2026-11-25T09:00:00Z', test: false }],
      duties: [],
    });
    expect(order().displayFinancialStatus).toBe('PARTIALLY_REFUNDED');
    // The orders/updated delivery (REST total_outstanding above zero) is planned as an advance payment: told on the order.
    await eventually('the partly refunded deposit told on the order', () => String(order().note ?? '').includes('"partially_refunded"'), 15_000);
    await eventually('the queue idle', async () => Object.values(await connector.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')).every((n) => n === 0));
    expect(documents()).toEqual([]);

    // The sweep's listing (totalOutstandingSet) finds it the same way.
    const answer = await request(`${connector.origin}/admin/api/sweep`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: TENANT }) });
    expect(answer.statusCode).toBe(200);
    const body = (await answer.body.json()) as { reports: SweepReport[] } | SweepReport[];
    const report = (Array.isArray(body) ? body : body.reports)[0];
    expect(report.enqueued).toEqual([]);
    expect(report.advancePayments).toEqual([expect.objectContaining({ orderId: id, kind: 'deposit', status: 'partially_refunded', plugin: 'Shopify' })]);
    await eventually('the queue idle after the sweep', async () => Object.values(await connector.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')).every((n) => n === 0));
    expect(documents()).toEqual([]);
  });
});
