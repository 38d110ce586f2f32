import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, startHarness, WEBHOOK_SECRET } from './support/harness';
import { describeWithRedisServer, ownRedisServer, selfSignedCertificate, type OwnRedisServer } from './support/redis-servers';

describeWithRedisServer('redis-tls.test.ts', 'the TLS Redis tests')('managed Redis over TLS (rediss://, a redis-server with --tls-port started by the test)', () => {
  let dir: string;
  let certificate: { certFile: string; keyFile: string } | null;
  let server: OwnRedisServer | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mf-tls-'));
    certificate = selfSignedCertificate(dir);
    if (certificate) server = await ownRedisServer([], certificate);
    else process.stderr.write('redis-tls.test.ts: openssl missing, no certificate to serve TLS with\n');
  });
  afterAll(async () => {
    await server?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('rediss:// with the private CA -> readyz 200, an order invoiced and written back over TLS', async () => {
    if (!server || !certificate) return;
    const h = await startHarness({ redisUrl: `rediss://127.0.0.1:${server.port}`, redis: { tls: { caFile: certificate.certFile } } });
    try {
      expect((await fetch(`${h.connector?.origin}/readyz`)).status).toBe(200);
      const order = portugueseOrder();
      expect((await h.deliver(order)).status).toBe(202);
      await eventually('written back', async () => (await h.connector?.ledger.forOrder('shop1', Number(order.id)))?.invoice?.state === 'written-back');
      expect(h.woo.meta(Number(order.id), META.documentNumber)).toEqual(expect.any(String));
    } finally {
      await h.close();
    }
  }, 30_000);

  it('rediss:// without trusting the certificate -> the certificate is checked: readyz 503 and webhooks 503', async () => {
    if (!server) return;
    const h = await startHarness({ role: 'serve', redisUrl: `rediss://127.0.0.1:${server.port}`, registerWebhooks: false, redis: { enqueueTimeoutMs: 1_000 } });
    try {
      expect((await fetch(`${h.connector?.origin}/readyz`)).status).toBe(503);
      const answer = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.created', payload: portugueseOrder() });
      expect(answer.status).toBe(503);
    } finally {
      await h.close();
    }
  }, 30_000);
});
