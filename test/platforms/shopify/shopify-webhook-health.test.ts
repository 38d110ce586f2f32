import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { describeWebhooks } from '../../../connector/alerts/digest';
import { parseConfig, type TenantConfig } from '../../../connector/config/load-config';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import { recentRefusals } from '../../../connector/ingest/webhook-health';
import { ShopifyShop } from '../../../platforms/shopify/shopify-shop';
import { sweepReport } from '../../connector/support/sweep-report';
import { startConnector, type RunningConnector } from '../../../connector/main/runtime';
import { platformOf } from '../../../platforms/registry';
import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { startTestSandbox, type RunningSandbox } from '../../support/sandbox';
import { eventually, quietLogger, rawTestConfig, REDIS_URL } from '../../connector/support/harness';
import IORedis from 'ioredis';
import { TAXES_INCLUDED } from './fixtures/orders';

/**
 * A Shopify store's refused deliveries, seen as a WooCommerce shop's are (issue 27): a delivery
 * signed with another secret is counted as a wrong signature, and the console's webhook health and
 * the alerts tell the merchant Shopify's cause and fix (the app's client secret, the admin's
 * hand-made webhooks), never WooCommerce's settings screen.
 */

const TENANT = 'loja';
const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

describe("a Shopify store's refused deliveries in Shopify's words", () => {
  const store = new FakeShopify({ retryDelayMs: () => 5 });
  let sandbox: RunningSandbox;
  let connector: RunningConnector;
  let redis: IORedis;
  let prefix: string;
  let config: TenantConfig;

  beforeAll(async () => {
    await store.start();
    sandbox = await startTestSandbox();
    prefix = `mft-${randomBytes(6).toString('hex')}`;
    const raw = rawTestConfig({ prefix, wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: sandbox.baseUrl });
    const tenant = (raw.tenants as JsonObject[])[0];
    delete tenant.shop;
    Object.assign(tenant, { id: TENANT, platform: 'shopify', shopify: { shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecret: store.clientSecret } });
    config = parseConfig(raw, 'tenants.yaml', {}).tenants[0];
    connector = await startConnector(parseConfig(raw, 'tenants.yaml', {}), { role: 'serve', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    // What the webhook watch does on its first round: the store's subscriptions to this connector.
    const shop = new ShopifyShop({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecrets: [store.clientSecret], timeoutMs: 5_000, sale: { currency: 'shop', nifSources: [] } });
    await shop.ensureWebhooks(connector.origin as string, TENANT);
    redis = new IORedis(REDIS_URL);
  });
  afterAll(async () => {
    redis.disconnect();
    await connector.close();
    await store.close();
    await sandbox.close();
  });

  it("a delivery signed with another app's secret: counted as a wrong signature, worded with the client secret in the console and the alerts", async () => {
    expect(config.platform).toBe('shopify');
    store.addOrder(TAXES_INCLUDED);
    await store.settled();
    const paid = store.deliveries.find((d) => d.topic === 'orders/paid');
    expect(paid?.statuses).toEqual([200]);

    const forged = await request(`${connector.origin}/webhooks/shopify/${TENANT}`, { method: 'POST', headers: store.deliveryHeaders(paid!, 'shpss_someone_else'), body: paid!.body });
    expect(forged.statusCode).toBe(401);

    const page = await eventually('the console lists the refusal', async () => {
      const text = await (await fetch(`${connector.origin}/console/${TENANT}?lang=en`, { headers: ADMIN })).text();
      return text.includes('data-reason="bad-signature"') ? text : undefined;
    });
    expect(page).toContain('shopify.clientSecret');
    expect(page).toContain('Settings &gt; Notifications &gt; Webhooks');
    expect(page).not.toMatch(/WooCommerce &gt;|shop\.webhookSecret|X-WC-/);
    const pt = await (await fetch(`${connector.origin}/console/${TENANT}?lang=pt`, { headers: ADMIN })).text();
    expect(pt).toContain('Definições &gt; Notificações &gt; Webhooks');
    expect(pt).not.toContain('WooCommerce');

    // The refusals the watch puts in the report the alerter reads (core/sweep-report.ts).
    const refused = await recentRefusals(redis, prefix, TENANT, Date.now());
    expect(refused.map((r) => [r.reason, r.count])).toEqual([['bad-signature', 1]]);
    const alerts = describeWebhooks(sweepReport({ refusedDeliveries: refused.map((r) => ({ ...r, lastAt: new Date(r.lastAt).toISOString() })) }), platformOf(config), 'pt', 'Europe/Lisbon');
    expect(alerts.map((alert) => alert.fix).join(' ')).toContain('segredo de cliente da app em shopify.clientSecret');
    expect(alerts.map((alert) => alert.fix).join(' ')).not.toContain('WooCommerce');
  });
});
