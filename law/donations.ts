import { add, Decimal, isZero, parseDecimal, round, sum } from '../client/money';
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
  /** What the buyer paid as donations and tips (net + tax). */
  gross: Decimal;
  /** Untaxed fees named like a tip (`exemptions.tipWords`): left out like donations, told apart. */
  tips: string[];
}

const fold = (text: string): string => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** A fee named with one of `exemptions.tipWords`, as a whole word ("Gorjeta", "Tip"; not "Tipo"). */
export function isTip(name: string, settings: MappingSettings): boolean {
  const words = fold(name).split(/[^\p{L}\p{N}]+/u);
  return settings.exemptions.tipWords.some((tip) => words.includes(fold(tip)));
}

export function withoutDonations(sale: Sale, settings: MappingSettings): Donations {
  const items = sale.lines.filter((line) => line.kind === 'product' && (line.nature === 'donation' || isDonation(line.name, productIdsOf(line), settings)));
  const fees = sale.lines.filter((line) => line.kind === 'fee' && parseDecimal(line.total).units > 0n && (line.nature === 'donation' || isDonation(line.name, [], settings)));
  // A voluntary tip (an untaxed fee named like one) is no consideration for the supply: left out like a donation.
  const tips = sale.lines.filter((line) => line.kind === 'fee' && !fees.includes(line) && parseDecimal(line.total).units > 0n && isZero(lineTax(line)) && isTip(line.name, settings));
  if (items.length === 0 && fees.length === 0 && tips.length === 0) return { sale, names: [], gross: parseDecimal(0), tips: [] };
  const gross = round(sum([...items, ...fees, ...tips].map((line) => add(parseDecimal(line.total), lineTax(line)))), 2);
  return {
    sale: { ...sale, lines: sale.lines.filter((line) => !items.includes(line) && !fees.includes(line) && !tips.includes(line)) },
    names: [...items.map((item) => plainText(item.name)), ...fees.map((fee) => plainText(fee.name))],
    gross,
    tips: tips.map((tip) => plainText(tip.name)),
  };
}
