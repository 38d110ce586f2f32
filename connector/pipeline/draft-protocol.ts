import { ApiError, DocumentDuplicateError, ElementDoesNotExistError, ServiceValidationError } from '../../client/errors';
import type { CreateDocumentRequest } from '../../client/schemas/document';
import { type LedgerEntry } from '../core/ledger';
import { laterDateFromRefusal, msUntilShopDay } from './issue-date';
import { isPermanent } from './needs-person';
import { personNeeded } from './problems';
import { type StepContext, type Outcome, waitThen } from './step-context';
import { attempt, flag } from './job-history';
import { duplicateWithUnknownId } from './issue-record';

/**
 * The draft/close protocol of an invoice, credit note or receipt: save a draft under its own
 * ExternalId, record its id, close it by that id (safe to repeat); what a refused close means; a
 * series dated ahead makes the order wait for that day.
 */

/**
 * Whether a draft whose close may have been sent was closed: an update of it (no legal effect on a
 * draft) is refused as DocumentIsClosed when it was. A deleted draft is forgotten (the next attempt
 * saves a new one).
 */
export async function draftWasClosed(ctx: StepContext, entry: LedgerEntry, request: CreateDocumentRequest): Promise<boolean> {
  const { deps, ref, tenant } = ctx;
  const draftId = entry.documentId as number;
  try {
    await tenant.invoicing.updateDraft(draftId, withExternalId(request, draftExternalId(request.Document.ExternalId ?? '', entry.draftAttempt ?? 1)), tenant.documentCallOptions);
    return false;
  } catch (error) {
    if (refusedFor(error, 'DocumentIsClosed')) return true;
    if (error instanceof ElementDoesNotExistError) {
      await deps.ledger.record(ref, { state: 'drafting', lastError: `draft ${draftId} no longer exists` });
      await deps.ledger.clearFields(ref, ['closingAt']);
      return false;
    }
    throw error;
  }
}

/**
 * Lost answers heal themselves: the document is first saved as a draft under its own ExternalId
 * (`<ExternalId>.d<attempt>`), its id recorded, then closed by that id. A draft has no legal effect,
 * so a lost draft answer is answered by a fresh draft (next attempt; the old one is an orphan in
 * the back-office, never numbered); closing by id cannot make a second document, so it is safe to
 * repeat. The recording of the draft id is a compare-and-set on the attempt: a worker superseded
 * while it hung cannot replace the current draft.
 */
export async function saveDraft(ctx: StepContext, request: CreateDocumentRequest, current: LedgerEntry | null): Promise<{ documentId: number; attempt: number }> {
  const { deps, ref, tenant } = ctx;
  const first = (current?.draftAttempt ?? 0) + 1;
  const externalId = request.Document.ExternalId ?? '';
  // A new draft's close has not been sent: the marker of an earlier draft no longer speaks for it.
  if (current?.closingAt !== undefined) await deps.ledger.clearFields(ref, ['closingAt']);
  let draftId: number;
  let draftAttempt = first;
  for (;;) {
    await deps.ledger.record(ref, { state: 'drafting', externalId, documentType: request.Document.Type, draftAttempt, creatingAt: ctx.now() });
    try {
      draftId = (await attempt(ctx, 'draft', () => tenant.invoicing.saveDraft(withExternalId(request, draftExternalId(externalId, draftAttempt)), tenant.documentCallOptions))).documentId;
      break;
    } catch (error) {
      // An unclosed draft of a lost ledger holds this draft ExternalId (no marker: its close was never
      // sent): it has no legal effect, so the next attempt takes the next one.
      if (error instanceof DocumentDuplicateError && draftAttempt < first + MAX_DRAFT_SKIPS) {
        draftAttempt += 1;
        continue;
      }
      if (isPermanent(error)) await deps.ledger.record(ref, { state: 'failed', lastError: (error as Error).message });
      throw error;
    }
  }
  if (!(await deps.ledger.recordIf(ref, 'draftAttempt', draftAttempt, { state: 'draft', documentId: draftId }))) {
    throw new Error(`draft ${draftId} was superseded by a later attempt while this worker waited; it stays an unnumbered draft`);
  }
  return { documentId: draftId, attempt: draftAttempt };
}

/** Draft ExternalIds taken by orphan drafts that one run steps over before giving up. */
const MAX_DRAFT_SKIPS = 5;

export function draftExternalId(externalId: string, attempt: number): string {
  const suffix = `.d${attempt}`;
  return `${externalId.slice(0, 50 - suffix.length)}${suffix}`;
}

function withExternalId(request: CreateDocumentRequest, externalId: string): Omit<CreateDocumentRequest, 'IsToClose'> {
  return { ...request, Document: { ...request.Document, ExternalId: externalId } };
}

function refusedFor(error: unknown, type: string): boolean {
  return error instanceof ApiError && error.validationErrors.some((issue) => issue.Type === type);
}

/** What a refused close means; null when the draft is in fact closed (an earlier close's answer was lost). */
export async function closeRefused(ctx: StepContext, error: unknown, draftId: number, series: string, date: string, current: LedgerEntry | null): Promise<Outcome | null> {
  const { deps, ref, tenant } = ctx;
  if (refusedFor(error, 'DocumentIsClosed')) return null;
  if (error instanceof ServiceValidationError) {
    const later = laterDateFromRefusal(error, date);
    if (later) {
      await deps.ledger.advanceSeriesDate(tenant.config.id, series, later);
      return waitForSeriesDate(ctx, series, later, current);
    }
  }
  if (error instanceof DocumentDuplicateError) return duplicateWithUnknownId(ctx, 'unrecorded');
  if (error instanceof ElementDoesNotExistError) {
    // The draft is gone (deleted in the back-office): the next attempt saves a new one.
    await deps.ledger.record(ref, { state: 'drafting', lastError: `draft ${draftId} no longer exists` });
  }
  throw error;
}

/**
 * The series has a closed document dated after today (made in the back-office, or a clock that was
 * ahead): nothing can be issued in it before that day. The order waits, visibly, and is issued on
 * that day by itself.
 */
export async function waitForSeriesDate(ctx: StepContext, series: string, date: string, entry: LedgerEntry | null): Promise<never> {
  const { ref, tenant } = ctx;
  const [type, serie] = series.split(':');
  await flag(ctx, personNeeded(ref, { code: 'series-ahead', serie, type, date }), entry);
  return waitThen(ctx, 'issue', Math.max(60_000, msUntilShopDay(date, ctx.now(), tenant.mapping.shopTimeZone)), ctx.data.polls);
}
