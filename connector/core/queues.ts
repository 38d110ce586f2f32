import { Queue, type DefaultJobOptions } from 'bullmq';
import type { Logger } from 'pino';
import type { ConnectorMetrics } from './metrics';
import type { RedisClient } from './redis-connection';
import type { ConnectorConfig } from '../config/load-config';
import { DOCUMENTS_QUEUE, SWEEP_QUEUE, type DocumentJobData, type SweepJobData } from './jobs';

/**
 * Retries live here and only here: exponential backoff over `attempts`, with jitter (each wait is
 * drawn between half and all of the exponential step, so many orders failing together, e.g. when
 * the service was down, do not retry in one burst); a job that runs out (or fails for good) stays
 * in the failed list, the dead letter, until an admin retries it (or for retention.failedJobsDays,
 * beyond which the order's ledger state and attention entry still tell).
 * Completed jobs are removed, so a later delivery of the same order can enqueue again and be
 * answered by the ledger ("already written back") rather than silently deduplicated forever.
 */
/** BullMQ's jitter share: the wait is uniform in [(1 - 0.5) × step, step]. */
export const BACKOFF_JITTER = 0.5;

export function documentJobOptions(pipeline: ConnectorConfig['pipeline'], retention: ConnectorConfig['retention']): DefaultJobOptions {
  return {
    attempts: pipeline.attempts,
    backoff: { type: 'exponential', delay: pipeline.backoffMs, jitter: BACKOFF_JITTER },
    removeOnComplete: true,
    // The dead letter is bounded by age and count; the order's ledger state and attention entry stay.
    removeOnFail: { age: Math.round(retention.failedJobsDays * 86_400), count: retention.failedJobsCount },
  };
}

export function documentsQueue(connection: RedisClient, prefix: string, pipeline: ConnectorConfig['pipeline'], retention: ConnectorConfig['retention']): Queue<DocumentJobData> {
  return new Queue<DocumentJobData>(DOCUMENTS_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: documentJobOptions(pipeline, retention),
    // The events stream is only for observers; keep it short so adds stay cheap.
    streams: { events: { maxLen: 1_000 } },
  });
}

export function sweepQueue(connection: RedisClient, prefix: string): Queue<SweepJobData> {
  return new Queue<SweepJobData>(SWEEP_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: { attempts: 3, backoff: { type: 'exponential', delay: 5_000 }, removeOnComplete: 100, removeOnFail: 100 },
  });
}

/** The id of the periodic sweep's job scheduler. */
export const SWEEP_SCHEDULER_ID = 'periodic-sweep';
/** How often each worker process checks that the periodic sweep is still scheduled. */
export const SWEEP_WATCH_MS = 30_000;
/** A scheduled run this far overdue (beyond one period) means its next job was lost. */
const SWEEP_LATE_MS = 5 * 60_000;

export type SweepScheduleState = 'scheduled' | 'missing' | 'late' | 'off';

/**
 * Whether the periodic sweep is scheduled as configured: `missing` when its scheduler is gone (Redis
 * emptied, a failover to a replica that never had it), `late` when its next run is overdue by more
 * than a period (its next job was lost), `off` when the sweep is turned off.
 */
export async function sweepScheduleState(queue: Queue<SweepJobData>, everyMinutes: number, now: number): Promise<SweepScheduleState> {
  if (everyMinutes <= 0) return 'off';
  const scheduler = await queue.getJobScheduler(SWEEP_SCHEDULER_ID);
  if (!scheduler) return 'missing';
  if (scheduler.next !== undefined && scheduler.next < now - everyMinutes * 60_000 - SWEEP_LATE_MS) return 'late';
  return 'scheduled';
}

/**
 * Keeps the periodic sweep scheduled: on start and then every `watchMs`, each worker process
 * re-creates the scheduler when it is missing or late (upsert: several workers doing it at once
 * still leave one scheduler). Without this, a sweep lost with Redis's data stayed lost, silently,
 * until a worker restarted.
 */
export class SweepScheduleKeeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly queue: Queue<SweepJobData>,
    private readonly everyMinutes: number,
    private readonly deps: { logger: Logger; metrics: ConnectorMetrics; now: () => number; watchMs?: number },
  ) {}

  /** Checks once; re-creates the schedule when it is missing or late. Returns the state found. */
  async ensure(): Promise<SweepScheduleState> {
    const state = await sweepScheduleState(this.queue, this.everyMinutes, this.deps.now());
    if (state === 'missing' || state === 'late') {
      await this.schedule();
      this.deps.metrics.sweepScheduleRestored.inc({ found: state });
      this.deps.logger.warn({ found: state }, 'the periodic sweep was not scheduled (Redis lost it?): scheduled again');
    }
    return state;
  }

  /** Applies the configured period (a changed setting replaces the old one), then watches. */
  async start(): Promise<void> {
    if (this.everyMinutes <= 0) {
      await this.queue.removeJobScheduler(SWEEP_SCHEDULER_ID);
      return;
    }
    await this.schedule();
    this.timer = setInterval(() => void this.ensure().catch((error: unknown) => this.deps.logger.warn({ err: (error as Error).message }, 'could not check the periodic sweep')), this.deps.watchMs ?? SWEEP_WATCH_MS);
    this.timer.unref();
  }

  private async schedule(): Promise<void> {
    await this.queue.upsertJobScheduler(SWEEP_SCHEDULER_ID, { every: this.everyMinutes * 60_000 }, { name: 'sweep', data: {} });
  }

  close(): void {
    clearInterval(this.timer);
  }
}
