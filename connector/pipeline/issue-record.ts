import { issuingKeyForPurpose, type IssuingMarker } from '../shop/order-meta';
import { type LedgerEntry } from '../core/ledger';
import { type IssueRequest } from './document-requests';
import { clearForPerson } from './needs-person';
import { personNeeded, type UnknownIdCause } from './problems';
import { type StepContext, type Outcome, waitThen } from './step-context';
import { flushHistory, flag } from './job-history';

/**
 * The record of an issue: the issuing marker on the order before the close (a lost ledger is rebuilt
 * from it), the ledger's `created` with the series date, the mapping's warnings kept for the note, and
 * a duplicate the connector cannot name told to a person.
 */

/** The mapping's warnings as the ledger keeps them for the write-back note: coded (JSON), worded in the shop's language there. */
export function recordedWarnings(notes: IssueRequest['notes']): string {
  const warnings = notes.filter((note) => note.level === 'warning').map(({ code, params }) => ({ code, params }));
  return warnings.length > 0 ? JSON.stringify(warnings) : '';
}

/**
 * Whether the order's issuing marker names a document step the ledger does not know: no ledger, a
 * ledger without a state (only stray fields written after a wipe), or one that names another draft.
 */
export function ledgerMissesMarker(entry: LedgerEntry | null, marker: IssuingMarker | null): boolean {
  if (!marker) return false;
  if (!entry || entry.state === undefined) return true;
  return marker.documentId !== undefined && entry.documentId !== marker.documentId;
}

/** The document is closed (numbered on the service's side): recorded, then Get Document after the service's wait. */
export async function recordCreated(
  ctx: StepContext,
  current: LedgerEntry | null,
  created: { documentId: number; date: string; series: string; warnings: string; viesConfirmed?: string; totalDifference?: string; currency?: string; regime?: { year: number; euroCents: bigint } },
): Promise<Outcome> {
  const { deps, ref, data, tenant } = ctx;
  const { documentId, date, series, warnings, viesConfirmed, totalDifference, currency, regime } = created;
  // One round trip: sent together on the ledger's connection, run by Redis in this order; the run's
  // story so far (the draft and close attempts) goes with it, and the order's lock is released last
  // (a run that takes it next reads `created` and goes on to Get Document).
  await Promise.all([
    deps.ledger.record(ref, { state: 'created', documentId, documentDate: date, createdAt: ctx.now(), lastError: '', warnings, viesConfirmed, totalDifference, currency }),
    deps.ledger.advanceSeriesDate(tenant.config.id, series, date),
    clearForPerson(deps.ledger, ref, current),
    flushHistory(ctx),
    // The year's M10 turnover (CIVA art. 53): counted by order and purpose, so a repeat counts once.
    ...(regime ? [deps.ledger.countRegimeDocument(ref, regime.year, regime.euroCents)] : []),
    ctx.releaseLock?.(),
  ]);
  deps.metrics.documentsIssued.inc({ tenant: tenant.config.id, kind: data.kind });
  ctx.log.info({ documentId, date }, 'document created');
  return waitThen(ctx, 'finalize', deps.pipeline.finalizeDelayMs, 0);
}

/**
 * Puts the issuing marker on the order (a meta PUT by key: repeating it is harmless), then records
 * that it is there. From then on a lost ledger is rebuilt from the order (order-memory.ts).
 * `stillHeld`: the lock check before the close, sent in the same round trip as the record (after it).
 */
export async function markIssuing(ctx: StepContext, marker: IssuingMarker, stillHeld?: () => Promise<void>): Promise<void> {
  const value: Record<string, string | number> = {};
  // Which copy of the order this document was made from (its digest, kept when the copy was let go): the route tells the echo of this PUT by it.
  const stamped: IssuingMarker = ctx.composedDigest === undefined ? marker : { ...marker, orderDigest: ctx.composedDigest };
  for (const [name, field] of Object.entries(stamped)) if (field !== undefined) value[name] = field;
  await ctx.tenant.shop.updateOrderMeta(ctx.data.orderId, [{ key: issuingKeyForPurpose(ctx.ref.purpose), value }]);
  await Promise.all([ctx.deps.ledger.record(ctx.ref, { closingAt: marker.at }), stillHeld?.()]);
}

/** A document may exist on the service that this connector cannot name (`cause`: why). */
export async function duplicateWithUnknownId(ctx: StepContext, cause: UnknownIdCause): Promise<Outcome> {
  const { deps, ref } = ctx;
  const entry = await deps.ledger.get(ref);
  const externalId = entry?.externalId ?? '';
  const problem = personNeeded(ref, { code: 'unknown-id', externalId, cause }, 'duplicate-unknown-id');
  await flag(ctx, problem, entry);
  ctx.log.error({ externalId, cause }, 'duplicate with unknown id');
  return { done: 'duplicate-unknown-id' };
}
