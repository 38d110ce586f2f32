import autocannon from 'autocannon';
import IORedis from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { deletePrefix, freePort, orderTemplate, REDIS_URL, signedOrder, spawnTs, stop } from './connector-support';

/**
 * Ingest: signed ~6 KB orders at 64 connections, every request a distinct order, against the
 * connector's webhook route and against a naive Express + HMAC + queue.add handler, same Redis,
 * same machine, each server in its own process (autocannon runs here).
 */
const CONNECTIONS = 64;
const DURATION_S = Number(process.env.BENCH_INGEST_SECONDS ?? 10);

interface IngestFigures {
  handler: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  jobsStored: number;
  peakRssMb: number;
}

async function load(url: string, template: { text: string; id: number }, offset: number, seconds: number) {
  let n = offset;
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

async function measure(mode: 'connector' | 'naive', template: { text: string; id: number }, offset: number, nodeFlags: string[]): Promise<IngestFigures> {
  const prefix = `mf-bench-ingest-${mode}-${randomBytes(3).toString('hex')}`;
  const port = await freePort();
  let child: ChildProcess | undefined;
  let rss = NaN;
  try {
    child = await spawnTs(['bench/connector-ingest-server.ts', mode, prefix, String(port)], /listening/, {}, nodeFlags);
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /peak-rss (\d+)/.exec(chunk.toString('utf8'));
      if (match) rss = Number(match[1]);
    });
    const url = `http://127.0.0.1:${port}/webhooks/woocommerce/bench`;
    await load(url, template, offset + 5_000_000, 2); // warm-up (JIT, script loading)
    const result = await load(url, template, offset, DURATION_S);
    const redis = new IORedis(REDIS_URL);
    const waiting = await redis.llen(`${prefix}:documents:wait`);
    redis.disconnect();
    await stop(child);
    return {
      handler: mode === 'connector' ? 'connector route (verify + zod + plan + batched enqueue)' : 'naive (express.raw + HMAC + queue.add)',
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      jobsStored: waiting,
      peakRssMb: rss,
    };
  } finally {
    await stop(child);
    await deletePrefix(prefix);
  }
}

/** Both servers run with the same V8 flags (the Docker image's by default in run.ts). */
export async function benchConnectorIngest(nodeFlags: string[] = []): Promise<IngestFigures[]> {
  const template = orderTemplate();
  process.stderr.write(`ingest: ${Buffer.byteLength(template.text)}-byte orders, ${CONNECTIONS} connections, ${DURATION_S} s each\n`);
  const naive = await measure('naive', template, 0, nodeFlags);
  const connector = await measure('connector', template, 0, nodeFlags);
  return [naive, connector];
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
