import { z } from 'zod';
import type { OrderHistory } from '../history/order-history';
import type { Logger } from 'pino';
import type { RedisClient } from '../core/redis-connection';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { NOTES } from '../words';
import type { NotInvoicedReason } from './plan-order';

/**
 * Orders the connector decided not to invoice, per tenant, with the reason: the console's
 * not-invoiced list reads it, a backfill of the order removes it. One Redis hash per tenant
 * (field: order id), so a shop's hundred updates of one old order keep one line.
 */
const EntrySchema = z.object({
  reason: z.union([
    z.object({ code: z.literal('before-go-live'), soldAt: z.string(), goLiveAt: z.string() }),
    z.object({ code: z.literal('other-system'), system: z.string(), key: z.string(), value: z.string() }),
    z.object({ code: z.literal('advance-payment'), kind: z.enum(['deposit', 'pre-order']), status: z.string(), plugin: z.string() }),
  ]),
  at: z.number(),
  /** The private note on the order was written (other systems' documents and advance payments). */
  noted: z.boolean().default(false),
});
export type NotInvoicedEntry = z.infer<typeof EntrySchema> & { orderId: number };

export function notInvoicedKey(prefix: string, tenant: string): string {
  return `${prefix}:not-invoiced:${tenant}`;
}

export interface NotInvoicedDeps {
  redis: RedisClient;
  prefix: string;
  logger: Logger;
  now?: () => number;
  /** The order's story: the note written on it is told there (the sweep gives it). */
  history?: OrderHistory;
}

/**
 * Records the order once, and for another system's document tells the shop owner on the order (a
 * private note saying which document it has), once; a failed note is tried again the next time the
 * order is seen (a delivery or the sweep).
 */
export async function recordNotInvoiced(deps: NotInvoicedDeps, tenant: TenantRuntime, orderId: number, reason: NotInvoicedReason): Promise<void> {
  const key = notInvoicedKey(deps.prefix, tenant.config.id);
  const field = String(orderId);
  const now = (deps.now ?? Date.now)();
  const fresh = { reason, at: now, noted: false };
  const created = await deps.redis.hsetnx(key, field, JSON.stringify(fresh));
  let entry = fresh;
  if (created === 0) {
    const stored = EntrySchema.safeParse(JSON.parse((await deps.redis.hget(key, field)) ?? 'null'));
    if (stored.success && sameReason(stored.data.reason, reason)) entry = stored.data;
    else await deps.redis.hset(key, field, JSON.stringify(fresh));
  }
  if (reason.code === 'before-go-live' || entry.noted) return;
  try {
    const lang = tenant.config.settings.language;
    const text = reason.code === 'other-system' ? NOTES.otherSystem(lang, reason) : NOTES.advancePayment(lang, reason);
    await tenant.shop.addNote(orderId, text, false);
    await deps.redis.hset(key, field, JSON.stringify({ ...entry, noted: true }));
    await deps.history?.add(tenant.config.id, orderId, { kind: 'note', customer: false, text }, now).catch(() => undefined);
  } catch (error) {
    deps.logger.warn({ tenant: tenant.config.id, orderId, err: (error as Error).message }, 'could not write the not-invoiced note on the order; tried again when the order is next seen');
  }
}

function sameReason(a: NotInvoicedReason, b: NotInvoicedReason): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function listNotInvoiced(redis: RedisClient, prefix: string, tenant: string): Promise<NotInvoicedEntry[]> {
  const all = await redis.hgetall(notInvoicedKey(prefix, tenant));
  const entries: NotInvoicedEntry[] = [];
  for (const [field, text] of Object.entries(all)) {
    const parsed = EntrySchema.safeParse(JSON.parse(text));
    if (parsed.success) entries.push({ ...parsed.data, orderId: Number(field) });
  }
  return entries.sort((a, b) => b.orderId - a.orderId);
}

/** A backfill (or a person's "issue") took the order over. */
export async function forgetNotInvoiced(redis: RedisClient, prefix: string, tenant: string, orderIds: readonly number[]): Promise<void> {
  if (orderIds.length > 0) await redis.hdel(notInvoicedKey(prefix, tenant), ...orderIds.map(String));
}
