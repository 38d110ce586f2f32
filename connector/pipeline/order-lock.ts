import { type LedgerEntry } from '../core/ledger';
import { type StepContext, type Outcome, waitThen } from './step-context';

/**
 * The per-order lock around a call that issues: renewed while the work runs, checked just before
 * the call (a worker whose lock expired or was wiped must not issue).
 */

/**
 * Holds the per-order lock while `work` runs, renewed every third of its TTL: a worker killed
 * mid-create holds its order at most the TTL (default 10 s), not for the whole create timeout.
 */
export async function withLock(ctx: StepContext, work: (stillHeld: () => Promise<void>, underLock: LedgerEntry | null) => Promise<Outcome>): Promise<Outcome> {
  const { deps, ref } = ctx;
  const ttl = deps.pipeline.lockTtlMs;
  // The ledger is read in the lock's round trip: sent after the SET NX on the same connection, Redis
  // runs it once the lock is taken (or refused, then the read is dropped).
  const locking = deps.ledger.acquireLock(ref, ttl);
  const reading = deps.ledger.get(ref);
  reading.catch(() => undefined);
  const lock = await locking;
  if (!lock) return waitThen(ctx, 'issue', 1_000, ctx.data.polls);
  const renewal = setInterval(() => void deps.ledger.renewLock(ref, lock, ttl).catch(() => undefined), Math.max(200, Math.floor(ttl / 3)));
  // Checked just before a call that issues: a worker whose lock expired while it hung, or was wiped
  // with Redis's data, may share the order with another worker by now and must not issue.
  const stillHeld = async (): Promise<void> => {
    if (!(await deps.ledger.renewLock(ref, lock, ttl))) throw new Error('the order lock was lost (expired, or Redis lost it); not issuing: the next attempt starts from the ledger and the order');
  };
  // Released once: by the step's last write under the lock (sent in its round trip, after it), or here.
  let released: Promise<void> | undefined;
  const release = (): Promise<void> => {
    clearInterval(renewal);
    released ??= deps.ledger.releaseLock(ref, lock).catch(() => undefined);
    return released;
  };
  ctx.releaseLock = release;
  try {
    return await work(stillHeld, await reading);
  } finally {
    ctx.releaseLock = undefined;
    await release();
  }
}
