import { parseConfig, type TenantConfig } from '../../../connector/config/load-config';
import { shopifyDoctorChecks } from '../../../platforms/shopify/doctor-checks';
import { documentJobId } from '../../../connector/core/jobs';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import { startConnector, type RunningConnector } from '../../../connector/main/runtime';
import { ShopifyShop } from '../../../platforms/shopify/shopify-shop';
import { NOTE_MARKER } from '../../../platforms/shopify/order-note';
import { FakeShopify, type FakeDelivery, type JsonObject } from '../../support/fake-shopify';
import { startTestSandbox, type RunningSandbox } from '../../support/sandbox';
import { rawTestConfig } from '../../connector/support/harness';
import { PENDING_TRANSFER, sweaterAndShippingRefund, TAXES_INCLUDED } from './fixtures/orders';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { request } from 'undici';
import { dryRun } from '../../../connector/doctor/dry-run';
import { buildTenantRuntime } from '../../../connector/pipeline/tenant-runtime';

/**
 * A Shopify tenant in the connector: the store's signed deliveries through the webhook route into
 * the document queue (real Redis, BullMQ), and the Shop port against the fake store.
 */

const TENANT = 'loja';
const ORDER_ID = Number(TAXES_INCLUDED.legacyResourceId);

describe('Shopify deliveries into the connector', () => {
  const store = new FakeShopify({ retryDelayMs: () => 5 });
  let sandbox: RunningSandbox;
  let connector: RunningConnector;
  let url: string;
  let tenantConfig: TenantConfig;
  const infoLines: { msg?: string; reason?: string }[] = [];

  function connectorShop(): ShopifyShop {
    return new ShopifyShop({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecrets: [store.clientSecret], timeoutMs: 5_000, sale: { currency: 'shop', nifSources: [{ from: 'attribute', key: 'nif' }] } });
  }

  beforeAll(async () => {
    await store.start();
    sandbox = await startTestSandbox();
    const prefix = `mft-${randomBytes(6).toString('hex')}`;
    const raw = rawTestConfig({ prefix, wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: sandbox.baseUrl });
    const tenant = (raw.tenants as JsonObject[])[0];
    delete tenant.shop;
    Object.assign(tenant, {
      id: TENANT,
      platform: 'shopify',
      shopify: { shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecret: store.clientSecret },
    });
    tenantConfig = parseConfig(raw, 'tenants.yaml', {}).tenants[0];
    // Serve only: the deliveries' jobs stay in the queue, where the test reads them.
    // Its info lines are kept (not printed): what a delivery logs is part of what it costs.
    const logger = pino({ level: 'info' }, { write: (line: string) => void infoLines.push(JSON.parse(line) as { msg?: string; reason?: string }) });
    connector = await startConnector(parseConfig(raw, 'tenants.yaml', {}), { role: 'serve', logger, metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    url = `${connector.origin}/webhooks/shopify/${TENANT}`;
    // What the webhook watch does on its first round: the store's subscriptions to this connector.
    await connectorShop().ensureWebhooks(connector.origin as string, TENANT);
  });
  afterAll(async () => {
    await store.close();
    await connector.close();
    await sandbox.close();
  });

  function deliveriesOf(topic: string): FakeDelivery[] {
    return store.deliveries.filter((d) => d.topic === topic);
  }

  it('takes a signed orders/paid: 200 and the order\'s invoice job queued', async () => {
    store.addOrder(TAXES_INCLUDED);
    await store.settled();
    const [paid] = deliveriesOf('orders/paid');
    expect(paid.statuses).toEqual([200]);
    expect(await connector.queue.getJob(documentJobId(TENANT, ORDER_ID, 'invoice'))).toBeDefined();
  });

  it('answers a repeated delivery of the same event at once, without planning again', async () => {
    const [paid] = deliveriesOf('orders/paid');
    const again = await request(url, { method: 'POST', headers: store.deliveryHeaders(paid), body: paid.body });
    expect(again.statusCode).toBe(200);
    expect(await again.body.json()).toEqual({ ignored: 'duplicate-event' });
    const jobs = await connector.queue.getJobs(['waiting', 'delayed', 'prioritized', 'active']);
    expect(jobs.filter((job) => job.data.orderId === ORDER_ID && job.data.kind === 'invoice')).toHaveLength(1);
  });

  it('refuses another app\'s signature and a delivery for another store', async () => {
    const [paid] = deliveriesOf('orders/paid');
    const forged = await request(url, { method: 'POST', headers: store.deliveryHeaders(paid, 'shpss_someone_else'), body: paid.body });
    expect(forged.statusCode).toBe(401);
    expect(await forged.body.json()).toMatchObject({ error: 'invalid_hmac' });
    const otherStore = await request(url, { method: 'POST', headers: { ...store.deliveryHeaders(paid), 'x-shopify-shop-domain': 'other.myshopify.com' }, body: paid.body });
    expect(otherStore.statusCode).toBe(401);
    expect(await otherStore.body.json()).toMatchObject({ error: 'other-store' });
  });

  // Plain URLs take the plain-Node path ahead of Express; other spellings Express matches go through
  // the Express route. Both answer alike.
  it.each([
    ['the plain URL (plain Node path)', (target: string) => target],
    ['a trailing slash and a query (plain Node path)', (target: string) => `${target}/?source=test`],
    ['another letter case (Express route)', (target: string) => target.replace('/webhooks/shopify/', '/Webhooks/Shopify/')],
    ['a percent-encoded tenant (Express route)', (target: string) => target.replace(`/${TENANT}`, '/%6Coja')],
  ])('%s: the same event again 200 duplicate-event, a forged signature 401, an unknown tenant 404, bad JSON 400', async (_name, spell) => {
    const [paid] = deliveriesOf('orders/paid');
    const post = async (target: string, headers: Record<string, string>, body: string) => {
      const answer = await request(target, { method: 'POST', headers, body });
      return { status: answer.statusCode, body: (await answer.body.json()) as Record<string, unknown> };
    };
    expect(await post(spell(url), store.deliveryHeaders(paid), paid.body)).toEqual({ status: 200, body: { ignored: 'duplicate-event' } });
    expect(await post(spell(url), store.deliveryHeaders(paid, 'shpss_someone_else'), paid.body)).toMatchObject({ status: 401, body: { error: 'invalid_hmac' } });
    expect(await post(spell(`${connector.origin}/webhooks/shopify/nobody`), store.deliveryHeaders(paid), paid.body)).toMatchObject({ status: 404, body: { error: 'unknown-tenant' } });
    const broken = { ...paid, body: '{"id": 1,', eventId: `${paid.eventId}-broken` };
    expect(await post(spell(url), store.deliveryHeaders(broken), broken.body)).toMatchObject({ status: 400, body: { error: 'malformed-json' } });
  });

  it('queues a credit note for a refund of an order it invoices', async () => {
    const refund = store.refund(String(TAXES_INCLUDED.id), sweaterAndShippingRefund());
    await store.settled();
    expect(deliveriesOf('refunds/create').map((d) => d.statuses)).toEqual([[200]]);
    expect(await connector.queue.getJob(documentJobId(TENANT, ORDER_ID, 'credit-note', Number(refund.legacyResourceId)))).toBeDefined();
  });

  it('leaves an unpaid order alone', async () => {
    store.addOrder(PENDING_TRANSFER);
    await store.settled();
    expect(await connector.queue.getJob(documentJobId(TENANT, Number(PENDING_TRANSFER.legacyResourceId), 'invoice'))).toBeUndefined();
  });

  it("an orders/updated of an order whose invoice the ledger shows written back (our own write-back's echo): no job; a refund in the same update is queued", async () => {
    const id = 5962412736123;
    const gid = `gid://shopify/Order/${id}`;
    store.addOrder({ ...TAXES_INCLUDED, id: gid, legacyResourceId: String(id), name: '#1011' });
    await store.settled();
    const invoiceJob = documentJobId(TENANT, id, 'invoice');
    expect(await connector.queue.getJob(invoiceJob)).toBeDefined();
    // What a worker leaves once the invoice is on the order: the ledger written back, the job removed on completion.
    await connector.ledger.record({ tenant: TENANT, orderId: id, purpose: 'invoice' }, { state: 'written-back', documentId: 7, documentNumber: 'FR A/7' });
    await (await connector.queue.getJob(invoiceJob))?.remove();
    const nothingToIssue = async () => (await connector.metrics.webhooksIgnored.get()).values.find((v) => v.labels.reason === 'nothing-to-issue')?.value ?? 0;
    const before = await nothingToIssue();
    // Any change to the order (our write-back's note does the same) fires orders/updated with the order still paid.
    store.setAttributes(gid, [{ key: 'gift', value: 'yes' }]);
    await store.settled();
    const [update] = deliveriesOf('orders/updated').filter((d) => (JSON.parse(d.body) as { id: number }).id === id);
    expect(update.statuses).toEqual([200]);
    const again = await request(url, { method: 'POST', headers: store.deliveryHeaders({ ...update, eventId: `${update.eventId}-again` }), body: update.body });
    expect(await again.body.json()).toEqual({ ignored: 'nothing-to-issue' });
    expect(await connector.queue.getJob(invoiceJob)).toBeUndefined();
    // Counted, and logged at debug only (every order's echo): no info line.
    expect(await nothingToIssue()).toBe(before + 2);
    expect(infoLines.filter((line) => line.msg === 'webhook ignored' && line.reason === 'nothing-to-issue')).toEqual([]);
    // A refund: refunds/create and an orders/updated carrying it; its credit note is queued, the invoice is not.
    const refund = store.refund(gid, sweaterAndShippingRefund());
    await store.settled();
    expect(await connector.queue.getJob(documentJobId(TENANT, id, 'credit-note', Number(refund.legacyResourceId)))).toBeDefined();
    expect(await connector.queue.getJob(invoiceJob)).toBeUndefined();
  });

  it('re-creates a subscription Shopify removed after 8 failed deliveries, through the webhook health', async () => {
    const subscription = [...store.subscriptions.values()].find((s) => s.topic === 'orders/paid');
    if (!subscription) throw new Error('no orders/paid subscription');
    store.subscriptions.delete(subscription.id);
    const shop = connectorShop();
    const health = await shop.ensureWebhooks(connector.origin as string, TENANT);
    expect(health).toEqual({ missingTopics: ['orders/paid'], recreated: ['orders/paid'] });
    expect([...store.subscriptions.values()].filter((s) => s.topic === 'orders/paid' && s.uri === url)).toHaveLength(1);
  });

  it('the Shop port writes back app metafields, and notes without touching the merchant\'s own note', async () => {
    const shop = connectorShop();
    await shop.updateOrderMeta(ORDER_ID, [
      { key: '_magnifinance_document_number', value: 'FR 2026/12' },
      { key: '_magnifinance_pdf_url', value: 'http://connector.test/pdf/abc' },
      { key: '_magnifinance_credit_note_1', value: { number: 'NC 2026/1', documentId: '7' } },
    ]);
    const stored = store.orders.get(String(TAXES_INCLUDED.id)) as JsonObject;
    expect((stored.metafields as JsonObject[]).map((m) => [m.namespace, m.key, m.type, m.value])).toEqual([
      [`app--${store.appId}`, 'magnifinance_document_number', 'single_line_text_field', 'FR 2026/12'],
      [`app--${store.appId}`, 'magnifinance_pdf_url', 'url', 'http://connector.test/pdf/abc'],
      [`app--${store.appId}`, 'magnifinance_credit_note_1', 'json', '{"number":"NC 2026/1","documentId":"7"}'],
    ]);

    await shop.addNote(ORDER_ID, 'Fatura FR 2026/12 emitida.', false);
    // The merchant edits the note in the Shopify admin between two writes of ours.
    stored.note = `Cliente pediu embrulho. ${String(stored.note).slice(String(stored.note).indexOf(NOTE_MARKER))}`;
    await shop.addNote(ORDER_ID, 'Nota de crédito NC 2026/1 emitida.', false);
    expect(stored.note).toBe(`Cliente pediu embrulho.\n\n${NOTE_MARKER}\nFatura FR 2026/12 emitida.\nNota de crédito NC 2026/1 emitida.`);
    expect((await shop.listNotes(ORDER_ID)).map((n) => n.note)).toEqual(['Nota de crédito NC 2026/1 emitida.', 'Fatura FR 2026/12 emitida.']);
    // The order's summary now carries our meta: a later delivery plans nothing for the invoice.
    const { orders } = await shop.listOrders({ ids: [ORDER_ID], perPage: 10 });
    expect(orders[0]).toMatchObject({ id: ORDER_ID, attributes: expect.arrayContaining([{ key: '_magnifinance_document_number', value: 'FR 2026/12' }]) });
  });

  it('lists the orders changed since an instant, page by page, for the sweep', async () => {
    const shop = connectorShop();
    for (let i = 0; i < 5; i += 1) store.addOrder({ ...TAXES_INCLUDED, id: `gid://shopify/Order/${7000 + i}`, legacyResourceId: String(7000 + i), name: `#${3000 + i}` });
    const seen: number[] = [];
    let page = 1;
    let totalPages = 1;
    do {
      const listing = await shop.listOrders({ modifiedAfter: '2000-01-01T00:00:00', statuses: ['paid'], perPage: 2, page, orderBy: 'id' });
      totalPages = listing.totalPages;
      seen.push(...listing.orders.map((o) => (o as { id: number }).id));
      page += 1;
    } while (page <= totalPages);
    expect(seen.filter((id) => id >= 7000 && id < 7005).sort()).toEqual([7000, 7001, 7002, 7003, 7004]);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("the doctor's dry run composes the store's recent paid orders, each read alone (a Shopify listing gives summaries)", async () => {
    store.addOrder({ ...TAXES_INCLUDED, id: 'gid://shopify/Order/7100', legacyResourceId: '7100', name: '#3100' });
    const orders = await dryRun(buildTenantRuntime(tenantConfig), 3, Date.now(), 0);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((order) => order.outcome !== 'refuse')).toBe(true);
    expect(orders.filter((order) => order.outcome === 'issue').map((order) => [order.currency, order.documentTotal])).toContainEqual(['EUR', '109.72']);
  });

  it('the doctor reads the token, the scopes, the subscriptions, the store\'s taxes and currency, and the settings', async () => {
    const { readable, checks } = await shopifyDoctorChecks(connectorShop().client, tenantConfig, connector.origin as string);
    expect(readable).toBe(true);
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['Admin API token', 'ok'],
      ['Access scopes', 'ok'],
      ['Webhook subscriptions', 'ok'],
      ['Taxes included in prices', 'ok'],
      ['Store currency', 'ok'],
      ['Buyer NIF source', 'ok'],
      ['Cancelled orders', 'warn'],
    ]);
    store.scopes = ['read_orders'];
    try {
      const scopes = (await shopifyDoctorChecks(connectorShop().client, tenantConfig, connector.origin as string)).checks.find((c) => c.name === 'Access scopes');
      expect(scopes).toMatchObject({ status: 'fail', detail: 'missing write_orders (granted: read_orders)' });
    } finally {
      store.scopes = ['read_orders', 'write_orders'];
    }
  });
});
