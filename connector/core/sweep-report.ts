import type { RedisClient } from './redis-connection';

/**
 * The last sweep's findings per tenant, kept in Redis: the sweep (and the minute-by-minute webhook
 * watch) write it; the console, the admin API and the alerts read it. In the core so that readers
 * need not depend on the sweep.
 */
export interface SweepReport {
  tenant: string;
  since: string;
  until: string;
  scanned: number;
  /** Jobs put in the queue (or found there already). */
  enqueued: string[];
  /** Jobs that had failed for good and run again from their ledger step. */
  resumed: string[];
  /** Purposes that wait for a person to attach a document id: not enqueued, listed in the attention list. */
  waitingForPerson: string[];
  /** Invoiced orders checked against their documents (review jobs: a changed order, a deleted refund). */
  reviewed: string[];
  /** This connector's order webhooks on the shop that are not active (WooCommerce disables one after repeated failures). */
  inactiveWebhooks: { id: number; topic: string; status: string; deliveryUrl: string }[];
  /** Topics no active webhook delivers to this connector: orders of those events never reach it. */
  missingTopics: string[];
  problems: string[];
  /** Listings the shop refused (its answer in `problems`): the orders they hold were not reconciled. */
  refusedListings?: number;
  /** When the webhooks were last looked at: by this sweep, or by the minute-by-minute watch (ingest/webhook-watch.ts). */
  webhooksCheckedAt?: string;
  /**
   * Orders the sweep saw paid in part or before the supply (a deposit, an instalment, a pre-order
   * paid upfront: CIVA art. 36(1)(c)), which the connector does not invoice as the whole order: which
   * order, who keeps it in which status, and why, in both languages (connector/words.ts). Absent in
   * reports written before it was kept.
   */
  advancePayments?: SweptAdvancePayment[];
  /** Deliveries the shop sent that were refused in the last hour, by reason (the watch fills it in). */
  refusedDeliveries?: { reason: string; count: number; lastAt: string }[];
}

export interface SweptAdvancePayment {
  orderId: number;
  kind: 'deposit' | 'pre-order';
  status: string;
  plugin: string;
  why: { pt: string; en: string };
}

export function sweepReportKey(prefix: string, tenant: string): string {
  return `${prefix}:sweep:${tenant}:report`;
}

export async function lastSweepReport(redis: RedisClient, prefix: string, tenant: string): Promise<SweepReport | null> {
  const text = await redis.get(sweepReportKey(prefix, tenant));
  return text ? (JSON.parse(text) as SweepReport) : null;
}
