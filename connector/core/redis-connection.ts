import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import IORedis, { Cluster, Pipeline, type ClusterOptions, type Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

/** A single Redis (or a managed one behind one endpoint) or a Redis Cluster: the commands the connector uses are the same. */
export type RedisClient = Redis | Cluster;

/** What the connector needs to know to reach Redis (the `redis` block of the config, secrets resolved). */
export interface RedisTarget {
  /** redis:// or rediss:// (TLS); in cluster mode a comma-separated list of seed nodes. */
  url: string;
  cluster: boolean;
  tls?: { caFile?: string; rejectUnauthorized: boolean };
}

interface NodeAddress {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
  tls: boolean;
}

/** Parses one redis:// or rediss:// URL; rediss:// means TLS (managed Redis: ElastiCache, Azure, Upstash...). */
export function parseRedisUrl(url: string): NodeAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('the Redis URL is not a URL (expected redis://host:port or rediss://host:port)');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new Error(`the Redis URL must start with redis:// or rediss://, not ${parsed.protocol}//`);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : 6379,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    tls: parsed.protocol === 'rediss:',
  };
}

/** TLS options for a node: on for rediss:// (or when the config names a CA), certificate checked unless told otherwise. */
export function tlsOptions(target: RedisTarget, node: NodeAddress): TlsOptions | undefined {
  if (!node.tls && !target.tls) return undefined;
  return {
    ...(target.tls?.caFile ? { ca: readFileSync(target.tls.caFile) } : {}),
    rejectUnauthorized: target.tls?.rejectUnauthorized ?? true,
    // SNI takes a host name only; an IP address is checked against the certificate's IP entries.
    ...(isIP(node.host) ? {} : { servername: node.host }),
  };
}

/**
 * Two kinds of connection, for two failure policies:
 * - `ingest`: commands fail at once while Redis is away (no offline queue, one try), so the webhook
 *   route can answer 503 quickly and WooCommerce counts a failure that the sweep later makes good;
 * - `worker`: commands wait for Redis to come back (BullMQ requires maxRetriesPerRequest null for workers);
 * - `ledger`: the worker policy, auto-pipelined. The ledger's reads and writes from many concurrent
 *   jobs then leave in one socket write per event-loop turn instead of one each (a write to Redis
 *   was the largest single cost in the worker's profile). The documents worker moves its jobs on it
 *   too (BullMQ's moves are Lua scripts, each atomic; pipelining only changes when they are sent):
 *   a move leaves with the ledger writes and the other jobs' moves of its turn. Each job still
 *   awaits its own reply before the next step, so "ledger before create" holds exactly as before.
 * In cluster mode the same policies apply to an ioredis Cluster, which follows MOVED/ASK redirections.
 */
export function connectRedis(target: RedisTarget, kind: 'ingest' | 'worker' | 'ledger', logger: Logger): RedisClient {
  const common: RedisOptions = {
    connectTimeout: 3_000,
    // Keep trying to reconnect, but never faster than every 200 ms nor slower than every 2 s.
    retryStrategy: (times) => Math.min(200 * times, 2_000),
  };
  const policy: RedisOptions =
    kind === 'ingest'
      ? // Auto-pipelining writes all commands issued in one event-loop turn in one go: many webhooks
        // arrive together, and each becomes a few Redis commands.
        { enableOfflineQueue: false, maxRetriesPerRequest: 1, enableAutoPipelining: true }
      : { maxRetriesPerRequest: null, enableAutoPipelining: kind === 'ledger' };
  const redis = target.cluster ? connectCluster(target, common, policy) : connectSingle(target, common, policy);
  let reported = false;
  // An unhandled 'error' event would crash the process; log the first of a run, not every retry.
  redis.on('error', (error: Error) => {
    if (!reported) logger.warn({ err: error.message, kind }, 'redis connection error');
    reported = true;
  });
  redis.on('ready', () => {
    if (reported) logger.info({ kind }, 'redis connection back');
    reported = false;
  });
  return redis;
}

function connectSingle(target: RedisTarget, common: RedisOptions, policy: RedisOptions): Redis {
  const node = parseRedisUrl(target.url);
  const { tls: _tls, ...address } = node;
  const tls = tlsOptions(target, node);
  return leanPipelines(new IORedis({ ...common, ...policy, ...address, ...(tls ? { tls } : {}) }));
}

/**
 * ioredis copies every script the connection knows (BullMQ's 52, twice: name and nameBuffer) onto
 * each pipeline it builds, and an auto-pipelined connection builds one per event-loop turn: ~18 KB
 * per order in the e2e bench, held until the turn's replies come (issue 29). Here the pipelines of
 * a connection find the same functions on a prototype of their own, built once (again when a script
 * is defined later): the pipeline is the same ioredis Pipeline otherwise (its `redis` the client,
 * its queue, its exec). `multi()` keeps ioredis's own.
 */
export function leanPipelines(redis: Redis): Redis {
  // What the Pipeline constructor reads of its client, without the scripts to copy.
  const bare = Object.create(redis, { scriptsSet: { value: {} }, addedBuiltinSet: { value: new Set<string>() } }) as Redis;
  let Lean: (new () => Pipeline) | undefined;
  const build = (): new () => Pipeline => {
    class LeanPipeline extends Pipeline {
      constructor() {
        super(bare);
        this.redis = redis;
      }
    }
    const commands = redis as unknown as Record<string, unknown>;
    for (const name of [...Object.keys(redis.scriptsSet), ...redis.addedBuiltinSet]) {
      for (const key of [name, `${name}Buffer`]) Object.defineProperty(LeanPipeline.prototype, key, { value: commands[key], writable: true, configurable: true });
    }
    return LeanPipeline;
  };
  const { defineCommand, addBuiltinCommand } = redis;
  redis.defineCommand = function (this: Redis, ...args: Parameters<Redis['defineCommand']>) {
    Lean = undefined;
    return defineCommand.apply(this, args);
  };
  redis.addBuiltinCommand = function (this: Redis, name: string) {
    Lean = undefined;
    return addBuiltinCommand.call(this, name);
  };
  redis.pipeline = function (commands?: unknown[][]) {
    Lean ??= build();
    const pipeline = new Lean();
    if (Array.isArray(commands)) pipeline.addBatch(commands);
    return pipeline;
  } as Redis['pipeline'];
  return redis;
}

function connectCluster(target: RedisTarget, common: RedisOptions, policy: RedisOptions): Cluster {
  const seeds = target.url.split(',').map((url) => parseRedisUrl(url.trim()));
  const first = seeds[0];
  const tls = tlsOptions(target, first);
  const { enableOfflineQueue, enableAutoPipelining, ...perNode } = policy;
  const options: ClusterOptions = {
    enableOfflineQueue: enableOfflineQueue ?? true,
    enableAutoPipelining: enableAutoPipelining ?? false,
    clusterRetryStrategy: (times) => Math.min(200 * times, 2_000),
    // Managed clusters announce node addresses that must be used as they are (TLS names, NAT).
    dnsLookup: (address, callback) => callback(null, address),
    redisOptions: {
      ...common,
      ...perNode,
      ...(first.username ? { username: first.username } : {}),
      ...(first.password ? { password: first.password } : {}),
      ...(tls ? { tls: { ...tls, servername: undefined } } : {}),
    },
  };
  return new Cluster(
    seeds.map((seed) => ({ host: seed.host, port: seed.port })),
    options,
  );
}

export function isRedisReady(redis: RedisClient): boolean {
  return redis.status === 'ready';
}

/** How often a process re-reads Redis's clock (its own clock may drift or be stepped meanwhile). */
export const CLOCK_SYNC_MS = 60_000;

/**
 * One clock for every process: Redis's TIME, kept as an offset from the process's own clock and
 * re-read every CLOCK_SYNC_MS. Document dates, the wait before Get Document (measured from the
 * create's recorded time) and the attention list's scores (the alerts' watermark) all read it, so a
 * worker whose clock is minutes off neither dates an invoice tomorrow nor polls another worker's
 * document early nor flags an order below a watermark already passed. BullMQ's own delays stay on the
 * process clock (BullMQ compares them with it), so the steps that care check this clock again.
 */
export class RedisClock {
  private offsetMs = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisClient,
    /** The process's own clock (tests inject a skewed one). */
    private readonly local: () => number = Date.now,
  ) {}

  /** Redis's time now, in ms since the epoch (the process clock until the first sync). */
  readonly now = (): number => this.local() + this.offsetMs;

  /** The current offset (Redis minus this process), for logs and /readyz. */
  get offset(): number {
    return this.offsetMs;
  }

  /** Reads TIME; the offset is taken against the middle of the round trip. */
  async sync(): Promise<void> {
    const before = this.local();
    const [seconds, micros] = await this.redis.time();
    const after = this.local();
    const redisMs = Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
    this.offsetMs = redisMs - Math.round((before + after) / 2);
  }

  /**
   * First sync (awaited at most `firstWaitMs`: a process starting while Redis is away serves with its
   * own clock until the read lands), then every `everyMs`.
   */
  async start(onError: (error: Error) => void, everyMs = CLOCK_SYNC_MS, firstWaitMs = 2_000): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timeout = setTimeout(resolve, firstWaitMs);
    });
    await Promise.race([this.sync().catch(onError), gaveUp]);
    clearTimeout(timeout);
    this.timer = setInterval(() => void this.sync().catch(onError), everyMs);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/**
 * Whether an error means Redis cannot serve right now (away, reconnecting, read-only after a
 * failover, out of memory, still loading): the HTTP side answers 503 with the reason, never 500.
 */
export function isRedisOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError' || error.name === 'ClusterAllFailedError') return true;
  return /Connection is closed|Stream isn't writeable|enableOfflineQueue|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|^READONLY|^OOM|^LOADING|^MASTERDOWN|^CLUSTERDOWN|^TRYAGAIN|None of startup nodes is available/.test(error.message);
}
