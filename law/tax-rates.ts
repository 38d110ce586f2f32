import { abs, compare, Decimal, divide, formatDecimal, isZero, multiply, parseDecimal, round, subtract, sum } from '../client/money';
import { info, MappingNote, mappingError, warning } from './mapping-errors';
import { platformId, saleRef, type Sale, type SaleLineTax } from './sale';
import { KNOWN_PERCENTS } from './vat-rates';

export interface ResolvedRate {
  percent: Decimal;
  label: string;
}

interface Sample {
  base: Decimal;
  tax: Decimal;
}

/** The shop's rates by their id (`SaleLineTax.rateId`), each with its percent. */
export type SaleRates = Map<string, ResolvedRate>;

/**
 * Tax rate percent per shop rate id. The rate's `percent` when the platform gives it (WooCommerce
 * 3.7+'s `rate_percent`); otherwise derived from the line taxes (unrounded tax over net) and snapped
 * to the coarsest rate that explains every sample within the rounding of the 2-decimal nets.
 */
export function resolveTaxRates(sale: Sale, notes: MappingNote[]): SaleRates {
  const samples = new Map<string, Sample[]>();
  const addSample = (taxes: readonly SaleLineTax[], base: string, useSubtotal: boolean) => {
    for (const tax of taxes) {
      const amount = useSubtotal && tax.beforeDiscounts !== undefined ? tax.beforeDiscounts : tax.amount;
      const list = samples.get(tax.rateId) ?? [];
      list.push({ base: parseDecimal(base), tax: parseDecimal(amount) });
      samples.set(tax.rateId, list);
    }
  };
  for (const kind of ['product', 'shipping', 'fee'] as const) {
    for (const line of sale.lines) {
      if (line.kind !== kind) continue;
      const useSubtotal = kind === 'product' && !isZero(parseDecimal(line.subtotal));
      addSample(line.taxes, useSubtotal ? line.subtotal : line.total, useSubtotal);
    }
  }

  const rates: SaleRates = new Map();
  for (const line of sale.taxRates) {
    if (line.compound) {
      throw mappingError(saleRef(sale), 'compound-tax', { tax: line.label || line.code });
    }
    if (line.percent !== undefined) {
      rates.set(line.id, { percent: parseDecimal(line.percent), label: line.label || line.code });
    }
  }
  for (const [rateId, list] of samples) {
    if (rates.has(rateId)) continue;
    const tax = sale.taxRates.find((t) => t.id === rateId)?.label ?? '';
    const percent = derivePercent(list);
    if (!percent) throw mappingError(saleRef(sale), 'tax-percent-unknown', { tax, rateId: platformId(rateId) });
    notes.push(info('tax-percent-derived', { tax, rateId: platformId(rateId), percent: percent.text }));
    rates.set(rateId, { percent: percent.value, label: tax || `rate ${rateId}` });
  }
  // Whether each rate may be sent (in force in Portugal, for the region, on the day) is decided per
  // line with the line's nature: supply-place.ts.
  return rates;
}

function derivePercent(list: readonly Sample[]): { value: Decimal; text: string } | undefined {
  const usable = list.filter((s) => !isZero(s.base));
  if (usable.length === 0) return undefined;
  const base = sum(usable.map((s) => abs(s.base)));
  const tax = sum(usable.map((s) => abs(s.tax)));
  const estimate = divide(multiply(tax, parseDecimal(100)), base, 8);
  // Each net is rounded to cents by WooCommerce (tax-inclusive prices), so the estimate may be off
  // by up to estimate × 0.005 × count / base; the 1e-6 keeps exact (tax-exclusive) data exact.
  const tolerance = divide(multiply(multiply(estimate, parseDecimal('0.005')), parseDecimal(usable.length)), base, 8);
  const slack = { units: tolerance.units + 100n, scale: tolerance.scale };
  const candidates = [...KNOWN_PERCENTS, round(estimate, 0), round(estimate, 1), round(estimate, 2), round(estimate, 4)];
  const chosen = candidates.find((c) => compare(abs(subtract(c, estimate)), slack) <= 0) ?? round(estimate, 4);
  return { value: chosen, text: formatDecimal(chosen) };
}

/**
 * The rate of one order line: the sum of the rates (from the order's tax lines, by rate id) of its
 * taxes, never read off the rounded amounts: a 0.01 line at 23% carries a tax of 0.00 and is still
 * a 23% line. Only a listed rate whose tax is zero although it should be at least a cent
 * (round2(net × rate) >= 0.01) means WooCommerce exempted the line (a VAT-exempt customer): 0%.
 */
export function lineRate(
  orderId: number | string,
  description: string,
  taxes: readonly SaleLineTax[],
  net: Decimal,
  rates: SaleRates,
  notes: MappingNote[],
): Decimal {
  let total: Decimal = parseDecimal('0');
  for (const tax of taxes) {
    const rate = rates.get(tax.rateId);
    if (!rate) throw mappingError(orderId, 'line-tax-rate-unlisted', { line: description, rateId: platformId(tax.rateId) });
    if (isZero(rate.percent)) continue;
    if (isZero(parseDecimal(tax.amount)) && !isZero(round(divide(multiply(abs(net), rate.percent), parseDecimal(100), 8), 2))) {
      notes.push(warning('line-tax-missing', { line: description, tax: rate.label }));
      continue;
    }
    total = sum([total, rate.percent]);
  }
  const taxed = taxes.filter((t) => {
    const rate = rates.get(t.rateId);
    return rate !== undefined && !isZero(rate.percent);
  });
  if (taxed.length > 1 && !isZero(total)) {
    notes.push(info('line-several-rates', { line: description, percent: formatDecimal(total) }));
  }
  return total;
}
