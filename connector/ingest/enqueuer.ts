import type { Queue, JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { isRedisReady } from '../redis-connection';
import type { DocumentJobData } from '../jobs';
import { addResuming, type EnqueueResult } from './add-resuming';

export interface EnqueueItem {
  name: string;
  data: DocumentJobData;
  opts: JobsOptions & { jobId: string };
}

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
  private batch: { items: EnqueueItem[]; resolve: (results: EnqueueResult[]) => void; reject: (error: Error) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly queue: Queue<DocumentJobData>,
    private readonly connection: Redis,
    private readonly timeoutMs: number,
  ) {}

  /** Resolves with what became of each item (queued, or a failed job resumed), in order. */
  add(items: EnqueueItem[]): Promise<EnqueueResult[]> {
    if (items.length === 0) return Promise.resolve([]);
    if (!isRedisReady(this.connection)) return Promise.reject(new RedisUnavailableError(`redis is ${this.connection.status}`));
    return new Promise<EnqueueResult[]>((resolve, reject) => {
      this.batch.push({ items, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const waiting = this.batch;
    this.batch = [];
    this.scheduled = false;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RedisUnavailableError(`enqueue took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
      });
      const results = await Promise.race([addResuming(this.queue, this.connection, waiting.flatMap((w) => w.items)), timeout]);
      let offset = 0;
      for (const w of waiting) {
        w.resolve(results.slice(offset, offset + w.items.length));
        offset += w.items.length;
      }
    } catch (error) {
      const failure = error instanceof RedisUnavailableError ? error : new RedisUnavailableError((error as Error).message);
      for (const w of waiting) w.reject(failure);
    } finally {
      clearTimeout(timer);
    }
  }
}
