import { abs, Decimal, isZero, parseDecimal, round, sum } from '../client/money';
import type { MappingSettings } from './mapping-settings';
import type { WooOrder } from '../platforms/woocommerce/order-schema';
import { plainText } from './text';

/**
 * A multi-purpose voucher (a gift card) is a means of payment, taxed when the goods are supplied
 * (CIVA art. 7(14)): redeeming one does not lower the taxable amount, only a real discount does
 * (art. 16(6)(b)). Gift-card plugins record a redeemed card as an untaxed negative fee on a taxed
 * order; spread as a discount it would lower the VAT. Such fees are taken out of the invoice, which
 * keeps the full price: issued when the shop named its gift-card fees (`giftCardFeeNames`), held
 * with the reason otherwise (it could also be a discount the shop forgot to tax).
 */
export interface Vouchers {
  sale: WooOrder;
  /** Fees read as gift cards by their name: the invoice is at the full price. */
  named: string[];
  /** Untaxed negative fees of unknown nature: the invoice is at the full price, held. */
  unknown: string[];
  /** What they took off the order total (positive). */
  amount: Decimal;
}

const fold = (text: string): string => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

export function withoutVouchers(order: WooOrder, settings: MappingSettings): Vouchers {
  // WooCommerce taxes a discount fee at the items' rates: untaxed beside taxed items, it is no discount.
  const taxedOrder = order.line_items.some((item) => item.taxes.some((t) => !isZero(parseDecimal(t.total))));
  const untaxed = order.fee_lines.filter(
    (fee) => parseDecimal(fee.total).units < 0n && isZero(parseDecimal(fee.total_tax ?? '0')) && fee.taxes.every((t) => isZero(parseDecimal(t.total))),
  );
  if (!taxedOrder || untaxed.length === 0) return { sale: order, named: [], unknown: [], amount: parseDecimal(0) };
  const isGiftCard = (name: string) => settings.giftCardFeeNames.some((word) => fold(name).includes(fold(word)));
  return {
    sale: { ...order, fee_lines: order.fee_lines.filter((fee) => !untaxed.includes(fee)) },
    named: untaxed.filter((fee) => isGiftCard(fee.name)).map((fee) => plainText(fee.name)),
    unknown: untaxed.filter((fee) => !isGiftCard(fee.name)).map((fee) => plainText(fee.name)),
    amount: round(abs(sum(untaxed.map((fee) => parseDecimal(fee.total)))), 2),
  };
}
