import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { DELIVERY_RETRIES, FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { verifyShopifyWebhook } from '../../../platforms/shopify/webhook-signature';
import { PENDING_TRANSFER, TAXES_INCLUDED } from './fixtures/orders';

/**
 * The fake store behaves like Shopify where the connector depends on it: these tests pin that
 * behaviour (auth, validation, scopes, cost and throttling, search, metafields, deliveries).
 */

async function graphql(shop: FakeShopify, query: string, variables: Record<string, unknown> = {}, token = shop.accessToken): Promise<{ status: number; body: JsonObject; headers: Record<string, unknown> }> {
  const answer = await request(shop.graphqlUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
    body: JSON.stringify({ query, variables }),
  });
  return { status: answer.statusCode, body: (await answer.body.json()) as JsonObject, headers: answer.headers };
}

interface Received {
  headers: IncomingMessage['headers'];
  body: Buffer;
}

async function receiver(statusOf: (n: number) => number): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = statusOf(received.length);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/shopify/loja`, received, server };
}

async function subscribe(shop: FakeShopify, topic: string, uri: string): Promise<string> {
  const { body } = await graphql(
    shop,
    `mutation($topic: WebhookSubscriptionTopic!, $sub: WebhookSubscriptionInput!) { webhookSubscriptionCreate(topic: $topic, webhookSubscription: $sub) { webhookSubscription { id } userErrors { message } } }`,
    { topic, sub: { uri, format: 'JSON' } },
  );
  return String((((body.data as JsonObject).webhookSubscriptionCreate as JsonObject).webhookSubscription as JsonObject).id);
}

describe('fake Shopify: access tokens like the Admin API', () => {
  const shop = new FakeShopify();
  beforeAll(() => shop.start());
  afterAll(() => shop.close());

  it('answers 401 with Shopify\'s error text to a wrong or missing token', async () => {
    const answer = await graphql(shop, '{ shop { name } }', {}, 'shpat_wrong');
    expect(answer.status).toBe(401);
    expect(answer.body.errors).toBe('[API] Invalid API key or access token (unrecognized login or wrong password)');
  });

  it('serves the asked version and names it in X-Shopify-API-Version; an unknown one gets the oldest supported', async () => {
    const known = await request(shop.graphqlUrl('2026-01'), { method: 'POST', headers: { 'x-shopify-access-token': shop.accessToken, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ shop { name } }' }) });
    await known.body.dump();
    expect(known.headers['x-shopify-api-version']).toBe('2026-01');
    const unknown = await request(shop.graphqlUrl('2019-04'), { method: 'POST', headers: { 'x-shopify-access-token': shop.accessToken, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ shop { name } }' }) });
    await unknown.body.dump();
    expect(unknown.headers['x-shopify-api-version']).toBe('2025-10');
  });

  it('refuses a field the schema does not have, and a connection without first or last', async () => {
    const unknown = await graphql(shop, '{ shop { name nifNumber } }');
    expect((unknown.body.errors as JsonObject[])[0].message).toBe('Cannot query field "nifNumber" on type "Shop".');
    const unsized = await graphql(shop, '{ orders { nodes { id } } }');
    expect(JSON.stringify(unsized.body.errors)).toContain('you must provide one of first or last');
  });

  it('denies orders to a token without read_orders, naming the scope', async () => {
    shop.scopes = [];
    try {
      const answer = await graphql(shop, '{ orders(first: 1) { nodes { id } } }');
      const error = (answer.body.errors as JsonObject[])[0];
      expect((error.extensions as JsonObject).code).toBe('ACCESS_DENIED');
      expect((error.extensions as JsonObject).requiredAccess).toBe('`read_orders` access scope.');
    } finally {
      shop.scopes = ['read_orders', 'write_orders'];
    }
  });
});

describe('fake Shopify: the cost-based rate limit', () => {
  const shop = new FakeShopify({ maximumAvailable: 100, restoreRate: 50 });
  beforeAll(() => shop.start());
  afterAll(() => shop.close());

  it('reports the cost and the bucket in extensions.cost', async () => {
    const answer = await graphql(shop, '{ orders(first: 10) { nodes { id totalPriceSet { shopMoney { amount } } } } }');
    const cost = (answer.body.extensions as JsonObject).cost as JsonObject;
    // 2 for the connection + 10 x (order 1 + bag 1 + money 1).
    expect(cost.requestedQueryCost).toBe(32);
    expect(cost.throttleStatus).toEqual({ maximumAvailable: 100, currentlyAvailable: expect.any(Number), restoreRate: 50 });
  });

  it('answers THROTTLED with no data and a null actual cost when the bucket cannot pay', async () => {
    shop.drainBucket(0);
    const answer = await graphql(shop, '{ orders(first: 10) { nodes { id } } }');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toBeUndefined();
    expect(((answer.body.errors as JsonObject[])[0].extensions as JsonObject).code).toBe('THROTTLED');
    expect((((answer.body.extensions as JsonObject).cost as JsonObject).actualQueryCost)).toBeNull();
  });

  it('refuses a single query over 1,000 points', async () => {
    const answer = await graphql(shop, '{ orders(first: 250) { nodes { id lineItems(first: 250) { nodes { id } } } } }');
    expect(((answer.body.errors as JsonObject[])[0].extensions as JsonObject).code).toBe('MAX_COST_EXCEEDED');
  });

  it('answers 429 with Retry-After when overloaded', async () => {
    shop.overloadNext(1, 2);
    const answer = await graphql(shop, '{ shop { name } }');
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('2.0');
  });
});

describe('fake Shopify: orders, search and write-back', () => {
  const shop = new FakeShopify();
  beforeAll(() => shop.start());
  afterAll(() => shop.close());

  it('lists orders changed after an instant, oldest change first, page by page', async () => {
    const first = shop.addOrder(TAXES_INCLUDED);
    const cut = new Date(Date.parse(String(first.updatedAt)) + 1).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    shop.addOrder(PENDING_TRANSFER);
    // Orders changed in the same instant come in id order (the cursor is the sort key and the id).
    shop.addOrder({ ...PENDING_TRANSFER, id: 'gid://shopify/Order/5962412737999', legacyResourceId: '5962412737999', name: '#1006' });
    const query = `query($q: String, $after: String) { orders(first: 1, after: $after, query: $q, sortKey: UPDATED_AT) { nodes { name } pageInfo { hasNextPage endCursor } } }`;
    const names: string[] = [];
    let after: string | null = null;
    for (;;) {
      const { body } = await graphql(shop, query, { q: `updated_at:>'${cut}'`, after });
      const orders = (body.data as JsonObject).orders as JsonObject;
      names.push(...(orders.nodes as JsonObject[]).map((n) => String(n.name)));
      const pageInfo = orders.pageInfo as JsonObject;
      if (!pageInfo.hasNextPage) break;
      after = String(pageInfo.endCursor);
    }
    expect(names).toEqual(['#1005', '#1006']);
  });

  it('metafieldsSet writes in the app\'s reserved namespace and reads back through $app; a bad type writes nothing', async () => {
    const set = `mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { namespace key value } userErrors { field message code } } }`;
    const ok = await graphql(shop, set, { m: [{ ownerId: TAXES_INCLUDED.id, namespace: '$app', key: 'invoice_number', type: 'single_line_text_field', value: 'FR 2026/12' }] });
    const written = ((ok.body.data as JsonObject).metafieldsSet as JsonObject).metafields as JsonObject[];
    expect(written[0].namespace).toBe(`app--${shop.appId}`);
    const bad = await graphql(shop, set, {
      m: [
        { ownerId: TAXES_INCLUDED.id, namespace: '$app', key: 'pdf', type: 'url', value: 'not a url' },
        { ownerId: TAXES_INCLUDED.id, namespace: '$app', key: 'other', type: 'single_line_text_field', value: 'x' },
      ],
    });
    expect((((bad.body.data as JsonObject).metafieldsSet as JsonObject).userErrors as JsonObject[])[0].code).toBe('INVALID_VALUE');
    const read = await graphql(shop, `query($id: ID!) { order(id: $id) { metafields(first: 5, namespace: "$app") { nodes { key value } } } }`, { id: TAXES_INCLUDED.id });
    expect((((read.body.data as JsonObject).order as JsonObject).metafields as JsonObject).nodes).toEqual([{ key: 'invoice_number', value: 'FR 2026/12' }]);
  });

  it('metafieldsSet with compareDigest is a compare-and-set (shopify.dev, since 2024-07): null creates only, a digest read changes only that value, a mismatch writes nothing of the call (STALE_OBJECT)', async () => {
    const set = `mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { key value compareDigest } userErrors { field message code elementIndex } } }`;
    const input = (key: string, value: string, extra: Record<string, unknown> = {}): JsonObject => ({ ownerId: TAXES_INCLUDED.id, namespace: '$app', key, type: 'single_line_text_field', value, ...extra }) as JsonObject;
    const answerOf = (body: JsonObject): JsonObject => (body.data as JsonObject).metafieldsSet as JsonObject;
    const stored = async (key: string): Promise<JsonObject | undefined> => {
      const read = await graphql(shop, `query($id: ID!) { order(id: $id) { metafields(first: 20, namespace: "$app") { nodes { key value compareDigest } } } }`, { id: TAXES_INCLUDED.id });
      return ((((read.body.data as JsonObject).order as JsonObject).metafields as JsonObject).nodes as JsonObject[]).find((m) => m.key === key);
    };

    const created = answerOf((await graphql(shop, set, { m: [input('claim', 'run-a', { compareDigest: null })] })).body);
    expect(created.userErrors).toEqual([]);
    const first = await stored('claim');
    expect(first).toMatchObject({ value: 'run-a', compareDigest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((created.metafields as JsonObject[])[0].compareDigest).toBe(first?.compareDigest);

    // null again: it exists now; nothing of the call is written, the other input included (atomic).
    const again = answerOf((await graphql(shop, set, { m: [input('other', 'x'), input('claim', 'run-b', { compareDigest: null })] })).body);
    expect(again.userErrors).toEqual([{ field: ['metafields', '1', 'compareDigest'], message: 'The metafield has been modified since it was loaded.', code: 'STALE_OBJECT', elementIndex: 1 }]);
    expect(await stored('claim')).toMatchObject({ value: 'run-a' });
    expect(await stored('other')).toBeUndefined();

    // The digest read: written, and the old digest no longer matches.
    expect(answerOf((await graphql(shop, set, { m: [input('claim', 'run-a+draft', { compareDigest: first?.compareDigest })] })).body).userErrors).toEqual([]);
    const stale = answerOf((await graphql(shop, set, { m: [input('claim', 'run-b', { compareDigest: first?.compareDigest })] })).body);
    expect((stale.userErrors as JsonObject[]).map((e) => e.code)).toEqual(['STALE_OBJECT']);
    expect(await stored('claim')).toMatchObject({ value: 'run-a+draft' });

    // A string that is no digest; and no compareDigest at all, which writes whatever is stored.
    expect((answerOf((await graphql(shop, set, { m: [input('claim', 'x', { compareDigest: 'not-a-digest' })] })).body).userErrors as JsonObject[]).map((e) => e.code)).toEqual(['INVALID_COMPARE_DIGEST']);
    expect(answerOf((await graphql(shop, set, { m: [input('claim', 'blind')] })).body).userErrors).toEqual([]);
    expect(await stored('claim')).toMatchObject({ value: 'blind' });
  });
});

describe('fake Shopify: webhook deliveries', () => {
  it('signs the exact body with the client secret and sends Shopify\'s headers', async () => {
    const shop = new FakeShopify();
    await shop.start();
    const hook = await receiver(() => 200);
    try {
      await subscribe(shop, 'ORDERS_PAID', hook.url);
      shop.addOrder(TAXES_INCLUDED);
      await shop.settled();
      expect(hook.received).toHaveLength(1);
      const { headers, body } = hook.received[0];
      expect(headers['x-shopify-topic']).toBe('orders/paid');
      expect(headers['x-shopify-shop-domain']).toBe(shop.shopDomain);
      expect(headers['x-shopify-api-version']).toBe('2026-10');
      expect(headers['x-shopify-event-id']).toEqual(expect.any(String));
      expect(verifyShopifyWebhook(body, headers, [shop.clientSecret]).valid).toBe(true);
      expect(JSON.parse(body.toString('utf8'))).toMatchObject({ id: 5962412736508, admin_graphql_api_id: TAXES_INCLUDED.id, financial_status: 'paid', total_price: '109.72' });
    } finally {
      hook.server.close();
      await shop.close();
    }
  });

  it('retries a failed delivery with the same ids, and deletes the subscription after 8 failed retries', async () => {
    const shop = new FakeShopify({ retryDelayMs: () => 1 });
    await shop.start();
    const hook = await receiver(() => 500);
    try {
      const id = await subscribe(shop, 'ORDERS_PAID', hook.url);
      shop.addOrder(TAXES_INCLUDED);
      await shop.settled();
      expect(hook.received).toHaveLength(1 + DELIVERY_RETRIES);
      expect(new Set(hook.received.map((r) => r.headers['x-shopify-event-id'])).size).toBe(1);
      expect(new Set(hook.received.map((r) => r.headers['x-shopify-webhook-id'])).size).toBe(1);
      expect(shop.subscriptions.has(id)).toBe(false);
      expect(shop.deliveries[0].state).toBe('failed');
    } finally {
      hook.server.close();
      await shop.close();
    }
  });

  it('keeps a subscription whose delivery succeeds on a retry', async () => {
    const shop = new FakeShopify({ retryDelayMs: () => 1 });
    await shop.start();
    const hook = await receiver((n) => (n < 3 ? 503 : 200));
    try {
      const id = await subscribe(shop, 'ORDERS_PAID', hook.url);
      shop.addOrder(TAXES_INCLUDED);
      await shop.settled();
      expect(hook.received).toHaveLength(3);
      expect(shop.subscriptions.has(id)).toBe(true);
      expect(shop.deliveries[0].state).toBe('delivered');
    } finally {
      hook.server.close();
      await shop.close();
    }
  });
});
