import type { TenantConfig } from '../config/load-config';
import { readGoLiveAt } from '../ingest/go-live';
import type { RedisClient } from '../core/redis-connection';
import { ok, warn, type Check } from './check';
import { doctorSays } from './doctor-messages';

/**
 * The tenant's go-live cut-off, as the connector will apply it: the setting, the first start already
 * stored in Redis, or (never started) the moment it will first start: the dry run judges orders
 * against `cutOff`. Reads only: the doctor never fixes the cut-off itself.
 */
export async function checkGoLive(redis: RedisClient | undefined, prefix: string, tenant: TenantConfig, now: number): Promise<{ check: Check; cutOff: number }> {
  const name = doctorSays('go-live-name');
  const timeZone = tenant.settings.mapping.shopTimeZone;
  const since = (at: number, from: 'setting' | 'first-start') => doctorSays('go-live-at', { at: new Date(at).toISOString(), timeZone, from });
  if (tenant.settings.goLiveAt) {
    const at = Date.parse(tenant.settings.goLiveAt);
    return { check: ok('orders', name, since(at, 'setting')), cutOff: at };
  }
  try {
    if (!redis) throw new Error('Redis is not reachable');
    const stored = await readGoLiveAt(redis, prefix, tenant);
    if (stored) return { check: ok('orders', name, since(stored.at, 'first-start')), cutOff: stored.at };
    return { check: ok('orders', name, doctorSays('go-live-not-started')), cutOff: now };
  } catch (error) {
    return { check: warn('orders', name, doctorSays('go-live-unreadable', { error: (error as Error).message }), doctorSays('go-live-unreadable-fix')), cutOff: now };
  }
}
