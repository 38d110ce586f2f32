import { abs, compare, Decimal, formatDecimal, isZero, parseDecimal, round, subtract, sum } from '../client/money';
import { configuredExemption, configuredFeeExemption } from './exemption-rules';
import type { MappingSettings } from './mapping-settings';
import { feeLinesOf, lineTax, productLinesOf, type Sale, type SaleLine, type SaleRefund } from './sale';
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
  sale: Sale;
  /** Fees read as gift cards by their name: the invoice is at the full price. */
  named: string[];
  /** Untaxed negative fees of unknown nature: the invoice is at the full price, held. */
  unknown: string[];
  /** What they took off the order total (positive). */
  amount: Decimal;
}

const fold = (text: string): string => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** A name the shop gave its multi-purpose vouchers (`giftCardFeeNames`, any case, accents ignored). */
export function isGiftCardName(name: string, settings: Pick<MappingSettings, 'giftCardFeeNames'>): boolean {
  return settings.giftCardFeeNames.some((word) => fold(name).includes(fold(word)));
}

export function withoutVouchers(sale: Sale, settings: MappingSettings): Vouchers {
  // A shop taxes a discount fee at the items' rates: untaxed beside taxed items, it is no discount.
  const taxedSale = productLinesOf(sale).some((item) => item.taxes.some((t) => !isZero(parseDecimal(t.amount))));
  const untaxed = feeLinesOf(sale).filter(
    (fee) => parseDecimal(fee.total).units < 0n && isZero(lineTax(fee)) && fee.taxes.every((t) => isZero(parseDecimal(t.amount))),
  );
  if (!taxedSale || untaxed.length === 0) return { sale, named: [], unknown: [], amount: parseDecimal(0) };
  const isGiftCard = (name: string) => isGiftCardName(name, settings);
  return {
    sale: { ...sale, lines: sale.lines.filter((line) => !untaxed.includes(line)) },
    named: untaxed.filter((fee) => isGiftCard(fee.name)).map((fee) => plainText(fee.name)),
    unknown: untaxed.filter((fee) => !isGiftCard(fee.name)).map((fee) => plainText(fee.name)),
    amount: round(abs(sum(untaxed.map((fee) => parseDecimal(fee.total)))), 2),
  };
}

/**
 * Multi-purpose vouchers sold on the sale without VAT: a product or a charged fee the platform tells
 * is a voucher (a Shopify gift card), or named in `giftCardFeeNames`. Their transfer is no supply
 * (CIVA art. 7(13)-(14), as amended in 2019): the VAT is due when a voucher is redeemed, and the
 * invoice of that sale carries it at the full price (`withoutVouchers`). The invoice of this sale
 * covers its supplies and leaves them out (`giftCardSales: left-out`), as it leaves out a donation.
 * A voucher sold with VAT stays on the sale: the law holds it (`voucher-sale-taxed`).
 */
export interface VouchersSold {
  /** The sale without them. */
  sale: Sale;
  names: string[];
  /** What the buyer paid for them. */
  gross: Decimal;
}

/** A line that sells a voucher: the platform says so, or the shop named it in `giftCardFeeNames`. */
export function isVoucherSale(line: SaleLine, settings: Pick<MappingSettings, 'giftCardFeeNames'>): boolean {
  if (line.kind === 'shipping') return false;
  if (line.kind === 'fee' && parseDecimal(line.total).units <= 0n) return false;
  return line.nature === 'voucher' || isGiftCardName(line.name, settings);
}

export function withoutVouchersSold(sale: Sale, settings: MappingSettings): VouchersSold {
  // A voucher the accountant gave a code of its own (exemptions.byProduct / byFee, such as M99) stays on the invoice with it.
  const coded = (line: SaleLine): boolean => (line.kind === 'fee' ? configuredFeeExemption(line.name, settings) : configuredExemption(line, settings)) !== undefined;
  const sold = sale.lines.filter((line) => isVoucherSale(line, settings) && !coded(line) && isZero(lineTax(line)) && line.taxes.every((t) => isZero(parseDecimal(t.amount))));
  if (sold.length === 0) return { sale, names: [], gross: parseDecimal(0) };
  return {
    sale: { ...sale, lines: sale.lines.filter((line) => !sold.includes(line)) },
    names: sold.map((line) => plainText(line.name)),
    gross: round(sum(sold.map((line) => parseDecimal(line.total))), 2),
  };
}

/** What a refund gives back for gift cards sold, and the rest of it, which a credit note corrects. */
export interface VouchersRefunded {
  names: string[];
  /** The money given back for them (positive). */
  gross: Decimal;
  /** The refund without those lines and their money; undefined when it gives back nothing else. */
  rest?: SaleRefund;
}

/**
 * A refund of a gift card sold: its sale was no supply and was left out of the invoice (CIVA art.
 * 7(13)-(14), `withoutVouchersSold`), so giving the money back corrects nothing on it, and a credit
 * note never credits what was not invoiced (art. 29(7), 78(2)). Those refund lines, and the money
 * they gave back, are taken out; the rest is credited as any refund.
 */
export function vouchersRefunded(sale: Sale, refund: SaleRefund, settings: MappingSettings): VouchersRefunded {
  const invoiced = new Set(withoutVouchersSold(sale, settings).sale.lines);
  const leftOut = new Set(sale.lines.filter((line) => !invoiced.has(line)).map((line) => line.id));
  const given = refund.lines.filter((line) => line.saleLineId !== undefined && leftOut.has(line.saleLineId));
  if (given.length === 0) return { names: [], gross: parseDecimal(0), rest: refund };
  const gross = round(sum(given.map((line) => parseDecimal(line.total))), 2);
  const lines = refund.lines.filter((line) => !given.includes(line));
  const amount = subtract(round(abs(parseDecimal(refund.amount)), 2), gross);
  const nothingElse = lines.length === 0 && refund.withoutLines === undefined && compare(amount, parseDecimal(0)) <= 0;
  return { names: given.map((line) => plainText(line.name)), gross, ...(nothingElse ? {} : { rest: { ...refund, lines, amount: formatDecimal(amount, 2) } }) };
}
