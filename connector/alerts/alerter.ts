import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Ledger } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import type { RedisClient } from '../core/redis-connection';
import { lastSweepReport } from '../core/sweep-report';
import type { AlertSettings } from './alert-settings';
import { channelsOf, type AlertChannel } from './channels';
import { orderPagePath, regimeStandingWords, type Lang } from '../words';
import type { MappingSettings } from '../../law/mapping-settings';
import { regimeStanding } from '../core/regime-standing';
import { DEFAULT_SHOP_ZONE, describeOrder, describeWebhooks, webhooksKey, type Digest, type OrderAlert, type RegimeAlert, type WebhookWords } from './digest';
import type { TenantConfig } from '../config/load-config';
import { platformOf } from '../../platforms/registry';
import { withTimeout } from '../core/timeout';
import { orderShown, shownOrders, type TenantShop } from '../shop/order-shown';

/**
 * An attention entry is read only once it is this old: entries are scored with the worker's clock
 * when written, so a slightly late write cannot land below a watermark already passed.
 */
export const SETTLE_MS = 2_000;
const TRIES = 3;
const MAX_RETRY_DELAY_MS = 5 * 60_000;
/** How long a digest waits for the shop to say how it shows its orders ("#1001"); then it names them "#<id>". */
export const SHOP_WAIT_MS = 3_000;

export interface AlerterDeps {
  redis: RedisClient;
  ledger: Ledger;
  prefix: string;
  /** Public origin of the connector: the links in the messages open its console's pages. */
  publicUrl: string;
  /** `settings.language` words the messages (default English when absent). */
  tenants: { id: string; name?: string; platform?: TenantConfig['platform']; shop?: { url: string }; alerts?: AlertSettings; settings?: { language?: Lang; mapping?: MappingSettings } }[];
  /**
   * The tenant's running shop (the runtimes'): a digest asks it, in one call, how it shows its orders
   * (Shopify's "#1001"). Absent, or a tenant without one: the orders are named "#<id>".
   */
  shopOf?: (tenant: string) => TenantShop | undefined;
  metrics: ConnectorMetrics;
  logger: Logger;
  now?: () => number;
  /** Pause between tries of one delivery (tests shorten it). */
  tryDelayMs?: number;
}

interface ChannelState {
  watermark: number;
  lastSentAt: number;
  windowHour: number;
  sentInWindow: number;
  webhooksKey: string;
  /** The art. 53 regime's standing last told (`year/state`): told once per year and state. */
  regimeKey: string;
  failures: number;
  retryAt: number;
}

/** A process that died holding the role hands it over after this long (one channel's round fits well within it). */
const LEASE_MS = 30_000;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/** Holds the alerter role for `ttl` ms if free or already ours (one key: safe on a cluster). */
const LEAD = `if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end return 0`;

/**
 * Tells people, without being asked, what needs them: the orders that entered the ledger's attention
 * list and the shop webhooks the sweep found disabled or missing. Runs in every worker process; a
 * lease in Redis lets one of them alert at a time. Per tenant and channel a watermark (the attention
 * score last told) lives in Redis, so a restart neither repeats nor loses an alert, and a channel that
 * fails keeps its own backlog while the other channel goes on.
 */
export class Alerter {
  private readonly token = randomUUID();
  private readonly channels = new Map<string, AlertChannel[]>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: AlerterDeps) {
    for (const tenant of deps.tenants) if (tenant.alerts) this.channels.set(tenant.id, channelsOf(tenant.alerts));
  }

  get enabled(): boolean {
    return this.channels.size > 0;
  }

  /** Ticks every `everyMs` (the shortest digest interval, between 1 and 30 s). */
  start(): void {
    if (!this.enabled) return;
    const intervals = this.deps.tenants.flatMap((t) => (t.alerts ? [t.alerts.digestSeconds * 1_000] : []));
    const everyMs = Math.min(30_000, Math.max(1_000, Math.min(...intervals)));
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick()
        .catch((error: Error) => this.deps.logger.warn({ err: error.message }, 'alerter tick failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, everyMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    // Hand the role over at once instead of after the lease runs out.
    await this.deps.redis.eval(RELEASE, 1, this.leaderKey, this.token).catch(() => undefined);
    for (const list of this.channels.values()) for (const channel of list) channel.close();
  }

  /** One round: if this process holds the lease, each tenant's channels get their due digest. */
  async tick(): Promise<void> {
    for (const tenant of this.deps.tenants) {
      if (!tenant.alerts) continue;
      const lang = tenant.settings?.language ?? 'en';
      const regime = await this.regimeAlert(tenant.id, tenant.settings?.mapping, lang);
      for (const channel of this.channels.get(tenant.id) ?? []) {
        // The lease is taken (or renewed) before each channel: a process that lost it stops there.
        if (this.stopped || !(await this.lead())) return;
        await this.tickChannel(tenant.id, tenant.alerts, channel, { lang, timeZone: tenant.settings?.mapping?.shopTimeZone ?? DEFAULT_SHOP_ZONE, platform: platformOf(tenant) }, shopNameOf(tenant), regime);
      }
    }
  }

  private get leaderKey(): string {
    return `${this.deps.prefix}:alerts:leader`;
  }

  private async lead(): Promise<boolean> {
    return Number(await this.deps.redis.eval(LEAD, 1, this.leaderKey, this.token, String(LEASE_MS))) === 1;
  }

  /**
   * A shop in the art. 53 regime whose year's M10 invoices near (or passed) the EUR 18,750 exit
   * (core/regime-standing.ts); undefined below the warning threshold or when Redis does not answer
   * (the next tick reads it again).
   */
  private async regimeAlert(tenant: string, mapping: MappingSettings | undefined, lang: Lang): Promise<RegimeAlert | undefined> {
    if (!mapping) return undefined;
    const standing = await regimeStanding(this.deps.ledger, tenant, mapping, (this.deps.now ?? Date.now)()).catch(() => undefined);
    const words = regimeStandingWords(lang, standing);
    if (!standing || !words || standing.state === 'below') return undefined;
    return { year: standing.year, total: standing.total, exit: standing.exit, warnFrom: standing.warnFrom, state: standing.state, what: words.what, fix: words.fix };
  }

  private async tickChannel(tenant: string, settings: AlertSettings, channel: AlertChannel, reader: { lang: Lang; timeZone: string; platform: WebhookWords }, shopName: string, regime: RegimeAlert | undefined): Promise<void> {
    const { lang, timeZone } = reader;
    const { redis, prefix, metrics, logger } = this.deps;
    const now = (this.deps.now ?? Date.now)();
    const stateKey = `${prefix}:alerts:${tenant}:${channel.name}`;
    const state = parseState(await redis.hgetall(stateKey));

    const pending = await this.pendingOrders(tenant, state.watermark, now - SETTLE_MS);
    const webhooks = describeWebhooks(await lastSweepReport(redis, prefix, tenant), reader.platform, lang, timeZone);
    const hooksKey = webhooksKey(webhooks);
    // A problem fixed and back later is told again.
    if (hooksKey === '' && state.webhooksKey !== '') await redis.hset(stateKey, 'webhooksKey', '');
    const newWebhooks = hooksKey !== '' && hooksKey !== state.webhooksKey ? webhooks : [];
    // The regime's standing is told once per year and state (near, then past); back below, forgotten.
    const regimeKey = regime ? `${regime.year}/${regime.state}` : '';
    if (regimeKey === '' && state.regimeKey !== '') await redis.hset(stateKey, 'regimeKey', '');
    const newRegime = regimeKey !== '' && regimeKey !== state.regimeKey ? regime : undefined;
    metrics.alertsPending.set({ tenant, channel: channel.name }, pending.length + newWebhooks.length + (newRegime ? 1 : 0));
    if (pending.length === 0 && newWebhooks.length === 0 && !newRegime) return;
    if (now < state.retryAt || now - state.lastSentAt < settings.digestSeconds * 1_000) return;
    const hour = Math.floor(now / 3_600_000);
    const sentThisHour = state.windowHour === hour ? state.sentInWindow : 0;
    if (sentThisHour >= settings.maxMessagesPerHour) return;

    const taken = takeWhole(pending, settings.maxOrdersPerMessage);
    const orders = await Promise.all(taken.map((entry) => this.orderAlert(tenant, entry, lang)));
    const shown = await this.shownOrders(tenant, orders.map((order) => order.orderId));
    const digest: Digest = {
      tenant,
      shopName,
      lang,
      timeZone,
      orders: orders.map((order) => ({ ...order, shown: shown(order.orderId) })),
      webhooks: newWebhooks,
      ...(newRegime ? { regime: newRegime } : {}),
      more: pending.length - taken.length,
      attentionLink: `${this.origin}/console/${encodeURIComponent(tenant)}`,
    };
    let lastError: Error | undefined;
    for (let attempt = 1; attempt <= TRIES; attempt++) {
      try {
        await channel.send(digest);
        lastError = undefined;
        break;
      } catch (error) {
        lastError = error as Error;
        metrics.alertMessages.inc({ tenant, channel: channel.name, outcome: 'failed' });
        logger.warn({ tenant, channel: channel.name, attempt, err: lastError.message }, 'alert delivery failed');
        if (attempt < TRIES) await delay((this.deps.tryDelayMs ?? 1_000) * attempt);
      }
    }
    if (lastError) {
      const failures = state.failures + 1;
      const retryIn = Math.min(MAX_RETRY_DELAY_MS, 5_000 * 2 ** (failures - 1));
      await redis.hset(stateKey, 'failures', String(failures), 'retryAt', String(now + retryIn));
      logger.error({ tenant, channel: channel.name, orders: digest.orders.length, webhooks: digest.webhooks.length, retryInMs: retryIn, err: lastError.message }, 'alert digest not delivered; kept and retried');
      return;
    }
    const watermark = taken.length > 0 ? taken[taken.length - 1].score : state.watermark;
    await redis.hset(stateKey, 'watermark', String(watermark), 'lastSentAt', String(now), 'windowHour', String(hour), 'sentInWindow', String(sentThisHour + 1), 'webhooksKey', hooksKey, 'regimeKey', newRegime ? regimeKey : state.regimeKey, 'failures', '0', 'retryAt', '0');
    metrics.alertMessages.inc({ tenant, channel: channel.name, outcome: 'sent' });
    metrics.alertsPending.set({ tenant, channel: channel.name }, digest.more);
    logger.info({ tenant, channel: channel.name, orders: digest.orders.length, webhooks: digest.webhooks.length, more: digest.more }, 'alert digest sent');
  }

  /** Attention entries of this tenant above the watermark and settled, oldest first. */
  private async pendingOrders(tenant: string, watermark: number, until: number): Promise<{ member: string; score: number }[]> {
    if (until <= watermark) return [];
    // The list holds every tenant's entries: page through it so other tenants' never hide this one's.
    const page = 5_000;
    const own: { member: string; score: number }[] = [];
    for (let offset = 0; ; offset += page) {
      const flat = await this.deps.redis.zrangebyscore(`${this.deps.prefix}:attention`, `(${watermark}`, String(until), 'WITHSCORES', 'LIMIT', offset, page);
      for (let i = 0; i < flat.length; i += 2) if (flat[i].startsWith(`${tenant}:`)) own.push({ member: flat[i], score: Number(flat[i + 1]) });
      if (flat.length < page * 2) return own;
    }
  }

  private async orderAlert(tenant: string, entry: { member: string; score: number }, lang: Lang): Promise<OrderAlert> {
    const [, orderText, ...purposeParts] = entry.member.slice(tenant.length).split(':');
    const orderId = Number(orderText);
    const purpose = purposeParts.join(':');
    const link = `${this.origin}${orderPagePath(tenant, orderId)}`;
    const ledger = await this.deps.ledger.get({ tenant, orderId, purpose });
    return { orderId, purpose, ...describeOrder(ledger, { tenant, orderId, purpose }, lang), link, since: new Date(entry.score).toISOString() };
  }

  /** How the tenant's shop shows these orders: one call, never longer than SHOP_WAIT_MS; a silent shop leaves them "#<id>". */
  private async shownOrders(tenant: string, ids: readonly number[]): Promise<(orderId: number) => string> {
    const shop = this.deps.shopOf?.(tenant);
    if (!shop) return (orderId) => orderShown(orderId);
    return shownOrders(shop, ids, (call) =>
      withTimeout(call(), SHOP_WAIT_MS).catch((error: Error) => {
        this.deps.logger.warn({ tenant, err: error.message }, 'the shop did not say how it shows the alerted orders; they are named by id');
        return undefined;
      }),
    );
  }

  private get origin(): string {
    return this.deps.publicUrl.replace(/\/+$/, '');
  }
}

/** The shop as people know it: the tenant's `name`, else its host, else the tenant id. */
function shopNameOf(tenant: { id: string; name?: string; shop?: { url: string } }): string {
  if (tenant.name) return tenant.name;
  try {
    return tenant.shop ? new URL(tenant.shop.url).host : tenant.id;
  } catch {
    return tenant.id;
  }
}

/** The first `max` entries, plus any that share the last one's score (the watermark is a score). */
function takeWhole<T extends { score: number }>(entries: T[], max: number): T[] {
  if (entries.length <= max) return entries;
  let end = max;
  while (end < entries.length && entries[end].score === entries[max - 1].score) end += 1;
  return entries.slice(0, end);
}

function parseState(hash: Record<string, string>): ChannelState {
  const number = (name: string) => Number(hash[name] ?? 0) || 0;
  return {
    watermark: number('watermark'),
    lastSentAt: number('lastSentAt'),
    windowHour: number('windowHour'),
    sentInWindow: number('sentInWindow'),
    webhooksKey: hash.webhooksKey ?? '',
    regimeKey: hash.regimeKey ?? '',
    failures: number('failures'),
    retryAt: number('retryAt'),
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
