import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { buildOrder } from '../test/law/support/woo-cart';
import { signWooBody, wpJsonEncode } from '../test/support/fake-woocommerce';

export const REPO = join(__dirname, '..');
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const BENCH_SECRET = 'bench-webhook-secret';
/** The bench connector's admin password (the config refuses passwords under 8 characters). */
export const BENCH_ADMIN_PASSWORD = 'bench-admin-password';
/** The V8 heap limits the Docker image sets (NODE_OPTIONS): RSS stays bounded under bursts. */
export const DEPLOYMENT_NODE_FLAGS = ['--max-old-space-size=160'];

/** A ~6 KB Portuguese order as WooCommerce sends it, with a placeholder id of fixed width. */
export function orderTemplate(targetBytes = 6_144): { text: string; id: number } {
  const id = 900_000_000;
  const items = [];
  for (let i = 0; items.length < 40; i++) {
    items.push({ name: `Artigo de teste número ${i} — edição limitada`, sku: `SKU-${1000 + i}`, productId: 500 + i, price: `${(3 + i * 1.37).toFixed(2)}`, quantity: 1 + (i % 3), rate: i % 4 === 0 ? '6' : '23' });
    const order = buildOrder({
      id,
      currency: 'EUR',
      status: 'processing',
      items,
      shipping: [{ title: 'CTT Expresso', methodId: 'flat_rate', cost: '4.50', rate: '23' }],
      billing: { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua das Flores 12', city: 'Porto', postcode: '4050-262', country: 'PT', email: 'maria.silva@example.pt', phone: '912345678' },
      meta: [{ key: '_billing_nif', value: '232013969' }],
      datePaidGmt: new Date().toISOString().slice(0, 19),
      dateCreatedGmt: new Date().toISOString().slice(0, 19),
    });
    const text = wpJsonEncode(order);
    if (Buffer.byteLength(text) >= targetBytes) return { text, id };
  }
  throw new Error('could not reach the target size');
}

/** The template with order id `n` (same width, so the size stays put), signed like WooCommerce. */
export function signedOrder(template: { text: string; id: number }, n: number, secret = BENCH_SECRET): { body: string; signature: string } {
  const body = template.text.split(String(template.id)).join(String(template.id + n));
  return { body, signature: signWooBody(body, secret) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function writeJson(name: string, value: unknown): string {
  const path = join(tmpdir(), `${name}-${process.pid}-${Date.now()}.json`);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

/**
 * The command line that runs a TypeScript entry of this repo: the compiled JavaScript when
 * BENCH_DIST names a tsc output folder (how a deployment runs, and what peak RSS should measure),
 * else ts-node.
 */
export function nodeArgs(entry: string, args: string[]): string[] {
  const dist = process.env.BENCH_DIST;
  if (dist) return [join(dist, entry.replace(/\.ts$/, '.js')), ...args];
  return [join(REPO, 'node_modules/ts-node/dist/bin.js'), '--transpile-only', join(REPO, entry), ...args];
}

/** Spawns a TypeScript entry and resolves once its stdout prints `ready`. */
export function spawnTs(args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}, execArgv: string[] = []): Promise<ChildProcess> {
  const [entry, ...rest] = args;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, ...nodeArgs(entry, rest)], {
      cwd: REPO,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (ready.test(seen)) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before it was ready:\n${seen}`)));
  });
}

/** Peak resident set size (VmHWM) of a live process, in MB. */
export function peakRssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

/** Spawns an entry that signals nothing on stdout; resolves when `url` answers 200. */
export async function spawnHttp(entry: string, args: string[], url: string, env: NodeJS.ProcessEnv = {}, execArgv: string[] = []): Promise<ChildProcess> {
  // BENCH_CHILD_STDOUT: what the process prints goes to the bench's stderr (e.g. V8's
  // `--trace-gc-verbose` through BENCH_NODE_FLAGS: the heap's growing factor at each mark-compact).
  const stdout = process.env.BENCH_CHILD_STDOUT ? process.stderr : 'ignore';
  const child = spawn(process.execPath, [...execArgv, ...nodeArgs(entry, args)], { cwd: REPO, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', stdout, 'inherit'] });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} ${args.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).status === 200) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${entry} did not answer ${url} within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function deletePrefix(prefix: string): Promise<void> {
  const redis = new IORedis(REDIS_URL, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 2_000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The connector's config for a benchmark: one tenant, sandbox and shop given. */
export function benchConnectorConfig(opts: { prefix: string; port: number; redisUrl?: string; shopUrl: string; consumerKey: string; consumerSecret: string; sandboxBaseUrl: string; finalizeDelayMs: number; concurrency?: number }) {
  return {
    server: { host: '127.0.0.1', port: opts.port, publicUrl: `http://127.0.0.1:${opts.port}`, linkSecret: 'bench-link-secret', shutdownTimeoutMs: 10_000 },
    redis: { url: opts.redisUrl ?? REDIS_URL, prefix: opts.prefix },
    admin: { username: 'admin', password: BENCH_ADMIN_PASSWORD },
    sweep: { everyMinutes: 0 },
    pipeline: { finalizeDelayMs: opts.finalizeDelayMs, minFinalizeDelayMs: Math.min(opts.finalizeDelayMs, 10_000), concurrency: opts.concurrency ?? 256, finalizePollBackoffMs: 500, backoffMs: 500 },
    tenants: [
      {
        id: 'bench',
        shop: { url: opts.shopUrl, consumerKey: opts.consumerKey, consumerSecret: opts.consumerSecret, webhookSecret: BENCH_SECRET, timeoutMs: 30_000 },
        invoicing: { email: 'demo@example.com', token: 'sandbox-token', baseUrl: opts.sandboxBaseUrl, timeoutMs: 30_000 },
        // The bench's orders are dated in the past: a go-live cut-off before them.
        settings: { goLiveAt: '2020-01-01T00:00:00Z' },
      },
    ],
  };
}
