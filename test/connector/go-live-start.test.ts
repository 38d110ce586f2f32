import { spawn } from 'node:child_process';
import { cliNodeArgs } from '../support/cli-process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { goLiveKey } from '../../connector/ingest/go-live';
import { loadConfigSource } from '../../connector/config/reload';
import { ConnectorMetrics } from '../../connector/core/metrics';
import { startConnector } from '../../connector/main/runtime';
import { META } from '../../connector/shop/order-meta';
import { startFakeWooCommerce, type RunningFakeWoo } from '../support/fake-woocommerce';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox';
import { deleteKeys, eventually, portugueseOrder, quietLogger, rawTestConfig, REDIS_URL, WEBHOOK_SECRET } from './support/harness';

type Raw = Record<string, unknown>;
const SHOPS = 30;

/** A tenant of the agency: its own shop, no goLiveAt (the first start is the cut-off), the periodic sweep on. */
function agencyConfig(prefix: string, shops: RunningFakeWoo[], sandbox: RunningSandbox): Raw {
  const raw = rawTestConfig({ prefix, wooOrigin: shops[0].origin, consumerKey: '', consumerSecret: '', baseUrl: sandbox.baseUrl, sweep: { everyMinutes: 15 } });
  const template = (raw.tenants as Raw[])[0];
  raw.tenants = shops.map((woo, index) => ({
    ...template,
    id: `shop${index + 1}`,
    shop: { ...(template.shop as Raw), url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret },
    settings: { language: 'en', mapping: { externalIdPrefix: `s${index + 1}-` } },
  }));
  return raw;
}

/** Waits until the wall clock is in a later second than `ms`: a WooCommerce delivery that comes "a moment later" (WP-Cron's next request). */
const nextSecond = (ms: number) => eventually('the next second', () => Math.floor(Date.now() / 1000) > Math.floor(ms / 1000));

describe('issue 31 (1): every go-live cut-off is written before the connector takes a delivery', () => {
  let sandbox: RunningSandbox;
  let shops: RunningFakeWoo[];
  let dir: string;
  const prefix = `mft-golive-${process.pid}-${Date.now()}`;
  beforeAll(async () => {
    sandbox = await startTestSandbox({});
    // Like WooCommerce 10: deliveries wait in Action Scheduler's queue until WP-Cron runs; real shops
    // answer in a few hundred ms, so the first sweep of 30 shops takes many seconds.
    shops = await Promise.all(Array.from({ length: SHOPS }, () => startFakeWooCommerce({ delivery: 'queued', echoUpdates: false, latencyMs: 300 })));
    dir = mkdtempSync(join(tmpdir(), 'mf-golive-'));
  });
  afterAll(async () => {
    for (const woo of shops) await woo.close();
    await sandbox.close();
    await deleteKeys(REDIS_URL, prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  it(`the agency's ${SHOPS}-shop first start: an order paid in each shop the moment /readyz answers, delivered a second later, gets its invoice: ${SHOPS} invoices`, async () => {
    const path = join(dir, 'tenants.json');
    writeFileSync(path, JSON.stringify(agencyConfig(prefix, shops, sandbox)));
    const child = spawn(process.execPath, cliNodeArgs(['connector', 'all', '--config', path, '--port', '0']), {
      env: { ...process.env, LOG_LEVEL: 'info' },
    });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    try {
      const origin = await eventually('the HTTP side listening', () => /"origin":"(http:\/\/[^"]+)"/.exec(log)?.[1], 60_000);
      await eventually('/readyz answers 200', async () => (await fetch(`${origin}/readyz`)).status === 200, 30_000);
      shops.forEach((woo, index) => {
        for (const topic of ['order.created', 'order.updated']) woo.addWebhook({ topic, status: 'active', delivery_url: `${origin}/webhooks/woocommerce/shop${index + 1}`, secret: WEBHOOK_SECRET });
      });
      // The moment /readyz answers: one buyer pays in every shop.
      const paidAt = Date.now();
      const orders = shops.map((woo) => woo.createOrder(portugueseOrder({ datePaidGmt: new Date(paidAt).toISOString().slice(0, 19), dateCreatedGmt: new Date(paidAt).toISOString().slice(0, 19) }), 'checkout'));
      await nextSecond(paidAt);
      const answers = (await Promise.all(shops.map((woo) => woo.runQueue()))).flat();
      expect(answers.map((answer) => JSON.parse(answer.body) as Raw).filter((body) => 'ignored' in body)).toEqual([]);
      const numbers = await Promise.all(orders.map((order, index) => eventually(`shop${index + 1}'s invoice`, () => shops[index].meta(Number(order.id), META.documentNumber), 90_000)));
      expect(numbers).toHaveLength(SHOPS);
      // On the service: exactly one invoice per shop's order.
      const { documents } = (await (await fetch(`${sandbox.origin}/_sandbox/documents`)).json()) as { documents: { document: { ExternalId?: string } }[] };
      orders.forEach((order, index) => expect(documents.filter((d) => d.document.ExternalId === `s${index + 1}-${String(order.id)}`)).toHaveLength(1));
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
  }, 180_000);
});

describe('issue 31 (1): a reload that adds a shop writes its cut-off before it reports done', () => {
  it('the added shop has its cut-off in Redis when the reload answers, and an order paid then is invoiced when delivered later', async () => {
    const sandbox = await startTestSandbox({});
    const first = await startFakeWooCommerce({ echoUpdates: false });
    const woo = await startFakeWooCommerce({ delivery: 'queued', echoUpdates: false });
    const prefix = `mft-golive-reload-${process.pid}-${Date.now()}`;
    const dir = mkdtempSync(join(tmpdir(), 'mf-golive-reload-'));
    const redis = new IORedis(REDIS_URL);
    const path = join(dir, 'tenants.json');
    const raw = agencyConfig(prefix, [first, woo], sandbox);
    const [shop1, shop2] = raw.tenants as Raw[];
    raw.tenants = [shop1];
    writeFileSync(path, JSON.stringify(raw));
    const source = { path };
    const connector = await startConnector(loadConfigSource(source, {}), { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }), configSource: source });
    try {
      expect(Number(await redis.get(goLiveKey(prefix, 'shop1')))).toBeGreaterThan(0);
      writeFileSync(path, JSON.stringify({ ...raw, tenants: [shop1, shop2] }));
      const before = Date.now();
      const result = await connector.reload();
      const after = Date.now();
      expect(result).toMatchObject({ ok: true, added: ['shop2'] });
      const cutOff = Number(await redis.get(goLiveKey(prefix, 'shop2')));
      // Dated by the shared clock (Redis's TIME), which agrees with this machine's within a second.
      expect(cutOff).toBeGreaterThanOrEqual(before - 1_000);
      expect(cutOff).toBeLessThanOrEqual(after + 1_000);

      woo.addWebhook({ topic: 'order.created', status: 'active', delivery_url: `${connector.origin ?? ''}/webhooks/woocommerce/shop2`, secret: WEBHOOK_SECRET });
      const paidAt = Date.now();
      const order = woo.createOrder(portugueseOrder({ datePaidGmt: new Date(paidAt).toISOString().slice(0, 19) }), 'checkout');
      await nextSecond(paidAt);
      const [answer] = await woo.runQueue();
      expect(answer.status).toBe(202);
      expect(JSON.parse(answer.body)).not.toHaveProperty('ignored');
      await eventually('shop2\'s invoice', () => woo.meta(Number(order.id), META.documentNumber), 60_000);
    } finally {
      await connector.close();
      redis.disconnect();
      await woo.close();
      await first.close();
      await sandbox.close();
      await deleteKeys(REDIS_URL, prefix);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
