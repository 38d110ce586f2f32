import { spawn } from 'node:child_process';
import { cliNodeArgs } from '../support/cli-process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigSource } from '../../connector/config/reload';
import { TenantSet } from '../../connector/config/tenant-set';
import { ConnectorMetrics } from '../../connector/core/metrics';
import { startConnector, type RunningConnector } from '../../connector/main/runtime';
import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { TEST_ACCOUNT } from '../support/sandbox';
import { eventually, portugueseOrder, quietLogger, rawTestConfig, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { wooOrderJson } from '../support/payloads';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };

type Raw = Record<string, unknown>;
const tenantsOf = (raw: Raw): Raw[] => raw.tenants as Raw[];

describe('reload without a restart: the tenants file and its .env, atomically', () => {
  let h: Harness;
  let connector: RunningConnector;
  let dir: string;
  let configPath: string;
  let envPath: string;
  let raw: Raw;

  const write = (config: Raw | string, env: Record<string, string> = { SHOP1_WEBHOOK_SECRET: WEBHOOK_SECRET, MF_TOKEN: TEST_ACCOUNT.token }): void => {
    writeFileSync(configPath, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
    writeFileSync(envPath, Object.entries(env).map(([key, value]) => `${key}="${value}"`).join('\n'));
  };
  const reload = async (): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`${connector.origin}/admin/api/reload`, { method: 'POST', headers: ADMIN });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const deliver = (tenant: string, order: Raw, secret = WEBHOOK_SECRET) =>
    sendWooWebhook({ url: `${connector.origin}/webhooks/woocommerce/${tenant}`, secret, topic: 'order.created', payload: h.woo.putOrder(wooOrderJson(order)), source: `${h.woo.origin}/` });

  beforeAll(async () => {
    h = await startHarness({ role: 'none' });
    dir = mkdtempSync(join(tmpdir(), 'mf-reload-'));
    configPath = join(dir, 'tenants.json');
    envPath = join(dir, '.env');
    raw = rawTestConfig({ prefix: h.prefix, wooOrigin: h.woo.origin, consumerKey: h.woo.consumerKey, consumerSecret: h.woo.consumerSecret, baseUrl: h.sandbox.baseUrl });
    const shop1 = tenantsOf(raw)[0];
    shop1.shop = { ...(shop1.shop as Raw), webhookSecret: '${SHOP1_WEBHOOK_SECRET}' };
    shop1.invoicing = { ...(shop1.invoicing as Raw), token: '${MF_TOKEN}' };
    write(raw);
    const source = { path: configPath, envFile: envPath };
    connector = await startConnector(loadConfigSource(source, {}), { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }), configSource: source });
  });
  afterAll(async () => {
    await connector.close();
    await h.close();
    // The tenants file and .env hold test secrets: nothing stays in the temp folder.
    rmSync(dir, { recursive: true, force: true });
  });

  it('a steady stream of deliveries through five reloads (a setting, a new shop, a broken file, the fix, a removed shop): not one refused, every order invoiced once', async () => {
    const answers: number[] = [];
    const orders: Raw[] = [];
    let reloading = true;
    // Bounded by count, not by time: the stream runs until every reload is done AND 40 deliveries went out.
    const stream = (async () => {
      while (reloading || answers.length < 40) {
        const batch = Array.from({ length: 4 }, () => portugueseOrder());
        orders.push(...batch);
        answers.push(...(await Promise.all(batch.map((order) => deliver('shop1', order)))).map((a) => a.status));
      }
    })();
    const steps: (() => Raw | string)[] = [
      () => ({ ...raw, tenants: [{ ...tenantsOf(raw)[0], settings: { ...(tenantsOf(raw)[0].settings as Raw), customerNote: true } }] }),
      () => ({ ...raw, tenants: [tenantsOf(raw)[0], { ...tenantsOf(raw)[0], id: 'shop2', settings: { language: 'en', goLiveAt: '2020-01-01T00:00:00Z', mapping: { externalIdPrefix: 'shop2-' } } }] }),
      () => '{ "server": { this is not JSON',
      () => ({ ...raw, tenants: [tenantsOf(raw)[0], { ...tenantsOf(raw)[0], id: 'shop2', settings: { language: 'en', goLiveAt: '2020-01-01T00:00:00Z', mapping: { externalIdPrefix: 'shop2-' } } }] }),
      () => raw,
    ];
    const results: { status: number; body: Record<string, unknown> }[] = [];
    for (const step of steps) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      write(step());
      results.push(await reload());
    }
    reloading = false;
    await stream;

    expect(results.map((r) => r.status)).toEqual([200, 200, 422, 200, 200]);
    expect(results[0].body).toMatchObject({ ok: true, changed: ['shop1'], added: [], removed: [] });
    expect(results[1].body).toMatchObject({ ok: true, added: ['shop2'] });
    expect(results[2].body).toMatchObject({ ok: false, problems: [expect.stringContaining('not valid JSON')] });
    expect(results[3].body).toMatchObject({ ok: true, added: [], changed: [] });
    expect(results[4].body).toMatchObject({ ok: true, removed: ['shop2'] });
    expect(answers.length).toBeGreaterThanOrEqual(40);
    expect(answers.filter((status) => status !== 202)).toEqual([]);
    for (const order of orders) await eventually(`order ${String(order.id)} invoiced`, () => h.woo.meta(Number(order.id), META.documentNumber), 60_000);
    const documents = await h.documents();
    for (const order of orders) expect(documents.filter((d) => d.document.ExternalId === `wc-${String(order.id)}`)).toHaveLength(1);
    // shop2 is gone: its URL takes no new work.
    expect((await deliver('shop2', portugueseOrder())).status).toBe(404);
  }, 120_000);

  it('a wrong token, fixed in the .env and reloaded: "Retry" issues with the new one (a retry uses today\'s settings)', async () => {
    write(raw, { SHOP1_WEBHOOK_SECRET: WEBHOOK_SECRET, MF_TOKEN: 'a-rotated-token-not-yet-known' });
    expect((await reload()).status).toBe(200);
    const order = portugueseOrder();
    expect((await deliver('shop1', order)).status).toBe(202);
    await eventually('refused for the credentials', async () => (await connector.ledger.get({ tenant: 'shop1', orderId: Number(order.id), purpose: 'invoice' }))?.state === 'failed');
    // The person acts as soon as the console says failed: the ledger says so a moment before BullMQ
    // moves the job to its failed list, and the retry waits for the job to settle (order-actions.ts).
    write(raw);
    expect((await reload()).body).toMatchObject({ ok: true, changed: ['shop1'] });
    expect((await fetch(`${connector.origin}/admin/api/orders/shop1/${String(order.id)}/retry`, { method: 'POST', headers: ADMIN })).status).toBe(202);
    await eventually('invoiced after the retry', () => h.woo.meta(Number(order.id), META.documentNumber), 60_000);
  }, 60_000);

  it('a rotated webhook secret in the .env takes effect on reload, and the previous one is still accepted for the overlap window (server.webhookSecretOverlapMinutes)', async () => {
    write(raw, { SHOP1_WEBHOOK_SECRET: 'rotated-secret', MF_TOKEN: TEST_ACCOUNT.token });
    expect((await reload()).status).toBe(200);
    expect((await deliver('shop1', portugueseOrder(), 'rotated-secret')).status).toBe(202);
    // A delivery signed between the two edits (WooCommerce still had the old secret): not refused.
    expect((await deliver('shop1', portugueseOrder(), WEBHOOK_SECRET)).status).toBe(202);
    // Rotated again: the secret before last is refused; the one just replaced is accepted.
    write(raw, { SHOP1_WEBHOOK_SECRET: 'rotated-again', MF_TOKEN: TEST_ACCOUNT.token });
    expect((await reload()).status).toBe(200);
    expect((await deliver('shop1', portugueseOrder(), WEBHOOK_SECRET)).status).toBe(401);
    expect((await deliver('shop1', portugueseOrder(), 'rotated-secret')).status).toBe(202);
    expect((await deliver('shop1', portugueseOrder(), 'rotated-again')).status).toBe(202);
    write(raw);
    expect((await reload()).status).toBe(200);
  });

  it('a new admin password applies on reload: the old one is refused at once, the new one let in', async () => {
    expect((await fetch(`${connector.origin}/admin/api/attention`, { headers: ADMIN })).status).toBe(200);
    write({ ...raw, admin: { username: 'admin', password: 'a-new-admin-password' } });
    const result = await reload();
    expect(result.body).toMatchObject({ ok: true, restartNeeded: [] });
    expect((await fetch(`${connector.origin}/admin/api/attention`, { headers: ADMIN })).status).toBe(401);
    const fresh = { authorization: `Basic ${Buffer.from('admin:a-new-admin-password').toString('base64')}` };
    expect((await fetch(`${connector.origin}/admin/api/attention`, { headers: fresh })).status).toBe(200);
    write(raw);
    expect((await fetch(`${connector.origin}/admin/api/reload`, { method: 'POST', headers: { ...fresh, 'content-type': 'application/json' } })).status).toBe(200);
    expect((await fetch(`${connector.origin}/admin/api/attention`, { headers: ADMIN })).status).toBe(200);
  });

  it('the console\'s reload button (with its anti-forgery token) reloads and says what changed; a forged post is refused', async () => {
    const page = await (await fetch(`${connector.origin}/console?lang=en`, { headers: ADMIN })).text();
    const token = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    expect(page).toContain('Reload the tenants file');
    const forged = await fetch(`${connector.origin}/console/reload`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/x-www-form-urlencoded' }, body: 'csrf=forged', redirect: 'manual' });
    expect(forged.status).toBe(403);
    write('tenants: [');
    const posted = await fetch(`${connector.origin}/console/reload?lang=en`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/x-www-form-urlencoded' }, body: `csrf=${encodeURIComponent(token)}`, redirect: 'manual' });
    expect(posted.status).toBe(303);
    const after = await (await fetch(`${connector.origin}${posted.headers.get('location') ?? ''}&lang=en`, { headers: ADMIN })).text();
    expect(after).toContain('Tenants file NOT reloaded: it has mistakes; the running configuration stays');
    write(raw);
  });
});

describe('TenantSet: a removed shop takes no new work but its queued jobs still find it', () => {
  it('replace() swaps; forWork still has the removed tenant; a re-added one is active again', () => {
    const raw = rawTestConfig({ prefix: 'unused', wooOrigin: 'http://shop.test', consumerKey: 'ck', consumerSecret: 'cs', baseUrl: 'http://sandbox.test/api/v1.1' });
    const dir = mkdtempSync(join(tmpdir(), 'mf-set-'));
    const path = join(dir, 'tenants.json');
    writeFileSync(path, JSON.stringify({ ...raw, tenants: [...tenantsOf(raw), { ...tenantsOf(raw)[0], id: 'shop2', settings: { mapping: { externalIdPrefix: 's2-' } } }] }));
    const two = loadConfigSource({ path }, {});
    rmSync(dir, { recursive: true, force: true });
    const set = new TenantSet(two.tenants);
    const shop2 = set.get('shop2');
    expect(set.replace(two.tenants.slice(0, 1))).toEqual({ added: [], removed: ['shop2'], changed: [] });
    expect(set.has('shop2')).toBe(false);
    expect([...set.keys()]).toEqual(['shop1']);
    expect(set.forWork.get('shop2')).toBe(shop2);
    expect(set.replace(two.tenants)).toEqual({ added: ['shop2'], removed: [], changed: [] });
    expect(set.has('shop2')).toBe(true);
  });

  it('a changed webhook secret: the previous one kept until the overlap ends, never with the overlap off', () => {
    const raw = rawTestConfig({ prefix: 'unused', wooOrigin: 'http://shop.test', consumerKey: 'ck', consumerSecret: 'cs', baseUrl: 'http://sandbox.test/api/v1.1' });
    const dir = mkdtempSync(join(tmpdir(), 'mf-set-'));
    const path = join(dir, 'tenants.json');
    writeFileSync(path, JSON.stringify(raw));
    const before = loadConfigSource({ path }, {});
    writeFileSync(path, JSON.stringify({ ...raw, tenants: [{ ...tenantsOf(raw)[0], shop: { ...(tenantsOf(raw)[0].shop as Raw), webhookSecret: 'the-new-secret' } }] }));
    const after = loadConfigSource({ path }, {});
    rmSync(dir, { recursive: true, force: true });
    const set = new TenantSet(before.tenants);
    set.replace(after.tenants, { now: 1_000, ms: 60_000 });
    expect(set.get('shop1')?.previousWebhookSecret).toEqual({ secret: WEBHOOK_SECRET, until: 61_000 });
    const off = new TenantSet(before.tenants);
    off.replace(after.tenants, { now: 1_000, ms: 0 });
    expect(off.get('shop1')?.previousWebhookSecret).toBeUndefined();
  });
});

describe('SIGHUP reloads a running `magnifinance connector` (the CLI, in a child process)', () => {
  it('a broken file is refused and logged, the fixed one with a new shop is taken: the new shop answers', async () => {
    const h = await startHarness({ role: 'none' });
    const dir = mkdtempSync(join(tmpdir(), 'mf-hup-'));
    const path = join(dir, 'tenants.json');
    const envFile = join(dir, '.env');
    const raw = rawTestConfig({ prefix: h.prefix, wooOrigin: h.woo.origin, consumerKey: h.woo.consumerKey, consumerSecret: h.woo.consumerSecret, baseUrl: h.sandbox.baseUrl });
    const shop1 = tenantsOf(raw)[0];
    shop1.shop = { ...(shop1.shop as Raw), webhookSecret: { env: 'SHOP_SECRET' } };
    writeFileSync(path, JSON.stringify(raw));
    writeFileSync(envFile, `SHOP_SECRET=${WEBHOOK_SECRET}\n`);
    const child = spawn(process.execPath, cliNodeArgs(['connector', 'all', '--config', path, '--env-file', envFile, '--port', '0']), {
      env: { ...process.env, LOG_LEVEL: 'info' },
    });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    try {
      const origin = await eventually('the HTTP side listening', () => /"origin":"(http:\/\/[^"]+)"/.exec(log)?.[1], 60_000);
      await eventually('the workers running', () => log.includes('connector workers running'), 30_000);
      writeFileSync(path, '{ "tenants": [');
      child.kill('SIGHUP');
      await eventually('the refusal logged', () => log.includes('tenants file NOT reloaded'), 20_000);
      writeFileSync(path, JSON.stringify({ ...raw, tenants: [shop1, { ...shop1, id: 'shop2', settings: { language: 'en', goLiveAt: '2020-01-01T00:00:00Z', mapping: { externalIdPrefix: 'shop2-' } } }] }));
      child.kill('SIGHUP');
      await eventually('the reload logged', () => log.includes('tenants file reloaded'), 20_000);
      const answer = await sendWooWebhook({ url: `${origin}/webhooks/woocommerce/shop2`, secret: WEBHOOK_SECRET, topic: 'order.created', payload: h.woo.putOrder(portugueseOrder()), source: `${h.woo.origin}/` });
      expect(answer.status).toBe(202);
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      rmSync(dir, { recursive: true, force: true });
      await h.close();
    }
  }, 120_000);
});
