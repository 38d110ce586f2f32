import { z } from 'zod';
import { divide, formatDecimal, isDecimalText, parseDecimal } from '../../client/money';

/**
 * The ECB's euro reference rates (published each working day around 16:00 CET): the rate of the day
 * the tax becomes due for a document in another currency. Read from the ECB's XML file (the 90-day
 * history, so a late or backfilled order still finds its day), parsed once and cached. A day without
 * a publication (a weekend, a TARGET holiday) takes the latest rate published before it.
 */
export const ECB_RATES_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml';

export const ExchangeRatesSettingsSchema = z
  .object({
    url: z.url({ protocol: /^https?$/ }).default(ECB_RATES_URL),
    timeoutMs: z.number().int().positive().default(10_000),
    /** How long a read file is reused (the ECB publishes once a working day). */
    cacheHours: z.number().positive().max(24 * 7).default(6),
  })
  .strict();
export type ExchangeRatesSettings = z.infer<typeof ExchangeRatesSettingsSchema>;

/** Units of each currency per euro, by day (yyyy-mm-dd). */
export type EcbRates = Map<string, Map<string, string>>;

/** Parses the ECB file: `<Cube time="2026-03-10"><Cube currency="USD" rate="1.0832"/>...</Cube>`. */
export function parseEcbRates(xml: string): EcbRates {
  const days: EcbRates = new Map();
  const dayPattern = /<Cube\s+time=["'](\d{4}-\d{2}-\d{2})["']\s*>([\s\S]*?)<\/Cube>/g;
  for (const day of xml.matchAll(dayPattern)) {
    const rates = new Map<string, string>();
    for (const rate of day[2].matchAll(/<Cube\s+currency=["']([A-Z]{3})["']\s+rate=["']([0-9.]+)["']\s*\/>/g)) {
      if (isDecimalText(rate[2]) && parseDecimal(rate[2]).units > 0n) rates.set(rate[1], rate[2]);
    }
    days.set(day[1], rates);
  }
  if (days.size === 0) throw new Error('the ECB rates file has no day of rates');
  return days;
}

export interface ReferenceRate {
  /** Euros per one unit of the currency (the document's EuroRate), 10 decimals. */
  euroRate: string;
  /** The ECB's quote, units of the currency per euro. */
  perEuro: string;
  /** The publication day used (the tax day, or the latest publication before it). */
  day: string;
}

export class EcbRateSource {
  private cached: { rates: EcbRates; at: number } | undefined;

  constructor(
    readonly settings: ExchangeRatesSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** The reference rate for `currency` on `taxDay`; undefined when the ECB does not quote it or has no day that early. */
  async rateOn(currency: string, taxDay: string): Promise<ReferenceRate | undefined> {
    const rates = await this.rates();
    const days = [...rates.keys()].filter((day) => day <= taxDay).sort();
    const day = days.at(-1);
    const perEuro = day ? rates.get(day)?.get(currency) : undefined;
    if (!day || !perEuro) return undefined;
    return { euroRate: formatDecimal(divide(parseDecimal(1), parseDecimal(perEuro), 10)), perEuro, day };
  }

  private async rates(): Promise<EcbRates> {
    if (this.cached && this.now() - this.cached.at < this.settings.cacheHours * 3_600_000) return this.cached.rates;
    const response = await fetch(this.settings.url, { signal: AbortSignal.timeout(this.settings.timeoutMs) });
    if (!response.ok) throw new Error(`the ECB rates file answered HTTP ${response.status}`);
    const rates = parseEcbRates(await response.text());
    this.cached = { rates, at: this.now() };
    return rates;
  }
}
