import { randomUUID } from 'node:crypto';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ApiError, AuthenticationError, DocumentDuplicateError, ElementDoesNotExistError, LocalValidationError, ServiceValidationError } from '../../../client/errors';
import type { MagniFinanceClient } from '../../../client/rest-client';
import type { CreateDocumentRequest } from '../../../client/schemas/document';
import type { CreateWaybillRequest } from '../../../client/schemas/waybill';
import { awaitFinalizedDocument, readWaitSettings } from '../helpers/await-finalized-document';
import { cancellableSleep } from '../helpers/cancellable-sleep';
import { nodeErrorFor } from '../helpers/node-errors';
import { withPdf, type ItemWithBinary } from '../helpers/pdf-binary';
import { claimText, type ClaimMessage } from './claim-messages';
import { CAS_SLOT, claimKey, ClaimSchema, CLOCK_MARGIN_MS, claimsOf, claimValue, leaderOf, type Claim, type PlacedClaim } from './order-claim';
import type { OrderRecordPurpose } from './record-purposes';
import type { ShopOrder, ShopOrders } from './woo-rest';

/** How long a claim without document holds the order: claim, draft, the draft's id on the order (a few requests). */
export const CLAIM_LEASE_MS = 180_000;
/** Between our claim's write and the read that decides the leader (a shop without compare-and-set): every claim placed before ours is committed by then. */
const SETTLE_MS = 1_000;
/** How often a run waiting for another run's claim (no document yet) reads the order again. */
const POLL_MS = 5_000;
/** Rounds of the claim loop before giving up (a leader that never names a document is void after its lease). */
const MAX_ROUNDS = 2 + Math.ceil((CLAIM_LEASE_MS + 30_000) / POLL_MS) + 5;

/**
 * The order mapped for the document (throws the mapping's held or refused error): an invoice or a
 * credit note (saved as a draft, closed by id), or a waybill (the service has no waybill draft: one
 * create, see `sending` in order-claim.ts).
 */
export type BuiltDocument = { kind: 'document'; request: CreateDocumentRequest; summary: IDataObject } | { kind: 'waybill'; request: CreateWaybillRequest; summary: IDataObject };

export interface ClaimedIssue {
  itemIndex: number;
  client: MagniFinanceClient;
  shop: ShopOrders;
  orderId: number;
  externalId: string;
  /** Which document of the order this is: its claim key, where its number is written on the order. */
  purpose: OrderRecordPurpose;
  token: string | undefined;
  /** Maps the order as the shop has it now; throws when it is held or refused. */
  build: (order: ShopOrder) => BuiltDocument | Promise<BuiltDocument>;
}

type Outcome = 'issued' | 'resumed' | 'already-recorded';

/**
 * Issues the order's invoice at most once, with the order itself as the record (see order-claim.ts):
 * the number already on the order is reported, never issued again; otherwise the run claims the
 * order (in a shop with compare-and-set, Shopify, the one claim of the purpose, swapped only over
 * what the run read), reads the claims back, and either saves its draft (its id on the order before the close)
 * and closes it, or resumes the leading claim's document by id, or waits for the leading run to
 * name its document. The number is written on the order as soon as it is known, item by item.
 */
export async function issueWithClaim(this: IExecuteFunctions, job: ClaimedIssue): Promise<IDataObject | ItemWithBinary> {
  const { shop, orderId } = job;
  const signal = this.getExecutionCancelSignal();
  const run = randomUUID().replace(/-/g, '').slice(0, 16);
  const purpose = job.purpose.claim;
  let order = await shop.get(orderId);
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const recorded = job.purpose.recorded(order.meta_data);
    if (recorded) {
      return { orderId, externalId: job.externalId, alreadyIssued: true, ...recorded, writtenBack: false, orderRecord: { outcome: 'already-recorded' satisfies Outcome } };
    }
    const leader = leaderOf(claimsOf(order.meta_data, purpose), Date.now(), run);
    if (!leader) {
      const claim: Claim = { run, externalId: job.externalId, at: Date.now(), until: Date.now() + CLAIM_LEASE_MS, execution: this.getExecutionId() };
      if (shop.swapMeta) {
        // The one claim of the purpose, placed only over what this run read: absent, or the void claim it saw. Another run's write in between: refused, read again.
        const key = claimKey(purpose, CAS_SLOT);
        const current = order.meta_data.find((entry) => entry.key === key);
        order = (await shop.swapMeta(orderId, key, current ? (current.digest ?? null) : null, claimValue(claim))) ?? (await shop.get(orderId));
        continue;
      }
      await shop.putMeta(orderId, [{ key: claimKey(purpose, run), value: claimValue(claim) }]);
      await cancellableSleep(SETTLE_MS, signal);
      order = await shop.get(orderId);
      continue;
    }
    if (leader.documentId !== undefined) return await finish.call(this, job, order, leader, leader.run === run ? 'issued' : 'resumed');
    // A waybill create was sent and its answer never named the document: it may exist; only a person can tell.
    if (leader.sending !== undefined && leader.run !== run && Date.now() > leader.until + CLOCK_MARGIN_MS) {
      throw personError(this, job.itemIndex, { code: 'create-unknown', params: { orderId, externalId: job.externalId, claim: leader.key, record: job.purpose.keys } });
    }
    if (leader.run !== run) {
      // Another run claimed first and has not named its document yet: a few requests away.
      await cancellableSleep(POLL_MS, signal);
      order = await shop.get(orderId);
      continue;
    }
    // Ours, no document yet: map the order as it is now, save the draft, name it on the order.
    let built: BuiltDocument;
    try {
      built = await job.build(order);
    } catch (error) {
      await release(shop, orderId, leader, 'the order was held or refused by the mapping');
      throw nodeErrorFor(this.getNode(), error, job.itemIndex);
    }
    if (built.kind === 'waybill') {
      // No draft to name first: the claim says the create is on its way before it is sent.
      const sending = Date.now();
      const marked = await putClaim(shop, orderId, leader, { ...stripPlacement(leader), sending });
      if (!marked) {
        // Our claim changed since we read it (its lease ran out and another run took the order): nothing was sent.
        order = await shop.get(orderId);
        continue;
      }
      const ours = claimsOf(marked.meta_data, purpose).find((claim) => claim.key === leader.key) ?? leader;
      let created: number;
      try {
        created = (await job.client.createWaybill(built.request, job.token ? { token: job.token } : undefined)).documentId;
      } catch (error) {
        // Refused before anything was made (our checks, the service's validation, the credential): the order is free again.
        if (nothingMade(error)) await release(shop, orderId, ours, 'the create was refused before anything was made');
        if (error instanceof DocumentDuplicateError) throw personError(this, job.itemIndex, { code: 'unrecorded-duplicate', params: { orderId, externalId: job.externalId, record: job.purpose.keys } });
        throw nodeErrorFor(this.getNode(), error, job.itemIndex);
      }
      // A claim that is sending never stops counting, so nobody else can have changed it; if the shop says otherwise, a person decides.
      const named = await putClaim(shop, orderId, ours, { ...stripPlacement(ours), sending, documentId: created });
      if (!named) throw personError(this, job.itemIndex, { code: 'claim-changed-after-create', params: { orderId, externalId: job.externalId, documentId: created, claim: leader.key, record: job.purpose.keys } }, { documentId: created });
      order = await shop.get(orderId);
      continue;
    }
    const draft = await saveDraft(job, built.request, run);
    // Named only on our claim as we read it: taken over meanwhile (its lease ran out), the draft stays a draft (no legal effect).
    await putClaim(shop, orderId, leader, { ...stripPlacement(leader), documentId: draft });
    // Read again: the document that leads now is the one closed (ours, unless a claim placed before ours named one meanwhile).
    order = await shop.get(orderId);
  }
  throw new NodeOperationError(this.getNode(), `Order #${orderId}: another run claimed it and named no document within ${CLAIM_LEASE_MS / 1000} s`, {
    itemIndex: job.itemIndex,
    description: `Nothing was issued by this run. Look at the order's ${claimKey(purpose, '*')} meta (the execution that claimed it) and run the order again.`,
  });
}

/** The claim's value as stored (the schema keeps its own fields, not the key and row it was read with). */
function stripPlacement(claim: PlacedClaim): Claim {
  return ClaimSchema.parse(claim);
}

/**
 * Changes a placed claim. In a shop with compare-and-set, only while it is as this run read it
 * (undefined: it changed, nothing written); otherwise the run's own key is written.
 */
async function putClaim(shop: ShopOrders, orderId: number, claim: PlacedClaim, value: Claim): Promise<ShopOrder | undefined> {
  if (shop.swapMeta && claim.digest !== undefined) return await shop.swapMeta(orderId, claim.key, claim.digest, claimValue(value));
  return await shop.putMeta(orderId, [{ key: claim.key, value: claimValue(value) }]);
}

/** Gives the claim up; a claim changed since it was read (another run's now) is left as it is. */
async function release(shop: ShopOrders, orderId: number, claim: PlacedClaim, reason: string): Promise<void> {
  await putClaim(shop, orderId, claim, { ...stripPlacement(claim), released: reason });
}

/** A draft under its own External ID (`<External ID>.n<run>`): a draft has no legal effect, the close gives it the order's. */
async function saveDraft(job: ClaimedIssue, request: CreateDocumentRequest, run: string): Promise<number> {
  const suffix = `.n${run.slice(0, 8)}`;
  const draftExternalId = `${job.externalId.slice(0, 50 - suffix.length)}${suffix}`;
  // saveDraft sends IsToClose false whatever the request says.
  const saved = await job.client.saveDraft({ ...request, Document: { ...request.Document, ExternalId: draftExternalId } }, job.token ? { token: job.token } : undefined);
  return saved.documentId;
}

/** A create refused before the service made anything (nothing to fear from a second create). */
function nothingMade(error: unknown): boolean {
  return error instanceof LocalValidationError || error instanceof ServiceValidationError || error instanceof AuthenticationError;
}

function refusedAs(error: unknown, type: string): boolean {
  return error instanceof ApiError && error.validationErrors.some((issue) => issue.Type === type);
}

/**
 * The leading claim names a document: close it by id (a closed one answers DocumentIsClosed: one
 * document whoever closes), wait for its number, write it on the order.
 */
async function finish(this: IExecuteFunctions, job: ClaimedIssue, order: ShopOrder, leader: PlacedClaim, outcome: Outcome): Promise<IDataObject | ItemWithBinary> {
  const documentId = leader.documentId as number;
  const options = job.token ? { token: job.token } : undefined;
  let numbered: string | undefined;
  try {
    numbered = (await job.client.getDocument(documentId, options)).documentNumber;
  } catch (error) {
    if (!(error instanceof ElementDoesNotExistError)) throw nodeErrorFor(this.getNode(), error, job.itemIndex);
  }
  let summary: IDataObject = { orderId: job.orderId, externalId: job.externalId };
  let closed = true;
  if (!numbered) {
    let built: BuiltDocument | undefined;
    try {
      built = await job.build(order);
    } catch (error) {
      // A waybill whose create was answered exists already: the order as it is now changes nothing about it; only its number is missing.
      if (leader.sending === undefined) throw nodeErrorFor(this.getNode(), error, job.itemIndex);
    }
    if (built) {
      summary = built.summary;
      closed = built.request.IsToClose;
    }
    // A waybill's create closed it (or saved it open) already: only a document draft is closed by id.
    if (closed && built?.kind === 'document') {
      try {
        await job.client.closeDraft(documentId, built.request, options);
      } catch (error) {
        if (error instanceof DocumentDuplicateError) throw personError(this, job.itemIndex, { code: 'unrecorded-duplicate', params: { orderId: job.orderId, externalId: job.externalId, record: job.purpose.keys } });
        if (error instanceof ElementDoesNotExistError) {
          // The draft was deleted in the back-office before anyone closed it: nothing was issued; claim again.
          await release(job.shop, job.orderId, leader, `draft ${documentId} no longer exists`);
          return await issueWithClaim.call(this, job);
        }
        if (!refusedAs(error, 'DocumentIsClosed')) throw nodeErrorFor(this.getNode(), error, job.itemIndex);
      }
    }
  }
  const base: IDataObject = { ...summary, documentId, closed, alreadyIssued: outcome !== 'issued', orderRecord: { outcome, claim: leader.key } };
  if (!closed) return { ...base, writtenBack: false };
  const waited = await awaitFinalizedDocument.call(this, job.client, documentId, numbered ? { firstCheckAfterSeconds: 0, checkIntervalSeconds: 1, waitTimeoutSeconds: 0 } : readWaitSettings(this, job.itemIndex), job.token);
  const json: IDataObject = { ...base, ...waited };
  if (waited.finalized !== true || typeof waited.documentNumber !== 'string') return { ...json, writtenBack: false };
  try {
    await job.shop.putMeta(job.orderId, job.purpose.writeBack({ documentId, documentNumber: waited.documentNumber, type: typeof waited.type === 'string' ? waited.type : undefined }));
  } catch (error) {
    throw personError(
      this,
      job.itemIndex,
      { code: 'written-back-failed', params: { orderId: job.orderId, documentId, documentNumber: waited.documentNumber, cause: error instanceof Error ? error.message : String(error) } },
      { documentId, documentNumber: waited.documentNumber },
    );
  }
  const done = { ...json, writtenBack: true };
  return this.getNodeParameter('downloadPdf', job.itemIndex, false) ? await withPdf.call(this, done) : done;
}

function personError(context: IExecuteFunctions, itemIndex: number, why: ClaimMessage, facts: IDataObject = {}): NodeOperationError {
  const error = new NodeOperationError(context.getNode(), claimText('en', why, 'reason'), { itemIndex, description: claimText('en', why, 'whatToDo') });
  Object.assign(error.context, {
    ...facts,
    orderId: why.params.orderId,
    why: { code: why.code, params: { ...why.params } },
    whyPt: claimText('pt', why, 'reason'),
    whatToDo: claimText('en', why, 'whatToDo'),
  });
  return error;
}
