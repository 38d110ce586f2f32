import { createHash } from 'node:crypto';
import { DocumentDuplicateError } from '../../client/errors';
import { type IssueRequest } from './document-requests';
import { clearForPerson, isPermanent } from './needs-person';
import { type StepContext, type Outcome, waitThen, resumeFrom } from './step-context';
import { attempt } from './job-history';
import { withLock } from './order-lock';
import { markIssuing, duplicateWithUnknownId } from './issue-record';

/**
 * A waybill (W) or delivery note (Y): no draft step in the client, so a lost answer is caught by the
 * service's ExternalId duplicate check, as long as the buyer's data has not changed.
 */

/** Waybills have no draft step in the client: a lost answer is caught by the ExternalId duplicate check. */
export async function createWaybillOnce(ctx: StepContext, built: Extract<IssueRequest, { kind: 'waybill' }>): Promise<Outcome> {
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

/** A short digest of the Client block, so the ledger can tell a changed buyer without storing personal data. */
function clientKeyOf(client: IssueRequest['request']['Client']): string {
  return createHash('sha256').update(JSON.stringify(client)).digest('base64url').slice(0, 22);
}
