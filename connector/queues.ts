import { Queue, type DefaultJobOptions } from 'bullmq';
import type { RedisClient } from './redis-connection';
import type { ConnectorConfig } from './config/load-config';
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
