import { parseConfig, ConfigError } from '../../connector/config/load-config';
import type { LedgerEntry } from '../../connector/core/ledger';
import { PDF_VISITS_PER_MINUTE } from '../../connector/pdf/pdf-route';
import { META } from '../../connector/shop/order-meta';
import { eventually, portugueseOrder, rawTestConfig, startHarness, type Harness } from './support/harness';
import { describeWithRedisServer, ownRedisServer, type OwnRedisServer } from './support/redis-servers';

const AUTH = `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`;
const JSON_ADMIN = { authorization: AUTH, 'content-type': 'application/json' };

describe('bad requests get a 4xx with the reason, never a 500', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it.each([
    ['an admin JSON body over 64 kB', 413, '/admin/api/sweep', JSON_ADMIN, JSON.stringify({ tenant: 'x'.repeat(70_000) }), 'larger than'],
    ['an admin body that is not JSON', 400, '/admin/api/sweep', JSON_ADMIN, '{"tenant":', 'not valid JSON'],
    ['a console form over 16 kB', 413, '/console/shop1/orders/5/retry', { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' }, `purpose=invoice&csrf=${'x'.repeat(20_000)}`, 'larger than'],
  ])('%s -> %i', async (_what, status, path, headers, body, reason) => {
    const answer = await fetch(`${h.connector?.origin}${path}`, { method: 'POST', headers, body });
    expect(answer.status).toBe(status);
    expect(((await answer.json()) as { error: string }).error).toContain(reason);
  });

  it.each([
    ['GET', '/admin/api/orders/shop1/1e0'],
    ['GET', '/admin/api/orders/shop1/0x10'],
    ['GET', '/admin/api/orders/shop1/010'],
    ['POST', '/admin/api/orders/shop1/1e3/retry'],
    ['POST', '/console/shop1/orders/1e0/retry'],
    ['GET', '/documents/shop1/1e0/pdf?exp=1&sig=x'],
  ])('%s %s: a number written otherwise than in digits is not an id -> 404', async (method, path) => {
    const answer = await fetch(`${h.connector?.origin}${path}`, { method, headers: method === 'POST' && path.startsWith('/console') ? { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' } : { authorization: AUTH }, ...(method === 'POST' && path.startsWith('/console') ? { body: 'purpose=invoice&csrf=x' } : {}) });
    expect(answer.status).toBe(404);
  });
});

describe('PDF links: visits are cached and limited, the lifetime is a setting (default a year)', () => {
  it('the same link opened again reuses the DownloadUrl (one Get Document); past the per-client limit a minute answers 429', async () => {
    const h = await startHarness();
    try {
      const order = portugueseOrder();
      expect((await h.deliver(order)).status).toBe(202);
      const link = new URL(await eventually('the pdf link', () => h.woo.meta(Number(order.id), META.pdfUrl) as string | undefined));
      const visit = () => fetch(`${h.connector?.origin}${link.pathname}${link.search}`, { redirect: 'manual' });
      const first = await visit();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await visit();
      expect(first.status).toBe(302);
      // The sandbox signs a fresh DownloadUrl on every Get Document: the same Location means no second call.
      expect(second.headers.get('location')).toBe(first.headers.get('location'));
      const statuses: number[] = [];
      for (let i = 0; i < 2 * PDF_VISITS_PER_MINUTE; i++) statuses.push((await visit()).status);
      expect(statuses).toContain(429);
    } finally {
      await h.close();
    }
  });

  it.each([
    [undefined, 365],
    [30, 30],
  ])('pdfLinkTtlDays %p -> links live %i days; more than 10 years is refused', (ttl, days) => {
    const raw = rawTestConfig({ prefix: 'x', wooOrigin: 'http://127.0.0.1:1', consumerKey: 'ck', consumerSecret: 'cs', baseUrl: 'http://127.0.0.1:1' }) as { server: Record<string, unknown> };
    if (ttl !== undefined) raw.server.pdfLinkTtlDays = ttl;
    expect(parseConfig(raw, 'test', {}).server.pdfLinkTtlDays).toBe(days);
    raw.server.pdfLinkTtlDays = 4_000;
    expect(() => parseConfig(raw, 'test', {})).toThrow(ConfigError);
  });
});

describe('an order deleted on the shop after its invoice was issued', () => {
  it('the right advice (a credit note if the sale did not happen), one document, and an entry a person can dismiss', async () => {
    const h = await startHarness({ pipeline: { finalizeDelayMs: 1_500, minFinalizeDelayMs: 1_500 } });
    try {
      const order = portugueseOrder();
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBe(202);
      const created = await eventually('closed', async () => {
        const entry = await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' });
        return entry?.state === 'created' ? entry : undefined;
      });
      h.woo.deleteOrder(id);
      const attention = await eventually('on the attention list', async () => {
        const list = (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: { authorization: AUTH } })).json()) as { orderId: number; ledger: LedgerEntry }[];
        return list.find((item) => item.orderId === id);
      }, 20_000);
      const numbered = await h.documentsOf(id);
      expect(numbered).toHaveLength(1);
      expect(attention.ledger.detail).toContain(`deleted from the shop after its invoice ${numbered[0].number ?? ''}`);
      expect(attention.ledger.action).toContain(`credit note for ${numbered[0].number ?? ''}`);
      expect(attention.ledger.documentId).toBe(created.documentId);
      // The console offers "Mark as handled", in Portuguese too.
      const page = await (await fetch(`${h.connector?.origin}/console/shop1?lang=pt`, { headers: { authorization: AUTH } })).text();
      expect(page).toContain('foi apagada da loja depois de emitida');
      expect(page).toContain(`action="/console/shop1/orders/${id}/dismiss"`);
      const dismissed = await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${id}/dismiss`, { method: 'POST', headers: JSON_ADMIN, body: JSON.stringify({ purpose: 'invoice', reason: 'credit note NC A/1 issued in the back-office' }) });
      expect(dismissed.status).toBe(200);
      const after = (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: { authorization: AUTH } })).json()) as { orderId: number }[];
      expect(after.map((item) => item.orderId)).not.toContain(id);
    } finally {
      await h.close();
    }
  }, 40_000);
});

describeWithRedisServer('refusals.test.ts', 'the Redis outage test')('Redis away: the admin API and the console answer 503 with the reason', () => {
  let redis: OwnRedisServer;
  let h: Harness;
  beforeAll(async () => {
    redis = await ownRedisServer();
    h = await startHarness({ role: 'serve', redisUrl: `redis://127.0.0.1:${redis.port}`, registerWebhooks: false });
  });
  afterAll(async () => {
    await h.close().catch(() => undefined);
    await redis.destroy();
  });

  it.each([['/admin/api/attention'], ['/console/shop1'], ['/console']])('GET %s -> 503', async (path) => {
    if (redis.process?.exitCode === null) await redis.stop('nosave');
    const answer = await fetch(`${h.connector?.origin}${path}`, { headers: { authorization: AUTH, 'accept-language': 'en' } });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    // The console is read by people: a page that says what is wrong (console-redis-down.test.ts); the API answers JSON.
    if (path.startsWith('/console')) expect(await answer.text()).toContain("The connector&#39;s Redis does not answer");
    else expect(((await answer.json()) as { error: string }).error).toContain('Redis is not answering');
  });
});
