import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { DocumentJobDataSchema, IdText, type DocumentJobData } from '../core/jobs';
import { sweepTenant } from '../sweep/sweep';
import { lastSweepReport, type SweepReport } from '../core/sweep-report';
import { adminUser } from './basic-auth';
import { monthApi } from '../month/month-routes';
import { attachDocument, dismissOrder, jobsOfOrder, retryOrder, type OrderActionDeps } from './order-actions';

export interface AdminDeps extends OrderActionDeps {
  prefix: string;
  /** server.publicUrl, for the sweep's webhook check. */
  publicUrl: string;
}

const OrderParams = z.object({ tenant: z.string(), orderId: IdText });
const Purpose = z.string().regex(/^(invoice|waybill|cancellation|credit-note-\d+)$/);
const ATTENTION_PAGE_MAX = 500;
const AttentionQuery = z.object({
  offset: z.string().regex(/^\d{1,9}$/).transform(Number).default(0),
  limit: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(z.number().int().min(1).max(ATTENTION_PAGE_MAX)).default(100),
  tenant: z.string().max(100).optional(),
});
const AttachBody = z.object({ purpose: Purpose, documentId: z.number().int().positive() });
const DismissBody = z.object({ purpose: Purpose, reason: z.string().trim().min(3).max(500) });

function describeJob(job: { id?: string; name: string; data: DocumentJobData; failedReason?: string; attemptsMade: number; timestamp: number }, state: string) {
  const data = job.data;
  return { id: job.id, name: job.name, state, step: data.step, data, attemptsMade: job.attemptsMade, failedReason: job.failedReason, createdAt: new Date(job.timestamp).toISOString() };
}

/**
 * The admin JSON API (behind the same basic auth as the dashboard): an order's ledger and jobs,
 * retry of an order, failed jobs, orders needing attention, sweep now, webhook reports.
 */
export function adminApi(deps: AdminDeps): Router {
  const router = Router();
  router.use(express.json({ limit: '64kb' }));
  router.use(monthApi(deps));

  router.get('/orders/:tenant/:orderId', async (req: Request, res: Response) => {
    const params = OrderParams.safeParse(req.params);
    if (!params.success || !deps.tenants.has(params.data.tenant)) return void res.status(404).json({ error: 'unknown tenant or order id' });
    const { tenant, orderId } = params.data;
    const jobs = await jobsOfOrder(deps.queue, deps.ledger, tenant, orderId);
    const described = await Promise.all(jobs.map(async (job) => describeJob(job, await job.getState())));
    res.json({ tenant, orderId, ledger: await deps.ledger.forOrder(tenant, orderId), jobs: described });
  });

  router.post('/orders/:tenant/:orderId/retry', async (req: Request, res: Response) => {
    const params = OrderParams.safeParse(req.params);
    if (!params.success || !deps.tenants.has(params.data.tenant)) return void res.status(404).json({ error: 'unknown tenant or order id' });
    const result = await retryOrder(deps, params.data.tenant, params.data.orderId, adminUser(req));
    if (!result.ok) return void res.status(result.status).json({ error: result.error });
    res.status(202).json(result.value);
  });

  /** A duplicate-unknown-id purpose gets the document id a person found in the back-office. */
  router.post('/orders/:tenant/:orderId/attach', async (req: Request, res: Response) => {
    const params = OrderParams.safeParse(req.params);
    if (!params.success || !deps.tenants.has(params.data.tenant)) return void res.status(404).json({ error: 'unknown tenant or order id' });
    const body = AttachBody.safeParse(req.body ?? {});
    if (!body.success) return void res.status(400).json({ error: 'body must be {"purpose": "invoice" | "credit-note-<refund id>" | ..., "documentId": <positive integer>}' });
    const result = await attachDocument(deps, { ...params.data, purpose: body.data.purpose }, body.data.documentId, adminUser(req));
    if (!result.ok) return void res.status(result.status).json({ error: result.error });
    res.status(202).json(result.value);
  });

  /** Marks a purpose with nothing issued (held, refused, failed) as handled outside the connector. */
  router.post('/orders/:tenant/:orderId/dismiss', async (req: Request, res: Response) => {
    const params = OrderParams.safeParse(req.params);
    if (!params.success || !deps.tenants.has(params.data.tenant)) return void res.status(404).json({ error: 'unknown tenant or order id' });
    const body = DismissBody.safeParse(req.body ?? {});
    if (!body.success) return void res.status(400).json({ error: 'body must be {"purpose": "invoice" | "credit-note-<refund id>" | ..., "reason": "how it was handled (3 to 500 characters)"}' });
    const result = await dismissOrder(deps, { ...params.data, purpose: body.data.purpose }, body.data.reason, adminUser(req));
    if (!result.ok) return void res.status(result.status).json({ error: result.error });
    res.json(result.value);
  });

  router.get('/failed', async (_req: Request, res: Response) => {
    const jobs = await deps.queue.getFailed(0, 199);
    res.json(jobs.filter((job) => DocumentJobDataSchema.safeParse(job.data).success).map((job) => describeJob(job, 'failed')));
  });

  /** A page of the attention list (a bare array, as always); X-Total-Count and a Link to the next page tell the rest. */
  router.get('/attention', async (req: Request, res: Response) => {
    const query = AttentionQuery.safeParse(req.query);
    if (!query.success) return void res.status(400).json({ error: `offset (0 or more), limit (1 to ${ATTENTION_PAGE_MAX}) and tenant are optional query parameters` });
    const { offset, limit, tenant } = query.data;
    const { members: refs, total } = await deps.ledger.attentionPage({ tenant, offset, limit });
    res.setHeader('X-Total-Count', String(total));
    if (offset + limit < total) {
      const next = new URLSearchParams({ offset: String(offset + limit), limit: String(limit), ...(tenant ? { tenant } : {}) });
      res.setHeader('Link', `<${req.baseUrl}/attention?${next.toString()}>; rel="next"`);
    }
    const entries = await Promise.all(
      refs.map(async (ref) => {
        const [tenant, orderId, purpose] = ref.split(':');
        return { tenant, orderId: Number(orderId), purpose, ledger: await deps.ledger.get({ tenant, orderId: Number(orderId), purpose }) };
      }),
    );
    res.json(entries);
  });

  /**
   * Sweeps one tenant or all now, with every tenant's report (or error) in the body. 200 when every
   * sweep reconciled every order; 502 when the shop refused a listing (its orders were not
   * reconciled: wrong key, wrong status...); 500 when a sweep failed (the shop or Redis did not
   * answer); 400 for a body that is not `{"tenant"?: string}`, 404 for an unknown tenant.
   */
  router.post('/sweep', async (req: Request, res: Response) => {
    const wanted = z.object({ tenant: z.string().min(1).optional() }).strict().safeParse(req.body ?? {});
    if (!wanted.success) return void res.status(400).json({ error: `expected {"tenant"?: "<id>"}: ${wanted.error.issues.map((issue) => issue.message).join('; ')}` });
    const requested = wanted.data.tenant;
    if (requested !== undefined && !deps.tenants.has(requested)) return void res.status(404).json({ error: `unknown tenant ${requested}` });
    const reports: (SweepReport | { tenant: string; error: string })[] = [];
    let failed = false;
    let refused = false;
    for (const id of requested !== undefined ? [requested] : [...deps.tenants.keys()]) {
      const runtime = deps.tenants.get(id);
      if (!runtime) continue;
      try {
        const report = await sweepTenant(runtime, deps);
        if ((report.refusedListings ?? 0) > 0) refused = true;
        reports.push(report);
      } catch (error) {
        failed = true;
        reports.push({ tenant: id, error: error instanceof Error ? error.message : String(error) });
      }
    }
    res.status(failed ? 500 : refused ? 502 : 200).json(reports);
  });

  router.get('/webhooks', async (_req: Request, res: Response) => {
    const reports = await Promise.all([...deps.tenants.keys()].map(async (tenant) => ({ tenant, lastSweep: await lastSweepReport(deps.redis, deps.prefix, tenant) })));
    res.json(reports.map(({ tenant, lastSweep }) => ({ tenant, checkedAt: lastSweep?.until ?? null, inactiveWebhooks: lastSweep?.inactiveWebhooks ?? [], missingTopics: lastSweep?.missingTopics ?? [] })));
  });

  return router;
}
