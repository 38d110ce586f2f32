import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { checkWebhooks, storeWebhookFindings, type SweepDeps } from '../sweep/sweep';
import { recentRefusals } from './webhook-health';

/** What the sweep needs to judge a shop's webhooks, and which shops to watch how often. */
export interface WebhookWatchDeps extends SweepDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  everyMs: number;
}

/**
 * WooCommerce disables a webhook after five failed deliveries and never says so; the sweep (every 15
 * minutes by default) used to be the first to notice. The watch asks each shop for its webhooks
 * every minute (one cheap GET), with the sweep's own judgement of them, and puts the findings and the
 * last hour's refused deliveries where the console and the alerter read them. Every worker process
 * runs it; a Redis lock per tenant and period makes one of them do each check.
 */
export class WebhookWatch {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly deps: WebhookWatchDeps) {}

  start(): void {
    const tick = (): void => {
      this.running ??= this.checkAll().finally(() => (this.running = undefined));
    };
    this.timer = setInterval(tick, this.deps.everyMs);
    this.timer.unref();
    setImmediate(tick);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async checkAll(): Promise<void> {
    for (const tenant of this.deps.tenants.values()) {
      try {
        await this.checkTenant(tenant);
      } catch (error) {
        this.deps.logger.warn({ tenant: tenant.config.id, err: (error as Error).message }, 'webhook watch could not check this shop');
      }
    }
  }

  private async checkTenant(tenant: TenantRuntime): Promise<void> {
    const { redis, prefix } = this.deps;
    const id = tenant.config.id;
    const mine = await redis.set(`${prefix}:webhook-watch:${id}`, '1', 'PX', Math.max(500, this.deps.everyMs - 200), 'NX');
    if (mine !== 'OK') return;
    const now = (this.deps.now ?? Date.now)();
    const findings = { inactiveWebhooks: [] as { id: number; topic: string; status: string; deliveryUrl: string }[], missingTopics: [] as string[], problems: [] as string[] };
    await checkWebhooks(tenant, this.deps, findings);
    // A shop that did not answer says nothing about its webhooks: keep the last findings.
    const answered = findings.problems.length === 0;
    const refused = (await recentRefusals(redis, prefix, id, now)).map((r) => ({ reason: r.reason, count: r.count, lastAt: new Date(r.lastAt).toISOString() }));
    await storeWebhookFindings(redis, prefix, id, {
      ...(answered ? { inactiveWebhooks: findings.inactiveWebhooks, missingTopics: findings.missingTopics, webhooksCheckedAt: new Date(now).toISOString() } : {}),
      refusedDeliveries: refused,
    });
  }
}
