import { add, compare, type Decimal, formatDecimal, negate, parseDecimal, round, toCents } from '../client/money';
import type { InvoiceDocument } from '../client/schemas/document';
import { computeTotals } from '../client/totals';
import type { MappingMessage } from './mapping-messages';
import { exemptionRegime, type MappingSettings } from './mapping-settings';

/**
 * The art. 53 small-business regime's limits (CIVA art. 53 as amended by DL 35/2025, from
 * 2025-07-01): a shop may enter it with a national turnover of up to EUR 15,000 the year before;
 * it leaves it at once when its turnover in the year passes EUR 18,750, and the invoice that
 * crosses that limit already carries VAT; exporters (and sellers of goods to businesses in other
 * member states) are excluded. The connector counts the year's M10 documents from its ledger
 * (`exemptions.regimeTurnover`); the rule is here, pure.
 */
export const REGIME_53 = {
  /** From this day the DL 35/2025 limits apply. */
  from: '2025-07-01',
  /** National turnover of the year before, at most (entry). */
  entry: '15000',
  /** Turnover in the year that makes the shop leave the regime at once (the crossing invoice carries VAT). */
  exit: '18750',
} as const;

/**
 * The settings for a sale on `day`: the shop-wide regime only up to `exemptions.regimeUntil` (the
 * last day the shop was in it); from the next day its sales carry VAT like any other.
 */
export function regimeOn(settings: MappingSettings, day: string): MappingSettings {
  const until = settings.exemptions.regimeUntil;
  if (until === undefined || day <= until || exemptionRegime(settings) === undefined) return settings;
  const { regime: _ended, ...exemptions } = settings.exemptions;
  return { ...settings, exemptionCode: undefined, exemptions };
}

export type RegimeLimit =
  | { state: 'unknown' }
  | { state: 'below'; after: Decimal }
  | { state: 'near'; after: Decimal }
  | { state: 'crosses'; after: Decimal };

/**
 * Where an M10 invoice of `amountEur`, dated `date`, leaves the year's turnover: unknown when the
 * year's M10 total is not known (a library caller that does not count), near from `regimeWarnFrom`,
 * crossing past EUR 18,750 (DL 35/2025; before 2025-07-01 the former rule had no in-year exit).
 */
export function regimeLimit(settings: MappingSettings, date: string, amountEur: Decimal): RegimeLimit {
  const turnover = settings.exemptions.regimeTurnover;
  if (!turnover || date < REGIME_53.from || turnover.year !== Number(date.slice(0, 4))) return { state: 'unknown' };
  const after = round(add(parseDecimal(turnover.total), amountEur), 2);
  if (compare(after, parseDecimal(REGIME_53.exit)) > 0) return { state: 'crosses', after };
  if (compare(after, parseDecimal(settings.exemptions.regimeWarnFrom)) >= 0) return { state: 'near', after };
  return { state: 'below', after };
}

/** The hold (crossing) or warning (near) of an M10 invoice, coded; undefined when neither. */
export function regimeLimitMessage(settings: MappingSettings, date: string, amountEur: Decimal): { hold: boolean; message: MappingMessage } | undefined {
  const limit = regimeLimit(settings, date, amountEur);
  if (limit.state !== 'near' && limit.state !== 'crosses') return undefined;
  const turnover = settings.exemptions.regimeTurnover;
  const params = {
    year: turnover?.year ?? 0,
    total: turnover?.total ?? '0.00',
    amount: formatDecimal(round(amountEur, 2), 2),
    after: formatDecimal(limit.after, 2),
    limit: REGIME_53.exit,
  };
  return limit.state === 'crosses' ? { hold: true, message: { code: 'regime-limit-crossed', params } } : { hold: false, message: { code: 'regime-limit-near', params } };
}

/**
 * What an issued document adds to the year's M10 turnover (the connector counts it): its total in
 * euro cents, negative for a credit note, in the year of its date; undefined when it is no M10 document.
 */
export function regimeTurnoverOf(document: Pick<InvoiceDocument, 'Type' | 'Date' | 'Lines' | 'TaxExemptionReasonCode' | 'Currency' | 'EuroRate'>): { year: number; euroCents: bigint } | undefined {
  if (document.TaxExemptionReasonCode !== 'M10') return undefined;
  const totals = computeTotals(document.Lines, { currency: document.Currency, euroRate: document.EuroRate });
  const euros = document.Currency && document.Currency !== 'EUR' ? totals.totalWithExchangeRate : totals.amount;
  const signed = document.Type === 'C' ? negate(euros) : euros;
  return { year: Number(document.Date.slice(0, 4)), euroCents: toCents(signed) };
}
