import { parseDecimal } from '../../client/money';
import type { MappingSettings } from '../../law/mapping-settings';
import { exemptionRegime } from '../../law/mapping-settings';
import { money } from '../../messages/money';
import { regimeLimit, REGIME_53 } from '../../law/small-business-regime';
import { Ledger } from '../core/ledger';
import type { RedisClient } from '../core/redis-connection';
import { shopToday } from '../pipeline/issue-date';
import { couldNotCheck, ok, warn, type Check } from './check';

/**
 * A shop in the art. 53 regime (M10): how far the year's M10 documents (the ledger's count) are from
 * the EUR 18,750 exit of DL 35/2025. Near it (from `exemptions.regimeWarnFrom`) a WARN that says what
 * to plan; past it a WARN that the next M10 invoices are held. Not in the regime: no check.
 */
export async function checkRegimeLimit(redis: RedisClient | undefined, prefix: string, tenantId: string, settings: MappingSettings, now: number): Promise<Check | undefined> {
  if (exemptionRegime(settings) !== 'M10') return undefined;
  const name = { en: 'art. 53 regime limit', pt: 'Limite do regime do art. 53.º' };
  const today = shopToday(now, settings.shopTimeZone);
  if (settings.exemptions.regimeUntil !== undefined && today > settings.exemptions.regimeUntil) {
    return ok('invoicing', name, { en: `the shop left the regime on ${settings.exemptions.regimeUntil} (exemptions.regimeUntil)`, pt: `a loja saiu do regime em ${settings.exemptions.regimeUntil} (exemptions.regimeUntil)` });
  }
  const year = Number(today.slice(0, 4));
  let total: string;
  try {
    if (!redis) throw new Error('Redis is not reachable');
    total = await new Ledger(redis, prefix).regimeTurnover(tenantId, year);
  } catch (error) {
    return warn('invoicing', name, couldNotCheck((error as Error).message), { en: 'Make Redis reachable and run the doctor again.', pt: 'Torne o Redis acessível e volte a correr o diagnóstico.' });
  }
  const limit = regimeLimit({ ...settings, exemptions: { ...settings.exemptions, regimeTurnover: { year, total } } }, today, parseDecimal(0));
  const amounts = (lang: 'en' | 'pt') => `${money(lang, total, 'EUR')} / ${money(lang, REGIME_53.exit, 'EUR')}`;
  const detail = {
    en: `the ${year} M10 documents issued by the connector come to ${amounts('en')} (CIVA art. 53, DL 35/2025: past EUR 18,750 the shop leaves the regime at once)`,
    pt: `os documentos M10 de ${year} emitidos pelo conector somam ${amounts('pt')} (art. 53.º do CIVA, DL 35/2025: acima de 18 750 € a loja sai de imediato do regime)`,
  };
  if (limit.state === 'crosses' || (limit.state === 'near' && limit.after.units > 0n)) {
    return warn('invoicing', name, detail, {
      en: 'Plan the change with your accountant: an M10 invoice that would pass EUR 18,750 is held; from the day the shop leaves the regime set exemptions.regimeUntil and tax the products in the shop.',
      pt: 'Prepare a mudança com o seu contabilista: uma fatura M10 que ultrapasse 18 750 € fica retida; a partir do dia em que a loja sai do regime, defina exemptions.regimeUntil e aplique o imposto aos produtos na loja.',
    });
  }
  return ok('invoicing', name, detail);
}
