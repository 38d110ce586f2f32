import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The connector's Prometheus metrics; one registry per process (tests build several). */
export class ConnectorMetrics {
  readonly registry = new Registry();
  readonly webhooksReceived = new Counter({
    name: 'magnifinance_webhooks_received_total',
    help: 'Webhook deliveries received, by tenant and topic',
    labelNames: ['tenant', 'topic'] as const,
    registers: [this.registry],
  });
  readonly webhooksRefused = new Counter({
    name: 'magnifinance_webhooks_refused_total',
    help: 'Webhook deliveries refused (answered 4xx/5xx), by tenant ("-" for a URL of no tenant) and reason',
    labelNames: ['tenant', 'reason'] as const,
    registers: [this.registry],
  });
  readonly webhooksIgnored = new Counter({
    name: 'magnifinance_webhooks_ignored_total',
    help: 'Webhook deliveries accepted with nothing to do (our own write-back echo, drafts, other topics), by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly jobsEnqueued = new Counter({
    name: 'magnifinance_jobs_enqueued_total',
    help: 'Document jobs enqueued, by kind and source (webhook, sweep, backfill, admin)',
    labelNames: ['kind', 'source'] as const,
    registers: [this.registry],
  });
  readonly jobRuns = new Counter({
    name: 'magnifinance_job_runs_total',
    help: 'Runs of document jobs by the workers, by kind (a job that waits for its number runs again)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly documentsIssued = new Counter({
    name: 'magnifinance_documents_issued_total',
    help: 'Documents created on the invoicing service, by kind',
    labelNames: ['tenant', 'kind'] as const,
    registers: [this.registry],
  });
  readonly ledgersRestored = new Counter({
    name: 'magnifinance_ledgers_restored_total',
    help: "Ledgers lost from Redis (a wipe, a failover, an expiry) and rebuilt from the order's issuing marker, by tenant",
    labelNames: ['tenant'] as const,
    registers: [this.registry],
  });
  readonly sweepScheduleRestored = new Counter({
    name: 'magnifinance_sweep_schedule_restored_total',
    help: 'Times a worker found the periodic sweep unscheduled (missing, or its next run lost) and scheduled it again',
    labelNames: ['found'] as const,
    registers: [this.registry],
  });
  readonly sweepScheduled = new Gauge({
    name: 'magnifinance_sweep_scheduled',
    help: 'Whether the periodic sweep is scheduled (1) or not (0: missing or late), as last seen by /metrics or /readyz',
    registers: [this.registry],
  });
  readonly adminLogins = new Counter({
    name: 'magnifinance_admin_login_refusals_total',
    help: 'Admin logins (console, admin API, Bull Board) refused: wrong credentials, or blocked while the client waits out its back-off',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly documentsFailed = new Counter({
    name: 'magnifinance_documents_failed_total',
    help: 'Pipeline failures, by kind and reason (an attempt that will be retried counts too)',
    labelNames: ['kind', 'reason'] as const,
    registers: [this.registry],
  });
  readonly alerts = new Counter({
    name: 'magnifinance_alerts_total',
    help: 'Times an order was put on the attention list, by the ledger state it waits in',
    labelNames: ['tenant', 'state'] as const,
    registers: [this.registry],
  });
  readonly totalDifferences = new Counter({
    name: 'magnifinance_total_differences_total',
    help: "Documents issued at the nearest total the per-rate VAT rule reaches, a cent or two from the shop's total",
    labelNames: ['tenant'] as const,
    registers: [this.registry],
  });
  readonly writebacks = new Counter({
    name: 'magnifinance_writebacks_total',
    help: 'Write-backs to the shop, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly orderToNumber = new Histogram({
    name: 'magnifinance_order_to_number_seconds',
    help: 'Time from the first webhook of an order to its document number',
    labelNames: ['kind'] as const,
    buckets: [1, 2, 5, 10, 11, 12, 15, 20, 30, 60, 120, 300, 900],
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: 'magnifinance_queue_jobs',
    help: 'Jobs in the queues, by queue and state',
    labelNames: ['queue', 'state'] as const,
    registers: [this.registry],
  });
  readonly waitingForPerson = new Gauge({
    name: 'magnifinance_orders_waiting_for_person',
    help: 'Order purposes on the attention list (GET /admin/api/attention), by tenant',
    labelNames: ['tenant'] as const,
    registers: [this.registry],
  });
  readonly disabledWebhooks = new Gauge({
    name: 'magnifinance_shop_webhooks_disabled',
    help: 'Order webhooks found not active on the shop at the last sweep',
    labelNames: ['tenant'] as const,
    registers: [this.registry],
  });

  readonly alertMessages = new Counter({
    name: 'magnifinance_alert_messages_total',
    help: 'Alert digests to people, by tenant, channel (email, webhook) and outcome (sent, failed: each failed try)',
    labelNames: ['tenant', 'channel', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly alertsPending = new Gauge({
    name: 'magnifinance_alerts_pending',
    help: 'Orders and webhook findings not yet told to a person, by tenant and channel',
    labelNames: ['tenant', 'channel'] as const,
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }
}
