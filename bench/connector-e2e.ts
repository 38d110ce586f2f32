import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { MemoryProbeReport } from './memory-probe';
import { Pool } from 'undici';
import { META } from '../connector/shop/order-meta';
import { startFakeWooCommerce, type JsonObject } from '../test/support/fake-woocommerce';
import { spawn } from 'node:child_process';
import { BENCH_SECRET, benchConnectorConfig, freePort, nodeArgs, orderTemplate, peakRssMb, percentile, REPO, signedOrder, spawnHttp, stop, writeJson } from './connector-support';
import { callCounterFlags, cpuMs, redisWrites, memoryProbeFlags, metricSum, ownCpuMs, perDocument, redisCounts, redisDelta, serviceCalls, shopCalls, startBenchRedis, type RedisCounts } from './counts';

/**
 * Webhook to written-back invoice, everything real and over HTTP: the sandbox (its own process,
 * with latency on every call), the connector (`magnifinance connector all`, its own process), the
 * fake shop and the sender (this process). An order counts as done when the PUT carrying its
 * invoice number reaches the shop.
 */
export interface EndToEndOptions {
  orders: number;
  latencyMs: number;
  finalizeDelayMs: number;
  /** Webhooks per second; undefined = as fast as 64 connections go. */
  rate?: number;
  concurrency?: number;
  /** V8 flags for the connector process (e.g. heap limits). */
  nodeFlags?: string[];
  /** Worker processes next to one `serve` process; 0 = a single `connector all` process. */
  workerProcesses?: number;
  /** Size of each order's JSON; 6 KB is about 20 lines, a typical order (2-3 lines) is about 2.5 KB. */
  orderBytes?: number;
}

export interface EndToEndFigures {
  orderBytes: number;
  orders: number;
  sandboxLatencyMs: number;
  finalizeDelayMs: number;
  sendRate: string;
  processes: string;
  workerConcurrency: number;
  ordersPerSecond: number;
  webhookToNumberP50Ms: number;
  webhookToNumberP99Ms: number;
  webhookToNumberMaxMs: number;
  documentsOnService: number;
  connectorPeakRssMb: number;
  /** With BENCH_MEMORY_PROBE: where the connector's peak resident set went (bench/memory-probe.ts). */
  connectorMemory?: Pick<MemoryProbeReport, 'atPeakRss' | 'max'>;
  /** Webhooks the connector refused, by status, each sent again after a pause (the run fails after 5 refusals of one). */
  webhooksRefusedThenResent: Record<number, number>;
  /** What one order cost, counted (not timed): see bench/counts.ts. */
  perOrder: PerOrderCounts;
}

/** Counts per order of the run (each order gets one invoice here), from the first webhook until every job is done. */
export interface PerOrderCounts {
  serviceCalls: Record<string, number>;
  shopCalls: Record<string, number>;
  /** order.updated deliveries the shop sent because of our own writes (the bench itself sends only order.created). */
  echoWebhooks: number;
  /** How the connector answered them: acknowledged without a job (own-echo), or planned (enqueue attempts). */
  webhooksIgnored: Record<string, number>;
  jobsEnqueued: number;
  /** Processor runs of document jobs (a job that waits for the number runs again). */
  jobRuns: number;
  redisCommands: number;
  /** The connector's writes to Redis sockets: a command, or a pipeline or MULTI sent at once, is one round trip. */
  redisRoundTrips: number;
  /** Bytes the connector wrote to Redis sockets. */
  redisBytesWritten: number;
  /** The connector's EVALSHA commands by script (ours and BullMQ's): calls and bytes. */
  redisEvalshaByScript: Record<string, { calls: number; bytes: number }>;
  /** Reads of client sockets by Redis (writes that arrive together are read at once: at most the round trips). */
  redisServerReads: number;
  redisByCommand: Record<string, number>;
  /** Redis's own time per document, µs, by command (INFO commandstats; `evalsha` holds the scripts' whole time, the commands they run are in it and also listed). */
  redisUsecByCommand: Record<string, number>;
  /** User + system CPU, ms per order: the connector process(es), and the rest of the bench for scale. */
  connectorCpuMs: number;
  sandboxCpuMs: number;
  redisCpuMs: number;
  shopAndSenderCpuMs: number;
}

export async function benchConnectorEndToEnd(options: EndToEndOptions): Promise<EndToEndFigures> {
  const prefix = `mf-bench-e2e-${randomBytes(3).toString('hex')}`;
  const redis = await startBenchRedis();
  const sent = new Map<number, number>();
  const landed = new Map<number, number>();
  const shop = await startFakeWooCommerce({
    onUpdate: (order) => {
      const id = Number(order.id);
      if (!landed.has(id) && (order.meta_data as { key: string }[]).some((m) => m.key === META.documentNumber)) landed.set(id, Date.now());
    },
  });
  const sandboxPort = await freePort();
  const connectorPort = await freePort();
  let sandbox: ChildProcess | undefined;
  let connector: ChildProcess | undefined;
  const workers: ChildProcess[] = [];
  let configPath = '';
  try {
    sandbox = await spawnHttp(
      'cli/magnifinance.ts',
      ['sandbox', '--port', String(sandboxPort), '--latency', String(options.latencyMs), '--finalize-delay', String(options.finalizeDelayMs)],
      `http://127.0.0.1:${sandboxPort}/_sandbox/health`,
      {},
      callCounterFlags(),
    );
    configPath = writeJson(
      'bench-connector',
      benchConnectorConfig({
        prefix,
        port: connectorPort,
        redisUrl: redis.url,
        shopUrl: shop.origin,
        consumerKey: shop.consumerKey,
        consumerSecret: shop.consumerSecret,
        sandboxBaseUrl: `http://127.0.0.1:${sandboxPort}/api/v1.1`,
        finalizeDelayMs: options.finalizeDelayMs,
        concurrency: options.concurrency,
      }),
    );
    const split = (options.workerProcesses ?? 0) > 0;
    for (let i = 0; i < (options.workerProcesses ?? 0); i++) {
      workers.push(spawn(process.execPath, nodeArgs('cli/magnifinance.ts', ['connector', 'work', '--config', configPath]), { cwd: REPO, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'] }));
    }
    connector = await spawnHttp('cli/magnifinance.ts', ['connector', split ? 'serve' : 'all', '--config', configPath], `http://127.0.0.1:${connectorPort}/readyz`, { BENCH_REDIS_PORT: new URL(redis.url).port }, [
      ...callCounterFlags(),
      ...memoryProbeFlags(),
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
      ...(options.nodeFlags ?? []),
    ]);
    const webhookUrl = `http://127.0.0.1:${connectorPort}/webhooks/woocommerce/bench`;
    // The shop echoes our write-back as order.updated, like a real one.
    shop.addWebhook({ topic: 'order.updated', status: 'active', delivery_url: webhookUrl, secret: BENCH_SECRET });

    const template = orderTemplate(options.orderBytes);
    const bodies: { id: number; body: string; signature: string }[] = [];
    for (let n = 1; n <= options.orders; n++) {
      const signed = signedOrder(template, n);
      const order = JSON.parse(signed.body) as JsonObject;
      shop.putOrder(order);
      bodies.push({ id: Number(order.id), ...signed });
    }
    const pool = new Pool(`http://127.0.0.1:${connectorPort}`, { connections: 64 });
    const connectorPids = () => [connector?.pid, ...workers.map((w) => w.pid)];
    const cpuAtStart = { connector: sum(connectorPids().map(cpuMs)), sandbox: cpuMs(sandbox.pid), redis: cpuMs(redis.child.pid), own: ownCpuMs() };
    const redisAtStart = await redisCounts(redis.url);
    const shopRequestsAtStart = shop.requests.length;
    const metricsAtStart = await (await fetch(`http://127.0.0.1:${connectorPort}/metrics`)).text();
    await fetch(`http://127.0.0.1:${sandboxPort}/_bench/calls/reset`);
    await fetch(`http://127.0.0.1:${connectorPort}/_bench/calls/reset`);
    const started = Date.now();
    let next = 0;
    let failures = 0;
    const refused: Record<number, number> = {};
    const sender = async (): Promise<void> => {
      while (next < bodies.length) {
        const item = bodies[next++];
        if (options.rate) {
          const due = started + (next * 1000) / options.rate;
          if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        }
        sent.set(item.id, Date.now());
        // A refusal (503 while the machine is too busy for Redis to answer within the connector's
        // timeout) is counted and sent again, as the shop's sweep would pick the order up.
        for (let attempt = 1; ; attempt++) {
          const response = await pool.request({
            path: '/webhooks/woocommerce/bench',
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-wc-webhook-topic': 'order.created', 'x-wc-webhook-signature': item.signature },
            body: item.body,
          });
          await response.body.text();
          if (response.statusCode === 202) break;
          refused[response.statusCode] = (refused[response.statusCode] ?? 0) + 1;
          if (attempt === 5) {
            failures += 1;
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
      }
    };
    await Promise.all(Array.from({ length: 64 }, () => sender()));
    const deadline = Date.now() + Math.max(120_000, options.orders * 100);
    while (landed.size < options.orders && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.close();
    if (failures > 0 || landed.size < options.orders) throw new Error(`${failures} webhooks refused, ${landed.size}/${options.orders} orders written back`);
    // The write-back goes on after the number lands (the note, the ledger, the story, the echo): counted once every job is done.
    await untilIdle(redis.url, prefix, shop);
    const perOrder = await countsPerOrder({
      orders: options.orders,
      cpu: { connector: sum(connectorPids().map(cpuMs)) - cpuAtStart.connector, sandbox: cpuMs(sandbox.pid) - cpuAtStart.sandbox, redis: cpuMs(redis.child.pid) - cpuAtStart.redis, own: ownCpuMs() - cpuAtStart.own },
      redis: redisDelta(redisAtStart, await redisCounts(redis.url)),
      shopRequests: shop.requests.slice(shopRequestsAtStart),
      metricsBefore: metricsAtStart,
      metricsAfter: await (await fetch(`http://127.0.0.1:${connectorPort}/metrics`)).text(),
      service: await serviceCalls(`http://127.0.0.1:${sandboxPort}`),
      connector: await serviceCalls(`http://127.0.0.1:${connectorPort}`),
    });
    const durations = [...landed].map(([id, at]) => at - (sent.get(id) ?? at)).sort((a, b) => a - b);
    const lastLanded = Math.max(...landed.values());
    const documents = ((await (await fetch(`http://127.0.0.1:${sandboxPort}/_sandbox/documents`)).json()) as { documents: unknown[] }).documents.length;
    const rss = Math.max(peakRssMb(connector.pid), ...workers.map((w) => peakRssMb(w.pid)));
    const connectorMemory = memoryProbeReport();
    return {
      orderBytes: Buffer.byteLength(template.text),
      orders: options.orders,
      sandboxLatencyMs: options.latencyMs,
      finalizeDelayMs: options.finalizeDelayMs,
      sendRate: options.rate ? `${options.rate}/s` : 'as fast as 64 connections',
      processes: options.workerProcesses ? `1 serve + ${options.workerProcesses} work` : '1 (connector all)',
      workerConcurrency: options.concurrency ?? 256,
      ordersPerSecond: Math.round(options.orders / ((lastLanded - started) / 1000)),
      webhookToNumberP50Ms: percentile(durations, 50),
      webhookToNumberP99Ms: percentile(durations, 99),
      webhookToNumberMaxMs: durations[durations.length - 1],
      documentsOnService: documents,
      connectorPeakRssMb: rss,
      ...(connectorMemory ? { connectorMemory } : {}),
      webhooksRefusedThenResent: refused,
      perOrder,
    };
  } finally {
    await stop(connector);
    await stop(sandbox);
    for (const worker of workers) await stop(worker);
    await shop.close();
    await redis.stop();
    if (configPath) rmSync(configPath, { force: true });
  }
}

/** What the memory probe wrote at the connector's peak so far (it writes at each new peak). */
function memoryProbeReport(): Pick<MemoryProbeReport, 'atPeakRss' | 'max'> | undefined {
  const file = process.env.BENCH_MEMORY_PROBE;
  if (!file || !existsSync(file)) return undefined;
  const { atPeakRss, max } = JSON.parse(readFileSync(file, 'utf8')) as MemoryProbeReport;
  return { atPeakRss, max };
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Until no document job is waiting, delayed or running, and the shop has sent every echo. */
async function untilIdle(redisUrl: string, prefix: string, shop: { settle(): Promise<void> }): Promise<void> {
  const IORedis = (await import('ioredis')).default;
  const redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      await shop.settle();
      const [wait, active, delayed, prioritized] = await Promise.all([
        redis.llen(`${prefix}:documents:wait`),
        redis.llen(`${prefix}:documents:active`),
        redis.zcard(`${prefix}:documents:delayed`),
        redis.zcard(`${prefix}:documents:prioritized`),
      ]);
      if (wait + active + delayed + prioritized === 0) break;
      if (Date.now() > deadline) throw new Error(`document jobs still pending after the last number: ${wait} waiting, ${active} active, ${delayed} delayed`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await shop.settle();
  } finally {
    redis.disconnect();
  }
}

async function countsPerOrder(run: {
  orders: number;
  cpu: { connector: number; sandbox: number; redis: number; own: number };
  redis: RedisCounts;
  shopRequests: readonly { method: string; path: string }[];
  metricsBefore: string;
  metricsAfter: string;
  service: Record<string, number>;
  /** What the connector's own process counted: requests it served, and its writes to Redis (call-counter.ts). */
  connector: Record<string, number>;
}): Promise<PerOrderCounts> {
  const n = run.orders;
  const delta = (name: string, labels: string[] = []): number => metricSum(run.metricsAfter, name, labels) - metricSum(run.metricsBefore, name, labels);
  const per = (counts: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(counts).map(([name, count]) => [name, perDocument(count, n)]));
  const ignored: Record<string, number> = {};
  for (const match of run.metricsAfter.matchAll(/^magnifinance_webhooks_ignored_total\{reason="([^"]+)"\} (\d+)/gm)) {
    const count = delta('magnifinance_webhooks_ignored_total', [`reason="${match[1]}"`]);
    if (count > 0) ignored[match[1]] = perDocument(count, n);
  }
  const writes = redisWrites(run.connector, n);
  return {
    serviceCalls: per(run.service),
    shopCalls: per(shopCalls(run.shopRequests)),
    echoWebhooks: perDocument(delta('magnifinance_webhooks_received_total', ['topic="order.updated"']), n),
    webhooksIgnored: ignored,
    jobsEnqueued: perDocument(delta('magnifinance_jobs_enqueued_total'), n),
    jobRuns: perDocument(delta('magnifinance_job_runs_total'), n),
    redisCommands: perDocument(run.redis.totalCommands, n),
    redisRoundTrips: perDocument(run.connector['redis writes'] ?? NaN, n),
    // The connector's bytes to Redis, and its EVALSHAs by script (calls and bytes), per document.
    redisBytesWritten: writes.bytes,
    redisEvalshaByScript: writes.evalshaByScript,
    redisServerReads: perDocument(run.redis.reads, n),
    redisByCommand: per(run.redis.commands),
    redisUsecByCommand: Object.fromEntries(Object.entries(per(run.redis.usec)).sort(([, a], [, b]) => b - a)),
    connectorCpuMs: perDocument(run.cpu.connector, n),
    sandboxCpuMs: perDocument(run.cpu.sandbox, n),
    redisCpuMs: perDocument(run.cpu.redis, n),
    shopAndSenderCpuMs: perDocument(run.cpu.own, n),
  };
}

if (require.main === module) {
  benchConnectorEndToEnd({ orders: Number(process.env.BENCH_ORDERS ?? 1000), orderBytes: Number(process.env.BENCH_ORDER_BYTES ?? 6144), latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 150), workerProcesses: Number(process.env.BENCH_WORKERS ?? 0), nodeFlags: process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : [], concurrency: Number(process.env.BENCH_CONCURRENCY ?? 256), rate: process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined, finalizeDelayMs: Number(process.env.BENCH_FINALIZE_MS ?? 1000) }).then(
    (figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
