/**
 * CIVA art. 36(1)(c) in the doctor's dry run and the sweep's report, for Shopify: an order on
 * payment terms paid in part (PARTIALLY_PAID) whose orders/updated delivery never reached the
 * connector is found by the sweep (it lists `partially_paid` beside the trigger statuses), told on
 * the order once and reported (which, why, in Portuguese and English); the dry run names it too.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { parseConfig, type TenantConfig } from '../../../connector/config/load-config';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import type { SweepReport } from '../../../connector/core/sweep-report';
import { dryRun } from '../../../connector/doctor/dry-run';
import { renderDoctorReport } from '../../../connector/doctor/render';
import { startConnector, type RunningConnector } from '../../../connector/main/runtime';
import { buildTenantRuntime } from '../../../connector/pipeline/tenant-runtime';
import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { startTestSandbox, type RunningSandbox } from '../../support/sandbox';
import { deleteKeys, quietLogger, rawTestConfig, REDIS_URL } from '../../connector/support/harness';
import { ON_PAYMENT_TERMS } from './fixtures/orders';

const TENANT = 'loja';
const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

describe("CIVA art. 36(1)(c): the dry run and the sweep report Shopify's orders paid in part, and why they are not invoiced", () => {
  const store = new FakeShopify({ retryDelayMs: () => 5 });
  let sandbox: RunningSandbox;
  let connector: RunningConnector;
  let tenantConfig: TenantConfig;
  const prefix = `mft-${randomBytes(6).toString('hex')}`;
  const id = Number(ON_PAYMENT_TERMS.legacyResourceId);
  const order = (): JsonObject => store.orders.get(String(ON_PAYMENT_TERMS.id)) as JsonObject;

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
      settings: { language: 'pt', goLiveAt: '2020-01-01T00:00:00Z', mapping: { externalIdPrefix: 'shopify-', shopTimeZone: 'Europe/Lisbon' } },
    });
    const config = parseConfig(raw, 'tenants.yaml', {});
    tenantConfig = config.tenants[0];
    connector = await startConnector(config, { role: 'serve', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    // No subscriptions yet: the store's deliveries are lost until the sweep re-creates them.
    store.addOrder(ON_PAYMENT_TERMS);
    store.capturePart(String(ON_PAYMENT_TERMS.id), '30.00');
  });
  afterAll(async () => {
    await connector.close();
    await store.close();
    await sandbox.close();
    await deleteKeys(REDIS_URL, prefix);
  });

  it('the sweep finds the order paid in part, tells it on the order once, and reports which and why', async () => {
    const sweep = async (): Promise<SweepReport> => {
      const answer = await request(`${connector.origin}/admin/api/sweep`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: TENANT }) });
      expect(answer.statusCode).toBe(200);
      const body = (await answer.body.json()) as { reports: SweepReport[] } | SweepReport[];
      return (Array.isArray(body) ? body : body.reports)[0];
    };
    const report = await sweep();
    expect(report.problems).toEqual([]);
    expect(report.advancePayments).toEqual([
      {
        orderId: id,
        kind: 'deposit',
        status: 'partially_paid',
        plugin: 'Shopify',
        why: { en: expect.stringContaining('CIVA art. 36(1)(c)') as unknown, pt: expect.stringContaining('art. 36.º, n.º 1, alínea c), do CIVA') as unknown },
      },
    ]);
    expect(String(order().note)).toContain('estado "partially_paid" de "Shopify"');
    await sweep();
    expect(String(order().note).split('alínea c), do CIVA')).toHaveLength(2);
    expect(sandbox.store.documents().filter((doc) => String(doc.document.ExternalId).startsWith(`shopify-${id}`))).toHaveLength(0);
  });

  it("the doctor's dry run lists it as not invoiced, with why, and counts it", async () => {
    const orders = await dryRun(buildTenantRuntime(tenantConfig), 5, Date.now(), 0);
    expect(orders.find((o) => o.orderId === id)).toMatchObject({ outcome: 'not-invoiced', status: 'partially_paid', advancePayment: { kind: 'deposit', plugin: 'Shopify' }, beyondTriggers: true });
    const text = renderDoctorReport({ ready: true, redis: [], tenants: [{ tenant: TENANT, shop: store.url, ready: true, checks: [], dryRun: orders }] }, 'tenants.yaml', 'en');
    expect(text).toContain('1 order was paid in part or before the supply');
    expect(text).toContain(`#${id}`);
  });
});
