import { z } from 'zod';
import { FakeShopify } from '../../support/fake-shopify';
import { ShopifyAdminClient, ShopifyApiError, type PaceEvent } from '../../../platforms/shopify/admin-client';
import { readShopifyOrder } from '../../../platforms/shopify/order-query';
import { TAXES_INCLUDED } from './fixtures/orders';

function clientOf(shop: FakeShopify, events: PaceEvent[] = [], maxWaitMs?: number): ShopifyAdminClient {
  return new ShopifyAdminClient({ shopDomain: shop.shopDomain, adminUrl: shop.url, accessToken: shop.accessToken, onPace: (e) => events.push(e), maxWaitMs });
}

const shopName = z.object({ shop: z.object({ name: z.string() }) });

describe('Shopify Admin client: paced by the cost-based limit, never a retry storm', () => {
  it('lists orders back to back through a small bucket without one THROTTLED answer after it learned the cost', async () => {
    // A 100-point bucket restoring 50/s; each listing of 20 orders costs 22 points, actual as requested.
    const shop = new FakeShopify({ maximumAvailable: 100, restoreRate: 50 });
    await shop.start();
    try {
      for (let i = 0; i < 20; i += 1) shop.addOrder({ ...TAXES_INCLUDED, id: `gid://shopify/Order/${100 + i}`, legacyResourceId: String(100 + i), name: `#${2000 + i}` });
      const events: PaceEvent[] = [];
      const client = clientOf(shop, events);
      const listing = z.object({ orders: z.object({ nodes: z.array(z.object({ id: z.string(), name: z.string() })) }) });
      for (let i = 0; i < 10; i += 1) expect((await client.query('{ orders(first: 20) { nodes { id name } } }', {}, listing)).orders.nodes).toHaveLength(20);
      expect(shop.costLog.map((c) => c.requested)).toEqual(Array(10).fill(22));
      expect(shop.costLog.filter((c) => c.throttled)).toEqual([]);
      expect(events.filter((e) => e.kind === 'paced').length).toBeGreaterThanOrEqual(1);
    } finally {
      await shop.close();
    }
  });

  it('reads a whole order for its actual cost: the bucket gets back what the requested cost over-asked', async () => {
    const shop = new FakeShopify();
    await shop.start();
    try {
      shop.addOrder(TAXES_INCLUDED);
      const client = clientOf(shop);
      await readShopifyOrder(client, TAXES_INCLUDED.legacyResourceId as string);
      const [read] = shop.costLog;
      expect(read.requested).toBeGreaterThan(500);
      expect(read.requested).toBeLessThanOrEqual(1000);
      expect(client.throttleStatus()?.currentlyAvailable).toBeGreaterThan(2000 - read.requested);
    } finally {
      await shop.close();
    }
  });

  it('paces concurrent reads of one store (they share the bucket): at most one THROTTLED answer, every read answered', async () => {
    const shop = new FakeShopify({ maximumAvailable: 1000, restoreRate: 2000 });
    await shop.start();
    try {
      shop.addOrder(TAXES_INCLUDED);
      const client = clientOf(shop);
      await readShopifyOrder(client, TAXES_INCLUDED.legacyResourceId as string);
      const reads = await Promise.all(Array.from({ length: 6 }, () => readShopifyOrder(client, TAXES_INCLUDED.legacyResourceId as string)));
      expect(reads.map((o) => o?.name)).toEqual(Array(6).fill('#1001'));
      expect(shop.costLog.filter((c) => c.throttled).length).toBeLessThanOrEqual(1);
    } finally {
      await shop.close();
    }
  });

  it('after a THROTTLED answer waits for the bucket to refill what was asked, then succeeds (one refusal, one retry)', async () => {
    // One point a second: the query (1 point) must wait for the bucket, however slow the machine.
    const shop = new FakeShopify({ maximumAvailable: 1000, restoreRate: 1 });
    await shop.start();
    try {
      shop.drainBucket(0);
      const events: PaceEvent[] = [];
      const answer = await clientOf(shop, events).query('{ shop { name } }', {}, shopName);
      expect(answer.shop.name).toBe('Loja Exemplo');
      expect(shop.costLog.map((c) => c.throttled)).toEqual([true, false]);
      expect(events.map((e) => e.kind)).toEqual(['throttled']);
    } finally {
      await shop.close();
    }
  });

  it('honours Retry-After on a 429', async () => {
    const shop = new FakeShopify();
    await shop.start();
    try {
      shop.overloadNext(2, 0.5);
      const events: PaceEvent[] = [];
      await clientOf(shop, events).query('{ shop { name } }', {}, shopName);
      expect(shop.requestStatuses).toEqual([429, 429, 200]);
      expect(events).toEqual([
        { kind: 'retry-after', waitMs: 500 },
        { kind: 'retry-after', waitMs: 500 },
      ]);
    } finally {
      await shop.close();
    }
  });

  it('gives up with kind "throttled" when waiting would pass its budget (the job retries later)', async () => {
    const shop = new FakeShopify();
    await shop.start();
    try {
      shop.overloadNext(5, 30);
      await expect(clientOf(shop, [], 1000).query('{ shop { name } }', {}, shopName)).rejects.toMatchObject({ kind: 'throttled' });
      expect(shop.requestStatuses).toEqual([429]);
    } finally {
      await shop.close();
    }
  });

  it('says which scope a refused query needs, and refuses a revoked token as an authentication problem', async () => {
    const shop = new FakeShopify({ scopes: ['read_products'] });
    await shop.start();
    try {
      const denied = await readShopifyOrder(clientOf(shop), '1').catch((e: unknown) => e);
      expect(denied).toBeInstanceOf(ShopifyApiError);
      expect(denied).toMatchObject({ kind: 'access-denied', details: { requiredAccess: '`read_orders` access scope.' } });
      const client = clientOf(shop);
      shop.accessToken = 'shpat_rotated';
      await expect(client.query('{ shop { name } }', {}, shopName)).rejects.toMatchObject({ kind: 'authentication', details: { status: 401 } });
    } finally {
      await shop.close();
    }
  });
});
