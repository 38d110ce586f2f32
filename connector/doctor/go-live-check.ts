import type { TenantConfig } from '../config/load-config';
import { readGoLiveAt } from '../ingest/go-live';
import type { RedisClient } from '../core/redis-connection';
import { ok, warn, type Check } from './check';

/**
 * The tenant's go-live cut-off, as the connector will apply it: the setting, the first start already
 * stored in Redis, or (never started) the moment it will first start: the dry run judges orders
 * against `cutOff`. Reads only: the doctor never fixes the cut-off itself.
 */
export async function checkGoLive(redis: RedisClient | undefined, prefix: string, tenant: TenantConfig, now: number): Promise<{ check: Check; cutOff: number }> {
  const name = { en: 'go-live cut-off', pt: 'Início da faturação' };
  const rule = {
    en: 'orders sold before it are never invoiced by a delivery, an update or a sweep; only a backfill issues them',
    pt: 'as encomendas vendidas antes desse momento nunca são faturadas por uma entrega, atualização ou sincronização; só um backfill as emite',
  };
  const since = (at: number, why: { en: string; pt: string }) => ({ en: `${new Date(at).toISOString()} (${why.en}): ${rule.en}`, pt: `${new Date(at).toISOString()} (${why.pt}): ${rule.pt}` });
  if (tenant.settings.goLiveAt) {
    const at = Date.parse(tenant.settings.goLiveAt);
    return { check: ok('orders', name, since(at, { en: 'settings.goLiveAt', pt: 'settings.goLiveAt' })), cutOff: at };
  }
  try {
    if (!redis) throw new Error('Redis is not reachable');
    const stored = await readGoLiveAt(redis, prefix, tenant);
    if (stored) return { check: ok('orders', name, since(stored.at, { en: "the tenant's first start", pt: 'o primeiro arranque da loja' })), cutOff: stored.at };
    return { check: ok('orders', name, { en: `not started yet: the first start will be the cut-off; ${rule.en}`, pt: `ainda não arrancou: o primeiro arranque será o início; ${rule.pt}` }), cutOff: now };
  } catch (error) {
    return {
      check: warn(
        'orders',
        name,
        { en: `could not read it from Redis (${(error as Error).message})`, pt: `não foi possível lê-lo do Redis (${(error as Error).message})` },
        { en: 'Make Redis reachable; or fix the cut-off with settings.goLiveAt.', pt: 'Torne o Redis acessível, ou fixe o início com settings.goLiveAt.' },
      ),
      cutOff: now,
    };
  }
}
