import { abs, compare, Decimal, divide, formatDecimal, isZero, multiply, parseDecimal, round, subtract, sum } from '../client/money';
import { info, MappingNote, mappingError, warning } from './mapping-errors';
import { WooLineTax, WooOrder } from '../platforms/woocommerce/order-schema';
import { KNOWN_PERCENTS } from './vat-rates';

export interface ResolvedRate {
  percent: Decimal;
  label: string;
}

interface Sample {
  base: Decimal;
  tax: Decimal;
}

/**
 * Tax rate percent per WooCommerce rate id. `tax_lines[].rate_percent` when present (WooCommerce
 * 3.7+); otherwise derived from the line taxes (unrounded tax over net) and snapped to the coarsest
 * rate that explains every sample within the rounding of the 2-decimal nets.
 */
export function resolveTaxRates(order: WooOrder, notes: MappingNote[]): Map<number, ResolvedRate> {
  const samples = new Map<number, Sample[]>();
  const addSample = (taxes: readonly WooLineTax[], base: string, useSubtotal: boolean) => {
    for (const tax of taxes) {
      const amount = useSubtotal && tax.subtotal !== undefined ? tax.subtotal : tax.total;
      const list = samples.get(tax.id) ?? [];
      list.push({ base: parseDecimal(base), tax: parseDecimal(amount) });
      samples.set(tax.id, list);
    }
  };
  for (const item of order.line_items) {
    const useSubtotal = !isZero(parseDecimal(item.subtotal));
    addSample(item.taxes, useSubtotal ? item.subtotal : item.total, useSubtotal);
  }
  for (const line of order.shipping_lines) addSample(line.taxes, line.total, false);
  for (const line of order.fee_lines) addSample(line.taxes, line.total, false);

  const rates = new Map<number, ResolvedRate>();
  for (const line of order.tax_lines) {
    if (line.compound) {
      throw mappingError(order.id, 'compound-tax', { tax: line.label || line.rate_code });
    }
    if (line.rate_percent !== undefined) {
      rates.set(line.rate_id, { percent: parseDecimal(line.rate_percent), label: line.label || line.rate_code });
    }
  }
  for (const [rateId, list] of samples) {
    if (rates.has(rateId)) continue;
    const tax = order.tax_lines.find((t) => t.rate_id === rateId)?.label ?? '';
    const percent = derivePercent(list);
    if (!percent) throw mappingError(order.id, 'tax-percent-unknown', { tax, rateId });
    notes.push(info('tax-percent-derived', { tax, rateId, percent: percent.text }));
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
  orderId: number,
  description: string,
  taxes: readonly WooLineTax[],
  net: Decimal,
  rates: Map<number, ResolvedRate>,
  notes: MappingNote[],
): Decimal {
  let total: Decimal = parseDecimal('0');
  for (const tax of taxes) {
    const rate = rates.get(tax.id);
    if (!rate) throw mappingError(orderId, 'line-tax-rate-unlisted', { line: description, rateId: tax.id });
    if (isZero(rate.percent)) continue;
    if (isZero(parseDecimal(tax.total)) && !isZero(round(divide(multiply(abs(net), rate.percent), parseDecimal(100), 8), 2))) {
      notes.push(warning('line-tax-missing', { line: description, tax: rate.label }));
      continue;
    }
    total = sum([total, rate.percent]);
  }
  const taxed = taxes.filter((t) => {
    const rate = rates.get(t.id);
    return rate !== undefined && !isZero(rate.percent);
  });
  if (taxed.length > 1 && !isZero(total)) {
    notes.push(info('line-several-rates', { line: description, percent: formatDecimal(total) }));
  }
  return total;
}
