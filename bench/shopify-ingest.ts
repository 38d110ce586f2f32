import autocannon from 'autocannon';
import IORedis from 'ioredis';
import { createHmac, randomBytes } from 'node:crypto';
import { restOrderPayload, type JsonObject } from '../test/support/fake-shopify';
import { TAXES_INCLUDED } from '../test/platforms/shopify/fixtures/orders';
import { deletePrefix, freePort, REDIS_URL, spawnTs, stop } from './connector-support';
import { cpuMs } from './counts';
import { Ledger } from '../connector/core/ledger';
import { SHOPIFY_BENCH_DOMAIN, SHOPIFY_BENCH_SECRET } from './shopify-ingest-server';

/**
 * Shopify ingest: signed orders/paid deliveries (Shopify's REST-shaped order, padded with lines to
 * ~6 KB like the WooCommerce ingest's orders), every request a distinct order and event id, at 64
 * connections against the connector's /webhooks/shopify route (HMAC over the raw body, the event-id
 * memory, zod summary, plan, batched enqueue). Run alone: `node -r ts-node/register/transpile-only
 * bench/shopify-ingest.ts`; `npm run bench` runs it after the WooCommerce ingest.
 */
const CONNECTIONS = 64;
const DURATION_S = Number(process.env.BENCH_INGEST_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 4);
/**
 * BENCH_SHOPIFY_KIND: `orders/paid` (the default, every request a distinct order), or
 * `written-back-echo`: the orders/updated our own write-back's note causes, for one order whose
 * invoice the ledger shows written back (every request a distinct event of that order).
 */
const KIND = (process.env.BENCH_SHOPIFY_KIND ?? 'orders/paid') as 'orders/paid' | 'written-back-echo';

export interface ShopifyIngestFigures {
  handler: string;
  bodyBytes: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  jobsStored: number;
  peakRssMb: number;
  /** The server process's CPU (user + system) per answered webhook over the measured rounds, µs (as the WooCommerce ingest prints it). */
  cpuUsPerWebhook: number;
  rounds: string[];
}

/** The #1001 fixture as an orders/paid body, its lines repeated (distinct ids) until ~6 KB. */
export function shopifyOrderTemplate(targetBytes = 6_144): { text: string; id: number } {
  const order = structuredClone(TAXES_INCLUDED);
  const lines = order.lineItems as JsonObject[];
  const base = structuredClone(lines);
  for (let round = 1; Buffer.byteLength(JSON.stringify(restOrderPayload(order))) < targetBytes; round++) {
    for (const line of base) lines.push({ ...structuredClone(line), id: `${String(line.id)}${round}` });
  }
  return { text: JSON.stringify(restOrderPayload(order)), id: Number(TAXES_INCLUDED.legacyResourceId) };
}

function signedDelivery(template: { text: string; id: number }, n: number): { body: string; headers: Record<string, string> } {
  const body = KIND === 'orders/paid' ? template.text.split(String(template.id)).join(String(template.id + n)) : template.text;
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': KIND === 'orders/paid' ? 'orders/paid' : 'orders/updated',
      'x-shopify-hmac-sha256': createHmac('sha256', SHOPIFY_BENCH_SECRET).update(body, 'utf8').digest('base64'),
      'x-shopify-shop-domain': SHOPIFY_BENCH_DOMAIN,
      'x-shopify-api-version': '2026-10',
      'x-shopify-webhook-id': `bench-webhook-${n}`,
      'x-shopify-event-id': `bench-event-${n}`,
      'x-shopify-triggered-at': new Date().toISOString(),
    },
  };
}

function load(url: string, template: { text: string; id: number }, offset: number, seconds: number) {
  let n = offset;
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, ...signedDelivery(template, n++) }) }],
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchShopifyIngest(nodeFlags: string[] = []): Promise<ShopifyIngestFigures> {
  const template = shopifyOrderTemplate();
  const bodyBytes = Buffer.byteLength(template.text);
  process.stderr.write(`shopify ingest: ${bodyBytes}-byte ${KIND}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s\n`);
  const prefix = `mf-bench-shopify-${randomBytes(3).toString('hex')}`;
  if (KIND === 'written-back-echo') {
    const redis = new IORedis(REDIS_URL);
    await new Ledger(redis, prefix).record({ tenant: 'bench', orderId: template.id, purpose: 'invoice' }, { state: 'written-back', documentId: 7, documentNumber: 'FR A/7' });
    redis.disconnect();
  }
  const port = await freePort();
  const child = await spawnTs(['bench/shopify-ingest-server.ts', prefix, String(port)], /listening/, {}, nodeFlags);
  let rss = NaN;
  child.stdout?.on('data', (chunk: Buffer) => {
    const match = /peak-rss (\d+)/.exec(chunk.toString('utf8'));
    if (match) rss = Number(match[1]);
  });
  const url = `http://127.0.0.1:${port}/webhooks/shopify/bench`;
  try {
    await load(url, template, 50_000_000, 2); // warm-up (JIT, script loading)
    const results: autocannon.Result[] = [];
    const cpuBefore = cpuMs(child.pid);
    for (let round = 0; round < ROUNDS; round++) results.push(await load(url, template, round * 1_000_000, DURATION_S));
    const cpu = cpuMs(child.pid) - cpuBefore;
    const redis = new IORedis(REDIS_URL);
    const waiting = await redis.llen(`${prefix}:documents:wait`);
    redis.disconnect();
    await stop(child);
    return {
      handler: 'connector Shopify route (HMAC + event-id memory + zod summary + plan + batched enqueue)',
      bodyBytes,
      requestsPerSecond: Math.round(median(results.map((r) => r.requests.average))),
      p50Ms: median(results.map((r) => r.latency.p50)),
      p99Ms: median(results.map((r) => r.latency.p99)),
      non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
      errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
      jobsStored: waiting,
      peakRssMb: rss,
      cpuUsPerWebhook: Math.round((cpu * 1000) / results.reduce((sum, r) => sum + r.requests.total, 0)),
      rounds: results.map((r) => `${Math.round(r.requests.average)}/s p99 ${r.latency.p99} ms`),
    };
  } finally {
    await stop(child);
    await deletePrefix(prefix);
  }
}

if (require.main === module) {
  benchShopifyIngest().then(
    (figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
