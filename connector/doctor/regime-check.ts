import { parseDecimal } from '../../client/money';
import type { MappingSettings } from '../../law/mapping-settings';
import { exemptionRegime } from '../../law/mapping-settings';
import { regimeLimit, REGIME_53 } from '../../law/small-business-regime';
import { Ledger } from '../core/ledger';
import type { RedisClient } from '../core/redis-connection';
import { shopToday } from '../pipeline/issue-date';
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
  const today = shopToday(now, settings.shopTimeZone);
  const until = settings.exemptions.regimeUntil;
  if (until !== undefined && today > until) return ok('invoicing', name, doctorSays('regime-left', { day: until }));
  const year = Number(today.slice(0, 4));
  let total: string;
  try {
    if (!redis) return warn('invoicing', name, couldNotCheck(doctorSays('regime-no-redis')), doctorSays('regime-unreadable-fix'));
    total = await new Ledger(redis, prefix).regimeTurnover(tenantId, year);
  } catch (error) {
    return warn('invoicing', name, couldNotCheck((error as Error).message), doctorSays('regime-unreadable-fix'));
  }
  const limit = regimeLimit({ ...settings, exemptions: { ...settings.exemptions, regimeTurnover: { year, total } } }, today, parseDecimal(0));
  const detail = doctorSays('regime-turnover', { year, total, exit: REGIME_53.exit });
  if (limit.state === 'crosses' || (limit.state === 'near' && limit.after.units > 0n)) return warn('invoicing', name, detail, doctorSays('regime-near-fix'));
  return ok('invoicing', name, detail);
}
