import type { Queue } from 'bullmq';
import type { RedisClient } from '../core/redis-connection';
import type { Logger } from 'pino';
import { addResuming } from '../ingest/add-resuming';
import { platformOf } from '../../platforms/registry';
import { jobsToEnqueue } from '../ingest/plan-jobs';
import { invoiceKnownHere, planOrder } from '../ingest/plan-order';
import { documentJobId, type DocumentJobData, type PurposeKind } from '../core/jobs';
import { stateRules, type Ledger, type LedgerEntry } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import { clearForPerson } from '../pipeline/needs-person';
import { parseProblem, ProblemSchema, settledOutsideProblem } from '../pipeline/problems';
import { addNoteQuietly } from '../pipeline/write-back';
import { NOTES, type Lang } from '../words';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import type { HistoryEvent, OrderHistory } from '../history/order-history';
import { ACTION_NOTES } from './action-notes';
import { refusalSays } from './action-refusals';

/**
 * What a person can do to an order, from the admin API (JSON) or the console (forms): one
 * implementation for both, each answering with a result the caller words for its audience.
 */
export interface OrderActionDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  queue: Queue<DocumentJobData>;
  redis: RedisClient;
  ledger: Ledger;
  metrics: ConnectorMetrics;
  logger: Logger;
  /** The orders' stories: every action a person takes is recorded there (who, what). */
  history: OrderHistory;
}

type ActionName = Extract<HistoryEvent, { kind: 'action' }>['action'];

/** Records a person's action in the order's history; a history that cannot be written never stops the action. */
export async function recordAction(deps: OrderActionDeps, tenant: string, orderId: number, action: { action: ActionName; by: string; purpose?: string; detail?: string }): Promise<void> {
  try {
    await deps.history.add(tenant, orderId, { kind: 'action', ...action, ...(action.detail !== undefined ? { detail: action.detail.slice(0, 1000) } : {}) });
  } catch (error) {
    deps.logger.warn({ tenant, orderId, err: (error as Error).message }, 'could not record the action in the order history');
  }
}

/** A refusal: `error` for the admin API (English, like the logs), `says` for a person in the console's languages. */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; status: 404 | 409 | 502; error: string; says?: Record<Lang, string> };

/** Purpose names in the ledger back to job kinds: `credit-note-<refund id>` carries its refund. */
export function jobKindOf(purpose: string): { kind: PurposeKind; refundId?: number } {
  if (purpose.startsWith('credit-note-')) return { kind: 'credit-note', refundId: Number(purpose.slice('credit-note-'.length)) };
  return { kind: purpose as PurposeKind };
}

/**
 * Jobs of an order, looked up by id (never by scanning the queue): the fixed purposes plus one
 * credit note per refund the ledger knows about.
 */
export async function jobsOfOrder(queue: Queue<DocumentJobData>, ledger: Ledger, tenant: string, orderId: number) {
  const purposes = Object.keys(await ledger.forOrder(tenant, orderId));
  const ids = new Set(['invoice', 'waybill', 'cancellation'].map((kind) => documentJobId(tenant, orderId, kind as PurposeKind)));
  for (const purpose of purposes) {
    const { kind, refundId } = jobKindOf(purpose);
    ids.add(documentJobId(tenant, orderId, kind, refundId));
  }
  const jobs = await Promise.all([...ids].map((id) => queue.getJob(id)));
  return jobs.filter((job): job is NonNullable<typeof job> => job !== undefined && job !== null);
}

/**
 * Runs the order again now: its failed jobs are retried from their ledger step; with none failed,
 * the order is read from the shop and what it still needs is enqueued (resuming anything failed).
 */
export async function retryOrder(deps: OrderActionDeps, tenant: string, orderId: number, by?: string): Promise<ActionResult<{ retried: string[]; enqueued: string[] }>> {
  const runtime = deps.tenants.get(tenant);
  if (!runtime) return { ok: false, status: 404, error: `unknown tenant ${tenant}` };
  const retried: string[] = [];
  for (const job of await jobsOfOrder(deps.queue, deps.ledger, tenant, orderId)) {
    if ((await stateOnceSettled(job)) === 'failed') {
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      retried.push(String(job.id));
    }
  }
  let enqueued: string[] = [];
  if (retried.length === 0) {
    try {
      const order = platformOf(runtime.config).orderOf(await runtime.shop.getOrder(orderId));
      // A person's ask: the go-live cut-off does not apply; another system's document still does.
      const plan = await planOrder(order, { settings: runtime.config.settings, goLiveAt: undefined, invoiceKnown: () => invoiceKnownHere(deps.ledger, deps.queue, tenant, orderId), platform: platformOf(runtime.config) });
      if (plan.notInvoiced?.code === 'advance-payment') {
        // A deposit or pre-order kept by its plugin (CIVA art. 36(1)(c)): never the whole order as paid from here either.
        const reason = plan.notInvoiced;
        return { ok: false, status: 409, error: NOTES.advancePaymentWhy('en', reason), says: { pt: NOTES.advancePaymentWhy('pt', reason), en: NOTES.advancePaymentWhy('en', reason) } };
      }
      if (plan.notInvoiced) {
        const which = plan.notInvoiced.code === 'other-system' ? `${plan.notInvoiced.system}: ${plan.notInvoiced.key}` : plan.notInvoiced.code;
        return {
          ok: false,
          status: 409,
          error: `order ${orderId} has another system's document (${which}): the connector never invoices it`,
          says: refusalSays('other-system', { orderId, which }),
        };
      }
      const results = await addResuming(deps.queue, deps.redis, jobsToEnqueue(tenant, orderId, plan.jobs, Date.now()));
      enqueued = results.map((result) => result.jobId);
      for (const result of results) deps.metrics.jobsEnqueued.inc({ kind: result.kind, source: 'admin' });
    } catch (error) {
      const why = (error as Error).message;
      return {
        ok: false,
        status: 502,
        error: `could not fetch order ${orderId} from the shop: ${why}`,
        says: refusalSays('shop-unreadable', { orderId, why }),
      };
    }
  }
  deps.logger.info({ tenant, orderId, retried, enqueued }, 'admin retry');
  if (by !== undefined) await recordAction(deps, tenant, orderId, { action: 'retry', by });
  return { ok: true, value: { retried, enqueued } };
}

/**
 * A job's state, waiting a moment while it is active: a job failing for good records `failed` in the
 * ledger (so the console offers Retry) a little before BullMQ moves it to its failed list, and a
 * retry in between would replay nothing while answering "done".
 */
async function stateOnceSettled(job: Awaited<ReturnType<typeof jobsOfOrder>>[number], waitMs = 5_000): Promise<string> {
  const deadline = Date.now() + waitMs;
  let state = await job.getState();
  while (state === 'active' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    state = await job.getState();
  }
  return state;
}

/**
 * The way out of `duplicate-unknown-id`: a person found the document in the back-office and gives
 * its id. It is accepted only when the service says that document carries this purpose's
 * ExternalId; the pipeline then goes on from the finalize step (number, PDF, write-back).
 */
export async function attachDocument(
  deps: OrderActionDeps,
  ref: { tenant: string; orderId: number; purpose: string },
  documentId: number,
  by?: string,
): Promise<ActionResult<{ attached: number; enqueued: string }>> {
  const runtime = deps.tenants.get(ref.tenant);
  if (!runtime) return { ok: false, status: 404, error: `unknown tenant ${ref.tenant}` };
  const entry = await deps.ledger.get(ref);
  // Held because a note or the order's story names an earlier document (pipeline/earlier-traces.ts): that document may be attached too.
  const earlier = entry?.state === 'held' && parseProblem(entry.problem)?.code === 'earlier-document';
  if (entry?.state !== 'duplicate-unknown-id' && !earlier) {
    return {
      ok: false,
      status: 409,
      error: `the ${ref.purpose} of order ${ref.orderId} is in state ${entry?.state ?? 'none'}; only duplicate-unknown-id takes a document id by hand`,
      says: stateSays(ref, entry, 'why-attach'),
    };
  }
  let found: string | undefined;
  try {
    // Get Document Property: it answers before the number exists (Get Document then answers 6).
    const details = await runtime.invoicing.getDocumentProperty(documentId, runtime.documentCallOptions);
    found = details.details.document.ExternalId ?? undefined;
  } catch (error) {
    const why = (error as Error).message;
    return {
      ok: false,
      status: 502,
      error: `could not read document ${documentId} from MagniFinance: ${why}`,
      says: refusalSays('document-unreadable', { documentId, why }),
    };
  }
  if (!entry.externalId || found !== entry.externalId) {
    return {
      ok: false,
      status: 409,
      error: `document ${documentId} has ExternalId ${found ?? 'none'}, not ${entry.externalId ?? '(unknown)'}`,
      says: refusalSays('document-not-this', { documentId, found, expected: entry.externalId }),
    };
  }
  await deps.ledger.record(ref, { state: 'created', documentId, detail: 'document id attached by hand', lastError: '' });
  await clearForPerson(deps.ledger, ref, entry);
  const kind = jobKindOf(ref.purpose);
  const data: DocumentJobData = { tenant: ref.tenant, orderId: ref.orderId, kind: kind.kind, step: 'finalize', polls: 0, seenAt: Date.now() };
  if (kind.refundId !== undefined) data.refundId = kind.refundId;
  const jobId = documentJobId(ref.tenant, ref.orderId, kind.kind, kind.refundId);
  await addResuming(deps.queue, deps.redis, [{ name: kind.kind, data, opts: { jobId } }]);
  deps.logger.info({ ...ref, documentId }, 'admin attached a document id');
  if (by !== undefined) await recordAction(deps, ref.tenant, ref.orderId, { action: 'attach', by, purpose: ref.purpose, detail: String(documentId) });
  return { ok: true, value: { attached: documentId, enqueued: jobId } };
}

/**
 * "Issue now" for a held order: a person looked at the document that would be issued (the console's
 * preview) and decided the hold does not apply (the ledger keeps when); the order runs again, the
 * mapping's warnings still go on the order, and a note on the order says who decided it.
 */
export async function releaseHold(
  deps: OrderActionDeps,
  ref: { tenant: string; orderId: number; purpose: string },
  by?: string,
  seen?: { total?: string; currency?: string },
): Promise<ActionResult<{ retried: string[]; enqueued: string[] }>> {
  const entry = await deps.ledger.get(ref);
  if (entry?.state !== 'held') {
    return {
      ok: false,
      status: 409,
      error: `the ${ref.purpose} of order ${ref.orderId} is in state ${entry?.state ?? 'none'}, not held`,
      says: stateSays(ref, entry, 'why-release'),
    };
  }
  await deps.ledger.record(ref, { holdReleasedAt: Date.now() });
  deps.logger.info(ref, 'admin released a held order');
  if (by !== undefined) {
    await recordAction(deps, ref.tenant, ref.orderId, { action: 'issue-now', by, purpose: ref.purpose, ...(seen?.total ? { detail: seen.total } : {}) });
    const runtime = deps.tenants.get(ref.tenant);
    if (runtime) await addNoteQuietly(runtime, ref.orderId, ACTION_NOTES.issueNow(runtime.config.settings.language, { purpose: ref.purpose, by, total: seen?.total, currency: seen?.currency }), deps.logger);
  }
  return retryOrder(deps, ref.tenant, ref.orderId);
}

/** Whether the whole invoice of an order can be credited from the console, and the invoice if so. */
export async function creditableInvoice(deps: Pick<OrderActionDeps, 'ledger'>, tenant: string, orderId: number): Promise<{ ok: true; invoice: LedgerEntry } | { ok: false; error: string; says: Record<Lang, string> }> {
  const invoice = await deps.ledger.get({ tenant, orderId, purpose: 'invoice' });
  if (!invoice?.documentNumber || invoice.documentId === undefined || (invoice.state !== 'written-back' && invoice.state !== 'finalized')) {
    return {
      ok: false,
      error: `order ${orderId} has no invoice issued by the connector to credit`,
      says: refusalSays('no-invoice', { orderId }),
    };
  }
  const cancellation = await deps.ledger.get({ tenant, orderId, purpose: 'cancellation' });
  if (cancellation?.documentId !== undefined || cancellation?.state === 'dismissed') {
    return {
      ok: false,
      error: `the invoice ${invoice.documentNumber} of order ${orderId} is already credited or cancelled (state ${cancellation.state ?? 'none'})`,
      says: refusalSays('already-credited', { number: invoice.documentNumber }),
    };
  }
  return { ok: true, invoice };
}

/**
 * A credit note for the whole invoice, asked by a person from the console after its preview: the
 * pipeline's cancellation purpose issues it (a full refund of every line, as for a cancelled order
 * with onCancelled: credit-note), so the ledger guards it against twice, its number lands on the
 * order like any document, and a note says who asked. `policy` applies the tenant's onCancelled
 * instead (a cancelled order whose cancellation waits): a credit note, or the invoice cancelled.
 */
export async function creditWholeInvoice(
  deps: OrderActionDeps,
  ref: { tenant: string; orderId: number },
  by: string,
  options: { policy?: boolean; total?: string; currency?: string } = {},
): Promise<ActionResult<{ enqueued: string[] }>> {
  const runtime = deps.tenants.get(ref.tenant);
  if (!runtime) return { ok: false, status: 404, error: `unknown tenant ${ref.tenant}` };
  const creditable = await creditableInvoice(deps, ref.tenant, ref.orderId);
  if (!creditable.ok) return { ok: false, status: 409, error: creditable.error, says: creditable.says };
  const purpose = 'cancellation';
  const now = Date.now();
  const onCancelled = runtime.config.settings.onCancelled;
  if (options.policy && onCancelled === 'ignore') {
    return {
      ok: false,
      status: 409,
      error: "the shop's cancellation rule (onCancelled) is ignore: nothing to issue",
      says: refusalSays('cancellation-ignored'),
    };
  }
  const creditNote = !options.policy || onCancelled === 'credit-note';
  // The person saw the document before confirming: a hold of the mapping does not stop it.
  await deps.ledger.record({ ...ref, purpose }, creditNote ? { creditNoteAskedAt: now, holdReleasedAt: now } : { holdReleasedAt: now });
  const entry = await deps.ledger.get({ ...ref, purpose });
  if (entry) await clearForPerson(deps.ledger, { ...ref, purpose }, entry);
  const data: DocumentJobData = { tenant: ref.tenant, orderId: ref.orderId, kind: 'cancellation', step: 'issue', polls: 0, seenAt: now };
  const results = await addResuming(deps.queue, deps.redis, [{ name: 'cancellation', data, opts: { jobId: documentJobId(ref.tenant, ref.orderId, 'cancellation') } }]);
  for (const result of results) deps.metrics.jobsEnqueued.inc({ kind: result.kind, source: 'admin' });
  const number = creditable.invoice.documentNumber as string;
  await recordAction(deps, ref.tenant, ref.orderId, { action: options.policy ? 'cancellation' : 'credit-note', by, purpose, detail: number });
  const lang = runtime.config.settings.language;
  await addNoteQuietly(
    runtime,
    ref.orderId,
    creditNote ? ACTION_NOTES.creditNote(lang, { by, number, total: options.total, currency: options.currency }) : ACTION_NOTES.cancelInvoice(lang, { by, number }),
    deps.logger,
  );
  deps.logger.info({ ...ref, by, creditNote }, 'admin asked for the whole invoice to be credited');
  return { ok: true, value: { enqueued: results.map((result) => result.jobId) } };
}

/**
 * "Mark as handled": a person dealt with an order outside the connector (issued the document by
 * hand in the back-office, or decided none is due). Only where nothing was issued; the purpose
 * leaves the attention list and the connector never issues it (updates and sweeps leave it), and
 * the order gets a private note saying who decided what. Kept in the ledger without expiry.
 */
export async function dismissOrder(
  deps: OrderActionDeps,
  ref: { tenant: string; orderId: number; purpose: string },
  how: string,
  by: string,
): Promise<ActionResult<{ dismissed: string }>> {
  const runtime = deps.tenants.get(ref.tenant);
  if (!runtime) return { ok: false, status: 404, error: `unknown tenant ${ref.tenant}` };
  const entry = await deps.ledger.get(ref);
  const outside = entry ? settledOutsideProblem(entry) : undefined;
  if (outside) {
    // An issued document stays as it is: the person settled the difference in the back-office.
    // What they accepted is kept, so the same difference is not reported again.
    const now = Date.now();
    const detail = `Settled outside the connector, marked by ${by} on ${new Date(now).toISOString().slice(0, 16).replace('T', ' ')} UTC: ${how}`;
    await deps.ledger.record(ref, outside.code === 'order-changed' ? { settledDifference: outside.difference, detail } : { settledAt: now, detail }, now);
    await clearForPerson(deps.ledger, ref, entry);
    await addNoteQuietly(runtime, ref.orderId, NOTES.settled(runtime.config.settings.language, { purpose: ref.purpose, by, how }), deps.logger);
    await recordAction(deps, ref.tenant, ref.orderId, { action: 'settle', by, purpose: ref.purpose, detail: how });
    deps.logger.info({ ...ref, by }, 'admin marked a difference as settled');
    return { ok: true, value: { dismissed: ref.purpose } };
  }
  if (!canDismiss(entry)) {
    return {
      ok: false,
      status: 409,
      error: `the ${ref.purpose} of order ${ref.orderId} is in state ${entry?.state ?? 'none'}; only an order on hold, refused or failed with nothing issued can be marked as handled`,
      says: stateSays(ref, entry, 'why-dismiss'),
    };
  }
  const now = Date.now();
  const detail = `Handled outside the connector, marked by ${by} on ${new Date(now).toISOString().slice(0, 16).replace('T', ' ')} UTC: ${how}`;
  await deps.ledger.record(ref, { state: 'dismissed', detail }, now);
  await clearForPerson(deps.ledger, ref, entry);
  // Its failed job leaves the dead letter: nothing is left to retry.
  const kind = jobKindOf(ref.purpose);
  const job = await deps.queue.getJob(documentJobId(ref.tenant, ref.orderId, kind.kind, kind.refundId));
  if (job && (await job.getState()) === 'failed') await job.remove();
  await addNoteQuietly(runtime, ref.orderId, NOTES.dismissed(runtime.config.settings.language, { purpose: ref.purpose, by, how }), deps.logger);
  await recordAction(deps, ref.tenant, ref.orderId, { action: 'dismiss', by, purpose: ref.purpose, detail: how });
  deps.logger.info({ ...ref, by }, 'admin marked an order as handled');
  return { ok: true, value: { dismissed: ref.purpose } };
}

/**
 * A person may mark a purpose handled outside the connector when nothing was issued for it (held,
 * refused, failed), when a difference on its issued document was settled in the back-office, or
 * when its order was deleted on the shop after its document (the document stands; the person
 * decided about it in the back-office).
 */
export function canDismiss(entry: LedgerEntry | null): boolean {
  if (!entry) return false;
  if (stateRules(entry.state).dismissable && entry.documentId === undefined) return true;
  // A difference on an issued document settled in the back-office (problems.ts, SETTLED_OUTSIDE).
  if (settledOutsideProblem(entry)) return true;
  return entry.state !== 'dismissed' && entry.state !== 'written-back' && problemCodeOf(entry) === 'order-deleted';
}

function problemCodeOf(entry: LedgerEntry): string | undefined {
  try {
    return ProblemSchema.safeParse(JSON.parse(entry.problem ?? 'null')).data?.code;
  } catch {
    return undefined;
  }
}

/** "The invoice of order 5001 is in state «na encomenda»: <why not>." in both languages. */
function stateSays(ref: { orderId: number; purpose: string }, entry: LedgerEntry | null, why: 'why-attach' | 'why-release' | 'why-dismiss'): Record<Lang, string> {
  return refusalSays('in-state', { purpose: ref.purpose, orderId: ref.orderId, state: entry?.state, why: refusalSays(why) });
}
