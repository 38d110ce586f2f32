import { platformOf } from '../../platforms/registry';
import { isBindingHold } from '../../law/credit-limits';
import { regimeTurnoverOf } from '../../law/small-business-regime';
import { restoreFromOrder, restoreIssuingFromOrder } from './order-memory';
import { hasWrittenBack, issuingMarker, orderDigest, OUR_META_PREFIX } from '../shop/order-meta';
import { stateRules, type LedgerEntry } from '../core/ledger';
import { composeIssueRequest } from './document-requests';
import { issueDateFor, seriesOf, shopToday } from './issue-date';
import { parseProblem, personNeeded } from './problems';
import { isMappingRefusal } from './needs-person';
import { earlierDocumentTrace } from './earlier-traces';
import { externalIdForOrder } from '../../law/external-id';
import { type StepContext, type Outcome, waitThen, resumeFrom, orderOf } from './step-context';
import { attempt, flag } from './job-history';
import { withLock } from './order-lock';
import { recordedWarnings, ledgerMissesMarker, recordCreated, markIssuing } from './issue-record';
import { draftWasClosed, saveDraft, closeRefused, waitForSeriesDate } from './draft-protocol';
import { createWaybillOnce } from './waybill-issue';
import { cancelInvoice } from './invoice-cancel';
import { creditedInFull } from './credit-check';
import type { GateReason } from '../ingest/plan-order';
import type { Sale } from '../../law/sale';
import type { HistoryEvent } from '../history/order-history';

/**
 * The issue step: from the ledger and the order to a numbered document (or a hold, a skip, a wait),
 * exactly once: resumes any purpose from the ledger, rebuilds a lost one from the order, and issues
 * only under the order's lock.
 */

export async function issueStep(ctx: StepContext): Promise<Outcome> {
  const { deps, ref, data, tenant } = ctx;
  const reading = deps.ledger.get(ref);
  // A job's first run usually finds no entry, and then looks for earlier traces in the order's
  // story: read in the same round trip as the entry (a later run reads it only when it needs it).
  if (ref.purpose === 'invoice' && ctx.job.attemptsStarted <= 1) ctx.story = storyOf(ctx);
  let entry = await reading;
  const resumed = resumeFrom(entry);
  if (resumed) {
    // The next step starts from this read (the delayed Get Document run resumes here): no second read.
    if (entry) ctx.entry = entry;
    return resumed;
  }

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

  // Let go once read (below): a suspended async function keeps every local it has, used again or not.
  let sale: Sale | undefined;
  let built: Awaited<ReturnType<typeof composeIssueRequest>>;
  try {
    sale = await orderOf(ctx, true);
    built = await composeIssueRequest(tenant, sale, data, invoice, ctx.now(), { regimeTurnover: (year) => deps.ledger.regimeTurnover(tenant.config.id, year) });
  } catch (error) {
    // A refusal (a currency without a rate, an address the law cannot place) is decided on the shop's
    // own copy: the copy a delivery carried may be older than the owner's fix (console.test).
    if (ctx.carried) return recompose(ctx);
    // An order another system invoiced is not ours to invoice: its mark decides before a person is
    // told the order is refused (mapping-failed) and asked to fix what is not theirs to fix here.
    if (isMappingRefusal(error)) {
      const marked = await otherSystemFirst(ctx, entry);
      if (marked) return marked;
    }
    throw error;
  }
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
  // Another system's mark on the copy just read (written since the planning): decided under the lock
  // before any hold or trace asks a person about an order that is not ours to invoice.
  const marked = await otherSystemFirst(ctx, entry, sale);
  if (marked) return marked;
  forgetComposedCopy(ctx);
  sale = undefined;
  // Nothing on the order or in the ledger remembers an invoice: a note or the order's story may still name one.
  const trace = await earlierTraceHold(ctx, entry);
  if (trace) return trace;
  // A hold (a person's time) and a waybill (no read under the lock) are decided on the shop's own copy.
  if (ctx.carried && (built.hold || built.kind === 'waybill')) return recompose(ctx);
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
  // The series' latest date is read in the lock's round trip (sent just before it) and decided under the lock.
  const dating = issueDateFor(deps.ledger, tenant.config.id, series, today, invoice?.documentDate);
  dating.catch(() => undefined);

  return withLock(ctx, async (stillHeld, underLock) => {
    // Read under the lock: a concurrent delivery may have created the document meanwhile.
    let current = underLock;
    const again = resumeFrom(current);
    if (again) return again;
    const issue = await dating;
    if (issue.notBefore) return waitForSeriesDate(ctx, series, issue.notBefore, current);
    const newDraft = !(current?.state === 'draft' && current.documentId !== undefined);
    if (newDraft || ctx.carried) {
      // About to save a new draft: the order is read again under the lock. A worker that held this
      // order before (its lock lost with Redis's data) put its marker there before closing; then
      // that draft is closed by id, never a second one beside it. The same read proves the copy a
      // delivery carried (the document was composed from it) is still the shop's.
      const read = await readUnderLock(ctx, current, newDraft);
      if ('outcome' in read) return read.outcome;
      current = read.current;
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
    // An M10 document counts in the year's turnover (CIVA art. 53, DL 35/2025: the EUR 18,750 exit).
    const regime = regimeTurnoverOf({ ...doc, Date: issue.date });
    return recordCreated(ctx, current, { documentId: draftId, date: issue.date, warnings, series, viesConfirmed: built.viesConfirmed, totalDifference: built.totalDifference, currency: doc.Currency, regime });
  });
}

/**
 * The order read again under the lock (see the caller), in its own frame: a suspended async function
 * keeps every local it has, used again or not, and the order read here would otherwise be held across
 * the draft, the marker and the close, long enough to be promoted to old space (issue 29).
 */
async function readUnderLock(ctx: StepContext, current: LedgerEntry | null, newDraft: boolean): Promise<{ outcome: Outcome } | { current: LedgerEntry | null }> {
  const { deps, ref, data, tenant } = ctx;
  const platform = platformOf(tenant.config);
  const raw = await tenant.shop.getOrder(data.orderId);
  // The copy's attributes are read once: for the carried copy's proof and for the marker and the other system's mark.
  const read = ctx.carried ? attributesOrUndefined(ctx, raw) : undefined;
  if (ctx.carried && !sameAsCarried(ctx, raw, read)) return { outcome: recompose(ctx) };
  ctx.carried = false;
  if (!newDraft) return { current };
  const meta = read ?? platform.attributesOf?.(raw) ?? platform.saleOf(raw, tenant.mapping, tenant.config).attributes;
  if (ledgerMissesMarker(current, issuingMarker(meta, ref.purpose))) current = await restoreIssuingFromOrder(deps.ledger, ref, meta, ctx.now());
  // Another invoicing system's mark written since the delivery was planned (two apps answering
  // the same 'paid'): the order is that system's, as ingest would have said; nothing is created.
  const other = ref.purpose === 'invoice' && nothingIssued(current) ? platform.otherSystemDocument(meta, tenant.config.settings.otherSystemMetaKeys) : undefined;
  if (other) return { outcome: await otherSystemInvoiced(ctx, current, { code: 'other-system', ...other }) };
  return { current };
}

/** No invoice of ours exists or may exist for the order: no draft with an id, no create that may have been sent. */
function nothingIssued(entry: LedgerEntry | null): boolean {
  return entry?.state === 'drafting' || stateRules(entry?.state).document === 'none';
}

/**
 * An invoice of an order read afresh (a carried copy is the one ingest checked) that already shows
 * another system's mark: the not-invoiced outcome under the order's lock, unless a run holding the
 * lock meanwhile issued something (then the issue step runs again, from the ledger).
 */
async function otherSystemFirst(ctx: StepContext, entry: LedgerEntry | null, sale?: Sale): Promise<Outcome | undefined> {
  if (ctx.ref.purpose !== 'invoice' || ctx.carried || !nothingIssued(entry)) return undefined;
  const platform = platformOf(ctx.tenant.config);
  const attributes = attributesRead(ctx, sale);
  // Our own marker or document on the order (a ledger lost before the compose was refused): ours, not the other system's.
  if (!attributes || issuingMarker(attributes, ctx.ref.purpose) || hasWrittenBack(attributes, ctx.ref.purpose)) return undefined;
  const other = platform.otherSystemDocument(attributes, ctx.tenant.config.settings.otherSystemMetaKeys);
  if (!other) return undefined;
  return withLock(ctx, async (_stillHeld, underLock) => {
    const again = resumeFrom(underLock);
    if (again) return again;
    return nothingIssued(underLock) ? otherSystemInvoiced(ctx, underLock, { code: 'other-system', ...other }) : { next: 'issue' };
  });
}

/**
 * The order has another invoicing system's document (found under the lock, before our first draft):
 * it goes on the not-invoiced list with the note on the order, as at ingest, and the ledger forgets
 * the purpose (an attempt's error, a hold: nothing was issued), so the planner never takes the order
 * for one this connector invoices (planOrder's invoiceKnown) nor plans its refunds here.
 */
async function otherSystemInvoiced(ctx: StepContext, entry: LedgerEntry | null, reason: Extract<GateReason, { code: 'other-system' }>): Promise<Outcome> {
  const { deps, ref } = ctx;
  await deps.notInvoiced(ctx.tenant, ref.orderId, reason);
  if (entry) {
    await deps.ledger.clearFields(ref, Object.keys(entry) as (keyof LedgerEntry)[]);
    await deps.ledger.clearAttention(ref);
  }
  ctx.log.info({ system: reason.system, key: reason.key }, "another invoicing system's document appeared on the order after it was planned: not invoiced here");
  return { done: `not invoiced: another system's document (${reason.system}: ${reason.key} = ${reason.value})` };
}

/**
 * Whether the shop's order, read under the lock, is the very copy the delivery carried: nothing
 * changed since (the order itself, its modification stamp, our own attributes), as its platform
 * reads them. A platform that gives no modification stamp never has a carried copy proven: the
 * document is composed again from the shop's copy, as it is whenever anything changed.
 */
function sameAsCarried(ctx: StepContext, fresh: unknown, attributes: Sale['attributes'] | undefined): boolean {
  const proof = ctx.carriedProof;
  const platform = platformOf(ctx.tenant.config);
  if (proof?.stamp === undefined || proof.stamp !== platform.modifiedStamp?.(fresh)) return false;
  if (ctx.composedDigest === undefined || ctx.composedDigest !== orderDigest(fresh, platform.withoutOurWrites)) return false;
  return proof.ours !== undefined && attributes !== undefined && proof.ours === ours(attributes);
}

/**
 * Lets the parsed copy go once the document is composed and the checks that read it are done: what
 * the rest of the run needs of it is its digest (the issuing marker) and, for a carried copy, what
 * the read under the lock compares (its modification stamp, our own attributes). The copy (tens of
 * KB) is then not held across the shop's and the service's calls, where it outlived the young
 * generation and waited for a full collection (issue 29).
 */
function forgetComposedCopy(ctx: StepContext): void {
  const copy = ctx.composedFrom;
  if (copy === undefined) return;
  const platform = platformOf(ctx.tenant.config);
  ctx.composedDigest = orderDigest(copy, platform.withoutOurWrites);
  if (ctx.carried) ctx.carriedProof = { stamp: platform.modifiedStamp?.(copy), ours: ourAttributes(ctx, copy) };
  ctx.composedFrom = undefined;
}

/** The order's attributes this connector wrote (OUR_META_PREFIX), as one text to compare; undefined when the copy cannot be read. */
function ourAttributes(ctx: StepContext, raw: unknown): string | undefined {
  const attributes = attributesOrUndefined(ctx, raw);
  return attributes === undefined ? undefined : ours(attributes);
}

/** The attributes of this connector's own (OUR_META_PREFIX), as one text to compare. */
function ours(attributes: Sale['attributes']): string {
  return JSON.stringify(attributes.filter((attribute) => attribute.key.startsWith(OUR_META_PREFIX)));
}

/** A copy's attributes as its platform reads them; undefined when the copy cannot be read. */
function attributesOrUndefined(ctx: StepContext, raw: unknown): Sale['attributes'] | undefined {
  const platform = platformOf(ctx.tenant.config);
  try {
    return platform.attributesOf?.(raw) ?? platform.saleOf(raw, ctx.tenant.mapping, ctx.tenant.config).attributes;
  } catch {
    return undefined;
  }
}

/** The carried copy is not proven (changed since, or a decision to make on the shop's own copy): the issue step again, reading the order. */
function recompose(ctx: StepContext): Outcome {
  ctx.carried = false;
  ctx.composedFrom = undefined;
  ctx.composedDigest = undefined;
  ctx.carriedProof = undefined;
  ctx.log.debug('the copy the delivery carried is not the shop\'s now: composed again from a read');
  return { next: 'issue' };
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
  const story = ctx.story ?? storyOf(ctx);
  ctx.story = undefined;
  const trace = await earlierDocumentTrace(ctx.tenant.shop, await story, ctx.ref.orderId);
  if (!trace) return undefined;
  // "No meta" was read on the copy a delivery carried, which may predate our write-back (a delayed
  // retry): the shop's own copy decides before anyone is asked.
  if (ctx.carried) return recompose(ctx);
  ctx.log.warn({ trace }, 'no ledger and no meta, yet a trace of an earlier invoice: held for a person');
  await flag(ctx, personNeeded(ctx.ref, { code: 'earlier-document', ...trace }, 'held'), entry);
  // What "attach" checks the named document against (admin/order-actions.ts).
  await ctx.deps.ledger.record(ctx.ref, { externalId: externalIdForOrder(ctx.ref.orderId, ctx.tenant.mapping) });
  return { done: 'held' };
}

/**
 * The order's story. A story that cannot be read (its key overwritten by something else) stops no
 * document, as one that cannot be written stops none: the shop's notes, the record that outlives
 * Redis, are still read.
 */
function storyOf(ctx: StepContext): Promise<HistoryEvent[]> {
  return ctx.deps.history ? ctx.deps.history.of(ctx.ref.tenant, ctx.ref.orderId).catch(() => []) : Promise.resolve([]);
}

/** The attributes of the copy just read (its platform's cheap read, or the sale's); undefined when the copy cannot be read (a refusal of the order itself, without the platform's attributesOf). */
function attributesRead(ctx: StepContext, sale: Sale | undefined): Sale['attributes'] | undefined {
  if (sale) return platformOf(ctx.tenant.config).attributesOf?.(ctx.composedFrom) ?? sale.attributes;
  try {
    return platformOf(ctx.tenant.config).attributesOf?.(ctx.composedFrom);
  } catch {
    return undefined;
  }
}
