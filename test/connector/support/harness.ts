import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import pino from 'pino';
import { parseConfig, type ConnectorConfig } from '../../../connector/config/load-config';
import { startConnector, type ConnectorRole, type RunningConnector } from '../../../connector/main/runtime';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import { buildOrder, buildRefund, type Cart } from '../../law/support/woo-cart';
import { sendWooWebhook, startFakeWooCommerce, type FakeWebhook, type FakeWooOptions, type JsonObject, type RunningFakeWoo } from '../../support/fake-woocommerce';
import { startTestSandbox, TEST_ACCOUNT, type RunningSandbox } from '../../support/sandbox';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const WEBHOOK_SECRET = 'wh-secret-àé/1';
/** The tests' go-live cut-off: before every test order. Tests of the cut-off itself override it. */
export const TEST_GO_LIVE_AT = '2020-01-01T00:00:00Z';
/** Above the test sandbox's finalize delay (50 ms): the connector never asks before the service is ready. */
export const CONNECTOR_FINALIZE_DELAY_MS = 150;

export interface HarnessOptions {
  settings?: Record<string, unknown>;
  pipeline?: Record<string, unknown>;
  woo?: FakeWooOptions;
  sandbox?: Parameters<typeof startTestSandbox>[0];
  role?: ConnectorRole | 'none';
  redisUrl?: string;
  /** redisUrl is a Redis Cluster the test owns (and removes): hash-tag prefix, no key clean-up here. */
  redisCluster?: boolean;
  /** More fields of the tenant (e.g. alerts). */
  tenant?: Record<string, unknown>;
  /** More fields of the redis block (e.g. tls). */
  redis?: Record<string, unknown>;
  /** Environment the config's secret references resolve from. */
  env?: NodeJS.ProcessEnv;
  /** Register order.created/updated webhooks on the fake shop pointing at the connector (echo on). */
  registerWebhooks?: boolean;
  /** More fields of the sweep block (e.g. everyMinutes, watchSeconds). */
  sweep?: Record<string, unknown>;
  /** More fields of the server block (e.g. trustProxy). */
  server?: Record<string, unknown>;
  /** The connector's logger (silent unless TEST_LOG_LEVEL says otherwise). */
  logger?: pino.Logger;
}

export interface SandboxDocument {
  id: number;
  kind: string;
  status: string;
  number?: string;
  sendTo?: string;
  document: { ExternalId?: string; Type: string; DocumentReference?: string; [key: string]: unknown };
  /** The buyer the document names, as the sandbox keeps it. */
  client?: { NIF?: string; CountryCode?: string; [key: string]: unknown };
}

export interface Harness {
  sandbox: RunningSandbox;
  woo: RunningFakeWoo;
  connector: RunningConnector | undefined;
  config: ConnectorConfig;
  rawConfig: Record<string, unknown>;
  prefix: string;
  webhookUrl: string;
  hooks: FakeWebhook[];
  /** Puts the order on the shop and delivers it like WooCommerce (topic order.created by default). */
  deliver(order: JsonObject, topic?: string): Promise<{ status: number; body: string }>;
  documents(): Promise<SandboxDocument[]>;
  /** Documents whose ExternalId belongs to this order (invoice, credit notes, waybill). */
  documentsOf(orderId: number): Promise<SandboxDocument[]>;
  startConnector(role?: ConnectorRole): Promise<RunningConnector>;
  close(): Promise<void>;
}

export function quietLogger() {
  return pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
}

export interface TestConfigOptions {
  prefix: string;
  wooOrigin: string;
  consumerKey: string;
  consumerSecret: string;
  baseUrl: string;
  redisUrl?: string;
  redisCluster?: boolean;
  tenant?: Record<string, unknown>;
  redis?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  pipeline?: Record<string, unknown>;
  sweep?: Record<string, unknown>;
  server?: Record<string, unknown>;
}

export function testConfig(opts: TestConfigOptions): ConnectorConfig {
  return parseConfig(rawTestConfig(opts), 'test', {});
}

/** The config as a file would hold it (for child processes started through the CLI). */
export function rawTestConfig(opts: TestConfigOptions): Record<string, unknown> {
  return {
      server: { host: '127.0.0.1', port: 0, publicUrl: 'http://connector.test', linkSecret: 'link-secret-for-tests', shutdownTimeoutMs: 5_000, ...opts.server },
      // A loaded CI may take more than a second to enqueue: a delivery is answered when it is queued, so a
      // generous bound costs nothing; a test of the timeout itself (Redis away) sets its own.
      redis: { url: opts.redisUrl ?? REDIS_URL, prefix: opts.prefix, enqueueTimeoutMs: 15_000, ...(opts.redisCluster ? { cluster: true } : {}), ...opts.redis },
      admin: { username: 'admin', password: 'admin-pw' },
      // No periodic sweep and no webhook watch unless a test asks: the tests run them when they mean to.
      sweep: { everyMinutes: 0, webhookCheckSeconds: 0, ...opts.sweep },
      pipeline: {
        finalizeDelayMs: CONNECTOR_FINALIZE_DELAY_MS,
        minFinalizeDelayMs: CONNECTOR_FINALIZE_DELAY_MS,
        finalizePolls: 6,
        finalizePollBackoffMs: 100,
        attempts: 8,
        backoffMs: 100,
        waitForInvoicePolls: 100,
        concurrency: 8,
        ...opts.pipeline,
      },
      tenants: [
        {
          id: 'shop1',
          shop: { url: opts.wooOrigin, consumerKey: opts.consumerKey, consumerSecret: opts.consumerSecret, webhookSecret: WEBHOOK_SECRET, timeoutMs: 3_000 },
          invoicing: { email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: opts.baseUrl, timeoutMs: 2_000 },
          // Notes in English here, so the tests read the texts the docs quote; the default is Portuguese.
          // The test orders are dated 2025: a go-live cut-off before them (the default, the first start, would hold them all back).
          settings: { language: 'en', goLiveAt: TEST_GO_LIVE_AT, ...opts.settings },
          ...opts.tenant,
        },
      ],
  };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const tag = `mft-${randomBytes(6).toString('hex')}`;
  const prefix = options.redisCluster ? `{${tag}}` : tag;
  const sandbox = await startTestSandbox(options.sandbox ?? {});
  const woo = await startFakeWooCommerce(options.woo ?? {});
  const configOptions: TestConfigOptions = { prefix, wooOrigin: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, baseUrl: sandbox.baseUrl, redisUrl: options.redisUrl, redisCluster: options.redisCluster, tenant: options.tenant, redis: options.redis, settings: options.settings, pipeline: options.pipeline, sweep: options.sweep, server: options.server };
  const rawConfig = rawTestConfig(configOptions);
  const config = parseConfig(rawConfig, 'test', options.env ?? {});
  const started: RunningConnector[] = [];
  const harness: Harness = {
    sandbox,
    woo,
    connector: undefined,
    config,
    rawConfig,
    prefix,
    webhookUrl: '',
    hooks: [],
    async deliver(order, topic = 'order.created') {
      woo.putOrder(order);
      return sendWooWebhook({ url: harness.webhookUrl, secret: WEBHOOK_SECRET, topic, payload: woo.order(Number(order.id)), source: `${woo.origin}/` });
    },
    async documents() {
      const response = await fetch(`${sandbox.origin}/_sandbox/documents`);
      const body = (await response.json()) as { documents: SandboxDocument[] };
      return body.documents;
    },
    async documentsOf(orderId) {
      const own = new RegExp(`^wc-${orderId}(-|$)`);
      return (await harness.documents()).filter((d) => own.test(d.document.ExternalId ?? ''));
    },
    async startConnector(role = 'all') {
      const connector = await startConnector(config, { role, logger: options.logger ?? quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
      started.push(connector);
      harness.connector = connector;
      if (connector.origin) harness.webhookUrl = `${connector.origin}/webhooks/woocommerce/shop1`;
      return connector;
    },
    async close() {
      await woo.settle();
      for (const connector of started) await connector.close();
      await woo.close();
      await sandbox.close();
      if (!options.redisCluster) await deleteKeys(options.redisUrl ?? REDIS_URL, prefix);
    },
  };
  if (options.role !== 'none') await harness.startConnector(options.role ?? 'all');
  if (options.registerWebhooks !== false && harness.webhookUrl) {
    for (const topic of ['order.created', 'order.updated']) {
      harness.hooks.push(woo.addWebhook({ topic, status: 'active', delivery_url: harness.webhookUrl, secret: WEBHOOK_SECRET }));
    }
  }
  return harness;
}

export async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } catch {
    // Redis gone (a test that stopped its own server): nothing to clean.
  } finally {
    redis.disconnect();
  }
}

/** Polls until `check` returns a value (not undefined/false); fails with `what` after the deadline. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until everything an order set off has run: the shop's webhook deliveries are answered, and
 * no job of the order is waiting, delayed or running; again while a round made the shop deliver or
 * answer more (our own write-back echoes). What a test then finds absent did not happen: no fixed
 * sleep stands in for "long enough".
 */
export async function orderQuiet(h: Harness, orderId: number, timeoutMs = 20_000): Promise<void> {
  const queue = h.connector?.queue;
  if (!queue) throw new Error('orderQuiet needs a connector with its queue');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const requestsBefore = h.woo.requests.length;
    await h.woo.settle();
    await eventually(
      `the jobs of order ${orderId} to finish`,
      async () => !(await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'])).some((job) => job.data.orderId === orderId),
      Math.max(0, deadline - Date.now()),
    );
    await h.woo.settle();
    if (h.woo.requests.length === requestsBefore) return;
    if (Date.now() > deadline) throw new Error(`order ${orderId} did not come to rest`);
  }
}

let nextOrderId = 5_000;
/** A Portuguese order as WooCommerce computes it (23% and 6% lines, shipping), status processing. */
export function portugueseOrder(overrides: Partial<Cart> = {}): JsonObject {
  const cart: Cart = {
    id: nextOrderId++,
    currency: 'EUR',
    status: 'processing',
    items: [
      { name: 'Caneca de cerâmica', sku: 'CAN-01', productId: 11, price: '12.50', quantity: 2, rate: '23' },
      { name: 'Livro: Os Lusíadas', sku: 'LIV-02', productId: 12, price: '18.90', quantity: 1, rate: '6' },
    ],
    shipping: [{ title: 'CTT Expresso', methodId: 'flat_rate', cost: '4.50', rate: '23' }],
    billing: { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua das Flores 12', city: 'Porto', postcode: '4050-262', country: 'PT', email: 'maria.silva@example.pt', phone: '912345678' },
    meta: [{ key: '_billing_nif', value: '232013969' }],
    datePaidGmt: new Date().toISOString().slice(0, 19),
    dateCreatedGmt: new Date().toISOString().slice(0, 19),
    ...overrides,
  };
  return buildOrder(cart);
}

export { buildRefund };
