import { UnrecoverableError } from 'bullmq';
import { ElementDoesNotExistError } from '../../client/errors';
import { formatDecimal } from '../../client/money';
import type { LedgerEntry } from '../core/ledger';
import type { TenantRuntime } from './tenant-runtime';
import { personNeeded } from './problems';
import { type StepContext, type Outcome, waitThen } from './step-context';
import { attempt, flag } from './job-history';

/**
 * The finalize step: Get Document after the service's wait, polling until the document has its number.
 */

export async function finalizeStep(ctx: StepContext): Promise<Outcome> {
  const { deps, ref, data } = ctx;
  // The issue step's read of this run, when it resumed here (a job comes back at its stored step, issue).
  const entry = ctx.entry ?? (await deps.ledger.get(ref));
  if (!entry || entry.documentId === undefined) return { next: 'issue' };
  if (entry.state === 'finalized' || entry.state === 'written-back' || entry.state === 'cancelled') return { next: 'writeback' };
  // A worker that died between two steps, or another worker whose clock is ahead (BullMQ promotes by
  // its clock), may bring the job back early: the service's 10 s still hold, on the shared clock.
  const earliest = (entry.createdAt ?? 0) + deps.pipeline.finalizeDelayMs;
  if (ctx.now() < earliest) return waitThen(ctx, 'finalize', earliest - ctx.now(), data.polls);
  const numbered = await recordedNumber(ctx, entry, entry.documentId);
  if (numbered) {
    const { documentNumber, finalizedAt, total, buyerNif, buyerCountry } = numbered.facts;
    await numbered.recording;
    ctx.entry = { ...entry, state: 'finalized', documentNumber, finalizedAt, total, buyerNif, buyerCountry };
    ctx.events.push({ kind: 'document', at: finalizedAt, purpose: ref.purpose, documentId: entry.documentId, number: documentNumber, type: entry.documentType, total, corrects: await correctedNumber(ctx) });
    deps.metrics.orderToNumber.observe({ kind: data.kind }, (ctx.now() - data.seenAt) / 1000);
    ctx.log.info({ documentId: entry.documentId, documentNumber }, 'document finalized');
    return { next: 'writeback' };
  }
  if (data.polls < deps.pipeline.finalizePolls) {
    const backoff = Math.min(deps.pipeline.finalizePollBackoffMs * 2 ** data.polls, 60_000);
    return waitThen(ctx, 'finalize', backoff, data.polls + 1);
  }
  await flag(ctx, personNeeded(ref, { code: 'no-number', documentId: entry.documentId, calls: data.polls + 1 }, 'alert-no-number'), entry);
  throw new UnrecoverableError(`document ${entry.documentId} has no number after ${data.polls + 1} Get Document calls`);
}

/** What the run keeps of a numbered document (the ledger's finalized record), and its recording under way. */
interface RecordedNumber {
  facts: { documentNumber: string; finalizedAt: number; total: string | undefined; buyerNif: string | undefined; buyerCountry: string | undefined };
  recording: Promise<unknown>;
}

/**
 * Get Document and, when the document has its number, the start of its recording; null while it has
 * none. Its own function so that the service's whole answer ends with this frame: a suspended async
 * function keeps every local it holds, and the finalize step awaits the ledger's round trip, and
 * the corrected invoice's read, after it (issue 29).
 */
async function recordedNumber(ctx: StepContext, entry: LedgerEntry, documentId: number): Promise<RecordedNumber | null> {
  const { deps, ref } = ctx;
  const details = await documentIfNumbered(ctx, documentId);
  if (!details?.documentNumber || !details.downloadUrl) return null;
  const finalizedAt = ctx.now();
  const total = details.totalAmount ? formatDecimal(details.totalAmount, 2) : undefined;
  // The invoice's buyer as the service issued it: a NIF added to the order later is told, never issued (buyer-change.ts).
  const buyerNif = ref.purpose === 'invoice' && details.details.receiver.TaxId !== undefined ? String(details.details.receiver.TaxId) : undefined;
  // Its country too: the invoice's credit notes name the same buyer (CIVA art. 29(7)).
  const buyerCountry = buyerNif !== undefined && details.details.receiver.CountryCode ? details.details.receiver.CountryCode : undefined;
  const facts = { documentNumber: details.documentNumber, finalizedAt, total, buyerNif, buyerCountry };
  // One round trip (the same auto-pipelined connection): the number, the document's facts for the
  // month pack, and the sign-off of its month, which the write-back step reads (inClosedMonth).
  const recording = Promise.all([
    deps.ledger.record(ref, { state: 'finalized', ...facts }),
    deps.documentFacts?.remember(ref.tenant, documentId, details, ctx.tenant.mapping.dispatchRegion).catch((error: unknown) => ctx.log.warn({ err: (error as Error).message }, 'document facts not kept for the month pack')),
  ]);
  readMonthSignOff(ctx, entry.documentDate);
  return { facts, recording };
}

/** Starts the read of the sign-off of the document's month (its failure is the write-back step's, which awaits it). */
function readMonthSignOff(ctx: StepContext, day: string | undefined): void {
  if (!day || !ctx.deps.signOffs) return;
  const month = day.slice(0, 7);
  const read = ctx.deps.signOffs.of(ctx.ref.tenant, month);
  read.catch(() => undefined);
  ctx.monthSignOff = { month, read };
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
