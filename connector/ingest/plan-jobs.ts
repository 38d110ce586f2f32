import type { TenantSettings } from '../config/tenant-config';
import { documentJobId, purposeOf, type DocumentJobData, type PurposeKind } from '../core/jobs';
import type { EnqueueItem } from './enqueue-item';
import type { OrderSummary } from '../shop/order-summary';
import { hasWrittenBack } from '../shop/order-meta';
import { buyerCallsForReview } from '../pipeline/buyer-record';
import { payloadCallsForReview } from '../pipeline/coverage';

/**
 * The parts of an order planning reads (the route's summary, a listed order, an order read alone);
 * `paidAt` is empty for an order not paid yet (cash on delivery through the checkout leaves it empty at processing).
 */
export type PlannableOrder = Pick<OrderSummary, 'status' | 'paidAt' | 'total' | 'attributes' | 'refunds'>;

export interface PlannedJob {
  kind: PurposeKind;
  refundId?: number;
}

/**
 * Which documents this order calls for, from its current state and the tenant's settings. Purposes
 * already written back on the order are left out: that is what makes our own write-back echo (an
 * order.updated carrying our meta) a no-op. Everything else is deduplicated downstream by job id and
 * the ledger, so planning a job twice is harmless.
 */
export function planJobs(order: PlannableOrder, settings: TenantSettings): PlannedJob[] {
  const planned: PlannedJob[] = [];
  const meta = order.attributes;
  const wanted = (job: PlannedJob): void => {
    if (!hasWrittenBack(meta, purposeOf(job.kind, job.refundId))) planned.push(job);
  };
  if (settings.triggerStatuses.includes(order.status) && !waitsForCompletion(order, settings)) {
    wanted({ kind: 'invoice' });
    if (settings.waybill) wanted({ kind: 'waybill' });
  }
  // order.refunds only summarises refunds; the worker fetches each one for its lines.
  for (const refund of order.refunds) wanted({ kind: 'credit-note', refundId: refund.id });
  if (order.status === 'cancelled' && settings.onCancelled !== 'ignore') wanted({ kind: 'cancellation' });
  // An invoiced order that no longer agrees with its documents (a line added after the invoice, a
  // refund deleted after its credit note: WooCommerce sends no webhook of its own for that) is
  // reviewed, and a person told. Judged from our meta, so our own echo costs nothing.
  // So is one whose buyer's NIF now differs from its invoice's (added after it: a person is told, pipeline/buyer-change.ts).
  if (planned.length === 0 && (payloadCallsForReview(order) || buyerCallsForReview(order.attributes))) planned.push({ kind: 'review' });
  return planned;
}

/**
 * Cash on delivery (and any payment WooCommerce has not recorded) reaches `processing` with no
 * date_paid: invoiced then, the document is an invoice (not a receipt) and nothing follows when the
 * courier collects. settings.invoiceUnpaidProcessingAt: completed waits for the order's completion.
 */
function waitsForCompletion(order: PlannableOrder, settings: TenantSettings): boolean {
  return settings.invoiceUnpaidProcessingAt === 'completed' && order.status === 'processing' && !order.paidAt;
}

/** BullMQ add entries for planned jobs; the job id makes a repeated add of the same purpose a no-op. */
export function jobsToEnqueue(tenant: string, orderId: number, planned: PlannedJob[], seenAt: number): EnqueueItem[] {
  return planned.map((job) => {
    const data: DocumentJobData = { tenant, orderId, kind: job.kind, step: 'issue', polls: 0, seenAt };
    if (job.refundId !== undefined) data.refundId = job.refundId;
    return { name: job.kind, data, opts: { jobId: documentJobId(tenant, orderId, job.kind, job.refundId) } };
  });
}
