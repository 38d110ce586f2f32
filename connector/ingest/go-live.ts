import type { RedisClient } from '../core/redis-connection';
import type { TenantConfig } from '../config/load-config';

/**
 * The go-live cut-off of a tenant: orders sold before it are never invoiced by a delivery, an update
 * or a sweep (only a backfill issues them). A shop that adopts the connector has invoiced its past
 * orders some other way; the cut-off is what keeps a delivery, a late update (a shipping plugin
 * marking an old order delivered) or the first sweep from invoicing them a second time.
 *
 * settings.goLiveAt fixes it; otherwise it is the moment the tenant first started, written once to
 * Redis (SET NX: every process of every role agrees on the first one) and kept for ever. It is
 * written for every tenant before the connector takes a delivery (at start, and by a reload before
 * it reports an added tenant), never by the first delivery or sweep: an order paid the moment
 * /readyz answers is after the cut-off, whenever WooCommerce delivers it (issue 31).
 */
export function goLiveKey(prefix: string, tenantId: string): string {
  return `${prefix}:tenant:${tenantId}:go-live`;
}

/** Redis values already read by this process: the stored cut-off never changes once written. */
const known = new Map<string, number>();
/**
 * When this process began to serve a tenant whose cut-off it could not yet write (Redis away at the
 * start or the reload): the cut-off it writes later is that moment, not the later one.
 */
const servingSince = new Map<string, number>();

/** The cut-off in ms; a tenant's first start writes it (normally done by fixGoLive before any delivery). */
export async function goLiveAt(redis: RedisClient, prefix: string, tenant: Pick<TenantConfig, 'id' | 'settings'>, now: () => number = Date.now): Promise<number> {
  if (tenant.settings.goLiveAt) return Date.parse(tenant.settings.goLiveAt);
  const key = goLiveKey(prefix, tenant.id);
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  await redis.set(key, String(servingSince.get(key) ?? now()), 'NX');
  const stored = Number(await redis.get(key));
  if (!Number.isFinite(stored) || stored <= 0) throw new Error(`the go-live cut-off of tenant ${tenant.id} in Redis (${key}) is not a time`);
  known.set(key, stored);
  servingSince.delete(key);
  return stored;
}

/**
 * Writes the cut-off of every tenant that has none (SET NX, one round trip), before the connector
 * takes deliveries for them. When Redis does not answer, the moment is remembered and the first
 * later need writes it (goLiveAt), so an order sold after this call is never before the cut-off.
 */
export async function fixGoLive(redis: RedisClient, prefix: string, tenants: readonly Pick<TenantConfig, 'id' | 'settings'>[], now: () => number = Date.now): Promise<void> {
  const open = tenants.filter((tenant) => !tenant.settings.goLiveAt && !known.has(goLiveKey(prefix, tenant.id)));
  if (open.length === 0) return;
  const at = now();
  const keys = open.map((tenant) => goLiveKey(prefix, tenant.id));
  for (const key of keys) if (!servingSince.has(key)) servingSince.set(key, at);
  const batch = redis.multi();
  for (const key of keys) batch.set(key, String(servingSince.get(key) ?? at), 'NX');
  batch.mget(...keys);
  const replies = await batch.exec();
  const stored = replies?.at(-1)?.[1];
  if (!Array.isArray(stored)) throw new Error('Redis did not answer the go-live cut-offs');
  keys.forEach((key, index) => {
    const value = Number(stored[index]);
    if (Number.isFinite(value) && value > 0) {
      known.set(key, value);
      servingSince.delete(key);
    }
  });
}

/** What the doctor shows: the cut-off, or undefined when the tenant has never started (nothing written). */
export async function readGoLiveAt(redis: RedisClient, prefix: string, tenant: Pick<TenantConfig, 'id' | 'settings'>): Promise<{ at: number; source: 'setting' | 'first-start' } | undefined> {
  if (tenant.settings.goLiveAt) return { at: Date.parse(tenant.settings.goLiveAt), source: 'setting' };
  const stored = Number(await redis.get(goLiveKey(prefix, tenant.id)));
  return Number.isFinite(stored) && stored > 0 ? { at: stored, source: 'first-start' } : undefined;
}

/** The order summary's UTC instants have no zone suffix ("2026-11-24T10:15:00"). */
function utcMs(text: string | null | undefined): number | undefined {
  if (!text) return undefined;
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * The moment of the sale as the cut-off reads it: paid, else (an unpaid status such as cash on
 * delivery) created. A gateway that records the payment only on completion (`paidOnCompletion`:
 * WooCommerce's cash on delivery sets `date_paid` when the order is marked Completed) is dated by the
 * order's creation: its `date_paid` is the delivery, not the sale.
 */
export function soldAt(
  order: { paidAt: string | null; createdAt: string | null; paymentMethod: string | null },
  paidOnCompletion: readonly string[] = [],
): number | undefined {
  const created = utcMs(order.createdAt);
  if (order.paymentMethod && paidOnCompletion.includes(order.paymentMethod)) return created ?? utcMs(order.paidAt);
  return utcMs(order.paidAt) ?? created;
}
