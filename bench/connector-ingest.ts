import autocannon from 'autocannon';
import IORedis from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { BENCH_SECRET, deletePrefix, freePort, orderTemplate, REDIS_URL, signedOrder, spawnTs, stop } from './connector-support';
import { cpuMs } from './counts';
import { issuingKeyForPurpose, META, orderDigest } from '../connector/shop/order-meta';
import { wooOrderWithoutOurWrites } from '../platforms/woocommerce/own-writes';
import { signWooBody, wpJsonEncode } from '../test/support/fake-woocommerce';

/**
 * Ingest: signed ~6 KB orders at 64 connections, every request a distinct order, against the
 * connector's webhook route and against a naive Express + HMAC + queue.add handler, same Redis,
 * same machine, each server in its own process (autocannon runs here).
 */
const CONNECTIONS = 64;
const DURATION_S = Number(process.env.BENCH_INGEST_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 4);
/**
 * Which of an order's three deliveries is sent (BENCH_INGEST_KIND): its `order.created` (the
 * default, every request a distinct order), or one of the two `order.updated` echoes our own writes
 * cause: `marker-echo` (the order with our issuing marker, whose digest is the order's: answered
 * own-echo) or `written-back-echo` (the marker and the write-back's meta: nothing-to-issue). An echo
 * queues nothing, so one signed body serves every request.
 */
const KIND = (process.env.BENCH_INGEST_KIND ?? 'order.created') as 'order.created' | 'marker-echo' | 'written-back-echo';

/** The template order as the shop sends it back after our marker's PUT, or after the write-back's too. */
export function echoBody(template: { text: string }, kind: 'marker-echo' | 'written-back-echo'): string {
  const order = JSON.parse(template.text) as Record<string, unknown> & { meta_data: { id?: number; key: string; value: unknown }[]; total: string };
  const marker = { documentId: 7, externalId: 'wc-bench-1.d1', attempt: 1, documentType: 'FR', at: 1_764_000_000_000, orderDigest: orderDigest(order, wooOrderWithoutOurWrites) };
  const meta = [...order.meta_data, { id: 9_100, key: issuingKeyForPurpose('invoice'), value: marker }];
  if (kind === 'written-back-echo') {
    meta.push(
      { id: 9_101, key: META.documentId, value: '7' },
      { id: 9_102, key: META.documentNumber, value: 'FR A/7' },
      { id: 9_103, key: META.documentType, value: 'FR' },
      { id: 9_104, key: META.documentState, value: 'closed' },
      { id: 9_105, key: META.pdfUrl, value: 'https://sandbox.example/pdf/7' },
      { id: 9_106, key: META.coveredTotal, value: order.total },
    );
  }
  return wpJsonEncode({ ...order, meta_data: meta, date_modified: '2030-01-01T00:00:00', date_modified_gmt: '2030-01-01T00:00:00' });
}

interface IngestFigures {
  handler: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  jobsStored: number;
  peakRssMb: number;
  /**
   * The server process's CPU (user + system) per answered webhook over the measured rounds, µs: a
   * count of work that the machine's load moves far less than the rate (the load generator and the
   * other server share the cores).
   */
  cpuUsPerWebhook: number;
  rounds: string[];
}

async function load(url: string, template: { text: string; id: number }, offset: number, seconds: number) {
  let n = offset;
  if (KIND !== 'order.created') {
    const body = echoBody(template, KIND);
    const headers = { 'content-type': 'application/json', 'x-wc-webhook-topic': 'order.updated', 'x-wc-webhook-signature': signWooBody(body, BENCH_SECRET) };
    return autocannon({ url, connections: CONNECTIONS, duration: seconds, method: 'POST', body, headers });
  }
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const { body, signature } = signedOrder(template, n++);
          return { ...request, body, headers: { 'content-type': 'application/json', 'x-wc-webhook-topic': 'order.created', 'x-wc-webhook-signature': signature } };
        },
      },
    ],
  });
}

interface RunningServer {
  mode: 'connector' | 'naive';
  prefix: string;
  url: string;
  child: ChildProcess;
  rss: number;
}

async function startServer(mode: 'connector' | 'naive', nodeFlags: string[]): Promise<RunningServer> {
  const prefix = `mf-bench-ingest-${mode}-${randomBytes(3).toString('hex')}`;
  const port = await freePort();
  const child = await spawnTs(['bench/connector-ingest-server.ts', mode, prefix, String(port)], /listening/, {}, nodeFlags);
  const server: RunningServer = { mode, prefix, url: `http://127.0.0.1:${port}/webhooks/woocommerce/bench`, child, rss: NaN };
  child.stdout?.on('data', (chunk: Buffer) => {
    const match = /peak-rss (\d+)/.exec(chunk.toString('utf8'));
    if (match) server.rss = Number(match[1]);
  });
  return server;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Both servers run at once (the idle one costs nothing) and are loaded in alternating rounds, so a
 * busy moment of this shared machine hits both alike; each figure is the median of the rounds.
 */
export async function benchConnectorIngest(nodeFlags: string[] = []): Promise<IngestFigures[]> {
  const template = orderTemplate();
  process.stderr.write(`ingest: ${KIND}, ${Buffer.byteLength(template.text)}-byte orders, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_S} s\n`);
  const servers: RunningServer[] = [];
  try {
    servers.push(await startServer('naive', nodeFlags), await startServer('connector', nodeFlags));
    for (const server of servers) await load(server.url, template, 50_000_000, 2); // warm-up (JIT, script loading)
    const rounds = new Map<RunningServer, autocannon.Result[]>(servers.map((server) => [server, []]));
    const cpu = new Map<RunningServer, number>(servers.map((server) => [server, 0]));
    let offset = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
        const before = cpuMs(server.child.pid);
        rounds.get(server)?.push(await load(server.url, template, offset, DURATION_S));
        cpu.set(server, (cpu.get(server) ?? 0) + cpuMs(server.child.pid) - before);
        offset += 1_000_000;
      }
    }
    const figures: IngestFigures[] = [];
    for (const server of servers) {
      const results = rounds.get(server) ?? [];
      const redis = new IORedis(REDIS_URL);
      const waiting = await redis.llen(`${server.prefix}:documents:wait`);
      redis.disconnect();
      await stop(server.child);
      figures.push({
        handler: server.mode === 'connector' ? 'connector route (verify + zod summary + plan + batched enqueue)' : 'naive (express.raw + HMAC + JSON.parse + queue.add)',
        requestsPerSecond: Math.round(median(results.map((r) => r.requests.average))),
        p50Ms: median(results.map((r) => r.latency.p50)),
        p99Ms: median(results.map((r) => r.latency.p99)),
        non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
        errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
        jobsStored: waiting,
        peakRssMb: server.rss,
        cpuUsPerWebhook: Math.round(((cpu.get(server) ?? NaN) * 1000) / results.reduce((sum, r) => sum + r.requests.total, 0)),
        rounds: results.map((r) => `${Math.round(r.requests.average)}/s p99 ${r.latency.p99} ms`),
      });
    }
    return figures;
  } finally {
    for (const server of servers) {
      await stop(server.child);
      await deletePrefix(server.prefix);
    }
  }
}

if (require.main === module) {
  benchConnectorIngest().then(
    (figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
