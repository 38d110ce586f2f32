import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookRouteDeps } from '../../connector/ingest/webhook-route-deps';
import { z } from 'zod';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
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
import { isOwnEcho } from '../../connector/ingest/own-echo';
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


type Refusal = { status: number; reason: string; detail?: string };

/** A delivery signed with the secret a reload just replaced, within the overlap window (server.webhookSecretOverlapMinutes). */
function signedWithPreviousSecret(runtime: TenantRuntime, body: Buffer, signature: string | undefined, now: number): boolean {
  const previous = runtime.previousWebhookSecret;
  return previous !== undefined && now < previous.until && verifyWooSignature(body, signature, previous.secret).valid;
}

/** What the delivery logic needs from a request, whichever HTTP layer read it. */
interface Delivery {
  tenantId: string;
  header(name: string): string | undefined;
  reply(status: number, body: unknown): void;
}

/**
 * One WooCommerce delivery: verify, parse, plan, enqueue, 202. Answers in milliseconds; the work
 * (create, poll, write back) happens in the workers. WooCommerce never retries a failed delivery,
 * so a refusal is only ever for a request that retrying could not fix, or 503 when our Redis is
 * away (the sweep picks those orders up later). Every refusal is counted and logged.
 */
function webhookLogic(deps: WebhookRouteDeps) {
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
    deps.logger.info({ tenant: d.tenantId, reason, topic: d.header('x-wc-webhook-topic') }, 'webhook ignored');
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

    plan(runtime, order).then(
      (planned) => enqueue(d, runtime, order, planned, json, body),
      (error: Error) => refuse(d, { status: 503, reason: 'redis-unavailable', detail: error.message }),
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

  const enqueue = (d: Delivery, runtime: TenantRuntime, order: OrderSummary, planned: OrderPlan, raw: unknown, body: Buffer): void => {
    const tenant = runtime.config;
    if (planned.notInvoiced) {
      const reason = planned.notInvoiced;
      ignore(d, reason.code);
      // After the answer: the note on the order is the shop's REST API, seconds away at worst.
      void recordNotInvoiced({ redis: deps.redis, prefix: deps.prefix, logger: deps.logger, now }, runtime, order.id, reason).catch((error: Error) =>
        deps.logger.warn({ tenant: tenant.id, orderId: order.id, err: error.message }, 'could not record a not-invoiced order'),
      );
      return;
    }
    if (planned.jobs.length === 0) return ignore(d, 'nothing-to-issue');
    // The echo of our issuing marker while its document is being closed: nothing to queue or tell.
    // The order without what our own writes change (its digest is the one our marker carries).
    if (isOwnEcho(raw, order.attributes, planned.jobs, wooOrderWithoutOurWrites)) return ignore(d, 'own-echo', 200);
    const items = jobsToEnqueue(tenant.id, order.id, planned.jobs, now());
    // The order as the shop has just sent it (the same JSON as its REST answer): a worker of this
    // process composes from it, proven under the lock by its one read of the order. Kept before the
    // job is queued, so the worker that picks it up finds it.
    runtime.carriedOrders?.put(order.id, body, now());
    deps.enqueuer.add(items, order.status).then(
      (results) => {
        for (const result of results) deps.metrics.jobsEnqueued.inc({ kind: result.kind, source: 'webhook' });
        const resumed = results.filter((r) => r.outcome === 'resumed').map((r) => r.jobId);
        if (resumed.length > 0) deps.logger.info({ tenant: tenant.id, orderId: order.id, resumed }, 'webhook resumed failed jobs of the order');
        d.reply(202, { accepted: results.map((r) => r.jobId), resumed });
      },
      (error: Error) => refuse(d, { status: 503, reason: 'redis-unavailable', detail: error.message }),
    );
  };
  return { refuse, deliver };
}

/**
 * POST /webhooks/woocommerce/:tenant on plain Node HTTP, ahead of Express: the route every order
 * takes (twice, with our own write-back echo), where Express's routing and `res.json` cost about as
 * much as the delivery logic itself. Handles the plain form of the URL (the tenant id as it is
 * configured, no encoding, no compression); anything else falls through to the Express router
 * below, which runs the same logic.
 */
export function wooWebhookFastPath(deps: WebhookRouteDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const logic = webhookLogic(deps);
  return (req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith(ROUTE_PREFIX)) return false;
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding !== 'identity') return false;
    const end = req.url.indexOf('?');
    let tenantId = req.url.slice(ROUTE_PREFIX.length, end === -1 ? undefined : end);
    if (tenantId.endsWith('/')) tenantId = tenantId.slice(0, -1);
    if (!/^[A-Za-z0-9_-]+$/.test(tenantId)) return false;

    let answered = false;
    const delivery: Delivery = {
      tenantId,
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value[0] : value;
      },
      reply: (status, body) => {
        if (answered) return;
        answered = true;
        const text = JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      },
    };
    // Checked before reading the body: no reason to buffer megabytes for a tenant we do not serve.
    if (!deps.tenants.has(tenantId)) {
      logic.refuse(delivery, { status: 404, reason: 'unknown-tenant' });
      return true;
    }
    const tooLarge = (): void => logic.refuse(delivery, { status: 413, reason: 'too-large', detail: `limit ${deps.maxBodyBytes} bytes` });
    const declared = Number(req.headers['content-length']);
    if (declared > deps.maxBodyBytes) {
      tooLarge();
      req.resume();
      return true;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (answered) return; // refused already: drain and drop
      size += chunk.length;
      if (size > deps.maxBodyBytes) {
        chunks.length = 0;
        tooLarge();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!answered) logic.deliver(delivery, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    });
    // A client that goes away mid-body: counted and logged like every refusal; nobody reads the answer.
    req.on('aborted', () => {
      if (!answered) logic.refuse(delivery, { status: 400, reason: 'request.aborted', detail: 'request aborted' });
    });
    req.on('error', (error: Error) => {
      if (!answered) logic.refuse(delivery, { status: 400, reason: 'bad-request', detail: error.message });
    });
    return true;
  };
}

/** The same route in Express, for the forms the fast path passes on (encoded tenant ids, compressed bodies). */
export function wooWebhookRouter(deps: WebhookRouteDeps): Router {
  const router = Router();
  const logic = webhookLogic(deps);
  const delivery = (req: Request, res: Response): Delivery => ({
    tenantId: String(req.params.tenant),
    header: (name) => req.get(name),
    reply: (status, body) => void res.status(status).json(body),
  });

  router.post(
    '/webhooks/woocommerce/:tenant',
    (req: Request, res: Response, next: NextFunction) => {
      // Checked before reading the body: no reason to buffer megabytes for a tenant we do not serve.
      if (!deps.tenants.has(String(req.params.tenant))) return logic.refuse(delivery(req, res), { status: 404, reason: 'unknown-tenant' });
      next();
    },
    express.raw({ type: () => true, limit: deps.maxBodyBytes }),
    (req: Request, res: Response) => logic.deliver(delivery(req, res), Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)),
  );

  // body-parser errors (too large, aborted, bad encoding) land here; map them, never crash.
  router.use('/webhooks/woocommerce/:tenant', (error: Error & { status?: number; type?: string }, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error.type === 'entity.too.large') return logic.refuse(delivery(req, res), { status: 413, reason: 'too-large', detail: `limit ${deps.maxBodyBytes} bytes` });
    const status = error.status !== undefined && error.status >= 400 && error.status < 500 ? error.status : 400;
    logic.refuse(delivery(req, res), { status, reason: error.type ?? 'bad-request', detail: error.message });
  });
  return router;
}
