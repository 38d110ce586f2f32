import { Cluster } from 'ioredis';
import { META } from '../../connector/shop/order-meta';
import { OrderHistory } from '../../connector/history/order-history';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, startHarness, WEBHOOK_SECRET } from './support/harness';
import { describeWithRedisServer, ownRedisCluster, type OwnRedisCluster } from './support/redis-servers';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

describeWithRedisServer('redis-cluster.test.ts', 'the Redis Cluster tests')('a real Redis Cluster (3 masters, started by the test)', () => {
  let cluster: OwnRedisCluster;
  beforeAll(async () => {
    cluster = await ownRedisCluster(3);
  }, 60_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  it('cluster: true with a hash-tag prefix -> readyz 200, orders invoiced once and written back, admin API reads the ledger', async () => {
    const h = await startHarness({ redisUrl: cluster.url, redisCluster: true });
    try {
      expect(h.prefix).toMatch(/^\{mft-[0-9a-f]+\}$/);
      expect((await fetch(`${h.connector?.origin}/readyz`)).status).toBe(200);
      const orders = [portugueseOrder(), portugueseOrder(), portugueseOrder()];
      for (const order of orders) expect((await h.deliver(order)).status).toBe(202);
      for (const order of orders) {
        const id = Number(order.id);
        await eventually(`order ${id} written back`, async () => (await h.connector?.ledger.forOrder('shop1', id))?.invoice?.state === 'written-back', 30_000);
        expect(await h.documentsOf(id)).toHaveLength(1);
        expect(h.woo.meta(id, META.documentNumber)).toEqual(expect.any(String));
      }
      const view = (await (await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${orders[0].id}`, { headers: ADMIN })).json()) as { ledger: Record<string, { state: string }> };
      expect(view.ledger.invoice.state).toBe('written-back');

      // The keys really live in the cluster, all in the slot of the hash tag (one master holds them).
      const client = new Cluster(cluster.nodes.map((n) => ({ host: '127.0.0.1', port: n.port })));
      try {
        const slot = Number(await client.call('cluster', 'keyslot', h.prefix));
        const counts = await Promise.all(client.nodes('master').map(async (node) => Number(await node.call('cluster', 'countkeysinslot', String(slot)))));
        expect(counts).toHaveLength(3);
        expect(counts.filter((count) => count > orders.length)).toHaveLength(1);
        expect(counts.filter((count) => count === 0)).toHaveLength(2);
        // The orders' stories too (each record one script call over keys of the hash tag's slot): a delivery's and the worker's.
        const stories = new OrderHistory(client, h.prefix);
        for (const order of orders) expect((await stories.of('shop1', Number(order.id))).map((e) => e.kind)).toEqual(expect.arrayContaining(['received', 'document']));
      } finally {
        client.disconnect();
      }
    } finally {
      await h.close();
    }
  }, 60_000);

  it('the config does not say cluster -> webhooks 503 and /readyz 503 too, naming the fix', async () => {
    const h = await startHarness({ role: 'serve', redisUrl: cluster.url.split(',')[0], registerWebhooks: false });
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.created', payload: portugueseOrder() })).status);
      // An add touches several keys of different slots: every one is refused, and readyz agrees.
      expect(answers).toEqual([503, 503, 503, 503]);
      const ready = await fetch(`${h.connector?.origin}/readyz`);
      const body = (await ready.json()) as { ok: boolean; error: string };
      expect(ready.status).toBe(503);
      expect(body.error).toContain('redis.cluster: true');
    } finally {
      await h.close();
    }
  }, 30_000);
});
