import { parseDecimal } from '../../client/money';
import { exemptionRegime, type MappingSettings } from '../../law/mapping-settings';
import { localDateTime } from '../../law/shop-date';
import { regimeLimit, REGIME_53 } from '../../law/small-business-regime';
import type { Ledger } from './ledger';

/**
 * Where a shop in the art. 53 regime (M10) stands against the EUR 18,750 exit of DL 35/2025 today:
 * the year (the shop's calendar year, in its zone), the year's M10 documents issued by the connector
 * (the ledger's count, in euros), the warning threshold (`exemptions.regimeWarnFrom`, default EUR
 * 16,875: 90 % of the exit) and the state. `near` from the threshold, `past` once the count is
 * above the exit (an M10 invoice that would cross it is held by the law: law/small-business-regime.ts).
 * One reading for the doctor, the console's warning line and the alerts.
 */
export interface RegimeStanding {
  year: number;
  /** Euros, two decimals ("17000.00"). */
  total: string;
  warnFrom: string;
  exit: string;
  state: 'below' | 'near' | 'past';
}

/** Undefined when the shop is not in the M10 regime today (none configured, or past `exemptions.regimeUntil`). */
export async function regimeStanding(ledger: Pick<Ledger, 'regimeTurnover'>, tenant: string, settings: MappingSettings, now: number): Promise<RegimeStanding | undefined> {
  const regime = regimeToday(settings, now);
  if (!regime) return undefined;
  const total = await ledger.regimeTurnover(tenant, regime.year);
  const limit = regimeLimit({ ...settings, exemptions: { ...settings.exemptions, regimeTurnover: { year: regime.year, total } } }, regime.today, parseDecimal(0));
  const state = limit.state === 'crosses' ? 'past' : limit.state === 'near' && limit.after.units > 0n ? 'near' : 'below';
  return { year: regime.year, total, warnFrom: settings.exemptions.regimeWarnFrom, exit: REGIME_53.exit, state };
}

/** The shop's day and year when it is in the M10 regime today; undefined otherwise. */
export function regimeToday(settings: MappingSettings, now: number): { today: string; year: number } | undefined {
  if (exemptionRegime(settings) !== 'M10') return undefined;
  const today = localDateTime(new Date(now), settings.shopTimeZone).date;
  const until = settings.exemptions.regimeUntil;
  if (until !== undefined && today > until) return undefined;
  return { today, year: Number(today.slice(0, 4)) };
}
