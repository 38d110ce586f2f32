import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Router } from 'express';
import type { z } from 'zod';
import { deliveryRouter, plainDeliveryPath, type Delivery, type DeliveryLogic, type Refusal } from '../../connector/ingest/plain-delivery';
import type { WebhookRouteDeps } from '../../connector/ingest/webhook-route-deps';
import type { TenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { goLiveAt } from '../../connector/ingest/go-live';
import { recordNotInvoiced } from '../../connector/ingest/not-invoiced';
import { ignoredLogLevel } from '../../connector/ingest/own-echo';
import { recordRefusal } from '../../connector/ingest/webhook-health';
import { jobsToEnqueue, type PlannedJob } from '../../connector/ingest/plan-jobs';
import { purposeOf } from '../../connector/core/jobs';
import type { LedgerEntry } from '../../connector/core/ledger';
import { invoiceKnownHere, planOrder } from '../../connector/ingest/plan-order';
import type { OrderSummary } from '../../connector/shop/order-summary';
import { ShopifyOrderWebhookSchema, ShopifyRefundWebhookSchema, summaryOfWebhookOrder } from './order-summary';
import { statusOfRefusal, verifyShopifyWebhook, type ShopifyDelivery } from './webhook-signature';
import { markMeta, shopifyOtherSystemDocument } from './other-apps';
import { ShopifyShop } from './shopify-shop';
import { shopifyAdvancePayment } from './advance-payments';
import { comparableNif } from '../../connector/pipeline/buyer-record';
import { deliveryProblemOf } from './webhook-words';
import { nifOfAttributes, unseenNifSource } from './buyer-nif';

type ShopifyOrderBody = z.output<typeof ShopifyOrderWebhookSchema>;
/** The order's ledger entry of one purpose (the delivery's order). */
type LedgerOf = (purpose: string) => Promise<LedgerEntry | null>;

/**
 * POST /webhooks/shopify/:tenant: Shopify's deliveries for one store. Verify the HMAC over the raw
 * body with the tenant's client secret, check the store, plan, enqueue, answer: all within
 * milliseconds, far inside Shopify's 5 s (the work happens in the workers). Shopify retries any
 * answer other than 2xx (8 times over 4 hours), so a refusal here is a request that retrying cannot
 * fix (401, 400) or a 503 while our Redis is away (Shopify's retry, or the sweep, brings it back).
 *
 * Delivery is at least once: `X-Shopify-Event-Id` is the same on every delivery of one event, so an
 * event already enqueued is answered at once without planning again (a day's memory in Redis). It
 * only saves work: the order's ledger and the job ids keep the document unique whatever arrives.
 */

const ORDER_TOPICS = new Set(['orders/paid', 'orders/updated', 'orders/cancelled']);
/** How long an event id is remembered: longer than Shopify's 4 hours of retries. */
const EVENT_MEMORY_MS = 24 * 3_600_000;
const ROUTE_PREFIX = '/webhooks/shopify/';

function issuesOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`)
    .join('; ');
}

/** How long a delivery waits for an order's other-app metafields (Shopify waits 5 s for the answer). */
const MARKS_WAIT_MS = 2_000;

/**
 * The metafields the tenant named as other invoicing apps' marks, on one order ([] when it names
 * none); undefined when they could not be read within MARKS_WAIT_MS (the delivery is then refused
 * with 503, so nothing is planned on an absence the body cannot prove).
 */
async function markedMetafieldsOf(runtime: TenantRuntime, orderId: number): Promise<{ namespace: string; key: string; value: string }[] | undefined> {
  const shop = runtime.shop;
  if (!(shop instanceof ShopifyShop) || !shop.marksMetafields) return [];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), MARKS_WAIT_MS);
  });
  try {
    return await Promise.race([shop.markedMetafieldsOf(orderId).catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

function webhookLogic(deps: WebhookRouteDeps): DeliveryLogic {
  const now = deps.now ?? Date.now;
  const eventKey = (tenant: string, eventId: string): string => `${deps.prefix}:shopify-event:${tenant}:${eventId}`;

  const refuse = (d: Delivery, refusal: Refusal): void => {
    const tenantId = d.tenantId;
    const known = deps.tenants.has(tenantId);
    deps.metrics.webhooksRefused.inc({ tenant: known ? tenantId : '-', reason: refusal.reason });
    // Counted under the connector's codes (a wrong client secret is `bad-signature`), so the console and the alerts tell it.
    const problem = deliveryProblemOf(refusal.reason);
    if (known && problem) void recordRefusal(deps.redis, deps.prefix, tenantId, problem, now()).catch(() => undefined);
    deps.logger.warn({ tenant: tenantId, reason: refusal.reason, detail: refusal.detail, topic: d.header('x-shopify-topic'), webhookId: d.header('x-shopify-webhook-id') }, 'webhook refused');
    d.reply(refusal.status, { error: refusal.reason, detail: refusal.detail });
  };
  const ignore = (d: Delivery, tenant: string, reason: string, topic: string): void => {
    deps.metrics.webhooksIgnored.inc({ reason });
    deps.logger[ignoredLogLevel(reason)]({ tenant, reason, topic }, 'webhook ignored');
    d.reply(200, { ignored: reason });
  };

  const enqueue = async (runtime: TenantRuntime, orderId: number, jobs: PlannedJob[], status: string): Promise<string[]> => {
    const results = await deps.enqueuer.add(jobsToEnqueue(runtime.config.id, orderId, jobs, now()), status);
    for (const result of results) deps.metrics.jobsEnqueued.inc({ kind: result.kind, source: 'webhook' });
    return results.map((r) => r.jobId);
  };

  /**
   * An update of an order this connector invoiced whose body names another buyer's NIF (an order
   * attribute the tenant's NIF sources read) than its invoice's, and not the one a person was told
   * of: a review (pipeline/buyer-change.ts) tells the owner once, never issues. A webhook body has no
   * metafields (our record of the invoice's buyer), so the ledger's copy is what it is compared with.
   * A NIF the body cannot show (a B2B company's tax registration, a VAT app's metafield, when the
   * tenant reads one there) is the review's to read: every update of such an invoiced order is
   * reviewed (one order read; told once, so a later update says nothing again).
   */
  const buyerMayHaveChanged = async (runtime: TenantRuntime, body: Pick<ShopifyOrderBody, 'note_attributes' | 'company'>, ledgerOf: LedgerOf): Promise<boolean> => {
    const sources = runtime.config.shopify?.sale.nifSources ?? [];
    const nif = nifOfAttributes(body.note_attributes, sources);
    const unseen = unseenNifSource(sources, body.company != null);
    if (nif === undefined && !unseen) return false;
    const entry = await ledgerOf('invoice');
    if (entry?.state !== 'written-back' || !entry.buyerNif) return false;
    // A NIF the body cannot show (a B2B company's tax registration, a VAT app's metafield): the review reads the order.
    if (nif === undefined) return true;
    const seen = comparableNif(nif);
    return seen !== comparableNif(entry.buyerNif) && seen !== entry.buyerToldNif;
  };

  /**
   * The planned jobs whose document the ledger does not show written back. Each of our writes to the
   * order (the note of the write-back) makes Shopify send orders/updated, whose body has no
   * metafields: planned from the body alone, the invoice comes out again, and its job (a new one:
   * completed jobs are removed) would run only to find "already written back" (write-back-step.ts).
   * A WooCommerce order carries our meta and planJobs leaves those purposes out; here the ledger says
   * it, one read per planned purpose in one round trip. A lost or expired ledger plans as before
   * (the job then starts from the order's metafields); a refund or a cancellation in the same
   * delivery is a purpose of its own, not written back, and is queued.
   */
  const notWrittenBack = async (jobs: PlannedJob[], ledgerOf: LedgerOf): Promise<PlannedJob[]> => {
    if (jobs.length === 0) return jobs;
    const entries = await Promise.all(jobs.map((job) => ledgerOf(purposeOf(job.kind, job.refundId))));
    return jobs.filter((_job, index) => entries[index]?.state !== 'written-back');
  };

  /** An orders/* delivery: the same plan as every other path (ingest/plan-order.ts). */
  const orderDelivery = async (runtime: TenantRuntime, order: OrderSummary, d: Delivery, topic: string, body?: ShopifyOrderBody): Promise<boolean> => {
    const tenant = runtime.config;
    const planned = await planOrder(order, {
      settings: tenant.settings,
      goLiveAt: await goLiveAt(deps.redis, deps.prefix, tenant, now),
      invoiceKnown: () => invoiceKnownHere(deps.ledger, deps.queue, tenant.id, order.id),
      platform: { otherSystemDocument: shopifyOtherSystemDocument, advancePayment: shopifyAdvancePayment },
    });
    if (planned.notInvoiced) {
      const reason = planned.notInvoiced;
      ignore(d, tenant.id, reason.code, topic);
      void recordNotInvoiced({ redis: deps.redis, prefix: deps.prefix, logger: deps.logger, now }, runtime, order.id, reason).catch((error: Error) =>
        deps.logger.warn({ tenant: tenant.id, orderId: order.id, err: error.message }, 'could not record a not-invoiced order'),
      );
      return true;
    }
    // The order's invoice entry is read once for both questions below.
    let invoiceEntry: Promise<LedgerEntry | null> | undefined;
    const ledgerOf: LedgerOf = (purpose) => (purpose === 'invoice' ? (invoiceEntry ??= deps.ledger.get({ tenant: tenant.id, orderId: order.id, purpose })) : deps.ledger.get({ tenant: tenant.id, orderId: order.id, purpose }));
    const open = topic === 'orders/updated' ? await notWrittenBack(planned.jobs, ledgerOf) : planned.jobs;
    const jobs: PlannedJob[] = topic === 'orders/updated' && body && (await buyerMayHaveChanged(runtime, body, ledgerOf)) ? [...open, { kind: 'review' }] : open;
    if (jobs.length === 0) {
      ignore(d, tenant.id, 'nothing-to-issue', topic);
      return true;
    }
    d.reply(200, { accepted: await enqueue(runtime, order.id, jobs, order.status) });
    return true;
  };

  /** refunds/create: a credit note, when this connector invoiced the order (orders/updated follows with the same refund). */
  const refundDelivery = async (runtime: TenantRuntime, orderId: number, refundId: number, d: Delivery, topic: string): Promise<boolean> => {
    if (!(await invoiceKnownHere(deps.ledger, deps.queue, runtime.config.id, orderId))) {
      ignore(d, runtime.config.id, 'not-invoiced-here', topic);
      return true;
    }
    d.reply(200, { accepted: await enqueue(runtime, orderId, [{ kind: 'credit-note', refundId }], 'refund') });
    return true;
  };

  const deliverVerified = async (d: Delivery, runtime: TenantRuntime, delivery: ShopifyDelivery, body: Buffer): Promise<void> => {
    const tenant = runtime.config;
    const topic = delivery.topic;
    deps.metrics.webhooksReceived.inc({ tenant: tenant.id, topic });
    if (delivery.eventId && (await deps.redis.exists(eventKey(tenant.id, delivery.eventId))) === 1) return ignore(d, tenant.id, 'duplicate-event', topic);
    if (topic === 'app/uninstalled') {
      // The token is revoked with the app: nothing can be read or written back until it is installed again.
      deps.logger.error({ tenant: tenant.id, shop: delivery.shopDomain }, 'the Shopify app was uninstalled from the store');
      await recordRefusal(deps.redis, deps.prefix, tenant.id, 'app-uninstalled', now());
      d.reply(200, { ok: 'app-uninstalled' });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch (error) {
      return refuse(d, { status: 400, reason: 'malformed-json', detail: (error as Error).message });
    }
    let handled = false;
    if (ORDER_TOPICS.has(topic)) {
      const parsed = ShopifyOrderWebhookSchema.safeParse(json);
      if (!parsed.success) return refuse(d, { status: 400, reason: 'invalid-payload', detail: issuesOf(parsed.error) });
      const summary = summaryOfWebhookOrder(parsed.data);
      // Other apps' metafield marks are not in a webhook body: read them before planning, never concluded from their absence here.
      const marks = await markedMetafieldsOf(runtime, summary.id);
      if (marks === undefined) {
        deps.metrics.webhooksRefused.inc({ tenant: tenant.id, reason: 'marks-unreadable' });
        deps.logger.warn({ tenant: tenant.id, orderId: summary.id, topic }, 'could not read the order\'s other-app marks: answered 503, Shopify delivers again and the sweep reads them');
        d.reply(503, { error: 'marks-unreadable' });
        return;
      }
      const marked = marks.length > 0 ? { ...summary, attributes: [...summary.attributes, ...markMeta({ tags: [], attributes: [], metafields: marks })] } : summary;
      handled = await orderDelivery(runtime, marked, d, topic, parsed.data);
    } else if (topic === 'refunds/create') {
      const parsed = ShopifyRefundWebhookSchema.safeParse(json);
      if (!parsed.success) return refuse(d, { status: 400, reason: 'invalid-payload', detail: issuesOf(parsed.error) });
      handled = await refundDelivery(runtime, parsed.data.order_id, parsed.data.id, d, topic);
    } else {
      // Acknowledged (a refusal only brings retries and the subscription's removal), but a person should remove it.
      await recordRefusal(deps.redis, deps.prefix, tenant.id, 'unknown-topic', now());
      return ignore(d, tenant.id, 'topic', topic);
    }
    if (handled && delivery.eventId) await deps.redis.set(eventKey(tenant.id, delivery.eventId), '1', 'PX', EVENT_MEMORY_MS);
  };

  const deliver = (d: Delivery, body: Buffer): void => {
    const runtime = deps.tenants.get(d.tenantId) as TenantRuntime;
    const store = runtime.config.shopify;
    const verdict = verifyShopifyWebhook(body, d.headers, store?.clientSecrets ?? []);
    if (!verdict.valid) {
      return refuse(d, { status: statusOfRefusal(verdict.reason), reason: verdict.reason, detail: verdict.reason === 'missing_headers' ? verdict.missingHeaders.join(', ') : undefined });
    }
    // One app's secret may sign for several stores (a public app): the store must be this tenant's.
    if (verdict.shopDomain !== store?.shopDomain) return refuse(d, { status: 401, reason: 'other-store', detail: verdict.shopDomain });
    deliverVerified(d, runtime, verdict, body).catch((error: Error) => {
      if (!d.answered()) refuse(d, { status: 503, reason: 'redis-unavailable', detail: error.message });
      else deps.logger.warn({ tenant: runtime.config.id, err: error.message }, 'could not remember a Shopify event id');
    });
  };
  // Only the tenants of a Shopify store: anyone else is refused before the body is read.
  return { serves: (tenantId) => deps.tenants.get(tenantId)?.config.shopify !== undefined, refuse, deliver };
}

/** POST /webhooks/shopify/:tenant on plain Node HTTP, ahead of Express (connector/ingest/plain-delivery.ts). */
export function shopifyWebhookFastPath(deps: WebhookRouteDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  return plainDeliveryPath(ROUTE_PREFIX, deps.maxBodyBytes, webhookLogic(deps));
}

/** The same route in Express, for the forms the fast path passes on (encoded tenant ids, compressed bodies). */
export function shopifyWebhookRouter(deps: WebhookRouteDeps): Router {
  return deliveryRouter('/webhooks/shopify/:tenant', deps.maxBodyBytes, webhookLogic(deps));
}
