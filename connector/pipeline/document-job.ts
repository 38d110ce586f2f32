import { DelayedError, UnrecoverableError, type Job, type Processor } from 'bullmq';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import type { DocumentDetails } from '../../client/document-details';
import {
  AuthenticationError,
  DocumentDuplicateError,
  ElementDoesNotExistError,
  LocalValidationError,
  ServiceValidationError,
} from '../../client/errors';
import { OrderMappingError } from '../../webhooks/woocommerce/mapping-errors';
import { parseWooOrder, parseWooRefund, type WooOrder } from '../../webhooks/woocommerce/order-schema';
import type { ConnectorConfig } from '../config/load-config';
import { DocumentJobDataSchema, purposeOf, type DocumentJobData, type Step } from '../jobs';
import type { Ledger, LedgerEntry, LedgerRef } from '../ledger';
import type { ConnectorMetrics } from '../metrics';
import type { PdfLinkSigner } from '../pdf-link';
import { ShopRequestError } from '../shop/woo-shop';
import { creditNoteRequest, fullRefundOf, invoiceRequest, waybillRequest, type IssueRequest } from './document-requests';
import type { TenantRuntime } from './tenant-runtime';
import { writeBack, addNoteQuietly } from './write-back';

export interface PipelineDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  ledger: Ledger;
  metrics: ConnectorMetrics;
  logger: Logger;
  links: PdfLinkSigner;
  pipeline: ConnectorConfig['pipeline'];
  now?: () => number;
}

/** Ledger states that end a purpose for good unless someone intervenes (admin retry). */
const FINAL_FAILURES = new Set<LedgerEntry['state']>(['duplicate-unknown-id', 'held', 'mapping-failed', 'alert-no-number']);

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
    const tenant = deps.tenants.get(data.tenant);
    if (!tenant) throw new UnrecoverableError(`tenant ${data.tenant} is not in this worker's configuration`);
    const ref: LedgerRef = { tenant: data.tenant, orderId: data.orderId, purpose: purposeOf(data.kind, data.refundId) };
    const log = deps.logger.child({ tenant: data.tenant, orderId: data.orderId, purpose: ref.purpose, jobId: job.id });
    const ctx: StepContext = { job, token, data, tenant, ref, deps, now, log };
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
      if (isPermanent(error)) {
        await deps.ledger.record(ref, { lastError: (error as Error).message });
        log.error({ err: (error as Error).message, step }, 'document job failed for good');
        throw new UnrecoverableError((error as Error).message);
      }
      await deps.ledger.record(ref, { lastError: (error as Error).message }).catch(() => undefined);
      log.warn({ err: (error as Error).message, step, attempt: job.attemptsMade + 1 }, 'document job attempt failed; will retry');
      throw error;
    }
  };
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
  await ctx.job.moveToDelayed(ctx.now() + delayMs, ctx.token);
  throw new DelayedError();
}

/** The order as the shop has it now (the job holds only a reference). */
async function orderOf(ctx: StepContext): Promise<WooOrder> {
  return parseWooOrder(await ctx.tenant.shop.getOrder(ctx.data.orderId));
}

async function issueStep(ctx: StepContext): Promise<Outcome> {
  const { deps, ref, data, tenant } = ctx;
  const entry = await deps.ledger.get(ref);
  const resumed = resumeFrom(entry);
  if (resumed) return resumed;

  let invoice: LedgerEntry | null = null;
  if (data.kind === 'credit-note' || data.kind === 'cancellation') {
    invoice = await deps.ledger.get({ ...ref, purpose: 'invoice' });
    if (!invoice?.documentNumber || invoice.documentId === undefined) {
      if ((invoice && FINAL_FAILURES.has(invoice.state)) || data.polls >= deps.pipeline.waitForInvoicePolls) {
        const detail = invoice ? `the invoice is in state ${invoice.state}` : 'the order has no invoice from this connector';
        await deps.ledger.record(ref, { state: 'skipped', detail });
        return { done: `skipped: ${detail}` };
      }
      return waitThen(ctx, 'issue', deps.pipeline.finalizePollBackoffMs, data.polls + 1);
    }
    if (data.kind === 'cancellation' && tenant.config.settings.onCancelled === 'cancel') return cancelInvoice(ctx, entry, invoice);
  }

  const built = await buildIssueRequest(ctx, await orderOf(ctx), invoice);
  if (built.hold) {
    const reasons = built.notes.map((n) => n.message).join(' ');
    if (entry?.state !== 'held') {
      await deps.ledger.record(ref, { state: 'held', detail: reasons });
      await addNoteQuietly(ctx.tenant, ctx.data.orderId, `MagniFinance: no document issued yet, the order is on hold. ${reasons}`, ctx.log);
    }
    return { done: 'held' };
  }
  const externalId = built.kind === 'document' ? built.request.Document.ExternalId : built.request.Waybill.ExternalId;
  const documentType = built.kind === 'document' ? built.request.Document.Type : built.request.Waybill.Type;

  const lock = await deps.ledger.acquireLock(ref, deps.pipeline.lockTtlMs);
  if (!lock) return waitThen(ctx, 'issue', 1_000, data.polls);
  try {
    // Re-read under the lock: a concurrent delivery may have created the document meanwhile.
    const current = await deps.ledger.get(ref);
    const again = resumeFrom(current);
    if (again) return again;
    // A previous attempt sent the create and never heard back: if it reached the service, this
    // create comes back DocumentIsADuplicate (same ExternalId) instead of issuing a second one.
    const retryingLostAnswer = current?.state === 'creating';
    // The service's duplicate check is ExternalId together with the client data: once the buyer's
    // data on the order has changed, a retry would not be caught there, so it is not sent.
    const clientKey = clientKeyOf(built.request.Client);
    if (retryingLostAnswer && current?.clientKey && current.clientKey !== clientKey) return duplicateWithUnknownId(ctx, 'client-changed');
    // Recorded BEFORE the call: whatever happens next, the ledger knows a create may exist.
    await deps.ledger.record(ref, { state: 'creating', externalId: externalId ?? '', documentType, clientKey, creatingAt: ctx.now() });
    let documentId: number;
    let documentNumber: string | undefined;
    try {
      if (built.kind === 'document') {
        documentId = (await tenant.invoicing.createDocument(built.request, tenant.documentCallOptions)).documentId;
      } else {
        const result = await tenant.invoicing.createWaybill(built.request, tenant.documentCallOptions);
        documentId = result.documentId;
        documentNumber = result.documentNumber;
      }
    } catch (error) {
      if (error instanceof DocumentDuplicateError) return duplicateWithUnknownId(ctx, retryingLostAnswer ? 'lost-answer' : 'unrecorded');
      if (isPermanent(error)) {
        // Refused outright: nothing was created, so the ledger must not claim a create is pending.
        await deps.ledger.record(ref, { state: 'mapping-failed', lastError: (error as Error).message });
        await addNoteQuietly(tenant, data.orderId, `MagniFinance: the ${describePurpose(ref.purpose)} could not be issued: ${(error as Error).message}`, ctx.log);
      }
      throw error;
    }
    await deps.ledger.record(ref, { state: 'created', documentId, createdAt: ctx.now(), documentNumber, lastError: '' });
    deps.metrics.documentsIssued.inc({ tenant: tenant.config.id, kind: data.kind });
    ctx.log.info({ documentId, externalId }, 'document created');
  } finally {
    await deps.ledger.releaseLock(ref, lock).catch(() => undefined);
  }
  return waitThen(ctx, 'finalize', deps.pipeline.finalizeDelayMs, 0);
}

/** Where a purpose already has progress, continue from it instead of issuing. */
function resumeFrom(entry: LedgerEntry | null): Outcome | null {
  if (!entry) return null;
  switch (entry.state) {
    case 'written-back':
      return { done: 'already written back' };
    case 'duplicate-unknown-id':
      return { done: 'duplicate with unknown id (needs a person)' };
    case 'cancelled':
      return { next: 'writeback' };
    case 'finalized':
      return { next: 'writeback' };
    case 'created':
    case 'alert-no-number':
      return { next: 'finalize' };
    default:
      // creating (answer lost), held, mapping-failed, skipped: evaluate the order again.
      return null;
  }
}

async function buildIssueRequest(ctx: StepContext, order: WooOrder, invoice: LedgerEntry | null): Promise<IssueRequest> {
  const { tenant, data } = ctx;
  switch (data.kind) {
    case 'invoice':
      return invoiceRequest(order, tenant.mapping);
    case 'waybill':
      return waybillRequest(order, tenant.mapping, new Date(ctx.now()));
    case 'credit-note': {
      // Order payloads only summarise refunds; the lines come from the refund itself.
      const refund = parseWooRefund(await tenant.shop.getRefund(data.orderId, data.refundId ?? 0), data.orderId);
      return creditNoteRequest(order, refund, invoice?.documentNumber ?? '', tenant.mapping);
    }
    case 'cancellation':
      return creditNoteRequest(order, fullRefundOf(order, new Date(ctx.now())), invoice?.documentNumber ?? '', tenant.mapping);
  }
}

/** Why a document may exist on the service that this connector cannot name. */
type UnknownIdCause = 'lost-answer' | 'unrecorded' | 'client-changed';

const UNKNOWN_ID_DETAIL: Record<UnknownIdCause, string> = {
  'lost-answer':
    'the create answer was lost and the retry came back DocumentIsADuplicate: the document exists once on MagniFinance but its id is unknown here; find it by ExternalId in the back-office',
  unrecorded:
    'MagniFinance already has a document with this ExternalId that this connector did not record (another installation or a wiped Redis); find it in the back-office',
  'client-changed':
    "the create answer was lost and the buyer's data on the order has changed since; the service checks duplicates by ExternalId with the client data, so a retry could issue a second document and was not sent; look for the ExternalId in the back-office and issue by hand only if it is not there",
};

async function duplicateWithUnknownId(ctx: StepContext, cause: UnknownIdCause): Promise<Outcome> {
  const { deps, ref, tenant } = ctx;
  const detail = UNKNOWN_ID_DETAIL[cause];
  await deps.ledger.record(ref, { state: 'duplicate-unknown-id', detail, alertAt: ctx.now() });
  await deps.ledger.markAttention(ref, ctx.now());
  deps.metrics.alerts.inc({ tenant: tenant.config.id, state: 'duplicate-unknown-id' });
  const externalId = (await deps.ledger.get(ref))?.externalId ?? '';
  const issued = cause === 'client-changed' ? 'may have been issued once' : 'was issued once';
  await addNoteQuietly(tenant, ctx.data.orderId, `MagniFinance: the ${describePurpose(ref.purpose)} (ExternalId ${externalId}) ${issued}, but its number is unknown to the connector: ${detail}. Nothing was issued twice.`, ctx.log);
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
  const lock = await deps.ledger.acquireLock(ref, deps.pipeline.lockTtlMs);
  if (!lock) return waitThen(ctx, 'issue', 1_000, ctx.data.polls);
  try {
    const retrying = entry?.state === 'creating';
    await deps.ledger.record(ref, { state: 'creating', documentId, documentNumber: invoice.documentNumber, creatingAt: ctx.now() });
    try {
      await tenant.invoicing.cancelDocument(documentId, tenant.documentCallOptions);
    } catch (error) {
      // A lost answer: the retry is refused because the document is no longer Closed. Check it.
      if (!retrying) throw error;
      const details = await tenant.invoicing.getDocument(documentId, tenant.documentCallOptions);
      if (details.details.document.DocumentStatusId !== 'A') throw error;
    }
    await deps.ledger.record(ref, { state: 'cancelled', createdAt: ctx.now() });
    await deps.ledger.record({ ...ref, purpose: 'invoice' }, { detail: 'cancelled on MagniFinance' });
  } finally {
    await deps.ledger.releaseLock(ref, lock).catch(() => undefined);
  }
  return { next: 'writeback' };
}

async function finalizeStep(ctx: StepContext): Promise<Outcome> {
  const { deps, ref, data, tenant } = ctx;
  const entry = await deps.ledger.get(ref);
  if (!entry || entry.documentId === undefined) return { next: 'issue' };
  if (entry.state === 'finalized' || entry.state === 'written-back' || entry.state === 'cancelled') return { next: 'writeback' };
  // A worker that died between two steps may bring the job back early: the service's 10 s still hold.
  const earliest = (entry.createdAt ?? 0) + deps.pipeline.finalizeDelayMs;
  if (ctx.now() < earliest) return waitThen(ctx, 'finalize', earliest - ctx.now(), data.polls);
  const details = await readIfNotNumberedYet(() => tenant.invoicing.getDocument(entry.documentId as number, tenant.documentCallOptions));
  if (details?.documentNumber && details.downloadUrl) {
    const finalizedAt = ctx.now();
    await deps.ledger.record(ref, { state: 'finalized', documentNumber: details.documentNumber, finalizedAt });
    ctx.entry = { ...entry, state: 'finalized', documentNumber: details.documentNumber, finalizedAt };
    deps.metrics.orderToNumber.observe({ kind: data.kind }, (ctx.now() - data.seenAt) / 1000);
    ctx.log.info({ documentId: entry.documentId, documentNumber: details.documentNumber }, 'document finalized');
    return { next: 'writeback' };
  }
  if (data.polls < deps.pipeline.finalizePolls) {
    const backoff = Math.min(deps.pipeline.finalizePollBackoffMs * 2 ** data.polls, 60_000);
    return waitThen(ctx, 'finalize', backoff, data.polls + 1);
  }
  await deps.ledger.record(ref, { state: 'alert-no-number', alertAt: ctx.now(), detail: `no number after ${data.polls + 1} Get Document calls` });
  await deps.ledger.markAttention(ref, ctx.now());
  deps.metrics.alerts.inc({ tenant: tenant.config.id, state: 'alert-no-number' });
  throw new UnrecoverableError(`document ${entry.documentId} has no number after ${data.polls + 1} Get Document calls`);
}

/**
 * Get Document of a document this pipeline created: 6 ElementDoesNotExist is how the service
 * answers a document read before it is numbered, so it means "not numbered yet" (undefined).
 */
async function readIfNotNumberedYet(read: () => Promise<DocumentDetails>): Promise<DocumentDetails | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ElementDoesNotExistError) return undefined;
    throw error;
  }
}

async function writeBackStep(ctx: StepContext): Promise<Outcome> {
  const entry = ctx.entry ?? (await ctx.deps.ledger.get(ctx.ref));
  if (!entry || entry.documentId === undefined) return { next: 'issue' };
  if (entry.state === 'written-back') return { done: 'already written back' };
  await writeBack(
    { tenant: ctx.tenant, ledger: ctx.deps.ledger, links: ctx.deps.links, metrics: ctx.deps.metrics, now: ctx.now, log: ctx.log },
    ctx.ref,
    ctx.data,
    entry,
  );
  return { done: 'written back' };
}

export function describePurpose(purpose: string): string {
  if (purpose.startsWith('credit-note-')) return `credit note for refund #${purpose.slice('credit-note-'.length)}`;
  if (purpose === 'cancellation') return 'cancellation';
  return purpose;
}

/** Errors that a retry cannot fix: wrong data or wrong credentials. They go to the failed list. */
export function isPermanent(error: unknown): boolean {
  return (
    error instanceof OrderMappingError ||
    error instanceof LocalValidationError ||
    error instanceof ServiceValidationError ||
    error instanceof AuthenticationError ||
    error instanceof ZodError ||
    error instanceof SyntaxError ||
    (error instanceof ShopRequestError && error.permanent)
  );
}
