import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue, Worker } from 'bullmq';
import type { RedisClient } from '../core/redis-connection';
import type { Logger } from 'pino';
import { Alerter } from '../alerts/alerter';
import { AccountantMail } from '../month/accountant-mail';
import { createConnectorListener } from './app';
import { CompanyGuard } from '../pipeline/company-guard';
import type { ConnectorConfig, TenantConfig } from '../config/load-config';
import { fixGoLive } from '../ingest/go-live';
import { recordShopAnswer } from '../shop/shop-answer';
import { withTimeout } from '../core/timeout';
import { BatchingEnqueuer } from '../ingest/enqueuer';
import { WebhookWatch } from '../ingest/webhook-watch';
import { recordNotInvoiced } from '../ingest/not-invoiced';
import { shopServices } from '../shop/shop-services';
import { listenForProductChanges } from '../shop/product-changes';
import { DOCUMENTS_QUEUE, purposeOf, SWEEP_QUEUE, type DocumentJobData, type SweepJobData } from '../core/jobs';
import { Ledger } from '../core/ledger';
import { OrderHistory } from '../history/order-history';
import { createLogger } from '../core/logger';
import { ConnectorMetrics } from '../core/metrics';
import { pdfLinkSigner } from '../pdf/pdf-link';
import { documentProcessor } from '../pipeline/document-job';
import { flagJobFailure, type NeedsPersonDeps } from '../pipeline/needs-person';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { reloadTenants, type ConfigSource, type ReloadResult } from '../config/reload';
import { TenantSet } from '../config/tenant-set';
import { documentsQueue, SweepScheduleKeeper, sweepQueue } from '../core/queues';
import { connectRedis, RedisClock } from '../core/redis-connection';
import { sweepTenant } from '../sweep/sweep';
import { type SweepReport } from '../core/sweep-report';
import { DocumentFacts } from '../month/ledger-documents';
import { MonthSignOffs } from '../month/sign-off';

export type ConnectorRole = 'serve' | 'work' | 'all';

export interface StartOptions {
  role: ConnectorRole;
  logger?: Logger;
  metrics?: ConnectorMetrics;
  /** Overrides server.port (tests and the demo use 0). */
  port?: number;
  /** The file the config came from: reload() (SIGHUP, the console, the admin API) reads it again. */
  configSource?: ConfigSource;
  /** This process's own clock (tests inject a skewed one); the shared clock is Redis's TIME. */
  localClock?: () => number;
}

export interface RunningConnector {
  /** http://host:port of the HTTP side, when this process serves. */
  origin?: string;
  metrics: ConnectorMetrics;
  ledger: Ledger;
  queue: Queue<DocumentJobData>;
  /** Reads the tenants file again and swaps the tenants atomically; a file with mistakes is refused whole. */
  reload(): Promise<ReloadResult>;
  /** The shared clock (Redis TIME) this process dates and times with. */
  clock: RedisClock;
  /** Each order's story (received, attempts, documents, notes, problems, actions): the console's order page reads it. */
  history: OrderHistory;
  /** Ordered shutdown: HTTP server, workers, queues, Redis; forced when the hard timeout passes. */
  close(): Promise<void>;
}

interface Closable {
  name: string;
  close: () => Promise<void>;
  force?: () => void;
}

/**
 * Starts the connector's HTTP side (`serve`), its workers (`work`) or both (`all`). The HTTP side
 * uses a fail-fast Redis connection (503 while Redis is away); workers use a patient one.
 */
export async function startConnector(config: ConnectorConfig, options: StartOptions): Promise<RunningConnector> {
  const logger = options.logger ?? createLogger();
  const metrics = options.metrics ?? new ConnectorMetrics();
  let lastReload: ReloadResult | undefined;
  const reload = async (): Promise<ReloadResult> => {
    if (!options.configSource) {
      return {
        ok: false,
        at: new Date().toISOString(),
        source: '(none)',
        problems: ['this connector was not started from a config file: nothing to read again'],
        pt: { problems: ['este conector não foi iniciado a partir de um ficheiro de configuração: não há nada a ler de novo'] },
      };
    }
    lastReload = await reloadTenants(tenants, config, options.configSource, Date.now(), (next) => writeGoLive(next));
    if (lastReload.ok) logger.info({ added: lastReload.added, removed: lastReload.removed, changed: lastReload.changed, restartNeeded: lastReload.restartNeeded }, 'tenants file reloaded');
    else logger.error({ problems: lastReload.problems }, 'tenants file NOT reloaded: it has mistakes; the running config stays');
    return lastReload;
  };
  const links = pdfLinkSigner({ publicUrl: config.server.publicUrl, secret: config.server.linkSecret, ttlDays: config.server.pdfLinkTtlDays });
  const prefix = config.redis.prefix;
  const serving = options.role !== 'work';
  const working = options.role !== 'serve';
  const servers: Closable[] = [];
  const workers: Closable[] = [];
  const queues: Closable[] = [];
  const connections: Closable[] = [];
  const trackRedis = (redis: RedisClient, name: string): RedisClient => {
    connections.push({ name, close: async () => void (await redis.quit().catch(() => redis.disconnect())), force: () => redis.disconnect() });
    return redis;
  };
  const trackQueue = <T extends Queue>(queue: T): T => {
    // Without a listener an 'error' event (Redis away) would crash the process.
    queue.on('error', (error: Error) => logger.warn({ queue: queue.name, err: error.message }, 'queue error'));
    queues.push({ name: `queue ${queue.name}`, close: () => queue.close() });
    return queue;
  };

  const workerRedis = trackRedis(connectRedis(config.redis, 'worker', logger), 'worker redis');
  const ledgerRedis = trackRedis(connectRedis(config.redis, 'ledger', logger), 'ledger redis');
  const ledger = new Ledger(ledgerRedis, prefix, ledgerRetention(config));
  // Every tenant's Shop, with the Redis and the key where an installed store's token is kept sealed.
  const tenants = new TenantSet(config.tenants, shopServices(ledgerRedis, prefix, config.server.secretsKey));
  const history = new OrderHistory(ledgerRedis, prefix, historyTtlMs(config));
  // What a shop says of its products (its product webhooks, received by whichever process serves)
  // reaches this process's caches; until the subscription stands, the cache time bounds a stale copy.
  const productChanges = trackRedis(connectRedis(config.redis, 'worker', logger), 'product changes redis');
  await withTimeout(
    listenForProductChanges(productChanges, prefix, (change) => tenants.forWork.get(change.tenant)?.shop.forgetProducts?.(change.ids), logger),
    3_000,
  ).catch((error: Error) => logger.warn({ err: error.message }, "could not listen for the shops' product changes yet; ioredis subscribes once Redis answers"));
  const publicUrl = config.server.publicUrl;
  const clock = new RedisClock(ledgerRedis, options.localClock);
  await clock.start((error) => logger.warn({ err: error.message }, "could not read Redis's clock; this process's own clock serves meanwhile"));
  connections.push({ name: 'redis clock', close: async () => clock.close() });
  // Every tenant's go-live cut-off, before the first delivery or sweep (and before /readyz answers).
  const writeGoLive = (list: readonly TenantConfig[]): Promise<void> =>
    withTimeout(fixGoLive(ledgerRedis, prefix, list, clock.now), 3_000).catch((error: Error) =>
      logger.warn({ err: error.message }, 'could not write the go-live cut-offs yet; the moment is kept and written with the first delivery or sweep'),
    );
  await writeGoLive(config.tenants);
  let origin: string | undefined;
  let httpQueue: Queue<DocumentJobData> | undefined;

  if (serving) {
    const ingestRedis = trackRedis(connectRedis(config.redis, 'ingest', logger), 'ingest redis');
    // BullMQ's queues on a fail-fast connection of their own: BullMQ defines its 52 scripts on its
    // connection, and ioredis copies every one into each pipeline it builds there, one per
    // auto-pipelined turn (~30-40 µs): the deliveries' own commands (the failed-list check, the
    // stories, the gate's reads) flush on a connection that carries none of them.
    const queueRedis = trackRedis(connectRedis(config.redis, 'ingest', logger), 'ingest queue redis');
    // Give Redis a moment before taking traffic, but serve anyway (503s) if it is not there.
    await Promise.all([waitForReady(ingestRedis, 3_000), waitForReady(queueRedis, 3_000)]);
    httpQueue = trackQueue(documentsQueue(queueRedis, prefix, config.pipeline, config.retention));
    const httpSweepQueue = trackQueue(sweepQueue(queueRedis, prefix));
    // The orders' stories as the HTTP side writes (deliveries) and reads (the console) them: fail-fast like the rest of ingest.
    const httpHistory = new OrderHistory(ingestRedis, prefix, historyTtlMs(config));
    const listener = createConnectorListener({
      config,
      tenants,
      redis: ingestRedis,
      queue: httpQueue,
      sweepQueue: httpSweepQueue,
      // Each batch of deliveries is told in the orders' stories (one more write per batch, not per order).
      enqueuer: new BatchingEnqueuer(httpQueue, ingestRedis, config.redis.enqueueTimeoutMs, httpHistory, clock.now, queueRedis),
      history: httpHistory,
      // Admin reads fail fast too: the dashboard must not hang while Redis is away.
      ledger: new Ledger(ingestRedis, prefix, ledgerRetention(config)),
      metrics,
      links,
      logger,
      reloads: { reload, last: () => lastReload },
    });
    const server: Server = await new Promise((resolve, reject) => {
      const s = createServer(listener).listen(options.port ?? config.server.port, config.server.host, () => resolve(s));
      s.once('error', reject);
    });
    // WooCommerce waits up to 60 s; a slow client must not hold a socket for ever.
    server.requestTimeout = 30_000;
    server.keepAliveTimeout = 65_000;
    const address = server.address() as AddressInfo;
    origin = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
    servers.push({
      name: 'http server',
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        }),
      force: () => server.closeAllConnections(),
    });
    logger.info({ origin, tenants: [...tenants.keys()] }, 'connector HTTP side listening');
  }

  const workerQueue = trackQueue(documentsQueue(workerRedis, prefix, config.pipeline, config.retention));
  if (working) {
    // Jobs look their tenant up on every attempt (a retry runs with the settings of the moment); a
    // removed shop's jobs still find it and finish.
    const processor = documentProcessor({ tenants: tenants.forWork, ledger, metrics, logger, links, pipeline: config.pipeline, now: clock.now, publicUrl, history,
      // On the ledger's auto-pipelined connection: the facts leave with the step's ledger record, and
      // the sign-off read with whatever the other jobs send in that turn (not one socket write each).
      documentFacts: new DocumentFacts(ledgerRedis, prefix), signOffs: new MonthSignOffs(ledgerRedis, prefix),
      // Another system's document found by the worker under the order's lock: listed and noted as at ingest.
      notInvoiced: (runtime, orderId, reason) => recordNotInvoiced({ redis: workerRedis, prefix, logger, now: clock.now, history }, runtime, orderId, reason),
    });
    const companies = new CompanyGuard({ tenants: tenants.forWork, redis: workerRedis, prefix, ledger, metrics, logger, now: clock.now, publicUrl, history });
    const worker = new Worker<DocumentJobData, string>(
      DOCUMENTS_QUEUE,
      // A partner token is checked to be the tenant's company's before anything is issued with it.
      async (job, token) => (await companies.admit(job)) ?? processor(job, token),
      {
        // Auto-pipelined: a job's moves (to delayed, to finished and the next fetched) leave with the
        // ledger writes of their turn; 4.2 -> 1.2 Redis socket writes per order in the e2e bench.
        connection: ledgerRedis,
        prefix,
        concurrency: config.pipeline.concurrency,
        lockDuration: config.pipeline.jobLockMs,
        stalledInterval: config.pipeline.jobLockMs,
        // A job whose worker died (kill -9, OOM, a redeploy) is taken over; every step resumes from
        // the ledger, so running it again is safe. BullMQ's default (1) failed such jobs after the
        // second death in a row, leaving the order to the next modification or a person.
        maxStalledCount: config.pipeline.attempts,
      },
    );
    worker.on('error', (error: Error) => logger.warn({ err: error.message }, 'worker error'));
    worker.on('failed', (job, error) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) logger.error({ jobId: job.id, err: error.message }, 'document job moved to the failed list');
      // A job failed by BullMQ itself (its workers died too often) never ran our failure handler:
      // the order still goes to a person, with the reason, like every other job that ends.
      if (job && error.message.includes('stalled')) void flagStalled(job.data, error, { tenants: tenants.forWork, ledger, metrics, logger, now: clock.now, publicUrl, history });
    });
    workers.push({ name: 'documents worker', close: () => worker.close(), force: () => void worker.close(true) });

    const sweeps = trackQueue(sweepQueue(workerRedis, prefix));
    const sweeper = new Worker<SweepJobData, SweepReport[]>(
      SWEEP_QUEUE,
      async (job) => {
        const reports: SweepReport[] = [];
        const failures: string[] = [];
        for (const [id, runtime] of tenants) {
          if (job.data.tenant && job.data.tenant !== id) continue;
          // One shop being down must not stop the sweep of the others.
          try {
            reports.push(await sweepTenant(runtime, { redis: workerRedis, prefix, queue: workerQueue, ledger, metrics, logger, publicUrl, history }));
          } catch (error) {
            failures.push(`${id}: ${(error as Error).message}`);
            await recordShopAnswer(workerRedis, prefix, id, error, clock.now()).catch(() => undefined);
            logger.warn({ tenant: id, err: (error as Error).message }, 'sweep failed for this tenant');
          }
        }
        if (failures.length > 0 && reports.length === 0) throw new Error(`sweep failed: ${failures.join('; ')}`);
        return reports;
      },
      { connection: workerRedis, prefix, concurrency: 1 },
    );
    sweeper.on('error', (error: Error) => logger.warn({ err: error.message }, 'sweep worker error'));
    workers.push({ name: 'sweep worker', close: () => sweeper.close(), force: () => void sweeper.close(true) });
    // Re-asserted on a timer: a sweep lost with Redis's data comes back by itself.
    const keeper = new SweepScheduleKeeper(sweeps, config.sweep.everyMinutes, { logger, metrics, now: clock.now, watchMs: config.sweep.watchSeconds * 1_000 });
    await keeper.start();
    workers.push({ name: 'sweep schedule keeper', close: async () => keeper.close() });
    if (config.sweep.webhookCheckSeconds > 0) {
      const watch = new WebhookWatch({ tenants, redis: workerRedis, prefix, queue: workerQueue, ledger, metrics, logger, publicUrl, history, everyMs: config.sweep.webhookCheckSeconds * 1000, now: clock.now });
      watch.start();
      workers.push({ name: 'webhook watch', close: () => watch.close() });
    }
    const alerter = new Alerter({ redis: workerRedis, ledger, prefix, now: clock.now, publicUrl: config.server.publicUrl, tenants: config.tenants, shopOf: (id) => tenants.forWork.get(id), metrics, logger });
    if (alerter.enabled) {
      alerter.start();
      workers.push({ name: 'alerter', close: () => alerter.close() });
    }
    // The month's e-mail to the accountant (tenants with `accountant`; a reload may add one): once per tenant and month.
    const accountantMail = new AccountantMail({ tenants, redis: workerRedis, prefix, ledger, logger, publicUrl: config.server.publicUrl, now: clock.now });
    accountantMail.start();
    workers.push({ name: 'accountant e-mail', close: () => accountantMail.close() });
    logger.info({ concurrency: config.pipeline.concurrency, finalizeDelayMs: config.pipeline.finalizeDelayMs, alerts: alerter.enabled }, 'connector workers running');
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= shutdown([servers, workers, queues, connections], config.server.shutdownTimeoutMs, logger);
    return closing;
  };
  return { origin, metrics, ledger, queue: httpQueue ?? workerQueue, clock, history, reload, close };
}

function ledgerRetention(config: ConnectorConfig): { finishedTtlMs: number } {
  return { finishedTtlMs: Math.round(config.retention.finishedLedgerDays * 86_400_000) };
}

/**
 * An order's story is kept as long as a finished ledger (retention.finishedLedgerDays), counted from
 * its last event; 0 (the ledger kept for ever) keeps the story for ever too.
 */
function historyTtlMs(config: ConnectorConfig): number {
  return ledgerRetention(config).finishedTtlMs;
}

async function flagStalled(data: DocumentJobData, error: Error, deps: NeedsPersonDeps & { tenants: ReadonlyMap<string, TenantRuntime>; logger: Logger; now: () => number }): Promise<void> {
  const tenant = deps.tenants.get(data.tenant);
  if (!tenant) return;
  const ref = { tenant: data.tenant, orderId: data.orderId, purpose: purposeOf(data.kind, data.refundId) };
  await flagJobFailure(deps, tenant, ref, error, 1, deps.now(), deps.logger).catch((flagError: unknown) =>
    deps.logger.error({ err: (flagError as Error).message, orderId: data.orderId }, 'could not record a stalled job'),
  );
}

function waitForReady(redis: RedisClient, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
    function done() {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    }
  });
}

/** Closes each group in order; past the hard timeout everything left is forced. */
async function shutdown(groups: Closable[][], timeoutMs: number, logger: Logger): Promise<void> {
  const ordered = groups.flat();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const orderly = (async () => {
    for (const group of groups) {
      for (const item of group) {
        await item.close().catch((error: Error) => logger.warn({ item: item.name, err: error.message }, 'error while closing'));
      }
    }
    return 'closed' as const;
  })();
  const outcome = await Promise.race([orderly, deadline]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    logger.error({ timeoutMs }, 'shutdown timed out; forcing the rest');
    for (const item of ordered) item.force?.();
  }
}
