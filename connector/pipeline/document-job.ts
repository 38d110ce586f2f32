import { DelayedError, UnrecoverableError, type Job, type Processor } from 'bullmq';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { ApiError, DocumentDuplicateError, ElementDoesNotExistError, ServiceValidationError } from '../../client/errors';
import type { CreateDocumentRequest } from '../../client/schemas/document';
import { abs, formatDecimal, parseDecimal, toCents } from '../../client/money';
import type { Sale } from '../../law/sale';
import { platformOf } from '../../platforms/registry';
import { isBindingHold } from '../../law/credit-limits';
import { restoreFromOrder, restoreIssuingFromOrder } from './order-memory';
import { issuingKeyForPurpose, issuingMarker, orderDigest, type IssuingMarker } from '../shop/order-meta';
import type { ConnectorConfig } from '../config/load-config';
import { DocumentJobDataSchema, purposeOf, type DocumentJobData, type Step } from '../core/jobs';
import { stateRules, type Ledger, type LedgerEntry, type LedgerRef } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import type { PdfLinkSigner } from '../pdf/pdf-link';
import { composeIssueRequest, type IssueRequest } from './document-requests';
import { issueDateFor, laterDateFromRefusal, msUntilShopDay, seriesOf, shopToday } from './issue-date';
import type { TenantRuntime } from './tenant-runtime';
import { clearForPerson, flagForPerson, flagJobFailure, isOrderGone, isPermanent } from './needs-person';
import { parseProblem, personNeeded, type Problem, type UnknownIdCause } from './problems';
import { earlierDocumentTrace } from './earlier-traces';
import { externalIdForOrder } from '../../law/external-id';
import { writeBack } from './write-back';
import { reviewOrder } from './order-review';
import type { NewHistoryEvent, OrderHistory } from '../history/order-history';
import { answerOf } from './answers';
import type { DocumentFacts } from '../month/ledger-documents';
import type { MonthSignOffs } from '../month/sign-off';
import { localDateTime } from '../../law/shop-date';

export interface PipelineDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  ledger: Ledger;
  metrics: ConnectorMetrics;
  logger: Logger;
  links: PdfLinkSigner;
  pipeline: ConnectorConfig['pipeline'];
  now?: () => number;
  /** server.publicUrl: notes about problems link the order's page in the console. */
  publicUrl?: string;
  /** The order's story (the console's order page); a failure to write it never stops a document. */
  history?: OrderHistory;
  /** Keeps each finalized document's tax facts for the month pack; a failure to keep them never stops a document. */
  documentFacts?: Pick<DocumentFacts, 'remember'>;
  /** The months the accountant closed: a document dated in one goes to a person. */
  signOffs?: Pick<MonthSignOffs, 'of'>;
}

interface StepContext {
  job: Job<DocumentJobData>;
  token: string | undefined;
  data: DocumentJobData;
  tenant: TenantRuntime;
  ref: LedgerRef;
  deps: PipelineDeps;
  now: () => number;
  log: Logger;
  /** The ledger entry as the previous step of this run left it (saves a read). */
  entry?: LedgerEntry;
  /** The order's story of this run (attempts, the document, its notes): written in one MULTI when the run stops. */
  events: NewHistoryEvent[];
  /** The shop's copy of the order the document is composed from, as it came (its digest goes on the issuing marker). */
  composedFrom?: unknown;
}

/** A step either hands over to the next step now, or the job is finished. Delays throw DelayedError. */
type Outcome = { next: Step } | { done: string };

/**
 * The document pipeline as BullMQ step jobs: issue -> finalize -> writeback, with `step` kept in the
 * job data so a retry or a restarted worker resumes where the last one stopped. Waiting (the 10 s
 * before Get Document, polling, waiting for an invoice number) moves the job to delayed and frees the
 * worker. Exactly-once rests on the ledger, not on the job: see issueStep.
 */
export function documentProcessor(deps: PipelineDeps): Processor<DocumentJobData, string> {
  const now = deps.now ?? Date.now;
  return async (job, token) => {
    const data = DocumentJobDataSchema.parse(job.data);
    deps.metrics.jobRuns.inc({ kind: data.kind });
    const tenant = deps.tenants.get(data.tenant);
    if (!tenant) throw new UnrecoverableError(`tenant ${data.tenant} is not in this worker's configuration`);
    const ref: LedgerRef = { tenant: data.tenant, orderId: data.orderId, purpose: purposeOf(data.kind, data.refundId) };
    const log = deps.logger.child({ tenant: data.tenant, orderId: data.orderId, purpose: ref.purpose, jobId: job.id });
    // A review issues nothing: a failed one is retried by BullMQ and resumed by the next update or sweep.
    if (data.kind === 'review') return reviewOrder(deps, tenant, data.orderId, now(), log);
    const ctx: StepContext = { job, token, data, tenant, ref, deps, now, log, events: [] };
    try {
      return await runSteps(ctx);
    } finally {
      await flushHistory(ctx);
    }
  };
}

/** The steps of one run, from the job's step, until it is done, waits (DelayedError) or fails. */
async function runSteps(ctx: StepContext): Promise<string> {
  const { deps, data, ref, tenant, log, job } = ctx;
  let step: Step = data.step;
  try {
    for (;;) {
      const outcome = step === 'issue' ? await issueStep(ctx) : step === 'finalize' ? await finalizeStep(ctx) : await writeBackStep(ctx);
      if ('done' in outcome) {
        log.info({ outcome: outcome.done }, 'document job done');
        return outcome.done;
      }
      step = outcome.next;
      // The stored step only saves a ledger read on resume (every step starts from the ledger,
      // and issue resumes any purpose from it), so it is written only when a poll count must
      // be reset for the new step.
      if (step !== ctx.data.step && ctx.data.polls !== 0) await setData(ctx, { step, polls: 0 });
    }
  } catch (error) {
    if (error instanceof DelayedError) throw error;
    // The failed list (and the admin API) shows where the job stopped; failures are rare, so
    // the step is written here rather than on every transition.
    if (step !== ctx.data.step) await setData(ctx, { step }).catch(() => undefined);
    if (error instanceof UnrecoverableError) throw error;
    deps.metrics.documentsFailed.inc({ kind: data.kind, reason: (error as Error).name || 'Error' });
    const permanent = isPermanent(error);
    const attempts = job.attemptsMade + 1;
    if (!permanent && attempts < (job.opts.attempts ?? 1)) {
      await deps.ledger.record(ref, { lastError: (error as Error).message }).catch(() => undefined);
      log.warn({ err: (error as Error).message, step, attempt: attempts }, 'document job attempt failed; will retry');
      throw error;
    }
    // The job ends here: the order goes to a person with the reason, on the order and in the
    // attention list. A later delivery, the sweep or an admin retry resumes it (ingest/add-resuming.ts).
    log.error({ err: (error as Error).message, step }, 'document job failed for good');
    // The failed attempt is told before the problem it led to.
    await flushHistory(ctx);
    await flagJobFailure(deps, tenant, ref, error, attempts, ctx.now(), log).catch((flagError: unknown) => log.error({ err: (flagError as Error).message }, 'could not record the failure'));
    throw permanent ? new UnrecoverableError((error as Error).message) : error;
  }
}

/** Writes the run's story so far (one MULTI); a history that cannot be written is logged, never fatal. */
async function flushHistory(ctx: StepContext): Promise<void> {
  const history = ctx.deps.history;
  if (!history || ctx.events.length === 0) return;
  const events = ctx.events.splice(0).map((event) => ({ tenant: ctx.ref.tenant, orderId: ctx.ref.orderId, event }));
  await history.record(events, ctx.now()).catch((error: unknown) => ctx.log.warn({ err: (error as Error).message }, 'could not record the order history'));
}

/** One call to the service or the shop, told in the order's story with its answer. */
async function attempt<T>(ctx: StepContext, step: Extract<NewHistoryEvent, { kind: 'attempt' }>['step'], call: () => Promise<T>, options: { toldOnSuccess?: boolean } = {}): Promise<T> {
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
async function flag(ctx: StepContext, problem: Parameters<typeof flagForPerson>[3], entry: LedgerEntry | null | undefined): Promise<void> {
  await flushHistory(ctx);
  await flagForPerson(ctx.deps, ctx.tenant, ctx.ref, problem, ctx.now(), ctx.log, entry);
}

async function setData(ctx: StepContext, changes: Partial<DocumentJobData>): Promise<void> {
  ctx.data = { ...ctx.data, ...changes };
  await ctx.job.updateData(ctx.data);
}

/**
 * Parks the job until `delayMs` from now, at `step`; the worker is free meanwhile. The job data is
 * rewritten only when the poll count changes: a job resumed at an earlier step (issue) finds its
 * progress in the ledger and moves on (one Redis script call per order less on the common path).
 */
async function waitThen(ctx: StepContext, step: Step, delayMs: number, polls: number): Promise<never> {
  if (polls !== ctx.data.polls) await setData(ctx, { step, polls });
  // BullMQ promotes delayed jobs by the promoting process's own clock, not the shared one (ctx.now):
  // the delay is relative, and finalizeStep checks the shared clock again when the job comes back.
  await ctx.job.moveToDelayed(Date.now() + delayMs, ctx.token);
  throw new DelayedError();
}

/**
 * The order as the shop has it now (the job holds only a reference), as its platform's neutral sale;
 * `composing`: the copy the document is made from.
 */
async function orderOf(ctx: StepContext, composing = false): Promise<Sale> {
  const raw = await ctx.tenant.shop.getOrder(ctx.data.orderId);
  if (composing) ctx.composedFrom = raw;
  return platformOf(ctx.tenant.config).saleOf(raw, ctx.tenant.mapping, ctx.tenant.config);
}

async function issueStep(ctx: StepContext): Promise<Outcome> {
  const { deps, ref, data, tenant } = ctx;
  let entry = await deps.ledger.get(ref);
  const resumed = resumeFrom(entry);
  if (resumed) return resumed;

  let invoice: LedgerEntry | null = null;
  if (data.kind === 'credit-note' || data.kind === 'cancellation') {
    invoice = await deps.ledger.get({ ...ref, purpose: 'invoice' });
    // An old order whose invoice ledger expired: the invoice is on the order's meta.
    invoice ??= await restoreFromOrder(deps.ledger, { ...ref, purpose: 'invoice' }, (await orderOf(ctx)).attributes, ctx.now());
    if (!invoice?.documentNumber || invoice.documentId === undefined) {
      if ((invoice && stateRules(invoice.state).blocksCredit) || data.polls >= deps.pipeline.waitForInvoicePolls) {
        if (invoice) {
          // The invoice itself is on the attention list; this purpose is planned again once it is fixed.
          const detail = `the invoice is in state ${invoice.state}`;
          await deps.ledger.record(ref, { state: 'skipped', detail });
          return { done: `skipped: ${detail}` };
        }
        // Nobody else will notice: an order invoiced outside this connector (or before it) was refunded.
        await flag(ctx, personNeeded(ref, { code: 'no-invoice' }, 'skipped'), entry);
        return { done: 'skipped: the order has no invoice from this connector' };
      }
      return waitThen(ctx, 'issue', deps.pipeline.finalizePollBackoffMs, data.polls + 1);
    }
    if (data.kind === 'cancellation' && tenant.config.settings.onCancelled === 'cancel' && entry?.creditNoteAskedAt === undefined) return cancelInvoice(ctx, entry, invoice);
    if (data.kind === 'credit-note' && entry?.documentId === undefined) {
      const over = await creditedInFull(ctx, invoice);
      if (over) {
        await flag(ctx, personNeeded(ref, over, 'skipped'), entry);
        return { done: 'skipped: the invoice was credited in full before this refund' };
      }
    }
  }

  const sale = await orderOf(ctx, true);
  // No ledger, yet our meta on the order (a late delivery of an order whose ledger expired): done.
  if (!entry && (await restoreFromOrder(deps.ledger, ref, sale.attributes, ctx.now()))) return { done: 'already written back (found on the order)' };
  // The ledger is gone, or does not know the draft the order's marker names (Redis lost it mid-flight
  // and a stray write of a worker from before recreated part of it): the order is right. Continue
  // with that draft, never a new one.
  if (ledgerMissesMarker(entry, issuingMarker(sale.attributes, ref.purpose))) {
    entry = await restoreIssuingFromOrder(deps.ledger, ref, sale.attributes, ctx.now());
    if (entry) {
      deps.metrics.ledgersRestored.inc({ tenant: tenant.config.id });
      ctx.log.warn({ state: entry.state, documentId: entry.documentId }, 'ledger lost: rebuilt from the issuing marker on the order');
    }
  }
  // Nothing on the order or in the ledger remembers an invoice: a note or the order's story may still name one.
  const trace = await earlierTraceHold(ctx, entry);
  if (trace) return trace;
  const built = await composeIssueRequest(tenant, sale, data, invoice, ctx.now());
  // A person's release lifts a hold, never a binding one (a credit note beyond its invoice).
  if (built.hold && (entry?.holdReleasedAt === undefined || built.holds.some(isBindingHold))) {
    // A draft whose close may have been sent is a numbered document if it was: then there is nothing to hold.
    if (built.kind === 'document' && entry?.state === 'draft' && entry.closingAt !== undefined && (await draftWasClosed(ctx, entry, built.request))) {
      return recordCreated(ctx, entry, { documentId: entry.documentId as number, date: shopToday(ctx.now(), tenant.mapping.shopTimeZone), warnings: '', series: seriesOf(built.request.Document.Type, built.request.Document.Serie) });
    }
    const held = personNeeded(ref, { code: 'held', holds: built.holds }, 'held');
    if (entry?.state !== 'held' || entry.detail !== held.reason) await flag(ctx, held, entry);
    return { done: 'held' };
  }
  if (built.kind === 'waybill') return createWaybillOnce(ctx, built);
  const request = built.request;
  const doc = request.Document;
  const series = seriesOf(doc.Type, doc.Serie);
  const today = shopToday(ctx.now(), tenant.mapping.shopTimeZone);
  const issue = await issueDateFor(deps.ledger, tenant.config.id, series, today, invoice?.documentDate);
  if (issue.notBefore) return waitForSeriesDate(ctx, series, issue.notBefore, entry);

  return withLock(ctx, async (stillHeld, underLock) => {
    // Read under the lock: a concurrent delivery may have created the document meanwhile.
    let current = underLock;
    const again = resumeFrom(current);
    if (again) return again;
    if (!(current?.state === 'draft' && current.documentId !== undefined)) {
      // About to save a new draft: the order is read again under the lock. A worker that held this
      // order before (its lock lost with Redis's data) put its marker there before closing; then
      // that draft is closed by id, never a second one beside it.
      const platform = platformOf(tenant.config);
      const raw = await ctx.tenant.shop.getOrder(data.orderId);
      const meta = platform.attributesOf?.(raw) ?? platform.saleOf(raw, tenant.mapping, tenant.config).attributes;
      if (ledgerMissesMarker(current, issuingMarker(meta, ref.purpose))) current = await restoreIssuingFromOrder(deps.ledger, ref, meta, ctx.now());
    }
    const known = current?.state === 'draft' && current.documentId !== undefined ? current : null;
    const draft = known ? { documentId: known.documentId as number, attempt: known.draftAttempt ?? 1 } : await saveDraft(ctx, request, current);
    const draftId = draft.documentId;
    // The order learns of the draft before the close: if Redis loses this ledger, the next run finds it there.
    if (known?.closingAt === undefined) {
      await markIssuing(ctx, { documentId: draftId, externalId: doc.ExternalId ?? '', attempt: draft.attempt, documentType: doc.Type, at: ctx.now() }, stillHeld);
    } else await stillHeld();
    try {
      await attempt(ctx, 'close', () => tenant.invoicing.closeDraft(draftId, request, tenant.documentCallOptions));
    } catch (error) {
      const outcome = await closeRefused(ctx, error, draftId, series, issue.date, current);
      if (outcome) return outcome;
    }
    // The mapping's warnings go into the write-back note; a total per-rate rounding could not reach is flagged after it.
    const warnings = recordedWarnings(built.notes);
    return recordCreated(ctx, current, { documentId: draftId, date: issue.date, warnings, series, viesConfirmed: built.viesConfirmed, totalDifference: built.totalDifference, currency: doc.Currency });
  });
}

/**
 * An invoice about to be issued with no ledger entry and no marker: held for a person when a trace
 * of an earlier document is found (pipeline/earlier-traces.ts). Held once; kept held until a person
 * attaches the document or asks to issue anyway (retry: holdReleasedAt).
 */
async function earlierTraceHold(ctx: StepContext, entry: LedgerEntry | null): Promise<Outcome | undefined> {
  if (ctx.ref.purpose !== 'invoice') return undefined;
  if (entry?.state === 'held' && parseProblem(entry.problem)?.code === 'earlier-document') return entry.holdReleasedAt === undefined ? { done: 'held' } : undefined;
  if (entry?.state !== undefined) return undefined;
  const trace = await earlierDocumentTrace(ctx.tenant.shop, ctx.deps.history, ctx.ref.tenant, ctx.ref.orderId);
  if (!trace) return undefined;
  ctx.log.warn({ trace }, 'no ledger and no meta, yet a trace of an earlier invoice: held for a person');
  await flag(ctx, personNeeded(ctx.ref, { code: 'earlier-document', ...trace }, 'held'), entry);
  // What "attach" checks the named document against (admin/order-actions.ts).
  await ctx.deps.ledger.record(ctx.ref, { externalId: externalIdForOrder(ctx.ref.orderId, ctx.tenant.mapping) });
  return { done: 'held' };
}

/** The mapping's warnings as the ledger keeps them for the write-back note: coded (JSON), worded in the shop's language there. */
function recordedWarnings(notes: IssueRequest['notes']): string {
  const warnings = notes.filter((note) => note.level === 'warning').map(({ code, params }) => ({ code, params }));
  return warnings.length > 0 ? JSON.stringify(warnings) : '';
}

/**
 * Whether the order's issuing marker names a document step the ledger does not know: no ledger, a
 * ledger without a state (only stray fields written after a wipe), or one that names another draft.
 */
function ledgerMissesMarker(entry: LedgerEntry | null, marker: IssuingMarker | null): boolean {
  if (!marker) return false;
  if (!entry || entry.state === undefined) return true;
  return marker.documentId !== undefined && entry.documentId !== marker.documentId;
}

/** The document is closed (numbered on the service's side): recorded, then Get Document after the service's wait. */
async function recordCreated(
  ctx: StepContext,
  current: LedgerEntry | null,
  created: { documentId: number; date: string; series: string; warnings: string; viesConfirmed?: string; totalDifference?: string; currency?: string },
): Promise<Outcome> {
  const { deps, ref, data, tenant } = ctx;
  const { documentId, date, series, warnings, viesConfirmed, totalDifference, currency } = created;
  // One round trip: sent together on the ledger's connection, run by Redis in this order; the run's
  // story so far (the draft and close attempts) goes with it.
  await Promise.all([
    deps.ledger.record(ref, { state: 'created', documentId, documentDate: date, createdAt: ctx.now(), lastError: '', warnings, viesConfirmed, totalDifference, currency }),
    deps.ledger.advanceSeriesDate(tenant.config.id, series, date),
    clearForPerson(deps.ledger, ref, current),
    flushHistory(ctx),
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
async function markIssuing(ctx: StepContext, marker: IssuingMarker, stillHeld?: () => Promise<void>): Promise<void> {
  const value: Record<string, string | number> = {};
  // Which copy of the order this document was made from: the route tells the echo of this PUT by it.
  const stamped: IssuingMarker = ctx.composedFrom === undefined ? marker : { ...marker, orderDigest: orderDigest(ctx.composedFrom) };
  for (const [name, field] of Object.entries(stamped)) if (field !== undefined) value[name] = field;
  await ctx.tenant.shop.updateOrderMeta(ctx.data.orderId, [{ key: issuingKeyForPurpose(ctx.ref.purpose), value }]);
  await Promise.all([ctx.deps.ledger.record(ctx.ref, { closingAt: marker.at }), stillHeld?.()]);
}

/**
 * Whether a draft whose close may have been sent was closed: an update of it (no legal effect on a
 * draft) is refused as DocumentIsClosed when it was. A deleted draft is forgotten (the next attempt
 * saves a new one).
 */
async function draftWasClosed(ctx: StepContext, entry: LedgerEntry, request: CreateDocumentRequest): Promise<boolean> {
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
async function saveDraft(ctx: StepContext, request: CreateDocumentRequest, current: LedgerEntry | null): Promise<{ documentId: number; attempt: number }> {
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
async function closeRefused(ctx: StepContext, error: unknown, draftId: number, series: string, date: string, current: LedgerEntry | null): Promise<Outcome | null> {
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
async function waitForSeriesDate(ctx: StepContext, series: string, date: string, entry: LedgerEntry | null): Promise<never> {
  const { ref, tenant } = ctx;
  const [type, serie] = series.split(':');
  await flag(ctx, personNeeded(ref, { code: 'series-ahead', serie, type, date }), entry);
  return waitThen(ctx, 'issue', Math.max(60_000, msUntilShopDay(date, ctx.now(), tenant.mapping.shopTimeZone)), ctx.data.polls);
}

/**
 * Holds the per-order lock while `work` runs, renewed every third of its TTL: a worker killed
 * mid-create holds its order at most the TTL (default 10 s), not for the whole create timeout.
 */
async function withLock(ctx: StepContext, work: (stillHeld: () => Promise<void>, underLock: LedgerEntry | null) => Promise<Outcome>): Promise<Outcome> {
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
  try {
    return await work(stillHeld, await reading);
  } finally {
    clearInterval(renewal);
    await deps.ledger.releaseLock(ref, lock).catch(() => undefined);
  }
}

/** Waybills have no draft step in the client: a lost answer is caught by the ExternalId duplicate check. */
async function createWaybillOnce(ctx: StepContext, built: Extract<IssueRequest, { kind: 'waybill' }>): Promise<Outcome> {
  const { deps, ref, data, tenant } = ctx;
  const externalId = built.request.Waybill.ExternalId;
  const documentType = built.request.Waybill.Type;
  return withLock(ctx, async (stillHeld, current) => {
    const again = resumeFrom(current);
    if (again) return again;
    // A previous attempt sent the create and never heard back: if it reached the service, this
    // create comes back DocumentIsADuplicate (same ExternalId) instead of issuing a second one.
    const retryingLostAnswer = current?.state === 'creating';
    // The service's duplicate check is ExternalId together with the client data: once the buyer's
    // data on the order has changed, a retry would not be caught there, so it is not sent.
    const clientKey = clientKeyOf(built.request.Client);
    if (retryingLostAnswer && current?.clientKey && current.clientKey !== clientKey) return duplicateWithUnknownId(ctx, 'client-changed');
    // On the order before the create: a ledger lost after it is rebuilt at 'creating' (order-memory.ts).
    if (current?.closingAt === undefined) await markIssuing(ctx, { externalId: externalId ?? '', documentType, clientKey, at: ctx.now() });
    // Recorded BEFORE the call: whatever happens next, the ledger knows a create may exist.
    await deps.ledger.record(ref, { state: 'creating', externalId: externalId ?? '', documentType, clientKey, creatingAt: ctx.now() });
    await stillHeld();
    let result: { documentId: number; documentNumber?: string | null };
    try {
      result = await attempt(ctx, 'create', () => tenant.invoicing.createWaybill(built.request, tenant.documentCallOptions));
    } catch (error) {
      if (error instanceof DocumentDuplicateError) return duplicateWithUnknownId(ctx, retryingLostAnswer ? 'lost-answer' : 'unrecorded');
      if (isPermanent(error)) await deps.ledger.record(ref, { state: 'failed', lastError: (error as Error).message });
      throw error;
    }
    await deps.ledger.record(ref, { state: 'created', documentId: result.documentId, createdAt: ctx.now(), documentNumber: result.documentNumber ?? undefined, lastError: '' });
    await clearForPerson(deps.ledger, ref, current);
    deps.metrics.documentsIssued.inc({ tenant: tenant.config.id, kind: data.kind });
    ctx.log.info({ documentId: result.documentId, externalId }, 'document created');
    return waitThen(ctx, 'finalize', deps.pipeline.finalizeDelayMs, 0);
  });
}

/** Where a purpose already has progress, continue from it instead of issuing (the ledger's state table says where). */
function resumeFrom(entry: LedgerEntry | null): Outcome | null {
  return entry ? stateRules(entry.state).resumeFrom : null;
}

/** A document may exist on the service that this connector cannot name (`cause`: why). */
async function duplicateWithUnknownId(ctx: StepContext, cause: UnknownIdCause): Promise<Outcome> {
  const { deps, ref } = ctx;
  const entry = await deps.ledger.get(ref);
  const externalId = entry?.externalId ?? '';
  const problem = personNeeded(ref, { code: 'unknown-id', externalId, cause }, 'duplicate-unknown-id');
  await flag(ctx, problem, entry);
  ctx.log.error({ externalId, cause }, 'duplicate with unknown id');
  return { done: 'duplicate-unknown-id' };
}

/** A short digest of the Client block, so the ledger can tell a changed buyer without storing personal data. */
function clientKeyOf(client: IssueRequest['request']['Client']): string {
  return createHash('sha256').update(JSON.stringify(client)).digest('base64url').slice(0, 22);
}

async function cancelInvoice(ctx: StepContext, entry: LedgerEntry | null, invoice: LedgerEntry): Promise<Outcome> {
  const { deps, ref, tenant } = ctx;
  const documentId = invoice.documentId as number;
  return withLock(ctx, async () => {
    const retrying = entry?.state === 'creating';
    await deps.ledger.record(ref, { state: 'creating', documentId, documentNumber: invoice.documentNumber, creatingAt: ctx.now() });
    try {
      await attempt(ctx, 'cancel', () => tenant.invoicing.cancelDocument(documentId, tenant.documentCallOptions));
    } catch (error) {
      // A lost answer: the retry is refused because the document is no longer Closed. Check it.
      if (!retrying) throw error;
      const details = await tenant.invoicing.getDocument(documentId, tenant.documentCallOptions);
      if (details.details.document.DocumentStatusId !== 'A') throw error;
    }
    await deps.ledger.record(ref, { state: 'cancelled', createdAt: ctx.now() });
    ctx.events.push({ kind: 'document', at: ctx.now(), purpose: ref.purpose, documentId, number: invoice.documentNumber, type: invoice.documentType, corrects: invoice.documentNumber });
    await deps.ledger.record({ ...ref, purpose: 'invoice' }, { detail: 'cancelled on MagniFinance' });
    return { next: 'writeback' };
  });
}

async function finalizeStep(ctx: StepContext): Promise<Outcome> {
  const { deps, ref, data } = ctx;
  const entry = await deps.ledger.get(ref);
  if (!entry || entry.documentId === undefined) return { next: 'issue' };
  if (entry.state === 'finalized' || entry.state === 'written-back' || entry.state === 'cancelled') return { next: 'writeback' };
  // A worker that died between two steps, or another worker whose clock is ahead (BullMQ promotes by
  // its clock), may bring the job back early: the service's 10 s still hold, on the shared clock.
  const earliest = (entry.createdAt ?? 0) + deps.pipeline.finalizeDelayMs;
  if (ctx.now() < earliest) return waitThen(ctx, 'finalize', earliest - ctx.now(), data.polls);
  const details = await documentIfNumbered(ctx, entry.documentId);
  if (details?.documentNumber && details.downloadUrl) {
    const finalizedAt = ctx.now();
    const total = details.totalAmount ? formatDecimal(details.totalAmount, 2) : undefined;
    // The invoice's buyer as the service issued it: a NIF added to the order later is told, never issued (buyer-change.ts).
    const buyerNif = ref.purpose === 'invoice' && details.details.receiver.TaxId !== undefined ? String(details.details.receiver.TaxId) : undefined;
    await deps.ledger.record(ref, { state: 'finalized', documentNumber: details.documentNumber, finalizedAt, total, buyerNif });
    await deps.documentFacts?.remember(ref.tenant, entry.documentId, details, ctx.tenant.mapping.dispatchRegion).catch((error: unknown) => ctx.log.warn({ err: (error as Error).message }, 'document facts not kept for the month pack'));
    ctx.entry = { ...entry, state: 'finalized', documentNumber: details.documentNumber, finalizedAt, total, buyerNif };
    ctx.events.push({ kind: 'document', at: finalizedAt, purpose: ref.purpose, documentId: entry.documentId, number: details.documentNumber, type: entry.documentType, total, corrects: await correctedNumber(ctx) });
    deps.metrics.orderToNumber.observe({ kind: data.kind }, (ctx.now() - data.seenAt) / 1000);
    ctx.log.info({ documentId: entry.documentId, documentNumber: details.documentNumber }, 'document finalized');
    return { next: 'writeback' };
  }
  if (data.polls < deps.pipeline.finalizePolls) {
    const backoff = Math.min(deps.pipeline.finalizePollBackoffMs * 2 ** data.polls, 60_000);
    return waitThen(ctx, 'finalize', backoff, data.polls + 1);
  }
  await flag(ctx, personNeeded(ref, { code: 'no-number', documentId: entry.documentId, calls: data.polls + 1 }, 'alert-no-number'), entry);
  throw new UnrecoverableError(`document ${entry.documentId} has no number after ${data.polls + 1} Get Document calls`);
}

/**
 * A refund made after the whole invoice was credited (the console's "credit note for the whole
 * invoice", or a cancellation's credit note): the whole credit note plus the shop's refunds would
 * credit more than the invoice (a cent per document of rounding aside). The refunds made before the
 * whole credit note were left out of it, so theirs still pass.
 */
async function creditedInFull(ctx: StepContext, invoice: LedgerEntry): Promise<Problem | undefined> {
  const whole = await ctx.deps.ledger.get({ ...ctx.ref, purpose: 'cancellation' });
  if (whole?.documentId === undefined || whole.state === 'cancelled' || whole.documentNumber === undefined) return undefined;
  const sale = await orderOf(ctx);
  const refunds = (await ctx.tenant.shop.listRefunds(ctx.data.orderId)).map((raw) => platformOf(ctx.tenant.config).refundOf(raw, sale));
  // An invoice or credit note whose total is not recorded (restored from an old order): no sum can clear it.
  if (whole.total !== undefined && invoice.total !== undefined) {
    const cents = (text: string): bigint => toCents(abs(parseDecimal(text)));
    const credited = refunds.reduce((total, refund) => total + cents(refund.amount), cents(whole.total));
    if (credited <= cents(invoice.total) + BigInt(refunds.length + 1)) return undefined;
  }
  const refund = refunds.find((r) => r.id === String(ctx.data.refundId));
  return { code: 'credited-in-full', invoice: invoice.documentNumber ?? '', creditNote: whole.documentNumber, refundId: ctx.data.refundId ?? 0, amount: refund?.amount.replace('-', '') ?? '0.00', currency: invoice.currency };
}

/** The invoice a credit note or cancellation corrects (its number), for the order's story; one ledger read, only for those. */
async function correctedNumber(ctx: StepContext): Promise<string | undefined> {
  if (ctx.data.kind !== 'credit-note' && ctx.data.kind !== 'cancellation') return undefined;
  const invoice = await ctx.deps.ledger.get({ ...ctx.ref, purpose: 'invoice' }).catch(() => null);
  return invoice?.documentNumber;
}

/**
 * Get Document, where "not numbered yet" may come back as ElementDoesNotExist (the real service
 * answers so for a document closed moments ago): for an id this connector created, that is a
 * reason to keep polling (within the finalize bound), never a failure.
 */
async function documentIfNumbered(ctx: StepContext, documentId: number): Promise<Awaited<ReturnType<TenantRuntime['invoicing']['getDocument']>> | null> {
  try {
    return await attempt(ctx, 'get-document', () => ctx.tenant.invoicing.getDocument(documentId, ctx.tenant.documentCallOptions));
  } catch (error) {
    if (error instanceof ElementDoesNotExistError) return null;
    throw error;
  }
}

async function writeBackStep(ctx: StepContext): Promise<Outcome> {
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
 * A document dated in a month the accountant has closed: issued all the same (the sale happened and
 * the law dates it), and a person is told, so the month's return is looked at again.
 */
async function inClosedMonth(ctx: StepContext, entry: LedgerEntry): Promise<void> {
  const day = entry.documentDate;
  if (!day || !ctx.deps.signOffs || entry.documentNumber === undefined) return;
  const closed = await ctx.deps.signOffs.of(ctx.ref.tenant, day.slice(0, 7));
  if (!closed) return;
  const closedOn = localDateTime(new Date(closed.at), ctx.tenant.mapping.shopTimeZone).date;
  await flag(ctx, personNeeded(ctx.ref, { code: 'month-closed', number: entry.documentNumber, day, month: closed.month, by: closed.by, closedOn }), entry);
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
