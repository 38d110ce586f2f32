import type { RedisClient } from '../core/redis-connection';
import { DELIVERY_PROBLEMS, isDeliveryProblem, type DeliveryProblem } from '../words';

/**
 * Deliveries refused per tenant and reason (count since the key was made, and the last one), kept in
 * Redis by whichever process served them, so the console, the alerts and every process of a split
 * deployment see the same. One hash per tenant: `<reason>` = count, `<reason>:last` = ms.
 */
export function refusalsKey(prefix: string, tenant: string): string {
  return `${prefix}:webhook-refusals:${tenant}`;
}

export async function recordRefusal(redis: RedisClient, prefix: string, tenant: string, reason: string, now: number): Promise<void> {
  if (!isDeliveryProblem(reason)) return;
  const key = refusalsKey(prefix, tenant);
  await redis.multi().hincrby(key, reason, 1).hset(key, `${reason}:last`, String(now)).exec();
}

export interface RefusalSummary {
  reason: DeliveryProblem;
  count: number;
  lastAt: number;
}

export async function refusalsOf(redis: RedisClient, prefix: string, tenant: string): Promise<RefusalSummary[]> {
  const hash = await redis.hgetall(refusalsKey(prefix, tenant));
  return DELIVERY_PROBLEMS.filter((reason) => hash[reason] !== undefined)
    .map((reason) => ({ reason, count: Number(hash[reason]), lastAt: Number(hash[`${reason}:last`] ?? 0) }))
    .sort((a, b) => b.lastAt - a.lastAt);
}

/** Refusals within the last `windowMs`: what is still happening (and alerted), not last month's. */
export async function recentRefusals(redis: RedisClient, prefix: string, tenant: string, now: number, windowMs = 3_600_000): Promise<RefusalSummary[]> {
  return (await refusalsOf(redis, prefix, tenant)).filter((refusal) => now - refusal.lastAt <= windowMs);
}
