import type { IncomingMessage, ServerResponse } from 'node:http';
import { TimeoutError, withTimeout } from '../core/timeout';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Queue } from 'bullmq';
import { isRedisOutage, type RedisClient } from '../core/redis-connection';
import type { Logger } from 'pino';
import type { ConnectorConfig } from '../config/load-config';
import type { ReloadControl } from '../config/reload';
import { adminApi } from '../admin/admin-api';
import { basicAuth } from '../admin/basic-auth';
import { accountantReadsOnly } from '../admin/roles';
import { loginLimiter } from '../admin/login-limiter';
import { sameOriginWrites } from '../admin/same-origin';
import { consoleRouter } from '../console/console-router';
import { notInvoicedApi } from '../console/not-invoiced-list';
import { statusPage } from '../console/status-page';
import type { BatchingEnqueuer } from '../ingest/enqueuer';
import { PLATFORMS } from '../../platforms/registry';
import type { WebhookRouteDeps } from '../ingest/webhook-route-deps';
import { parseSecretsKey } from '../core/sealed-secret';
import type { DocumentJobData, SweepJobData } from '../core/jobs';
import type { Ledger } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import type { PdfLinkSigner } from '../pdf/pdf-link';
import { pdfRouter } from '../pdf/pdf-route';
import { sweepScheduleState } from '../core/queues';
import { OrderHistory } from '../history/order-history';

/** What /readyz says when the periodic sweep is not scheduled (operators read it in English, like the logs). */
const SWEEP_PROBLEM = {
  missing: 'the periodic sweep is not scheduled (Redis lost it?); a running worker schedules it again within sweep.watchSeconds: if this stays, no worker is running',
  late: 'the periodic sweep is overdue by more than a period (its next run was lost); a running worker schedules it again within sweep.watchSeconds',
} as const;
import type { TenantRuntime } from '../pipeline/tenant-runtime';

export interface AppDeps {
  config: ConnectorConfig;
  tenants: ReadonlyMap<string, TenantRuntime>;
  redis: RedisClient;
  queue: Queue<DocumentJobData>;
  sweepQueue: Queue<SweepJobData>;
  enqueuer: BatchingEnqueuer;
  ledger: Ledger;
  metrics: ConnectorMetrics;
  links: PdfLinkSigner;
  logger: Logger;
  /** Reload of the tenants file from the console and the admin API (SIGHUP does the same). */
  reloads?: ReloadControl;
  /** The orders' stories (written by the deliveries and the pipeline, read by the console). */
  history: OrderHistory;
}


/**
 * The HTTP server's request listener: order webhooks on the plain-Node fast path, everything else
 * (and the webhook URLs the fast path passes on) through the Express app.
 */
export function createConnectorListener(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const app = createConnectorApp(deps);
  const fastPaths = Object.values(PLATFORMS).map((platform) => platform.webhookFastPath(webhookDeps(deps)));
  return (req, res) => {
    if (!fastPaths.some((fastPath) => fastPath(req, res))) app(req, res);
  };
}

function webhookDeps(deps: AppDeps): WebhookRouteDeps {
  return {
    tenants: deps.tenants,
    enqueuer: deps.enqueuer,
    redis: deps.redis,
    prefix: deps.config.redis.prefix,
    ledger: deps.ledger,
    queue: deps.queue,
    metrics: deps.metrics,
    logger: deps.logger,
    maxBodyBytes: deps.config.server.maxBodyBytes,
    publicUrl: deps.config.server.publicUrl,
    ...(deps.config.server.secretsKey ? { secretsKey: parseSecretsKey(deps.config.server.secretsKey) } : {}),
  };
}

export function createConnectorApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-For only from the proxies the operator named: anyone else could pick the address the
  // login limiter blocks (the operator's) or dodge the PDF route's limit.
  app.set('trust proxy', deps.config.server.trustProxy.length > 0 ? deps.config.server.trustProxy : false);

  for (const platform of Object.values(PLATFORMS)) app.use(platform.webhookRouter(webhookDeps(deps)));
  app.use(pdfRouter({ tenants: deps.tenants, links: deps.links, logger: deps.logger }));

  app.get('/', statusPage(async () => withTimeout(deps.redis.ping(), 1_000).then(() => true, () => false)));
  app.get('/healthz', (_req: Request, res: Response) => void res.json({ ok: true }));
  app.get('/readyz', async (_req: Request, res: Response) => {
    try {
      await deps.enqueuer.probe();
      // A missing sweep does not make this process unready (it takes webhooks); it is said here and
      // in magnifinance_sweep_scheduled, and a worker schedules it again within sweep.watchSeconds.
      const sweep = await withTimeout(sweepScheduleState(deps.sweepQueue, deps.config.sweep.everyMinutes, Date.now()), 1_000).catch(() => 'unknown' as const);
      if (sweep !== 'unknown' && sweep !== 'off') deps.metrics.sweepScheduled.set(sweep === 'scheduled' ? 1 : 0);
      res.json({ ok: true, redis: 'ready', sweep, ...(sweep === 'missing' || sweep === 'late' ? { problems: [SWEEP_PROBLEM[sweep]] } : {}) });
    } catch (error) {
      res.status(503).json({ ok: false, redis: deps.redis.status, error: (error as Error).message });
    }
  });
  app.get('/metrics', async (_req: Request, res: Response) => {
    await updateQueueDepth(deps).catch(() => undefined);
    res.setHeader('Content-Type', deps.metrics.registry.contentType);
    res.send(await deps.metrics.registry.metrics());
  });

  const { history } = deps;
  const accountant = deps.config.admin.accountant;
  const auth = [basicAuth(() => deps.config.admin, { limiter: loginLimiter(), metrics: deps.metrics }, accountant ? [accountant] : []), accountantReadsOnly(accountant?.username)];
  // Bull Board's add-job, retry and clean, and the admin API's changes: our own pages or no browser at all.
  app.use('/admin/queues', auth, sameOriginWrites(), queueBoard(deps.queue, deps.sweepQueue));
  app.post('/admin/api/reload', auth, sameOriginWrites(), async (_req: Request, res: Response) => {
    if (!deps.reloads) return void res.status(404).json({ error: 'reload is not available here' });
    const result = await deps.reloads.reload();
    res.status(result.ok ? 200 : 422).json(result);
  });
  app.use(
    '/admin/api/not-invoiced',
    auth,
    sameOriginWrites(),
    notInvoicedApi({ tenants: deps.tenants, queue: deps.queue, redis: deps.redis, ledger: deps.ledger, metrics: deps.metrics, logger: deps.logger, history, prefix: deps.config.redis.prefix }),
  );
  app.use(
    '/admin/api',
    auth,
    sameOriginWrites(),
    adminApi({
      tenants: deps.tenants,
      queue: deps.queue,
      redis: deps.redis,
      prefix: deps.config.redis.prefix,
      ledger: deps.ledger,
      metrics: deps.metrics,
      logger: deps.logger,
      history,
      publicUrl: deps.config.server.publicUrl,
    }),
  );

  app.use(
    '/console',
    auth,
    consoleRouter({
      tenants: deps.tenants,
      queue: deps.queue,
      redis: deps.redis,
      ledger: deps.ledger,
      metrics: deps.metrics,
      logger: deps.logger,
      history,
      prefix: deps.config.redis.prefix,
      publicUrl: deps.config.server.publicUrl,
      links: deps.links,
      secret: deps.config.server.linkSecret,
      sweepQueue: deps.sweepQueue,
      sweepEveryMinutes: deps.config.sweep.everyMinutes,
      ...(deps.reloads ? { reloads: deps.reloads } : {}),
    }),
  );

  app.use((_req: Request, res: Response) => void res.status(404).json({ error: 'not found' }));
  // Last line of defence. A client's fault (a body too large or not parseable) and a Redis outage
  // answer 4xx / 503 with the reason; only a bug answers 500 (logged); the process keeps serving.
  app.use((error: Error, req: Request, res: Response, _next: NextFunction) => {
    const known = knownFailure(error);
    if (known) {
      deps.logger.warn({ err: error.message, path: req.path, status: known.status }, 'request refused');
      if (!res.headersSent) {
        if (known.status === 503) res.setHeader('Retry-After', '5');
        res.status(known.status).json({ error: known.reason });
      }
      return;
    }
    deps.logger.error({ err: error.message, path: req.path }, 'unhandled error in a route');
    if (!res.headersSent) res.status(500).json({ error: 'internal error' });
  });
  return app;
}

/** body-parser's errors carry a `type` and a `status`; Redis outages are told by isRedisOutage. */
function knownFailure(error: Error): { status: number; reason: string } | null {
  const parser = error as Error & { type?: string; status?: number; limit?: number };
  if (parser.type === 'entity.too.large') return { status: 413, reason: `the body is larger than this endpoint takes (${parser.limit ?? '?'} bytes)` };
  if (parser.type === 'entity.parse.failed') return { status: 400, reason: 'the body is not valid JSON' };
  if (parser.type === 'encoding.unsupported' || parser.type === 'charset.unsupported') return { status: 415, reason: error.message };
  if (parser.type === 'request.aborted') return { status: 400, reason: 'the request was aborted' };
  if (isRedisOutage(error) || error instanceof TimeoutError) return { status: 503, reason: `Redis is not answering (${error.message}); try again shortly` };
  return null;
}

async function updateQueueDepth(deps: AppDeps): Promise<void> {
  for (const queue of [deps.queue, deps.sweepQueue] as Queue[]) {
    const counts = await withTimeout(queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'prioritized'), 1_000);
    for (const [state, count] of Object.entries(counts)) deps.metrics.queueDepth.set({ queue: queue.name, state }, count);
  }
  const sweep = await withTimeout(sweepScheduleState(deps.sweepQueue, deps.config.sweep.everyMinutes, Date.now()), 1_000);
  if (sweep !== 'off') deps.metrics.sweepScheduled.set(sweep === 'scheduled' ? 1 : 0);
  const waiting = await withTimeout(deps.ledger.attentionCounts(), 1_000);
  for (const tenant of deps.tenants.keys()) deps.metrics.waitingForPerson.set({ tenant }, waiting.get(tenant) ?? 0);
}

/**
 * Bull Board, built on its first page view (after the login): its packages are about 3 MB of heap
 * (and more of RSS) that a connector nobody opens the board of never uses (issue 29: the
 * connector's memory).
 */
function queueBoard(...queues: Queue[]): (req: Request, res: Response, next: NextFunction) => void {
  let router: Promise<express.Router> | undefined;
  const build = async (): Promise<express.Router> => {
    const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([import('@bull-board/api'), import('@bull-board/api/bullMQAdapter'), import('@bull-board/express')]);
    const board = new ExpressAdapter();
    board.setBasePath('/admin/queues');
    createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter: board });
    return board.getRouter() as express.Router;
  };
  return (req, res, next) => {
    router ??= build();
    router.then(
      (handle) => handle(req, res, next),
      (error: unknown) => {
        router = undefined;
        next(error);
      },
    );
  };
}
