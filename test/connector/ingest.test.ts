import { signWooBody, sendWooPing, sendWooWebhook, wpJsonEncode } from '../support/fake-woocommerce';
import { portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';

async function post(url: string, body: string, headers: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function signed(body: string, topic = 'order.created') {
  return { 'x-wc-webhook-topic': topic, 'x-wc-webhook-signature': signWooBody(body, WEBHOOK_SECRET) };
}

describe('every bad input is refused with the right status and counted by reason, never a crash', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ registerWebhooks: false });
  });
  afterAll(async () => h.close());

  const order = portugueseOrder();
  const body = wpJsonEncode(order);

  it.each([
    ['missing signature', () => ({ body, headers: { 'x-wc-webhook-topic': 'order.created' } }), 401, 'missing-signature'],
    ['signature with another secret', () => ({ body, headers: { 'x-wc-webhook-topic': 'order.created', 'x-wc-webhook-signature': signWooBody(body, 'other') } }), 401, 'bad-signature'],
    ['body re-serialised after signing (escapes differ)', () => ({ body: JSON.stringify(order), headers: signed(body) }), 401, 'bad-signature'],
    ['signature that is not base64', () => ({ body, headers: { 'x-wc-webhook-topic': 'order.created', 'x-wc-webhook-signature': 'not base64 !!' } }), 401, 'bad-signature'],
    ['malformed JSON, correctly signed', () => ({ body: '{"id": 1,', headers: signed('{"id": 1,') }), 400, 'malformed-json'],
    ['JSON that is not an order', () => ({ body: '{"id":"x","status":5}', headers: signed('{"id":"x","status":5}') }), 400, 'invalid-payload'],
    ['an order with a money field as a number', () => {
      const bad = wpJsonEncode({ ...order, total: 12.5 });
      return { body: bad, headers: signed(bad) };
    }, 400, 'invalid-payload'],
  ])('%s -> %s %s', async (_name, build, status, reason) => {
    const { body: payload, headers } = build();
    const answer = await post(h.webhookUrl, payload, headers);
    expect(answer.status).toBe(status);
    expect(answer.body.error).toBe(reason);
    const metrics = await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_webhooks_refused_total');
    expect(metrics).toContain(`reason="${reason}"`);
  });

  it('unknown tenant -> 404', async () => {
    const answer = await post(h.webhookUrl.replace('/shop1', '/nobody'), body, signed(body));
    expect(answer).toEqual({ status: 404, body: { error: 'unknown-tenant' } });
  });

  it('a body over the limit -> 413', async () => {
    const big = wpJsonEncode({ ...order, customer_note: 'x'.repeat(h.config.server.maxBodyBytes) });
    const answer = await post(h.webhookUrl, big, signed(big));
    expect(answer.status).toBe(413);
    expect(answer.body.error).toBe('too-large');
  });

  // Plain URLs take the plain-Node fast path; other spellings Express matches go through the
  // Express route. Both must answer alike.
  it.each([
    ['the plain URL (fast path)', (url: string) => url],
    ['a trailing slash (fast path)', (url: string) => `${url}/`],
    ['a query string (fast path)', (url: string) => `${url}?source=test`],
    ['another letter case (Express route)', (url: string) => url.replace('/webhooks/woocommerce/', '/Webhooks/WooCommerce/')],
    ['a percent-encoded tenant (Express route)', (url: string) => url.replace('/shop1', '/%73hop1')],
  ])('%s: unsigned -> 401, unknown tenant -> 404, bad JSON -> 400', async (_name, spell) => {
    expect((await post(spell(h.webhookUrl), body, { 'x-wc-webhook-topic': 'order.created' })).body.error).toBe('missing-signature');
    expect((await post(spell(h.webhookUrl.replace('/shop1', '/nobody')), body, signed(body))).status).toBe(404);
    const answer = await post(spell(h.webhookUrl), '{"id": 1,', signed('{"id": 1,'));
    expect(answer).toMatchObject({ status: 400, body: { error: 'malformed-json' } });
  });

  it('the creation ping (webhook_id=N, unsigned) -> exactly 200', async () => {
    expect((await sendWooPing(h.webhookUrl, 42)).status).toBe(200);
  });

  it.each([
    ['order.deleted', 'order-deleted'],
    // Product topics make the cached product forgotten (product-changes.test.ts); a coupon is nothing to the connector.
    ['coupon.updated', 'topic'],
  ])('a signed %s is acknowledged and ignored (%s)', async (topic, reason) => {
    const answer = await post(h.webhookUrl, body, signed(body, topic));
    expect(answer).toEqual({ status: 202, body: { ignored: reason } });
  });

  it('the process still serves after all of the above', async () => {
    const ok = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.created', payload: portugueseOrder() });
    expect(ok.status).toBe(202);
    expect((await fetch(`${h.connector?.origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${h.connector?.origin}/readyz`)).status).toBe(200);
  });
});

describe('Redis unavailable -> 503 quickly, so WooCommerce counts a failure and the sweep catches up', () => {
  let h: Harness;
  beforeAll(async () => {
    // Nothing listens on port 1: the connector starts, serves, and refuses to pretend it stored anything.
    h = await startHarness({ role: 'serve', redisUrl: 'redis://127.0.0.1:1', registerWebhooks: false, redis: { enqueueTimeoutMs: 1_000 } });
  });
  afterAll(async () => h.close());

  it('a valid signed order -> 503 redis-unavailable; readyz 503; healthz 200; the ping still 200', async () => {
    const answer = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.created', payload: portugueseOrder() });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body).error).toBe('redis-unavailable');
    expect((await fetch(`${h.connector?.origin}/readyz`)).status).toBe(503);
    expect((await fetch(`${h.connector?.origin}/healthz`)).status).toBe(200);
    expect((await sendWooPing(h.webhookUrl, 7)).status).toBe(200);
  });
});

describe('admin routes need basic auth', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ registerWebhooks: false });
  });
  afterAll(async () => h.close());

  it.each([
    ['GET', '/admin/api/failed'],
    ['GET', '/admin/queues'],
    ['POST', '/admin/api/sweep'],
    ['GET', '/admin/api/orders/shop1/1'],
  ])('%s %s -> 401 without, 2xx with credentials', async (method, path) => {
    const url = `${h.connector?.origin}${path}`;
    expect((await fetch(url, { method })).status).toBe(401);
    const wrong = await fetch(url, { method, headers: { authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}` } });
    expect(wrong.status).toBe(401);
    const right = await fetch(url, { method, headers: { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` } });
    expect(right.status).toBeLessThan(300);
  });

  it('/metrics exposes the counters and the queue depth gauge', async () => {
    const text = await (await fetch(`${h.connector?.origin}/metrics`)).text();
    for (const name of ['magnifinance_webhooks_received_total', 'magnifinance_webhooks_refused_total', 'magnifinance_documents_issued_total', 'magnifinance_order_to_number_seconds', 'magnifinance_queue_jobs']) {
      expect(text).toContain(name);
    }
    expect(text).toMatch(/magnifinance_queue_jobs\{queue="documents",state="waiting"\} \d+/);
  });
});
