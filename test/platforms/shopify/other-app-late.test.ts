import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { parseConfig, type ConnectorConfig } from '../../../connector/config/load-config';
import { documentJobId } from '../../../connector/core/jobs';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import { listNotInvoiced } from '../../../connector/ingest/not-invoiced';
import { startConnector, type RunningConnector } from '../../../connector/main/runtime';
import { platformOf } from '../../../platforms/registry';
import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { startTestSandbox, type RunningSandbox } from '../../support/sandbox';
import { eventually, quietLogger, rawTestConfig, REDIS_URL } from '../../connector/support/harness';
import { TAXES_INCLUDED } from './fixtures/orders';

/**
 * A Shopify store with Moloni's app beside the connector: both answer the same orders/paid. The
 * delivery is planned with no mark on the order; Moloni tags it before the worker creates anything.
 * The worker's read under the order's lock carries the tags (ShopPlatform.attributesOf): no
 * document on the sandbox, the order on the not-invoiced list with the mark and one note.
 */

const TENANT = 'loja';
const ID = '7200000000001';

describe("another app's tag written between the planning and the worker's create (Shopify)", () => {
  const store = new FakeShopify({ retryDelayMs: () => 5 });
  const redis = new IORedis(REDIS_URL);
  const prefix = `mft-${randomBytes(6).toString('hex')}`;
  let sandbox: RunningSandbox;
  let config: ConnectorConfig;
  const running: RunningConnector[] = [];

  beforeAll(async () => {
    await store.start();
    sandbox = await startTestSandbox();
    const raw = rawTestConfig({ prefix, wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: sandbox.baseUrl });
    const file = (raw.tenants as JsonObject[])[0];
    delete file.shop;
    Object.assign(file, {
      id: TENANT,
      platform: 'shopify',
      shopify: { shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecret: store.clientSecret },
      settings: { language: 'en', goLiveAt: '2020-01-01T00:00:00Z', otherSystemMetaKeys: ['Moloni=tag:moloni-faturado'], mapping: { externalIdPrefix: 'shopify-' } },
    });
    config = parseConfig(raw, 'tenants.yaml', {});
    // Serve only: the delivery's job waits in the queue until the test starts a worker.
    running.push(await startConnector(config, { role: 'serve', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) }));
    await platformOf(config.tenants[0]).createShop(config.tenants[0]).ensureWebhooks?.(running[0].origin as string, TENANT);
  });
  afterAll(async () => {
    for (const connector of running) await connector.close();
    await store.close();
    await sandbox.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('nothing issued; listed as not invoiced with the tag; one note on the order', async () => {
    const serve = running[0];
    store.addOrder({ ...structuredClone(TAXES_INCLUDED), id: `gid://shopify/Order/${ID}`, legacyResourceId: ID, name: '#7201', tags: ['oferta'] });
    await eventually('the invoice job queued', () => serve.queue.getJob(documentJobId(TENANT, Number(ID), 'invoice')));

    // Moloni's app invoiced the order and tagged it (its orderUpdate; the connector's worker has not run yet).
    const order = store.orders.get(`gid://shopify/Order/${ID}`) as JsonObject;
    order.tags = ['oferta', 'Moloni-Faturado'];
    order.updatedAt = new Date(Date.parse(String(order.updatedAt)) + 1_000).toISOString();

    const worker = await startConnector(config, { role: 'work', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    running.push(worker);
    const listed = await eventually('the order on the not-invoiced list, noted', async () => (await listNotInvoiced(redis, prefix, TENANT)).find((entry) => entry.orderId === Number(ID) && entry.noted));
    expect(listed.reason).toEqual({ code: 'other-system', system: 'Moloni', key: 'tag:moloni-faturado', value: 'Moloni-Faturado' });
    await eventually('the job finished', async () => (await worker.queue.getJob(documentJobId(TENANT, Number(ID), 'invoice'))) === undefined);

    expect(sandbox.store.documents().filter((doc) => (doc.document.ExternalId ?? '').startsWith(`shopify-${ID}`))).toHaveLength(0);
    const note = String((store.orders.get(`gid://shopify/Order/${ID}`) as JsonObject).note);
    expect(note.split('Moloni: tag:moloni-faturado = Moloni-Faturado')).toHaveLength(2);
    expect(await worker.ledger.get({ tenant: TENANT, orderId: Number(ID), purpose: 'invoice' })).toBeNull();
  });
});
