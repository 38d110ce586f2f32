import type { Queue } from 'bullmq';
import { isRedisReady, type RedisClient } from '../core/redis-connection';
import type { DocumentJobData } from '../core/jobs';
import type { EnqueueItem } from './enqueue-item';
import { addResuming, type EnqueueResult } from './add-resuming';
import type { NewHistoryEvent, OrderHistory } from '../history/order-history';

export type { EnqueueItem };

export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/**
 * Adds document jobs, batching the adds of requests that arrive in the same event-loop turn into one
 * `addBulk` (one MULTI round trip instead of one per webhook). A webhook is answered only after its
 * batch is in Redis, so 202 still means "stored"; the batch adds no waiting beyond the current turn.
 * Fails fast with RedisUnavailableError when the connection is down or the add is slower than the
 * timeout, so WooCommerce gets a 503 instead of hanging.
 */
export class BatchingEnqueuer {
  private batch: { items: EnqueueItem[]; status?: string; resolve: (results: EnqueueResult[]) => void; reject: (error: Error) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly queue: Queue<DocumentJobData>,
    private readonly connection: RedisClient,
    private readonly timeoutMs: number,
    /** The orders' stories: each delivery that enqueued something is told as received, one write per batch. */
    private readonly history?: OrderHistory,
    /** The shared clock the stories are dated with (the workers' too). */
    private readonly now: () => number = Date.now,
    /** The queue's own connection when it is not `connection` (the connector keeps BullMQ's scripts off the one its own commands flush on). */
    private readonly queueConnection: RedisClient = connection,
  ) {}

  /** Why an add would fail now: either connection down (both are fail-fast), else undefined. */
  private unavailable(): RedisUnavailableError | undefined {
    for (const redis of [this.connection, this.queueConnection]) if (!isRedisReady(redis)) return new RedisUnavailableError(`redis is ${redis.status}`);
    return undefined;
  }

  /** Resolves with what became of each item (queued, or a failed job resumed), in order. `status`: the order's, for its story. */
  add(items: EnqueueItem[], status?: string): Promise<EnqueueResult[]> {
    if (items.length === 0) return Promise.resolve([]);
    const unavailable = this.unavailable();
    if (unavailable) return Promise.reject(unavailable);
    return new Promise<EnqueueResult[]>((resolve, reject) => {
      this.batch.push({ items, status, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /**
   * What /readyz asks: a real write through the queue's connection, in one MULTI with the queue's own
   * keys, as an add does. It fails exactly when adds would: Redis away or slow (either connection), a
   * read-only replica, out of memory, or a Redis Cluster whose slots the keys do not share (CROSSSLOT, MOVED).
   */
  async probe(): Promise<void> {
    const unavailable = this.unavailable();
    if (unavailable) throw unavailable;
    const replies = await this.within(
      this.queueConnection.multi().set(this.queue.toKey('readyz'), String(Date.now()), 'PX', 60_000).exists(this.queue.keys.meta, this.queue.keys.wait).exec(),
      'the probe write',
    );
    const failed = (replies ?? []).find(([error]) => error);
    if (failed?.[0]) throw new RedisUnavailableError(failed[0].message);
  }

  private async flush(): Promise<void> {
    const waiting = this.batch;
    this.batch = [];
    this.scheduled = false;
    // The orders' stories first, on the same connection: "received" lands before the jobs it led to
    // can run, without waiting for it (a story that cannot be written stops nothing).
    void this.history?.record(receivedEvents(waiting), this.now()).catch(() => undefined);
    try {
      const results = await this.within(addResuming(this.queue, this.connection, waiting.flatMap((w) => w.items)), 'enqueue');
      let offset = 0;
      for (const w of waiting) {
        w.resolve(results.slice(offset, offset + w.items.length));
        offset += w.items.length;
      }
    } catch (error) {
      for (const w of waiting) w.reject(asUnavailable(error));
    }
  }

  private async within<T>(work: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisUnavailableError(`${what} took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      return await Promise.race([work, timeout]);
    } catch (error) {
      throw asUnavailable(error);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** One `received` event per order of the batch (a delivery may plan several purposes of one order). */
function receivedEvents(waiting: { items: EnqueueItem[]; status?: string }[]): { tenant: string; orderId: number; event: NewHistoryEvent }[] {
  const events = new Map<string, { tenant: string; orderId: number; event: NewHistoryEvent }>();
  for (const w of waiting) {
    const first = w.items[0];
    if (!first) continue;
    const key = `${first.data.tenant}:${first.data.orderId}`;
    events.set(key, { tenant: first.data.tenant, orderId: first.data.orderId, event: { kind: 'received', via: 'webhook', ...(w.status ? { status: w.status } : {}) } });
  }
  return [...events.values()];
}

/** Redis errors that mean "this is a cluster and the config does not say so" get the fix in their message. */
function asUnavailable(error: unknown): RedisUnavailableError {
  if (error instanceof RedisUnavailableError) return error;
  // A refused MULTI says EXECABORT; the reasons are on the commands it queued.
  const previous = (error as { previousErrors?: Error[] }).previousErrors ?? [];
  const message = [(error as Error).message, ...previous.map((e) => e.message)].join('; ');
  const hint = /CROSSSLOT|MOVED|same slot/.test(message) ? ' (this Redis is a cluster: set redis.cluster: true and a hash-tag prefix such as {mf})' : '';
  return new RedisUnavailableError(`${message}${hint}`);
}
