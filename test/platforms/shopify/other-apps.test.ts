import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { request } from 'undici';
import { parseConfig, type TenantConfig } from '../../../connector/config/load-config';
import { documentJobId } from '../../../connector/core/jobs';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import { listNotInvoiced } from '../../../connector/ingest/not-invoiced';
import { startConnector, type RunningConnector } from '../../../connector/main/runtime';
import { platformOf } from '../../../platforms/registry';
import { parseShopifyMark, shopifyOtherSystemDocument } from '../../../platforms/shopify/other-apps';
import { FakeShopify, type FakeDelivery, type JsonObject } from '../../support/fake-shopify';
import { quietLogger, rawTestConfig, REDIS_URL } from '../../connector/support/harness';
import { TAXES_INCLUDED } from './fixtures/orders';

/**
 * Another invoicing app's document on a Shopify order (a tag, an order attribute or a metafield the
 * tenant names): the order is never invoiced, through the webhook route and through the listing the
 * sweep and the console read, the same gate as WooCommerce's other plugins, reached through the platform.
 */

const MARKS = ['Moloni=tag:moloni-faturado', 'Vendus=attribute:vendus_fatura', 'InvoiceXpress=metafield:xpressifi.invoice_number', 'TOConline=note:Fatura TOConline'];

function order(id: string, changes: JsonObject): JsonObject {
  return { ...structuredClone(TAXES_INCLUDED), id: `gid://shopify/Order/${id}`, legacyResourceId: id, name: `#${id.slice(-4)}`, ...changes };
}

describe('other apps\' marks, as a tenant names them', () => {
  it.each([
    ['tag:faturado', { system: 'tag:faturado', kind: 'tag', name: 'faturado' }],
    ['Moloni=tag:Moloni Faturado', { system: 'Moloni', kind: 'tag', name: 'Moloni Faturado' }],
    ['attribute:invoice', { system: 'attribute:invoice', kind: 'attribute', name: 'invoice' }],
    ['InvoiceXpress=metafield:xpressifi.invoice_number', { system: 'InvoiceXpress', kind: 'metafield', name: 'xpressifi.invoice_number' }],
    ['TOConline=note:Fatura TOConline', { system: 'TOConline', kind: 'note', name: 'Fatura TOConline' }],
  ])('reads %s', (entry, mark) => {
    expect(parseShopifyMark(entry)).toEqual(mark);
  });

  it.each(['_moloni_sent', 'metafield:no-dot', 'label:x'])('leaves %s alone (a WooCommerce meta key or not a mark)', (entry) => {
    expect(parseShopifyMark(entry)).toBeUndefined();
  });

  it('finds a tag whatever its case, and ignores an empty or zero value', () => {
    expect(shopifyOtherSystemDocument([{ key: 'tag:moloni-faturado', value: 'Moloni-Faturado' }], MARKS)).toEqual({ system: 'Moloni', key: 'tag:moloni-faturado', value: 'Moloni-Faturado' });
    expect(shopifyOtherSystemDocument([{ key: 'attribute:vendus_fatura', value: '0' }, { key: 'attribute:vendus_fatura', value: ' ' }], MARKS)).toBeUndefined();
    // A WooCommerce meta key in the settings is no Shopify mark: nothing to find on a Shopify order.
    expect(shopifyOtherSystemDocument([{ key: '_moloni_sent', value: '12' }], ['_moloni_sent'])).toBeUndefined();
  });
});

describe('a Shopify order another app invoiced is never invoiced here', () => {
  const store = new FakeShopify({ retryDelayMs: () => 5 });
  const redis = new IORedis(REDIS_URL);
  const prefix = `mft-${randomBytes(6).toString('hex')}`;
  const TENANT = 'loja';
  let connector: RunningConnector;
  let tenant: TenantConfig;

  const deliveryOf = (id: string): FakeDelivery => {
    const found = store.deliveries.find((d) => d.topic === 'orders/paid' && (JSON.parse(d.body) as { id: number }).id === Number(id));
    if (!found) throw new Error(`no orders/paid delivery of ${id}`);
    return found;
  };

  beforeAll(async () => {
    await store.start();
    const raw = rawTestConfig({ prefix, wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: 'http://127.0.0.1:1/api/v1.1' });
    const file = (raw.tenants as JsonObject[])[0];
    delete file.shop;
    Object.assign(file, {
      id: TENANT,
      platform: 'shopify',
      shopify: { shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecret: store.clientSecret },
      settings: { language: 'en', goLiveAt: '2020-01-01T00:00:00Z', otherSystemMetaKeys: MARKS },
    });
    const config = parseConfig(raw, 'tenants.yaml', {});
    tenant = config.tenants[0];
    // Serve only: a delivery's job would stay in the queue, where the test looks for it.
    connector = await startConnector(config, { role: 'serve', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    await platformOf(tenant).createShop(tenant).ensureWebhooks?.(connector.origin as string, TENANT);
  });
  afterAll(async () => {
    await store.close();
    await connector.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it.each([
    ['a tag', '7100000000001', { tags: ['Moloni-Faturado', 'oferta'] }, { system: 'Moloni', key: 'tag:moloni-faturado', value: 'Moloni-Faturado' }],
    ['an order attribute', '7100000000002', { customAttributes: [{ key: 'vendus_fatura', value: 'FR 01P2026/88' }] }, { system: 'Vendus', key: 'attribute:vendus_fatura', value: 'FR 01P2026/88' }],
  ])('a delivery of an order with %s: answered, not queued, listed as not invoiced with the mark', async (_name, id, changes, found) => {
    store.addOrder(order(id, changes));
    await store.settled();
    const delivery = deliveryOf(id);
    expect(delivery.statuses).toEqual([200]);
    expect(await connector.queue.getJob(documentJobId(TENANT, Number(id), 'invoice'))).toBeUndefined();
    const again = await request(`${connector.origin}/webhooks/shopify/${TENANT}`, { method: 'POST', headers: { ...store.deliveryHeaders(delivery), 'x-shopify-event-id': `again-${id}` }, body: delivery.body });
    expect(await again.body.json()).toEqual({ ignored: 'other-system' });
    const listed = (await listNotInvoiced(redis, prefix, TENANT)).find((entry) => entry.orderId === Number(id));
    expect(listed?.reason).toEqual({ code: 'other-system', ...found });
  });

  it('a delivery of an order another app marked in a metafield (not in the body): the route reads it, answered, not queued, listed as not invoiced', async () => {
    const id = '7100000000005';
    store.addOrder(order(id, { metafields: [{ id: 'gid://shopify/Metafield/880001', namespace: 'xpressifi', key: 'invoice_number', type: 'single_line_text_field', value: 'FT 2026/1300' }] }));
    await store.settled();
    const delivery = deliveryOf(id);
    expect(delivery.body).not.toContain('FT 2026/1300');
    expect(delivery.statuses).toEqual([200]);
    expect(await connector.queue.getJob(documentJobId(TENANT, Number(id), 'invoice'))).toBeUndefined();
    const listed = (await listNotInvoiced(redis, prefix, TENANT)).find((entry) => entry.orderId === Number(id));
    expect(listed?.reason).toEqual({ code: 'other-system', system: 'InvoiceXpress', key: 'metafield:xpressifi.invoice_number', value: 'FT 2026/1300' });
  });

  it('words another app wrote in the order\'s note (the merchant\'s part, any case): not queued, the line listed; the same words in the connector\'s own block are no mark', async () => {
    const id = '7100000000007';
    store.addOrder(order(id, { note: 'Embrulhar para oferta.\nfatura toconline FR 2026/77 emitida' }));
    await store.settled();
    expect(deliveryOf(id).statuses).toEqual([200]);
    expect(await connector.queue.getJob(documentJobId(TENANT, Number(id), 'invoice'))).toBeUndefined();
    const listed = (await listNotInvoiced(redis, prefix, TENANT)).find((entry) => entry.orderId === Number(id));
    expect(listed?.reason).toEqual({ code: 'other-system', system: 'TOConline', key: 'note:Fatura TOConline', value: 'fatura toconline FR 2026/77 emitida' });
    expect(shopifyOtherSystemDocument([{ key: 'note', value: 'Embrulhar.' }], MARKS)).toBeUndefined();
    const ours = order('7100000000008', { note: 'Embrulhar.\n\n--- MagniFinance ---\nO cliente pediu a Fatura TOConline à parte.' });
    store.addOrder(ours);
    await store.settled();
    expect(await connector.queue.getJob(documentJobId(TENANT, 7100000000008, 'invoice'))).toBeDefined();
  });

  it.each([
    ['a tag', '7100000000009', { tags: ['MOLONI-FATURADO'] }, 'Moloni: tag:moloni-faturado'],
    ['a metafield', '7100000000010', { metafields: [{ id: 'gid://shopify/Metafield/880002', namespace: 'xpressifi', key: 'invoice_number', type: 'single_line_text_field', value: 'FT 2026/1400' }] }, 'InvoiceXpress: metafield:xpressifi.invoice_number'],
  ])('a person\'s "issue" of an order another app marked with %s is refused with the mark (the order read alone carries it)', async (_name, id, changes, which) => {
    store.addOrder(order(id, changes));
    await store.settled();
    const answer = await request(`${connector.origin}/admin/api/orders/${TENANT}/${id}/retry`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` } });
    expect(answer.statusCode).toBe(409);
    expect(((await answer.body.json()) as { error: string }).error).toContain(which);
    expect(await connector.queue.getJob(documentJobId(TENANT, Number(id), 'invoice'))).toBeUndefined();
  });

  it('an order without a mark is queued as usual', async () => {
    store.addOrder(order('7100000000003', { tags: ['oferta'] }));
    await store.settled();
    expect(deliveryOf('7100000000003').statuses).toEqual([200]);
    expect(await connector.queue.getJob(documentJobId(TENANT, 7100000000003, 'invoice'))).toBeDefined();
  });

  it('the listing (sweep, console) reads the metafield another app wrote in its namespace, and the gate stops the order', async () => {
    const added = store.addOrder(order('7100000000004', {}));
    (added.metafields as JsonObject[]).push({ namespace: 'xpressifi', key: 'invoice_number', type: 'single_line_text_field', value: 'FT 2026/1234' });
    const page = await platformOf(tenant).createShop(tenant).listOrders({ perPage: 100, page: 1, orderBy: 'newest' });
    const listed = page.orders.find((o) => o.id === 7100000000004);
    expect(platformOf(tenant).otherSystemDocument(listed?.attributes ?? [], tenant.settings.otherSystemMetaKeys)).toEqual({ system: 'InvoiceXpress', key: 'metafield:xpressifi.invoice_number', value: 'FT 2026/1234' });
    const plain = page.orders.find((o) => o.id === 7100000000003);
    expect(plain).toBeDefined();
    expect(platformOf(tenant).otherSystemDocument(plain?.attributes ?? [], tenant.settings.otherSystemMetaKeys)).toBeUndefined();
  });

  it('the marks cannot be read (the Admin API refuses): 503, nothing queued; Shopify delivers again', async () => {
    const id = '7100000000006';
    store.scopes = [];
    try {
      store.addOrder(order(id, {}));
      const delivery = await (async () => {
        for (let i = 0; i < 200; i += 1) {
          const found = store.deliveries.find((d) => d.topic === 'orders/paid' && (JSON.parse(d.body) as { id: number }).id === Number(id));
          if (found && found.statuses.length > 0) return found;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        throw new Error('no answered delivery');
      })();
      expect(delivery.statuses[0]).toBe(503);
      expect(await connector.queue.getJob(documentJobId(TENANT, Number(id), 'invoice'))).toBeUndefined();
    } finally {
      store.scopes = ['read_orders', 'write_orders'];
    }
  });
});
