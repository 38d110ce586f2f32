import { add, Decimal, parseDecimal, round, sum } from '../client/money';
import { isDonation } from './exemption-rules';
import type { MappingSettings } from './mapping-settings';
import type { WooOrder } from '../platforms/woocommerce/order-schema';
import { plainText } from './text';

/**
 * A donation collected with an order (a "round up for charity" fee, a donation product) is no
 * consideration for a supply (CIVA art. 1(1)(a), 4(1)): it is never a line of the invoice, under
 * any exemption code. The order is mapped without it (its total less the donation) and held so a
 * person confirms: the shop records the donation apart.
 */
export interface Donations {
  /** The order without its donation lines. */
  sale: WooOrder;
  names: string[];
  /** What the buyer paid as donations (net + tax). */
  gross: Decimal;
}

export function withoutDonations(order: WooOrder, settings: MappingSettings): Donations {
  const items = order.line_items.filter((item) => isDonation(item.name, [item.product_id, item.variation_id], settings));
  const fees = order.fee_lines.filter((fee) => parseDecimal(fee.total).units > 0n && isDonation(fee.name, [], settings));
  if (items.length === 0 && fees.length === 0) return { sale: order, names: [], gross: parseDecimal(0) };
  const gross = round(sum([...items, ...fees].map((line) => add(parseDecimal(line.total), parseDecimal(line.total_tax ?? '0')))), 2);
  return {
    sale: { ...order, line_items: order.line_items.filter((item) => !items.includes(item)), fee_lines: order.fee_lines.filter((fee) => !fees.includes(fee)) },
    names: [...items.map((item) => plainText(item.name)), ...fees.map((fee) => plainText(fee.name))],
    gross,
  };
}
