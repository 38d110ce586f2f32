import type { MappingSettings } from '../../law/mapping-settings';
import { exemptionRegime } from '../../law/mapping-settings';
import { Ledger } from '../core/ledger';
import type { RedisClient } from '../core/redis-connection';
import { regimeStanding } from '../core/regime-standing';
import { couldNotCheck, ok, warn, type Check } from './check';
import { doctorSays } from './doctor-messages';

/**
 * A shop in the art. 53 regime (M10): how far the year's M10 documents (the ledger's count) are from
 * the EUR 18,750 exit of DL 35/2025. Near it (from `exemptions.regimeWarnFrom`) a WARN that says what
 * to plan; past it a WARN that the next M10 invoices are held. Not in the regime: no check.
 */
export async function checkRegimeLimit(redis: RedisClient | undefined, prefix: string, tenantId: string, settings: MappingSettings, now: number): Promise<Check | undefined> {
  if (exemptionRegime(settings) !== 'M10') return undefined;
  const name = doctorSays('regime-name');
  let standing;
  try {
    if (!redis) return warn('invoicing', name, couldNotCheck(doctorSays('regime-no-redis')), doctorSays('regime-unreadable-fix'));
    standing = await regimeStanding(new Ledger(redis, prefix), tenantId, settings, now);
  } catch (error) {
    return warn('invoicing', name, couldNotCheck((error as Error).message), doctorSays('regime-unreadable-fix'));
  }
  // In the regime by its setting but not today: the shop left it on exemptions.regimeUntil.
  if (!standing) return ok('invoicing', name, doctorSays('regime-left', { day: settings.exemptions.regimeUntil ?? '' }));
  const detail = doctorSays('regime-turnover', { year: standing.year, total: standing.total, exit: standing.exit });
  if (standing.state !== 'below') return warn('invoicing', name, detail, doctorSays('regime-near-fix'));
  return ok('invoicing', name, detail);
}
