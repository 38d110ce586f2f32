import { type LedgerEntry } from '../core/ledger';
import { flagForPerson } from './needs-person';
import type { NewHistoryEvent } from '../history/order-history';
import { answerOf } from './answers';
import type { StepContext } from './step-context';

/**
 * The order's story as a run tells it (the console's order page): each call to the service or the
 * shop with its answer, written with a step's last ledger write or when the run stops; a problem
 * follows what led to it.
 */

/** Writes the run's story so far (one MULTI); a history that cannot be written is logged, never fatal. */
export async function flushHistory(ctx: StepContext): Promise<void> {
  const history = ctx.deps.history;
  if (!history || ctx.events.length === 0) return;
  const events = ctx.events.splice(0).map((event) => ({ tenant: ctx.ref.tenant, orderId: ctx.ref.orderId, event }));
  await history.record(events, ctx.now()).catch((error: unknown) => ctx.log.warn({ err: (error as Error).message }, 'could not record the order history'));
}

/** One call to the service or the shop, told in the order's story with its answer. */
export async function attempt<T>(ctx: StepContext, step: Extract<NewHistoryEvent, { kind: 'attempt' }>['step'], call: () => Promise<T>, options: { toldOnSuccess?: boolean } = {}): Promise<T> {
  // Dated when the answer came (what the call wrote meanwhile, a write-back's notes, comes before it).
  // `toldOnSuccess`: the call tells its own success (the write-back, in its final round trip).
  try {
    const result = await call();
    if (!options.toldOnSuccess) ctx.events.push({ kind: 'attempt', at: ctx.now(), purpose: ctx.ref.purpose, step, ok: true });
    return result;
  } catch (error) {
    const answer = JSON.stringify(answerOf(error));
    ctx.events.push({ kind: 'attempt', at: ctx.now(), purpose: ctx.ref.purpose, step, ok: false, error: ((error as Error).message ?? String(error)).slice(0, 2000), answer: answer.slice(0, 8000) });
    throw error;
  }
}

/** A problem met inside a step: the run's story so far is written first, so the problem follows what led to it. */
export async function flag(ctx: StepContext, problem: Parameters<typeof flagForPerson>[3], entry: LedgerEntry | null | undefined): Promise<void> {
  await flushHistory(ctx);
  await flagForPerson(ctx.deps, ctx.tenant, ctx.ref, problem, ctx.now(), ctx.log, entry);
}
