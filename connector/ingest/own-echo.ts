import { purposeOf } from '../core/jobs';
import { issuingMarker, orderDigest } from '../shop/order-meta';
import type { PlannedJob } from './plan-jobs';

/**
 * Whether a delivery is only the echo of our own issuing marker: every PUT of ours makes the shop
 * send the order back (order.updated), and the marker's echo would otherwise be planned and queued
 * again for a job that is running. It is ours, and nothing else changed, when
 * - every document the order calls for carries our issuing marker (a worker is closing it now:
 *   planning leaves written-back purposes out already), and
 * - the order, our own meta and its modification date aside, is the very copy each of those
 *   documents was composed from (the marker's `orderDigest`).
 * A refund, a cancellation, a changed buyer or line in the same delivery fails one of the two, and
 * the delivery is planned as usual. Answered 200 without a job or a Redis call.
 * `withoutOurWrites` (the platform's, ShopPlatform.withoutOurWrites) runs only when a marker is
 * there to compare with: every other delivery is spared its copy of the order.
 */
export function isOwnEcho(raw: unknown, meta: readonly { key: string; value?: unknown }[], planned: readonly PlannedJob[], withoutOurWrites?: (order: unknown) => unknown): boolean {
  if (planned.length === 0) return false;
  const digests = new Set<string | undefined>(planned.map((job) => issuingMarker(meta, purposeOf(job.kind, job.refundId))?.orderDigest));
  if (digests.size !== 1) return false;
  const [stamped] = digests;
  return stamped !== undefined && stamped === orderDigest(raw, withoutOurWrites);
}

/**
 * The level a delivery answered without a job is logged at: our own echoes (the marker's `own-echo`,
 * the write-back's `nothing-to-issue`: one or two per order) at debug, since an info line costs ~12 µs
 * and a write each; every other reason at info. The metric of ignored webhooks counts them all.
 */
export function ignoredLogLevel(reason: string): 'debug' | 'info' {
  return reason === 'own-echo' || reason === 'nothing-to-issue' ? 'debug' : 'info';
}
