import { add, Decimal, parseDecimal, round, sum } from '../client/money';
import { isDonation } from './exemption-rules';
import type { MappingSettings } from './mapping-settings';
import { lineTax, type Sale } from './sale';
import { productIdsOf } from './line-type';
import { plainText } from './text';

/**
 * A donation collected with an order (a "round up for charity" fee, a donation product) is no
 * consideration for a supply (CIVA art. 1(1)(a), 4(1)): it is never a line of the invoice, under
 * any exemption code. The order is mapped without it (its total less the donation) and held so a
 * person confirms: the shop records the donation apart.
 */
export interface Donations {
  /** The sale without its donation lines. */
  sale: Sale;
  names: string[];
  /** What the buyer paid as donations (net + tax). */
  gross: Decimal;
}

export function withoutDonations(sale: Sale, settings: MappingSettings): Donations {
  const items = sale.lines.filter((line) => line.kind === 'product' && (line.nature === 'donation' || isDonation(line.name, productIdsOf(line), settings)));
  const fees = sale.lines.filter((line) => line.kind === 'fee' && parseDecimal(line.total).units > 0n && (line.nature === 'donation' || isDonation(line.name, [], settings)));
  if (items.length === 0 && fees.length === 0) return { sale, names: [], gross: parseDecimal(0) };
  const gross = round(sum([...items, ...fees].map((line) => add(parseDecimal(line.total), lineTax(line)))), 2);
  return {
    sale: { ...sale, lines: sale.lines.filter((line) => !items.includes(line) && !fees.includes(line)) },
    names: [...items.map((item) => plainText(item.name)), ...fees.map((fee) => plainText(fee.name))],
    gross,
  };
}
