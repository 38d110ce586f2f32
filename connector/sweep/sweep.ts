import type { Queue } from 'bullmq';
import type { RedisClient } from '../core/redis-connection';
import type { Logger } from 'pino';
import { addResuming } from '../ingest/add-resuming';
import { goLiveAt } from '../ingest/go-live';
import { forgetNotInvoiced, recordNotInvoiced } from '../ingest/not-invoiced';
import { jobsToEnqueue } from '../ingest/plan-jobs';
import { invoiceKnownHere, planOrder } from '../ingest/plan-order';
import { purposeOf, type DocumentJobData } from '../core/jobs';
import { stateRules, type Ledger } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import { recordShopAnswer } from '../shop/shop-answer';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { platformOf } from '../../platforms/registry';
import { lastSweepReport, sweepReportKey, type SweepReport } from '../core/sweep-report';
import { ShopRequestError, type OrderPage, type OrderQuery, type ShopWebhook } from '../shop/shop';
import { settledOutsideProblem } from '../pipeline/problems';
import type { EnqueueResult } from '../ingest/add-resuming';
import type { NewHistoryEvent, OrderHistory } from '../history/order-history';
import { NOTES } from '../words';

export interface SweepDeps {
  redis: RedisClient;
  prefix: string;
  queue: Queue<DocumentJobData>;
  ledger: Ledger;
  metrics: ConnectorMetrics;
  logger: Logger;
  /** server.publicUrl: the connector's own webhooks are those delivering to it. */
  publicUrl: string;
  now?: () => number;
  /** The orders' stories: an order the sweep (or a backfill) sends to be issued is told as received. */
  history?: OrderHistory;
}



/** Clock skew between shop and connector: each sweep overlaps the previous one by this much. */
const OVERLAP_MS = 5 * 60_000;

/**
 * Lists the shop's orders modified since the last sweep, in trigger statuses and (for orders this
 * connector invoiced) `refunded` and `cancelled`, and enqueues every invoice, credit note or
 * cancellation the ledger has not settled: the safety net for deliveries WooCommerce never made or
 * we refused (it never retries). Also reports order webhooks the shop has disabled.
 */
export async function sweepTenant(tenant: TenantRuntime, deps: SweepDeps): Promise<SweepReport> {
  const now = deps.now ?? Date.now;
  const lastKey = `${deps.prefix}:sweep:${tenant.config.id}:last`;
  const cursorKey = shopCursorKey(deps.prefix, tenant.config.id);
  const startedAt = now();
  const startedLocal = Date.now();
  const last = Number(await deps.redis.get(lastKey));
  const cursor = await deps.redis.get(cursorKey);
  const since = sweepSince(cursor, last) ?? (await firstSweepSince(tenant, deps));
  const report: SweepReport = {
    tenant: tenant.config.id,
    since: new Date(since).toISOString(),
    until: new Date(startedAt).toISOString(),
    scanned: 0,
    enqueued: [],
    resumed: [],
    waitingForPerson: [],
    reviewed: [],
    inactiveWebhooks: [],
    missingTopics: [],
    problems: [],
    advancePayments: [],
  };
  const seen = await enqueueMissing(tenant, deps, { modifiedAfter: isoSeconds(since), orderBy: 'id' }, report, 'sweep');
  await reviewRecentCreditNotes(tenant, deps, report);
  await checkWebhooks(tenant, deps, report);
  if (!report.problems.some((p) => p.startsWith("could not list the shop's webhooks"))) report.webhooksCheckedAt = new Date(startedAt).toISOString();
  await deps.redis.set(lastKey, String(startedAt));
  if (seen.latestModifiedGmt && (!cursor || seen.latestModifiedGmt > cursor)) await deps.redis.set(cursorKey, seen.latestModifiedGmt);
  else if (!cursor) {
    // Nothing listed yet (a new tenant, or after a wipe): the cursor is this sweep's start on the
    // SHOP's clock, never ours: a shop whose clock is behind would otherwise stamp the next missed
    // order before the next sweep's start.
    const atStart = shopTimeAt(tenant.shop.clock?.(), startedLocal);
    if (atStart) await deps.redis.set(cursorKey, atStart);
  }
  await deps.redis.set(sweepReportKey(deps.prefix, tenant.config.id), JSON.stringify(report));
  deps.logger.info(
    { tenant: tenant.config.id, scanned: report.scanned, enqueued: report.enqueued.length, resumed: report.resumed.length, waitingForPerson: report.waitingForPerson.length, advancePayments: report.advancePayments?.length ?? 0, inactiveWebhooks: report.inactiveWebhooks.length },
    'sweep done',
  );
  return report;
}

/**
 * The first sweep of a tenant starts at its go-live cut-off, never earlier: orders before it were
 * invoiced some other way.
 */
async function firstSweepSince(tenant: TenantRuntime, deps: SweepDeps): Promise<number> {
  return goLiveAt(deps.redis, deps.prefix, tenant.config, deps.now);
}

/**
 * The webhook watch's findings, written into the stored report (the console and the alerts read that
 * one place); before the first sweep an empty report carries them.
 */
export async function storeWebhookFindings(
  redis: RedisClient,
  prefix: string,
  tenant: string,
  findings: Partial<Pick<SweepReport, 'inactiveWebhooks' | 'missingTopics' | 'webhooksCheckedAt' | 'refusedDeliveries'>>,
): Promise<void> {
  const stored = await lastSweepReport(redis, prefix, tenant);
  const base: SweepReport = stored ?? { tenant, since: '', until: '', scanned: 0, enqueued: [], resumed: [], waitingForPerson: [], reviewed: [], inactiveWebhooks: [], missingTopics: [], problems: [] };
  await redis.set(sweepReportKey(prefix, tenant), JSON.stringify({ ...base, ...findings }));
}


/**
 * A moment of this process's clock (`localMs`) on the shop's clock, as WooCommerce's GMT text, from
 * the shop's last Date header (whole seconds: one second earlier, so nothing is skipped).
 */
function shopTimeAt(clock: { shopMs: number; localMs: number } | undefined, localMs: number): string | undefined {
  if (!clock) return undefined;
  const shopMs = clock.shopMs - (clock.localMs - localMs) - 1_000;
  return new Date(shopMs).toISOString().slice(0, 19);
}

function shopCursorKey(prefix: string, tenant: string): string {
  return `${prefix}:sweep:${tenant}:shop-cursor`;
}

/**
 * Where a sweep starts listing, on the SHOP's clock: the latest modifiedAt it has seen in a
 * listing (minus the overlap). The shop stamps an order with its own clock, so a cursor taken from
 * ours opened a blind window whenever the shop's clock was behind: an order modified just after a
 * sweep carried a stamp older than the next sweep's start, and a lost webhook was never made good.
 * Before the first listing that returned an order: the last sweep's start (our clock); undefined
 * for a tenant's first sweep, which starts at its go-live cut-off.
 */
function sweepSince(cursor: string | null, last: number): number | undefined {
  const shopMs = cursor ? Date.parse(`${cursor}Z`) : Number.NaN;
  if (Number.isFinite(shopMs)) return shopMs - OVERLAP_MS;
  return Number.isFinite(last) && last > 0 ? last - OVERLAP_MS : undefined;
}

/** A listed order's modifiedAt: "2026-11-24T10:15:00" (UTC, no zone, the shop's clock); compares as text. */
const SHOP_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;


/**
 * Pages through orders (one status at a time, 100 per page, by id: our own write-backs change
 * date_modified while we page, so ordering by it would shift pages and skip orders) and enqueues
 * what is missing.
 * Shared by the sweep and the backfill; `onPage` reports progress.
 */
export async function enqueueMissing(
  tenant: TenantRuntime,
  deps: Omit<SweepDeps, 'publicUrl'>,
  filter: Pick<OrderQuery, 'modifiedAfter' | 'createdAfter' | 'createdBefore' | 'ids' | 'orderBy'>,
  report: Pick<SweepReport, 'scanned' | 'enqueued' | 'resumed' | 'waitingForPerson' | 'problems'> & Pick<Partial<SweepReport>, 'reviewed' | 'advancePayments'>,
  source: 'sweep' | 'backfill',
  onPage?: (progress: { status: string; scanned: number; total: number }) => void,
): Promise<{ latestModifiedGmt?: string }> {
  const now = deps.now ?? Date.now;
  // A backfill is a person's explicit ask: the go-live cut-off does not apply to it.
  const cutOff = source === 'backfill' ? undefined : await goLiveAt(deps.redis, deps.prefix, tenant.config, deps.now);
  let latestModifiedGmt: string | undefined;
  const platform = platformOf(tenant.config);
  const reconciled = statusesToReconcile(tenant);
  // The plugins' statuses the shop refused lately are not asked again (one read of what it refused).
  const refusedStatuses = new RefusedStatuses(deps.redis, deps.prefix, tenant.config.id, now);
  const refusedLately = await refusedStatuses.lately();
  const advanceOnly = advancePaymentStatuses(tenant).filter((status) => !reconciled.includes(status) && !refusedLately.has(status));
  for (const status of [...reconciled, ...advanceOnly]) {
    let page = 1;
    let totalPages = 1;
    let scannedForStatus = 0;
    do {
      const query: OrderQuery = { ...filter, statuses: [status], perPage: 100, page };
      // A plugin's status the shop does not have (the plugin is not installed) holds no order: no problem to report.
      const listing = advanceOnly.includes(status) ? await listIfTheShopHasIt(tenant, query, refusedStatuses) : await listOrRefused(tenant, query, report);
      if (!listing) break;
      totalPages = listing.totalPages;
      for (const reason of listing.unusable) report.problems.push(`an order in the listing is not usable: ${reason}`);
      report.scanned += listing.unusable.length;
      scannedForStatus += listing.unusable.length;
      for (const order of listing.orders) {
        report.scanned += 1;
        scannedForStatus += 1;
        const stamp = order.modifiedAt;
        if (stamp && SHOP_STAMP.test(stamp) && (!latestModifiedGmt || stamp > latestModifiedGmt)) latestModifiedGmt = stamp;
        const plan = await planOrder(order, {
          settings: tenant.config.settings,
          goLiveAt: cutOff,
          invoiceKnown: () => invoiceKnownHere(deps.ledger, deps.queue, tenant.config.id, order.id),
          platform,
        });
        if (plan.notInvoiced) await recordNotInvoiced(deps, tenant, order.id, plan.notInvoiced);
        if (plan.notInvoiced?.code === 'advance-payment' && report.advancePayments && !report.advancePayments.some((seen) => seen.orderId === order.id)) {
          const { kind, status: kept, plugin } = plan.notInvoiced;
          report.advancePayments.push({ orderId: order.id, kind, status: kept, plugin, why: { pt: NOTES.advancePaymentWhy('pt', plan.notInvoiced), en: NOTES.advancePaymentWhy('en', plan.notInvoiced) } });
        }
        const planned = [];
        for (const job of plan.jobs) {
          const purpose = purposeOf(job.kind, job.refundId);
          const entry = await deps.ledger.get({ tenant: tenant.config.id, orderId: order.id, purpose });
          const rules = stateRules(entry?.state);
          if (rules.settled) continue;
          if (rules.waitsFor === 'attach') report.waitingForPerson.push(`${order.id}:${purpose}`);
          // Held, refused or failed purposes run again: the order was modified since the last sweep.
          else planned.push(job);
        }
        if (planned.length === 0) continue;
        if (source === 'backfill') await forgetNotInvoiced(deps.redis, deps.prefix, tenant.config.id, [order.id]);
        // Told in the order's story before its jobs can run; a story that cannot be written stops nothing.
        const received: NewHistoryEvent = { kind: 'received', via: source, status: order.status };
        await deps.history?.add(tenant.config.id, order.id, received, now()).catch((error: unknown) => deps.logger.warn({ tenant: tenant.config.id, err: (error as Error).message }, 'could not record the order history'));
        for (const result of await addResuming(deps.queue, deps.redis, jobsToEnqueue(tenant.config.id, order.id, planned, now()))) {
          tally(report, result);
          deps.metrics.jobsEnqueued.inc({ kind: result.kind, source });
        }
      }
      onPage?.({ status, scanned: scannedForStatus, total: listing.total });
      page += 1;
    } while (page <= totalPages);
  }
  return { latestModifiedGmt };
}

/**
 * A listing of one of the platform's advance-payment statuses, or undefined when the shop has no such
 * status (refused for good). A status the shop says it does not have (400: WooCommerce's
 * rest_invalid_param, the plugin is not installed) is remembered for a day, so each sweep does not
 * ask again; other refusals (a key refused) are not remembered: the next sweep asks.
 */
async function listIfTheShopHasIt(tenant: TenantRuntime, query: OrderQuery, refused: RefusedStatuses): Promise<OrderPage | undefined> {
  try {
    return await tenant.shop.listOrders(query);
  } catch (error) {
    if (!(error instanceof ShopRequestError) || !error.permanent) throw error;
    if (error.status === 400) for (const status of query.statuses ?? []) await refused.remember(status);
    return undefined;
  }
}

/** How long a shop's refusal of a plugin's status is remembered: a plugin installed meanwhile is listed by the next day's sweeps. */
export const REFUSED_STATUS_MEMORY_MS = 24 * 3_600_000;

/**
 * The plugins' statuses a tenant's shop refused lately, in one Redis hash (status -> until when, ms):
 * one read per sweep, safe on a cluster (one key). Redis not answering forgets nothing and asks the shop.
 */
export class RefusedStatuses {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly tenant: string,
    private readonly now: () => number,
  ) {}

  static key(prefix: string, tenant: string): string {
    return `${prefix}:sweep:${tenant}:refused-statuses`;
  }

  async lately(): Promise<Set<string>> {
    const stored = await this.redis.hgetall(RefusedStatuses.key(this.prefix, this.tenant)).catch(() => ({}) as Record<string, string>);
    const now = this.now();
    return new Set(Object.entries(stored).filter(([, until]) => Number(until) > now).map(([status]) => status));
  }

  async remember(status: string): Promise<void> {
    const key = RefusedStatuses.key(this.prefix, this.tenant);
    await this.redis.hset(key, status, String(this.now() + REFUSED_STATUS_MEMORY_MS)).catch(() => undefined);
    await this.redis.pexpire(key, REFUSED_STATUS_MEMORY_MS).catch(() => undefined);
  }
}

/**
 * The statuses the platform keeps advance payments in (a deposit plugin's, Shopify's paid in part:
 * CIVA art. 36(1)(c)), listed by the sweep so that such an order whose delivery was lost is still
 * told; none when the tenant waits silently (settings.advancePayments `ignore`).
 */
export function advancePaymentStatuses(tenant: Pick<TenantRuntime, 'config'>): string[] {
  if (tenant.config.settings.advancePayments !== 'tell') return [];
  return [...(platformOf(tenant.config).advancePaymentStatuses ?? [])];
}

/** Where an enqueued job is counted: a review is no document (the sweep's `reviewed`, where the report has it). */
function tally(report: Pick<SweepReport, 'enqueued' | 'resumed'> & { reviewed?: string[] }, result: EnqueueResult): void {
  if (result.kind === 'review' && report.reviewed) {
    if (!report.reviewed.includes(result.jobId)) report.reviewed.push(result.jobId);
    return;
  }
  (result.outcome === 'resumed' ? report.resumed : report.enqueued).push(result.jobId);
}

/**
 * One page of the listing, or undefined when the shop refuses it for good (4xx): WooCommerce
 * answers 400 rest_invalid_param to a status it does not have, so a trigger status that is not
 * the shop's would fail every sweep of the tenant. The refusal is said in the report, with the fix,
 * and the other statuses are still reconciled. Errors that may heal (5xx, no answer) still fail.
 */
async function listOrRefused(
  tenant: TenantRuntime,
  query: OrderQuery,
  report: Pick<SweepReport, 'problems' | 'refusedListings'>,
): Promise<OrderPage | undefined> {
  try {
    return await tenant.shop.listOrders(query);
  } catch (error) {
    if (!(error instanceof ShopRequestError) || !error.permanent) throw error;
    const byStatus = query.ids === undefined;
    const status = query.statuses?.join(',') ?? '';
    const what = byStatus ? `orders in status "${status}"` : 'the orders of recent credit notes';
    // What to check is the platform's to say (a WooCommerce REST key, a Shopify store's token): the report is the operator's, in English.
    const hint =
      byStatus && error.code === 'rest_invalid_param'
        ? ` The shop has no order status "${status}": correct settings.triggerStatuses of tenant "${tenant.config.id}" (the doctor lists the shop's statuses).`
        : ` ${platformOf(tenant.config).listingRefusedFix('en', tenant.config)}.`;
    report.problems.push(`the shop refused the listing of ${what} (${error.message}); those orders were not reconciled.${hint}`);
    report.refusedListings = (report.refusedListings ?? 0) + 1;
    return undefined;
  }
}

/** How many of the most recent written-back documents the credit-note check looks at (the console's 30 days). */
const RECENT_DOCUMENTS_CHECKED = 20_000;

/**
 * Credit notes whose refund was deleted in WooCommerce: a real shop (10.0.2) fires no webhook for a
 * deleted refund and leaves the order's date_modified as it was, so the modified_after listing
 * never shows it. The orders of the credit notes written back in the last 30 days are listed by id
 * (100 per call) and each one whose refund is gone gets a review job, which tells a person
 * (problems.ts: refund-gone). Ones already told or settled are left alone.
 */
async function reviewRecentCreditNotes(tenant: TenantRuntime, deps: SweepDeps, report: SweepReport): Promise<void> {
  const byOrder = new Map<number, number[]>();
  for (const { orderId, purpose } of await deps.ledger.recent(tenant.config.id, RECENT_DOCUMENTS_CHECKED)) {
    if (!purpose.startsWith('credit-note-')) continue;
    const entry = await deps.ledger.get({ tenant: tenant.config.id, orderId, purpose });
    if (!entry || entry.settledAt !== undefined || settledOutsideProblem(entry)) continue;
    byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), Number(purpose.slice('credit-note-'.length))]);
  }
  const ids = [...byOrder.keys()];
  for (let start = 0; start < ids.length; start += 100) {
    const page = ids.slice(start, start + 100);
    const listing = await listOrRefused(tenant, { ids: page, perPage: 100 }, report);
    if (!listing) return;
    const seen = new Map<number, Set<number>>();
    for (const order of listing.orders) seen.set(order.id, new Set(order.refunds.map((r) => r.id)));
    // An order missing from the answer was deleted (or trashed): its credit notes stand, nothing to review.
    const gone = page.filter((orderId) => seen.has(orderId) && (byOrder.get(orderId) ?? []).some((refundId) => !seen.get(orderId)?.has(refundId)));
    for (const orderId of gone) {
      for (const result of await addResuming(deps.queue, deps.redis, jobsToEnqueue(tenant.config.id, orderId, [{ kind: 'review' }], (deps.now ?? Date.now)()))) {
        tally(report, result);
        deps.metrics.jobsEnqueued.inc({ kind: result.kind, source: 'sweep' });
      }
    }
  }
}

/**
 * The trigger statuses (orders to invoice, and their partial refunds), and the statuses an invoiced
 * order moves to when it is reversed: a lost webhook for a full refund (`refunded`) or a
 * cancellation must not leave an invoice without its credit note.
 */
export function statusesToReconcile(tenant: Pick<TenantRuntime, 'config'>): string[] {
  const statuses = [...tenant.config.settings.triggerStatuses, 'refunded'];
  if (tenant.config.settings.onCancelled !== 'ignore') statuses.push('cancelled');
  return [...new Set(statuses)];
}

export async function checkWebhooks(tenant: TenantRuntime, deps: SweepDeps, report: Pick<SweepReport, 'inactiveWebhooks' | 'missingTopics' | 'problems'>): Promise<void> {
  const now = deps.now ?? Date.now;
  if (tenant.shop.ensureWebhooks) {
    // The connector owns this shop's subscriptions (Shopify): re-create what was removed; the
    // sweep's listing by update time finds the orders changed while it was gone.
    try {
      const health = await tenant.shop.ensureWebhooks(deps.publicUrl, tenant.config.id);
      report.inactiveWebhooks = [];
      report.missingTopics = health.missingTopics.filter((topic) => !health.recreated.includes(topic));
      if (health.recreated.length > 0) deps.logger.warn({ tenant: tenant.config.id, recreated: health.recreated }, 'webhook subscriptions were missing from the shop: created again');
    } catch (error) {
      report.problems.push(`could not check the shop's webhook subscriptions: ${(error as Error).message}`);
      // Every page says at once that the shop refuses the connector or does not answer, and why.
      await recordShopAnswer(deps.redis, deps.prefix, tenant.config.id, error, now());
      return;
    }
    await recordShopAnswer(deps.redis, deps.prefix, tenant.config.id, undefined, now());
    return;
  }
  let hooks: ShopWebhook[];
  try {
    hooks = await tenant.shop.listWebhooks();
  } catch (error) {
    report.problems.push(`could not list the shop's webhooks: ${(error as Error).message}`);
    // Every page says at once that the shop does not answer, and why (shop/shop-answer.ts).
    await recordShopAnswer(deps.redis, deps.prefix, tenant.config.id, error, now());
    return;
  }
  await recordShopAnswer(deps.redis, deps.prefix, tenant.config.id, undefined, now());
  // Judged by delivery URL, as the doctor does: another integration's webhooks are not ours.
  const platform = platformOf(tenant.config);
  const { ours, missingTopics } = platform.orderWebhooks(hooks, deps.publicUrl, tenant.config.id);
  report.inactiveWebhooks = ours
    .filter((hook) => hook.status !== 'active')
    .map((hook) => ({ id: hook.id, topic: hook.topic, status: hook.status, deliveryUrl: hook.delivery_url }));
  report.missingTopics = missingTopics;
  deps.metrics.disabledWebhooks.set({ tenant: tenant.config.id }, report.inactiveWebhooks.length);
  if (report.inactiveWebhooks.length > 0 || report.missingTopics.length > 0) {
    // Where to turn them back on is the platform's to say (its catalogue): the log is the operator's, in English.
    const fix = platform.webhooksOffFix?.('en');
    deps.logger.warn({ tenant: tenant.config.id, inactive: report.inactiveWebhooks, missingTopics: report.missingTopics }, `order webhooks are not active on the shop${fix ? `: ${fix}` : ''}`);
  }
}

/** WooCommerce wants ISO 8601 without milliseconds. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}
