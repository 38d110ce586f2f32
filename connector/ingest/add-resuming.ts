import { Job, type Queue } from 'bullmq';
import type { RedisClient } from '../core/redis-connection';
import type { DocumentJobData } from '../core/jobs';
import type { EnqueueItem } from './enqueue-item';

/**
 * What became of one planned job: `queued` (added, or already waiting/delayed/running under its id)
 * or `resumed` (a job of the same id had failed for good and was put back to run from its ledger step).
 */
export type EnqueueOutcome = 'queued' | 'resumed';

export interface EnqueueResult {
  jobId: string;
  kind: string;
  outcome: EnqueueOutcome;
}

/**
 * Adds document jobs by their fixed ids. BullMQ silently keeps an existing job of the same id, so a
 * job left in the failed list would swallow every later delivery, sweep and backfill of its order:
 * those are found (one ZMSCORE for the whole batch, sent with the add) and retried with fresh attempts. The retried job
 * resumes from the ledger, so a document that was created is never created again.
 */
export async function addResuming(queue: Queue<DocumentJobData>, redis: RedisClient, items: readonly EnqueueItem[]): Promise<EnqueueResult[]> {
  if (items.length === 0) return [];
  // The failed list is read in the same round trip as the add, not after it: an add never moves a
  // job out of the failed list (BullMQ keeps the existing job of that id), so the answer is the same
  // either way, and a delivery waits for one round trip instead of two. On an auto-pipelined
  // connection (the webhook route's) the read leaves in the batch's one write with its story.
  const [, scores] = await Promise.all([queue.addBulk([...items]), redis.zmscore(queue.keys.failed, ...items.map((item) => item.opts.jobId))]);
  const results: EnqueueResult[] = [];
  for (const [index, item] of items.entries()) {
    let outcome: EnqueueOutcome = 'queued';
    if (scores[index] !== null && (await retryFailed(queue, item.opts.jobId))) outcome = 'resumed';
    results.push({ jobId: item.opts.jobId, kind: item.name, outcome });
  }
  return results;
}

async function retryFailed(queue: Queue<DocumentJobData>, jobId: string): Promise<boolean> {
  const job = await Job.fromId<DocumentJobData>(queue, jobId);
  if (!job) return false;
  try {
    // Fresh poll counts too: a finalize that gave up polls its full round again.
    if (job.data.polls !== 0) await job.updateData({ ...job.data, polls: 0 });
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  } catch {
    // Retried by someone else meanwhile (another delivery, an admin): it runs either way.
    return false;
  }
}
