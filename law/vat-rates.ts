import { compare, Decimal, formatDecimal, parseDecimal } from '../client/money';

/**
 * Portugal's VAT rates as data, per region and with the day each applies from (and until). Which
 * region's rates a supply takes follows where it takes place (CIVA art. 6(1): goods where their
 * transport to the buyer begins; art. 6(6) for services), never the buyer's postcode; the rate is
 * the one in force when the tax becomes due (CIVA art. 18(9)). Since Lei 12/2022 the regional rates
 * are no longer written in CIVA art. 18(3) but set by each region's assembly; the tax authority lists
 * them in Ofício-Circulado 25045/2024 (6 December 2024).
 *
 * A sale dated before the first period of its region is not covered: it is refused with the reason
 * rather than priced by a guess (no shop issues those today).
 */

export const DISPATCH_REGIONS = ['mainland', 'azores', 'madeira'] as const;
export type DispatchRegion = (typeof DISPATCH_REGIONS)[number];

export interface RatePeriod {
  region: DispatchRegion;
  kind: 'normal' | 'intermediate' | 'reduced';
  percent: string;
  /** First day (yyyy-mm-dd) the rate applies. */
  from: string;
  /** Last day it applies; absent while in force. */
  until?: string;
  source: string;
}

export const PORTUGUESE_VAT_RATES: readonly RatePeriod[] = [
  { region: 'mainland', kind: 'normal', percent: '23', from: '2011-01-01', source: 'CIVA art. 18(1)(c) (Lei 55-A/2010)' },
  { region: 'mainland', kind: 'intermediate', percent: '13', from: '2010-07-01', source: 'CIVA art. 18(1)(b) (Lei 12-A/2010)' },
  { region: 'mainland', kind: 'reduced', percent: '6', from: '2010-07-01', source: 'CIVA art. 18(1)(a) (Lei 12-A/2010)' },
  { region: 'madeira', kind: 'normal', percent: '22', from: '2012-04-01', source: 'Madeira regional rates (Ofício-Circulado 25045/2024)' },
  { region: 'madeira', kind: 'intermediate', percent: '12', from: '2012-04-01', source: 'Madeira regional rates (Ofício-Circulado 25045/2024)' },
  { region: 'madeira', kind: 'reduced', percent: '5', from: '2012-04-01', until: '2024-09-30', source: 'Madeira regional rates, replaced by DLR 6/2024/M' },
  { region: 'madeira', kind: 'reduced', percent: '4', from: '2024-10-01', source: 'DLR 6/2024/M' },
  { region: 'azores', kind: 'normal', percent: '16', from: '2021-07-01', source: 'DLR 15-A/2021/A (national rates less 30 %)' },
  { region: 'azores', kind: 'intermediate', percent: '9', from: '2021-07-01', source: 'DLR 15-A/2021/A (national rates less 30 %)' },
  { region: 'azores', kind: 'reduced', percent: '4', from: '2021-07-01', source: 'DLR 15-A/2021/A (national rates less 30 %)' },
];

const REGION_NAMES: Record<DispatchRegion, string> = { mainland: 'mainland Portugal', azores: 'the Azores', madeira: 'Madeira' };

export function regionName(region: DispatchRegion): string {
  return REGION_NAMES[region];
}

function inForce(period: RatePeriod, day: string): boolean {
  return period.from <= day && (period.until === undefined || day <= period.until);
}

/** The rates of `region` in force on `day` (normal, intermediate, reduced). */
export function ratesInForce(region: DispatchRegion, day: string): RatePeriod[] {
  return PORTUGUESE_VAT_RATES.filter((p) => p.region === region && inForce(p, day));
}

/** The table's percentages as decimals, read once (asked for every line of every document). */
const PERIOD_PERCENTS: readonly Decimal[] = PORTUGUESE_VAT_RATES.map((p) => parseDecimal(p.percent));

/** The regions where `percent` is a VAT rate in force on `day` (empty: no Portuguese rate that day), in the table's order. */
export function regionsWithRate(percent: Decimal, day: string): DispatchRegion[] {
  const regions: DispatchRegion[] = [];
  PORTUGUESE_VAT_RATES.forEach((period, i) => {
    if (!regions.includes(period.region) && inForce(period, day) && compare(PERIOD_PERCENTS[i], percent) === 0) regions.push(period.region);
  });
  return regions;
}

/** "23/13/6 %" for a region on a day, for messages. */
export function rateList(region: DispatchRegion, day: string): string {
  const rates = ratesInForce(region, day);
  return rates.length === 0 ? 'no rate known for that day' : `${rates.map((r) => formatDecimal(parseDecimal(r.percent))).join('/')} %`;
}

/** Every percentage the table has ever held: candidates when a rate is derived from line taxes. */
export const KNOWN_PERCENTS: readonly Decimal[] = [...new Set(PORTUGUESE_VAT_RATES.map((p) => p.percent))].map((p) => parseDecimal(p));

/**
 * The region of a Portuguese address by its postcode: 9000-9499 Madeira (Porto Santo is 9400),
 * 9500-9999 the Azores, any other mainland. Undefined outside Portugal or without a readable postcode.
 */
export function regionOfAddress(country: string, postcode: string): DispatchRegion | undefined {
  if (country.trim().toUpperCase() !== 'PT') return undefined;
  const digits = /^(\d{4})/.exec(postcode.replace(/\s+/g, ''));
  if (!digits) return undefined;
  const prefix = Number(digits[1]);
  if (prefix >= 9000 && prefix <= 9499) return 'madeira';
  if (prefix >= 9500 && prefix <= 9999) return 'azores';
  return 'mainland';
}
