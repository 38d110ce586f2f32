/**
 * The cost of one order as counts, not time: what the connector asked of the invoicing service, of
 * the shop and of Redis, how many of our own writes came back as webhooks, how many BullMQ jobs and
 * job runs, and the CPU milliseconds of each process, all divided by the documents of the run. On a
 * shared machine the clock lies; these do not, so a change that adds a call shows as a number.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import IORedis from 'ioredis';
import { freePort } from './connector-support';
import { LEDGER_SCRIPT_NAMES } from '../connector/core/ledger';
import { HISTORY_SCRIPTS } from '../connector/history/order-history';

/** A private redis-server for one run: its INFO counts only this run's commands (the shared one serves the tests of others). */
export async function startBenchRedis(): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      break;
    } catch {
      probe.disconnect();
      if (Date.now() > deadline) throw new Error('the bench redis-server did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface RedisCounts {
  /** Commands the server processed, by command (EVALSHA counts scripts: BullMQ's and the ledger's). */
  commands: Record<string, number>;
  /** Microseconds Redis spent in each command (`usec` of INFO commandstats: a script's time is its EVALSHA's, and also counted under the commands it runs). */
  usec: Record<string, number>;
  totalCommands: number;
  /** Reads of client sockets by the server (writes that arrive together are read at once). */
  reads: number;
}

export async function redisCounts(url: string): Promise<RedisCounts> {
  const redis = new IORedis(url, { maxRetriesPerRequest: 1 });
  try {
    const commandstats = await redis.info('commandstats');
    const stats = await redis.info('stats');
    const commands: Record<string, number> = {};
    const usec: Record<string, number> = {};
    for (const match of commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
      commands[match[1]] = Number(match[2]);
      usec[match[1]] = Number(match[3]);
    }
    const field = (name: string): number => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(stats)?.[1] ?? NaN);
    return { commands, usec, totalCommands: field('total_commands_processed'), reads: field('total_reads_processed') };
  } finally {
    redis.disconnect();
  }
}

/** The difference between two snapshots, less the commands the snapshots themselves cost (INFO, the connection's setup). */
export function redisDelta(before: RedisCounts, after: RedisCounts): RedisCounts {
  const commands: Record<string, number> = {};
  const usec: Record<string, number> = {};
  for (const [name, calls] of Object.entries(after.commands)) {
    const delta = calls - (before.commands[name] ?? 0);
    if (delta > 0 && name !== 'info') {
      commands[name] = delta;
      usec[name] = (after.usec[name] ?? 0) - (before.usec[name] ?? 0);
    }
  }
  return { commands, usec, totalCommands: after.totalCommands - before.totalCommands, reads: after.reads - before.reads };
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU of a live process (and its reaped children), ms. */
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at ") ".
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/** This process's own CPU (the sender and the fake shop), ms. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Counters of the connector's /metrics, summed over labels matching `labels` (e.g. `topic="order.updated"`). */
export function metricSum(text: string, name: string, labels: string[] = []): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!labels.every((label) => line.includes(label))) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Per document, rounded to 2 decimals. */
export function perDocument(value: number, documents: number): number {
  return Math.round((value / documents) * 100) / 100;
}

/** What the sandbox (call-counter preload) counted: service calls by kind. */
export async function serviceCalls(origin: string): Promise<Record<string, number>> {
  return (await (await fetch(`${origin}/_bench/calls`)).json()) as Record<string, number>;
}

/** The node flag that preloads the call counter into a spawned process (compiled or through ts-node). */
export function callCounterFlags(): string[] {
  const dist = process.env.BENCH_DIST;
  if (dist) return ['--require', join(dist, 'bench', 'call-counter.js')];
  return ['--require', 'ts-node/register/transpile-only', '--require', join(__dirname, 'call-counter.ts')];
}

/**
 * With BENCH_MEMORY_PROBE (a file path), the node flag that preloads bench/memory-probe.ts into the
 * connector: where its peak resident set goes, written to that file. Without it, nothing.
 */
export function memoryProbeFlags(): string[] {
  if (!process.env.BENCH_MEMORY_PROBE) return [];
  const dist = process.env.BENCH_DIST;
  if (dist) return ['--require', join(dist, 'bench', 'memory-probe.js')];
  return ['--require', 'ts-node/register/transpile-only', '--require', join(__dirname, 'memory-probe.ts')];
}

/** Shop calls by kind, from the fake shop's request log (method and path, ids as :id). */
export function shopCalls(requests: readonly { method: string; path: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of requests) {
    const name = `${request.method} ${request.path.replace(/^\/wp-json\/wc\/v3/, '').replace(/\/\d+(?=\/|$)/g, '/:id')}`;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

/**
 * Every Lua script the connector may call by EVALSHA, by the first 8 hex digits of its sha (what
 * call-counter.ts counts by): the ledger's, the order story's, and BullMQ's (each file of its
 * scripts folder exports `{ name, content }`, which it defines on the connection as ioredis
 * commands: their sha is the SHA-1 of `content`).
 */
export function scriptNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const [sha, name] of Object.entries(LEDGER_SCRIPT_NAMES)) names.set(sha.slice(0, 8), name);
  for (const [name, lua] of Object.entries(HISTORY_SCRIPTS)) names.set(sha1(lua).slice(0, 8), name);
  const folder = join(dirname(require.resolve('bullmq/package.json')), 'dist', 'cjs', 'scripts');
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.js') && name !== 'index.js')) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- BullMQ's own script modules, found at run time
    for (const script of Object.values(require(join(folder, file)) as Record<string, unknown>)) {
      const { name, content } = (script ?? {}) as { name?: unknown; content?: unknown };
      if (typeof name === 'string' && typeof content === 'string') names.set(sha1(content).slice(0, 8), `bullmq ${name}`);
    }
  }
  return names;
}

/** What the connector wrote to Redis per document: bytes, and EVALSHA calls and bytes by script (from call-counter.ts's counts). */
export function redisWrites(connector: Record<string, number>, documents: number): { bytes: number; evalshaByScript: Record<string, { calls: number; bytes: number }> } {
  const names = scriptNames();
  const byScript: Record<string, { calls: number; bytes: number }> = {};
  for (const [key, calls] of Object.entries(connector)) {
    const sha = /^evalsha ([0-9a-f]{8})$/.exec(key)?.[1];
    if (sha === undefined) continue;
    byScript[names.get(sha) ?? sha] = { calls: perDocument(calls, documents), bytes: perDocument(connector[`evalsha bytes ${sha}`] ?? NaN, documents) };
  }
  const sorted = Object.entries(byScript).sort(([, a], [, b]) => b.bytes - a.bytes);
  return { bytes: perDocument(connector['redis bytes'] ?? NaN, documents), evalshaByScript: Object.fromEntries(sorted) };
}
