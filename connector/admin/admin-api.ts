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
const AttachBody = z.object({
  purpose: z.string().regex(/^(invoice|waybill|cancellation|credit-note-\d+)$/),
  documentId: z.number().int().positive(),
});

/** Purpose names in the ledger back to job kinds: `credit-note-<refund id>` carries its refund. */
function jobKindOf(purpose: string): { kind: PurposeKind; refundId?: number } {
  if (purpose.startsWith('credit-note-')) return { kind: 'credit-note', refundId: Number(purpose.slice('credit-note-'.length)) };
  return { kind: purpose as PurposeKind };
}

/**
 * Jobs of an order, looked up by id (never by scanning the queue): the fixed purposes plus one
 * credit note per refund the ledger knows about.
 */
async function jobsOfOrder(queue: Queue<DocumentJobData>, ledger: Ledger, tenant: string, orderId: number) {
  const purposes = Object.keys(await ledger.forOrder(tenant, orderId));
  const ids = new Set(['invoice', 'waybill', 'cancellation'].map((kind) => documentJobId(tenant, orderId, kind as PurposeKind)));
  for (const purpose of purposes) {
    const { kind, refundId } = jobKindOf(purpose);
    ids.add(documentJobId(tenant, orderId, kind, refundId));
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

  /**
   * The way out of `duplicate-unknown-id`: a person found the document in the back-office and gives
   * its id. It is accepted only when the service says that document carries this purpose's
   * ExternalId; the pipeline then goes on from the finalize step (number, PDF, write-back).
   */
  router.post('/orders/:tenant/:orderId/attach', async (req: Request, res: Response) => {
    const params = OrderParams.safeParse(req.params);
    const runtime = params.success ? deps.tenants.get(params.data.tenant) : undefined;
    if (!params.success || !runtime) return void res.status(404).json({ error: 'unknown tenant or order id' });
    const body = AttachBody.safeParse(req.body ?? {});
    if (!body.success) return void res.status(400).json({ error: 'body must be {"purpose": "invoice" | "credit-note-<refund id>" | ..., "documentId": <positive integer>}' });
    const { tenant, orderId } = params.data;
    const ref = { tenant, orderId, purpose: body.data.purpose };
    const entry = await deps.ledger.get(ref);
    if (entry?.state !== 'duplicate-unknown-id') {
      return void res.status(409).json({ error: `the ${ref.purpose} of order ${orderId} is in state ${entry?.state ?? 'none'}; only duplicate-unknown-id takes a document id by hand` });
    }
    let found: string | undefined;
    try {
      // Get Document Property: it answers before the number exists (Get Document then answers 6).
      const details = await runtime.invoicing.getDocumentProperty(body.data.documentId, runtime.documentCallOptions);
      found = details.details.document.ExternalId ?? undefined;
    } catch (error) {
      return void res.status(502).json({ error: `could not read document ${body.data.documentId} from MagniFinance: ${(error as Error).message}` });
    }
    if (!entry.externalId || found !== entry.externalId) {
      return void res.status(409).json({ error: `document ${body.data.documentId} has ExternalId ${found ?? 'none'}, not ${entry.externalId ?? '(unknown)'}` });
    }
    await deps.ledger.record(ref, { state: 'created', documentId: body.data.documentId, detail: 'document id attached by hand', lastError: '' });
    await deps.ledger.clearAttention(ref);
    const kind = jobKindOf(ref.purpose);
    const data: DocumentJobData = { tenant, orderId, kind: kind.kind, step: 'finalize', polls: 0, seenAt: Date.now() };
    if (kind.refundId !== undefined) data.refundId = kind.refundId;
    const jobId = documentJobId(tenant, orderId, kind.kind, kind.refundId);
    await deps.queue.add(kind.kind, data, { jobId });
    deps.logger.info({ tenant, orderId, purpose: ref.purpose, documentId: body.data.documentId }, 'admin attached a document id');
    res.status(202).json({ attached: body.data.documentId, enqueued: jobId });
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
