import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { Logger } from 'pino';
import { verifyWooSignature } from '../../webhooks/woocommerce/signature';
import type { TenantConfig } from '../config/load-config';
import type { ConnectorMetrics } from '../metrics';
import type { BatchingEnqueuer } from './enqueuer';
import { OrderSummarySchema } from './order-summary';
import { jobsToEnqueue, planJobs } from './plan-jobs';

/** Topics whose payload is an order; anything else signed by the shop is acknowledged and ignored. */
const ORDER_TOPICS = new Set(['order.created', 'order.updated', 'order.restored']);
const PING = /^webhook_id=\d+$/;

export interface WebhookRouteDeps {
  tenants: ReadonlyMap<string, TenantConfig>;
  enqueuer: BatchingEnqueuer;
  metrics: ConnectorMetrics;
  logger: Logger;
  maxBodyBytes: number;
  now?: () => number;
}

type Refusal = { status: number; reason: string; detail?: string };

/**
 * POST /webhooks/woocommerce/:tenant. Answers in milliseconds: verify, parse, plan, enqueue, 202.
 * The work (create, poll, write back) happens in the workers. WooCommerce never retries a failed
 * delivery, so a refusal is only ever for a request that retrying could not fix, or 503 when our
 * Redis is away (the sweep picks those orders up later).
 */
export function wooWebhookRouter(deps: WebhookRouteDeps): Router {
  const router = Router();
  const now = deps.now ?? Date.now;

  const refuse = (req: Request, res: Response, refusal: Refusal): void => {
    deps.metrics.webhooksRefused.inc({ reason: refusal.reason });
    deps.logger.warn(
      { tenant: req.params.tenant, reason: refusal.reason, detail: refusal.detail, topic: req.get('x-wc-webhook-topic'), deliveryId: req.get('x-wc-webhook-delivery-id') },
      'webhook refused',
    );
    res.status(refusal.status).json({ error: refusal.reason, detail: refusal.detail });
  };
  const ignore = (req: Request, res: Response, reason: string, status = 202): void => {
    deps.metrics.webhooksRefused.inc({ reason: `ignored-${reason}` });
    deps.logger.info({ tenant: req.params.tenant, reason, topic: req.get('x-wc-webhook-topic') }, 'webhook ignored');
    res.status(status).json({ ignored: reason });
  };

  router.post(
    '/webhooks/woocommerce/:tenant',
    (req: Request, res: Response, next: NextFunction) => {
      // Checked before reading the body: no reason to buffer megabytes for a tenant we do not serve.
      if (!deps.tenants.has(String(req.params.tenant))) return refuse(req, res, { status: 404, reason: 'unknown-tenant' });
      next();
    },
    express.raw({ type: () => true, limit: deps.maxBodyBytes }),
    (req: Request, res: Response) => {
      const tenant = deps.tenants.get(String(req.params.tenant)) as TenantConfig;
      const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = req.get('x-wc-webhook-signature');
      // The creation ping is unsigned and must get exactly 200 or WooCommerce refuses to save the webhook.
      if (signature === undefined && body.length < 64 && PING.test(body.toString('latin1'))) {
        deps.logger.info({ tenant: tenant.id, ping: body.toString('latin1') }, 'webhook ping');
        res.status(200).json({ ok: 'ping' });
        return;
      }
      const verdict = verifyWooSignature(body, signature, tenant.shop.webhookSecret);
      if (!verdict.valid) return refuse(req, res, { status: 401, reason: verdict.reason });

      const topic = req.get('x-wc-webhook-topic') ?? '';
      deps.metrics.webhooksReceived.inc({ tenant: tenant.id, topic: topic || 'none' });
      if (topic === 'order.deleted') return ignore(req, res, 'order-deleted');
      if (!ORDER_TOPICS.has(topic)) return ignore(req, res, 'topic');

      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch (error) {
        return refuse(req, res, { status: 400, reason: 'malformed-json', detail: (error as Error).message });
      }
      const parsed = OrderSummarySchema.safeParse(json);
      if (!parsed.success) {
        const detail = parsed.error.issues
          .slice(0, 5)
          .map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`)
          .join('; ');
        return refuse(req, res, { status: 400, reason: 'invalid-payload', detail });
      }
      const order = parsed.data;
      // Draft checkouts leak through order webhooks (woocommerce#66995): not orders yet.
      if (order.status === 'checkout-draft') return ignore(req, res, 'checkout-draft', 200);

      const planned = planJobs(order, tenant.settings);
      if (planned.length === 0) return ignore(req, res, 'nothing-to-issue');
      const items = jobsToEnqueue(tenant.id, order.id, planned, now());
      deps.enqueuer.add(items).then(
        () => {
          for (const item of items) deps.metrics.jobsEnqueued.inc({ kind: item.name, source: 'webhook' });
          res.status(202).json({ accepted: items.map((item) => item.opts.jobId) });
        },
        (error: Error) => refuse(req, res, { status: 503, reason: 'redis-unavailable', detail: error.message }),
      );
    },
  );

  // body-parser errors (too large, aborted, bad encoding) land here; map them, never crash.
  router.use('/webhooks/woocommerce/:tenant', (error: Error & { status?: number; type?: string }, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error.type === 'entity.too.large') return refuse(req, res, { status: 413, reason: 'too-large', detail: `limit ${deps.maxBodyBytes} bytes` });
    const status = error.status !== undefined && error.status >= 400 && error.status < 500 ? error.status : 400;
    refuse(req, res, { status, reason: error.type ?? 'bad-request', detail: error.message });
  });
  return router;
}
