import IORedis from 'ioredis';
import { PLATFORMS } from '../../platforms/registry';
import { describeWebhooks } from '../../connector/alerts/digest';
import { parseConfig } from '../../connector/config/load-config';
import { ConnectorMetrics } from '../../connector/core/metrics';
import { startConnector, type RunningConnector } from '../../connector/main/runtime';
import { lastSweepReport } from '../../connector/core/sweep-report';
import { sendWooWebhook, type FakeWebhook } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, quietLogger, rawTestConfig, REDIS_URL, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

describe('webhook health you can see: refused deliveries per tenant, a disabled webhook within seconds', () => {
  let h: Harness;
  let connector: RunningConnector;
  let redis: IORedis;
  let url: string;
  let hooks: FakeWebhook[];

  beforeAll(async () => {
    h = await startHarness({ role: 'none' });
    const raw = rawTestConfig({ prefix: h.prefix, wooOrigin: h.woo.origin, consumerKey: h.woo.consumerKey, consumerSecret: h.woo.consumerSecret, baseUrl: h.sandbox.baseUrl });
    // The watch looks every second here (60 s by default); no sweep runs at all.
    raw.sweep = { everyMinutes: 0, webhookCheckSeconds: 1 };
    connector = await startConnector(parseConfig(raw, 'tenants.yaml', {}), { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    url = `${connector.origin}/webhooks/woocommerce/shop1`;
    // The shop's webhooks deliver to server.publicUrl (the tests' is http://connector.test): the connector's own.
    hooks = ['order.created', 'order.updated'].map((topic) => h.woo.addWebhook({ topic, status: 'active', delivery_url: 'http://connector.test/webhooks/woocommerce/shop1', secret: WEBHOOK_SECRET }));
    redis = new IORedis(REDIS_URL);
  });
  afterAll(async () => {
    redis.disconnect();
    await connector.close();
    await h.close();
  });

  it('a secret that differs: each refusal counted with the tenant label, shown in the console with its likely cause, and alerted', async () => {
    for (let i = 0; i < 3; i += 1) {
      const answer = await sendWooWebhook({ url, secret: 'the-old-secret', topic: 'order.created', payload: h.woo.putOrder(portugueseOrder()), source: `${h.woo.origin}/` });
      expect(answer.status).toBe(401);
    }
    // A topic the connector has no use for (products it has: they refresh its cache).
    const coupon = await sendWooWebhook({ url, secret: WEBHOOK_SECRET, topic: 'coupon.updated', payload: { id: 7, code: 'NATAL' }, source: `${h.woo.origin}/` });
    expect(coupon.status).toBe(202);

    const metric = await connector.metrics.registry.getSingleMetricAsString('magnifinance_webhooks_refused_total');
    expect(metric).toContain('magnifinance_webhooks_refused_total{tenant="shop1",reason="bad-signature"} 3');

    const page = await eventually('the console lists the refusals', async () => {
      const text = await (await fetch(`${connector.origin}/console/shop1?lang=en`, { headers: ADMIN })).text();
      return text.includes('data-reason="unknown-topic"') ? text : undefined;
    });
    expect(page).toMatch(/<tr data-reason="bad-signature"><td[^>]*>bad-signature<\/td><td class="warn"[^>]*>3<\/td>/);
    expect(page).toContain("the webhook&#39;s Secret in WooCommerce differs from this tenant&#39;s shop.webhookSecret");

    // The watch puts the last hour's refusals where the alerter reads them: one alert per reason.
    const report = await eventually('the refusals in the stored report', async () => {
      const stored = await lastSweepReport(redis, h.prefix, 'shop1');
      return stored?.refusedDeliveries?.some((r) => r.reason === 'bad-signature' && r.count === 3) ? stored : undefined;
    });
    const alerts = describeWebhooks(report, PLATFORMS.woocommerce, 'en');
    expect(alerts).toContainEqual(expect.objectContaining({ status: 'refused (bad-signature)', fix: expect.stringMatching(/^3 deliveries refused \(the last on \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}\)\. The webhook's Secret in WooCommerce differs/) }));
    expect(describeWebhooks(report, PLATFORMS.woocommerce, 'pt').map((a) => a.fix).join(' ')).toContain('O Segredo do webhook no WooCommerce é diferente');
  });

  it('a webhook WooCommerce disabled is noticed by the next watch (every minute by default), without a sweep', async () => {
    hooks[1].status = 'disabled';
    const report = await eventually('the disabled webhook in the stored report', async () => {
      const stored = await lastSweepReport(redis, h.prefix, 'shop1');
      return stored?.inactiveWebhooks.some((hook) => hook.id === hooks[1].id) ? stored : undefined;
    });
    // Found by the watch (a report with no sweep window), not by a sweep.
    expect(report.since).toBe('');
    expect(await connector.metrics.registry.getSingleMetricAsString('magnifinance_shop_webhooks_disabled')).toContain('magnifinance_shop_webhooks_disabled{tenant="shop1"} 1');
    expect(describeWebhooks(report, PLATFORMS.woocommerce, 'en')).toContainEqual(expect.objectContaining({ id: hooks[1].id, topic: 'order.updated', status: 'disabled' }));
    const list = await (await fetch(`${connector.origin}/console?lang=en`, { headers: ADMIN })).text();
    expect(list).toMatch(/<span class="warn">\d+ ✗<\/span>/);

    hooks[1].status = 'active';
    await eventually('active again', async () => ((await lastSweepReport(redis, h.prefix, 'shop1'))?.inactiveWebhooks.length === 0 ? true : undefined), 10_000);
  });
});
