import { type LedgerEntry } from '../core/ledger';
import { clearForPerson, isOrderGone } from './needs-person';
import { personNeeded } from './problems';
import { writeBack } from './write-back';
import { localDateTime } from '../../law/shop-date';
import type { StepContext, Outcome } from './step-context';
import { flushHistory, attempt, flag } from './job-history';

/**
 * The write-back step: the number and PDF link on the order; an order deleted meanwhile, or a total
 * that differs from the shop's, or a document dated in a month the accountant closed, told to a person.
 */

export async function writeBackStep(ctx: StepContext): Promise<Outcome> {
  const entry = ctx.entry ?? (await ctx.deps.ledger.get(ctx.ref));
  if (!entry || entry.documentId === undefined) return { next: 'issue' };
  if (entry.state === 'written-back') return { done: 'already written back' };
  try {
    // The run's story (its write-back attempt last) goes in the round trip of the final ledger record.
    const alongsideFinal = (): Promise<void> => {
      ctx.events.push({ kind: 'attempt', at: ctx.now(), purpose: ctx.ref.purpose, step: 'write-back', ok: true });
      return flushHistory(ctx);
    };
    await attempt(ctx, 'write-back', () =>
      writeBack({ tenant: ctx.tenant, ledger: ctx.deps.ledger, links: ctx.deps.links, metrics: ctx.deps.metrics, now: ctx.now, log: ctx.log, events: ctx.events, alongsideFinal }, ctx.ref, ctx.data, entry),
      { toldOnSuccess: true },
    );
  } catch (error) {
    if (!isOrderGone(error)) throw error;
    // Deleted on the shop after its document was issued: nothing to retry; a person decides about
    // the document (a credit note if the sale did not happen) and marks it handled.
    const problem = personNeeded(ctx.ref, { code: 'order-deleted', number: entry.documentNumber ?? String(entry.documentId) });
    await flag(ctx, problem, entry);
    return { done: 'order deleted on the shop after its document' };
  }
  await clearForPerson(ctx.deps.ledger, ctx.ref, entry);
  if (entry.totalDifference) await totalDiffers(ctx, entry);
  await inClosedMonth(ctx, entry);
  return { done: 'written back' };
}

/**
 * The document is issued and on the order, but its total is not the shop's: WooCommerce rounded
 * tax per line and no invoice rounding per rate reaches that total. The shop owner is told how to
 * make the two agree from now on (the document itself stays: a certified document is not edited).
 */
async function totalDiffers(ctx: StepContext, entry: LedgerEntry): Promise<void> {
  ctx.deps.metrics.totalDifferences.inc({ tenant: ctx.tenant.config.id });
  const problem = { code: 'total-differs' as const, number: entry.documentNumber ?? String(entry.documentId), total: entry.total, difference: entry.totalDifference ?? '', currency: entry.currency };
  await flag(ctx, personNeeded(ctx.ref, problem), entry);
}

/**
 * A document dated in a month the accountant has closed: issued all the same (the sale happened and
 * the law dates it), and a person is told, so the month's return is looked at again.
 */
async function inClosedMonth(ctx: StepContext, entry: LedgerEntry): Promise<void> {
  const day = entry.documentDate;
  if (!day || !ctx.deps.signOffs || entry.documentNumber === undefined) return;
  const month = day.slice(0, 7);
  // Read with the finalized record when this run numbered the document (finalize-step.ts).
  const closed = await (ctx.monthSignOff?.month === month ? ctx.monthSignOff.read : ctx.deps.signOffs.of(ctx.ref.tenant, month));
  if (!closed) return;
  const closedOn = localDateTime(new Date(closed.at), ctx.tenant.mapping.shopTimeZone).date;
  await flag(ctx, personNeeded(ctx.ref, { code: 'month-closed', number: entry.documentNumber, day, month: closed.month, by: closed.by, closedOn }), entry);
}
