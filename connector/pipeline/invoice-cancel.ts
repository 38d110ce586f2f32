import { type LedgerEntry } from '../core/ledger';
import type { StepContext, Outcome } from './step-context';
import { attempt } from './job-history';
import { withLock } from './order-lock';

/**
 * The cancel flow: a cancelled order's invoice cancelled on the service (settings.onCancelled:
 * 'cancel'), a lost answer checked against the document's status.
 */

export async function cancelInvoice(ctx: StepContext, entry: LedgerEntry | null, invoice: LedgerEntry): Promise<Outcome> {
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
