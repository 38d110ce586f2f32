import express, { Router, type Request, type Response } from 'express';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { z } from 'zod';
import { OrderSummarySchema } from '../ingest/order-summary';
import { jobsToEnqueue, planJobs } from '../ingest/plan-jobs';
import { documentJobId, DocumentJobDataSchema, type DocumentJobData, type PurposeKind } from '../jobs';
import type { Ledger } from '../ledger';
import type { ConnectorMetrics } from '../metrics';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { lastSweepReport, sweepTenant, type SweepReport } from '../sweep';

export interface AdminDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  queue: Queue<DocumentJobData>;
  redis: Redis;
  prefix: string;
  ledger: Ledger;
  metrics: ConnectorMetrics;
  logger: Logger;
  lookbackHours: number;
}

const OrderParams = z.object({ tenant: z.string(), orderId: z.coerce.number().int().positive() });

/**
 * Jobs of an order, looked up by id (never by scanning the queue): the fixed purposes plus one
 * credit note per refund the ledger knows about.
 */
async function jobsOfOrder(queue: Queue<DocumentJobData>, ledger: Ledger, tenant: string, orderId: number) {
  const purposes = Object.keys(await ledger.forOrder(tenant, orderId));
  const ids = new Set(['invoice', 'waybill', 'cancellation'].map((kind) => documentJobId(tenant, orderId, kind as PurposeKind)));
  for (const purpose of purposes) {
    if (purpose.startsWith('credit-note-')) ids.add(documentJobId(tenant, orderId, 'credit-note', Number(purpose.slice('credit-note-'.length))));
  }
  const jobs = await Promise.all([...ids].map((id) => queue.getJob(id)));
  return jobs.filter((job): job is NonNullable<typeof job> => job !== undefined && job !== null);
}

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
    const runtime = params.success ? deps.tenants.get(params.data.tenant) : undefined;
    if (!params.success || !runtime) return void res.status(404).json({ error: 'unknown tenant or order id' });
    const { tenant, orderId } = params.data;
    const retried: string[] = [];
    for (const job of await jobsOfOrder(deps.queue, deps.ledger, tenant, orderId)) {
      if ((await job.getState()) === 'failed') {
        await job.retry('failed');
        retried.push(String(job.id));
      }
    }
    // Nothing failed: fetch the order from the shop and enqueue what it still needs.
    let enqueued: string[] = [];
    if (retried.length === 0) {
      try {
        const order = OrderSummarySchema.parse(await runtime.shop.getOrder(orderId));
        const items = jobsToEnqueue(tenant, orderId, planJobs(order, runtime.config.settings), Date.now());
        await deps.queue.addBulk(items);
        enqueued = items.map((item) => item.opts.jobId);
        for (const item of items) deps.metrics.jobsEnqueued.inc({ kind: item.name, source: 'admin' });
      } catch (error) {
        return void res.status(502).json({ error: `could not fetch order ${orderId} from the shop: ${(error as Error).message}` });
      }
    }
    deps.logger.info({ tenant, orderId, retried, enqueued }, 'admin retry');
    res.status(202).json({ retried, enqueued });
  });

  router.get('/failed', async (_req: Request, res: Response) => {
    const jobs = await deps.queue.getFailed(0, 199);
    res.json(jobs.filter((job) => DocumentJobDataSchema.safeParse(job.data).success).map((job) => describeJob(job, 'failed')));
  });

  router.get('/attention', async (_req: Request, res: Response) => {
    const refs = await deps.ledger.attention();
    const entries = await Promise.all(
      refs.map(async (ref) => {
        const [tenant, orderId, purpose] = ref.split(':');
        return { tenant, orderId: Number(orderId), purpose, ledger: await deps.ledger.get({ tenant, orderId: Number(orderId), purpose }) };
      }),
    );
    res.json(entries);
  });

  router.post('/sweep', async (req: Request, res: Response) => {
    const wanted = z.object({ tenant: z.string().optional() }).safeParse(req.body ?? {});
    const tenantIds = wanted.success && wanted.data.tenant ? [wanted.data.tenant] : [...deps.tenants.keys()];
    const reports: (SweepReport | { tenant: string; error: string })[] = [];
    for (const id of tenantIds) {
      const runtime = deps.tenants.get(id);
      if (!runtime) {
        reports.push({ tenant: id, error: 'unknown tenant' });
        continue;
      }
      try {
        reports.push(await sweepTenant(runtime, deps, deps.lookbackHours));
      } catch (error) {
        reports.push({ tenant: id, error: (error as Error).message });
      }
    }
    res.json(reports);
  });

  router.get('/webhooks', async (_req: Request, res: Response) => {
    const reports = await Promise.all([...deps.tenants.keys()].map(async (tenant) => ({ tenant, lastSweep: await lastSweepReport(deps.redis, deps.prefix, tenant) })));
    res.json(reports.map(({ tenant, lastSweep }) => ({ tenant, checkedAt: lastSweep?.until ?? null, inactiveWebhooks: lastSweep?.inactiveWebhooks ?? [], missingTopics: lastSweep?.missingTopics ?? [] })));
  });

  return router;
}
