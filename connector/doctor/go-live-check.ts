import type { TenantConfig } from '../config/load-config';
import { readGoLiveAt } from '../ingest/go-live';
import type { RedisClient } from '../redis-connection';
import { ok, warn, type Check } from './check';

/**
 * The tenant's go-live cut-off, as the connector will apply it: the setting, the first start already
 * stored in Redis, or (never started) the moment it will first start: the dry run judges orders
 * against `cutOff`. Reads only: the doctor never fixes the cut-off itself.
 */
export async function checkGoLive(redis: RedisClient | undefined, prefix: string, tenant: TenantConfig, now: number): Promise<{ check: Check; cutOff: number }> {
  const name = 'go-live cut-off';
  const rule = 'orders sold before it are never invoiced by a delivery, an update or a sweep; only a backfill issues them';
  if (tenant.settings.goLiveAt) {
    const at = Date.parse(tenant.settings.goLiveAt);
    return { check: ok('orders', name, `${new Date(at).toISOString()} (settings.goLiveAt): ${rule}`), cutOff: at };
  }
  try {
    if (!redis) throw new Error('Redis is not reachable');
    const stored = await readGoLiveAt(redis, prefix, tenant);
    if (stored) return { check: ok('orders', name, `${new Date(stored.at).toISOString()} (the tenant's first start): ${rule}`), cutOff: stored.at };
    return { check: ok('orders', name, `not started yet: the first start will be the cut-off; ${rule}`), cutOff: now };
  } catch (error) {
    return {
      check: warn('orders', name, `could not read it from Redis (${(error as Error).message})`, 'Make Redis reachable; or fix the cut-off with settings.goLiveAt.'),
      cutOff: now,
    };
  }
}
