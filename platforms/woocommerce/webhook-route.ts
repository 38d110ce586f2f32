import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookRouteDeps } from '../../connector/ingest/webhook-route-deps';
import { z } from 'zod';
import type { Router } from 'express';
import { deliveryRouter, plainDeliveryPath, type Delivery, type DeliveryLogic, type Refusal } from '../../connector/ingest/plain-delivery';
import { verifyWooSignature } from './signature';
import type { TenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { goLiveAt } from '../../connector/ingest/go-live';
import { recordNotInvoiced } from '../../connector/ingest/not-invoiced';
import { recordRefusal } from '../../connector/ingest/webhook-health';
import type { OrderSummary } from '../../connector/shop/order-summary';
import { readWooOrderSummary, summaryOfWooOrder } from './order-summary';
import { otherSystemDocument } from './other-plugins';
import { wooAdvancePayment } from './advance-payments';
import { jobsToEnqueue } from '../../connector/ingest/plan-jobs';
import { invoiceKnownHere, planOrder, type OrderPlan } from '../../connector/ingest/plan-order';
import { ignoredLogLevel, isOwnEcho } from '../../connector/ingest/own-echo';
import { ownCopy, releaseCopy } from '../../connector/ingest/carried-orders';
import { wooOrderWithoutOurWrites } from './own-writes';
import { tellProductChange } from '../../connector/shop/product-changes';

/** Topics whose payload is an order; anything else signed by the shop is acknowledged and ignored. */
const ORDER_TOPICS = new Set(['order.created', 'order.updated', 'order.restored']);
/**
 * Topics that tell a product (or a variation: product.updated fires for both) changed, went to the
 * trash or came back: the cached product is forgotten (WC_Webhook::get_default_topic_hooks). A
 * created product is new to every cache; its delivery is harmless and handled the same way.
 */
const PRODUCT_TOPICS = new Set(['product.created', 'product.updated', 'product.deleted', 'product.restored']);
/**
 * What a product delivery says: its id. product.deleted sends only `{"id": N}` (WC_Webhook::build_payload),
 * the others the product as GET products/<id> answers it (a variation's with its parent_id).
 */
const ProductDeliverySchema = z.looseObject({ id: z.union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/).transform(Number)]) });
const PING = /^webhook_id=\d+$/;
const ROUTE_PREFIX = '/webhooks/woocommerce/';

/** A delivery signed with the secret a reload just replaced, within the overlap window (server.webhookSecretOverlapMinutes). */
function signedWithPreviousSecret(runtime: TenantRuntime, body: Buffer, signature: string | undefined, now: number): boolean {
  const previous = runtime.previousWebhookSecret;
  return previous !== undefined && now < previous.until && verifyWooSignature(body, signature, previous.secret).valid;
}

/**
 * One WooCommerce delivery: verify, parse, plan, enqueue, 202. Answers in milliseconds; the work
 * (create, poll, write back) happens in the workers. WooCommerce never retries a failed delivery,
 * so a refusal is only ever for a request that retrying could not fix, or 503 when our Redis is
 * away (the sweep picks those orders up later). Every refusal is counted and logged.
 */
function webhookLogic(deps: WebhookRouteDeps): DeliveryLogic {
  const now = deps.now ?? Date.now;

  /** Per tenant in Redis (console, alerts): what a person can fix on the shop. Never delays the answer. */
  const remember = (d: Delivery, reason: string): void => {
    if (!deps.tenants.has(d.tenantId)) return;
    void recordRefusal(deps.redis, deps.prefix, d.tenantId, reason, now()).catch(() => undefined);
  };

  const refuse = (d: Delivery, refusal: Refusal): void => {
    deps.metrics.webhooksRefused.inc({ tenant: deps.tenants.has(d.tenantId) ? d.tenantId : '-', reason: refusal.reason });
    remember(d, refusal.reason);
    deps.logger.warn(
      { tenant: d.tenantId, reason: refusal.reason, detail: refusal.detail, topic: d.header('x-wc-webhook-topic'), deliveryId: d.header('x-wc-webhook-delivery-id') },
      'webhook refused',
    );
    d.reply(refusal.status, { error: refusal.reason, detail: refusal.detail });
  };
  const ignore = (d: Delivery, reason: string, status = 202): void => {
    deps.metrics.webhooksIgnored.inc({ reason });
    deps.logger[ignoredLogLevel(reason)]({ tenant: d.tenantId, reason, topic: d.header('x-wc-webhook-topic') }, 'webhook ignored');
    d.reply(status, { ignored: reason });
  };

  const plan = async (runtime: TenantRuntime, order: OrderSummary): Promise<OrderPlan> => {
    const tenant = runtime.config;
    return planOrder(order, {
      settings: tenant.settings,
      goLiveAt: await goLiveAt(deps.redis, deps.prefix, tenant, now),
      invoiceKnown: () => invoiceKnownHere(deps.ledger, deps.queue, tenant.id, order.id),
      platform: { otherSystemDocument, advancePayment: wooAdvancePayment },
    });
  };

  const deliver = (d: Delivery, body: Buffer): void => {
    const runtime = deps.tenants.get(d.tenantId) as TenantRuntime;
    const tenant = runtime.config;
    const signature = d.header('x-wc-webhook-signature');
    // The creation ping is unsigned and must get exactly 200 or WooCommerce refuses to save the webhook.
    if (signature === undefined && body.length < 64 && PING.test(body.toString('latin1'))) {
      deps.logger.info({ tenant: tenant.id, ping: body.toString('latin1') }, 'webhook ping');
      d.reply(200, { ok: 'ping' });
      return;
    }
    const verdict = verifyWooSignature(body, signature, tenant.shop.webhookSecret);
    if (!verdict.valid && !signedWithPreviousSecret(runtime, body, signature, now())) return refuse(d, { status: 401, reason: verdict.reason });

    const topic = d.header('x-wc-webhook-topic') ?? '';
    deps.metrics.webhooksReceived.inc({ tenant: tenant.id, topic: topic || 'none' });
    if (topic === 'order.deleted') return ignore(d, 'order-deleted');
    if (PRODUCT_TOPICS.has(topic)) return productChanged(d, runtime, body);
    if (!ORDER_TOPICS.has(topic)) {
      // Acknowledged (a refusal would only get the webhook disabled), but a person should remove it.
      remember(d, 'unknown-topic');
      return ignore(d, 'topic');
    }

    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch (error) {
      return refuse(d, { status: 400, reason: 'malformed-json', detail: (error as Error).message });
    }
    const parsed = readWooOrderSummary(json);
    if (!parsed.success) {
      const detail = parsed.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`)
        .join('; ');
      return refuse(d, { status: 400, reason: 'invalid-payload', detail });
    }
    const order = summaryOfWooOrder(parsed.data);
    // Draft checkouts leak through order webhooks (woocommerce#66995): not orders yet.
    if (order.status === 'checkout-draft') return ignore(d, 'checkout-draft', 200);

    // What the worker may compose from, copied now: the delivery's body is a view on the socket's
    // read, which would otherwise be held (and promoted, its bytes kept to the next mark-compact)
    // while the plan waits on Redis; the copy is kept for the worker or handed back at once (issue 29).
    const copy = runtime.carriedOrders ? ownCopy(body) : undefined;
    plan(runtime, order).then(
      (planned) => {
        if (!enqueue(d, runtime, order, planned, json, copy) && copy) releaseCopy(copy);
      },
      (error: Error) => {
        if (copy) releaseCopy(copy);
        refuse(d, { status: 503, reason: 'redis-unavailable', detail: error.message });
      },
    );
  };

  /**
   * A product changed on the shop: this process forgets it at once, every other one when Redis tells
   * it (connector/shop/product-changes.ts). 200 once told; 503 when Redis is away (the other
   * processes keep their copy until the cache time ends).
   */
  const productChanged = (d: Delivery, runtime: TenantRuntime, body: Buffer): void => {
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch (error) {
      return refuse(d, { status: 400, reason: 'malformed-json', detail: (error as Error).message });
    }
    const parsed = ProductDeliverySchema.safeParse(json);
    if (!parsed.success) return refuse(d, { status: 400, reason: 'invalid-payload', detail: `id: ${parsed.error.issues[0]?.message ?? 'missing'}` });
    const ids = [parsed.data.id];
    runtime.shop.forgetProducts?.(ids);
    tellProductChange(deps.redis, deps.prefix, { tenant: runtime.config.id, ids }).then(
      () => d.reply(200, { forgotten: ids }),
      (error: Error) => refuse(d, { status: 503, reason: 'redis-unavailable', detail: error.message }),
    );
  };

  /** Whether the carried copy (ownCopy of the body) was kept for the worker. */
  const enqueue = (d: Delivery, runtime: TenantRuntime, order: OrderSummary, planned: OrderPlan, raw: unknown, copy: Buffer | undefined): boolean => {
    const tenant = runtime.config;
    if (planned.notInvoiced) {
      const reason = planned.notInvoiced;
      ignore(d, reason.code);
      // After the answer: the note on the order is the shop's REST API, seconds away at worst.
      void recordNotInvoiced({ redis: deps.redis, prefix: deps.prefix, logger: deps.logger, now }, runtime, order.id, reason).catch((error: Error) =>
        deps.logger.warn({ tenant: tenant.id, orderId: order.id, err: error.message }, 'could not record a not-invoiced order'),
      );
      return false;
    }
    if (planned.jobs.length === 0) {
      ignore(d, 'nothing-to-issue');
      return false;
    }
    // The echo of our issuing marker while its document is being closed: nothing to queue or tell.
    // The order without what our own writes change (its digest is the one our marker carries).
    if (isOwnEcho(raw, order.attributes, planned.jobs, wooOrderWithoutOurWrites)) {
      ignore(d, 'own-echo', 200);
      return false;
    }
    const items = jobsToEnqueue(tenant.id, order.id, planned.jobs, now());
    // The order as the shop has just sent it (the same JSON as its REST answer): a worker of this
    // process composes from it, proven under the lock by its one read of the order. Kept before the
    // job is queued, so the worker that picks it up finds it.
    if (copy) runtime.carriedOrders?.put(order.id, copy, now(), true);
    deps.enqueuer.add(items, order.status).then(
      (results) => {
        for (const result of results) deps.metrics.jobsEnqueued.inc({ kind: result.kind, source: 'webhook' });
        const resumed = results.filter((r) => r.outcome === 'resumed').map((r) => r.jobId);
        if (resumed.length > 0) deps.logger.info({ tenant: tenant.id, orderId: order.id, resumed }, 'webhook resumed failed jobs of the order');
        d.reply(202, { accepted: results.map((r) => r.jobId), resumed });
      },
      (error: Error) => refuse(d, { status: 503, reason: 'redis-unavailable', detail: error.message }),
    );
    return copy !== undefined && runtime.carriedOrders !== undefined;
  };
  return { serves: (tenantId) => deps.tenants.has(tenantId), refuse, deliver };
}

/**
 * POST /webhooks/woocommerce/:tenant on plain Node HTTP, ahead of Express (connector/ingest/plain-delivery.ts):
 * the route every order takes (twice, with our own write-back echo).
 */
export function wooWebhookFastPath(deps: WebhookRouteDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  return plainDeliveryPath(ROUTE_PREFIX, deps.maxBodyBytes, webhookLogic(deps));
}

/** The same route in Express, for the forms the fast path passes on (encoded tenant ids, compressed bodies). */
export function wooWebhookRouter(deps: WebhookRouteDeps): Router {
  return deliveryRouter('/webhooks/woocommerce/:tenant', deps.maxBodyBytes, webhookLogic(deps));
}
