import { add, compare, Decimal, divide, formatDecimal, fromCents, multiply, parseDecimal, round, shift, toCents } from '../client/money';
import type { PlannedLine } from './line-plan';
import { info, type MappingNote } from './mapping-errors';
import { currencyParam, type MappingMessage } from './mapping-messages';
import type { MappingSettings } from './mapping-settings';
import { isGiftCardName } from './vouchers';

/**
 * Shipping and the fees charged to the buyer (commissions, packaging, insurance, cash on delivery)
 * are part of the goods' taxable amount (CIVA art. 16(5)(b)): they take the goods' rate.
 * WooCommerce taxes shipping by its own shipping tax class, and a fee by the class its plugin gives
 * it, so a 6 % book can ship at 23 %. Never a donation (left out before) nor a voucher sold as a fee
 * (`giftCardFeeNames`: its own rule, charged-treatment.ts).
 * - Goods at one rate, a charge at another: held with the reason (`shippingRate.otherRate: hold`),
 *   or re-rated to the goods' rate keeping what the buyer paid for it (`goods-rate`).
 * - Goods at several rates: left as charged unless the accountant opts in to a proportional split
 *   (`shippingRate.mixedGoods: proportional`): one line of the charge per goods rate, its
 *   gross shared in proportion to the goods' gross at each rate.
 * Returns the reasons to hold; `lines` is changed in place.
 */
export function applyShippingRate(lines: PlannedLine[], shippingCode: string, settings: MappingSettings, notes: MappingNote[], currency?: string): MappingMessage[] {
  const products = lines.filter((line) => !line.ancillary && toCents(line.targetNet) > 0n);
  const shipping = lines.filter((line) => isCharge(line, shippingCode, settings) && toCents(line.targetNet) > 0n);
  if (products.length === 0 || shipping.length === 0) return [];
  const key = (rate: Decimal) => round(rate, 6).units.toString();
  const goodsRates = new Map(products.map((line) => [key(line.rate), line.rate]));
  const grossOf = (line: PlannedLine): bigint => toCents(round(multiply(line.targetNet, add(parseDecimal(1), shift(line.rate, 2))), 2));
  const netOf = (grossCents: bigint, rate: Decimal): Decimal => round(divide(fromCents(grossCents), add(parseDecimal(1), shift(rate, 2)), 6), 2);
  if (goodsRates.size === 1) {
    const [goodsRate] = [...goodsRates.values()];
    const holds: MappingMessage[] = [];
    for (const line of shipping) {
      if (compare(line.rate, goodsRate) === 0) continue;
      if (settings.shippingRate.otherRate === 'hold') {
        const facts = { rate: formatDecimal(line.rate), goodsRate: formatDecimal(goodsRate) };
        holds.push(line.code === shippingCode ? { code: 'shipping-rate-differs', params: { shipping: line.description, ...facts } } : { code: 'fee-rate-differs', params: { fee: line.description, ...facts } });
        continue;
      }
      const gross = grossOf(line);
      const net = netOf(gross, goodsRate);
      const facts = { from: formatDecimal(line.rate), to: formatDecimal(goodsRate), gross: formatDecimal(fromCents(gross), 2), ...currencyParam(currency) };
      notes.push(line.code === shippingCode ? info('shipping-re-rated', { shipping: line.description, ...facts }) : info('fee-re-rated', { fee: line.description, ...facts }));
      line.rate = goodsRate;
      line.targetNet = net;
      line.listNet = net;
    }
    return holds;
  }
  if (settings.shippingRate.mixedGoods !== 'proportional') return [];
  const goodsGross = [...goodsRates.values()].map((rate) => ({ rate, gross: products.filter((l) => key(l.rate) === key(rate)).reduce((s, l) => s + grossOf(l), 0n) }));
  const totalGoods = goodsGross.reduce((s, g) => s + g.gross, 0n);
  for (const line of shipping) {
    const gross = grossOf(line);
    let left = gross;
    const parts = goodsGross.map((g, i) => {
      const share = i === goodsGross.length - 1 ? left : (gross * g.gross) / totalGoods;
      left -= share;
      return { rate: g.rate, gross: share };
    });
    const index = lines.indexOf(line);
    const split: PlannedLine[] = parts
      .filter((p) => p.gross > 0n)
      .map((p) => {
        const net = netOf(p.gross, p.rate);
        return { ...line, charge: line.description, description: `${line.description} (IVA ${formatDecimal(p.rate)}%)`, rate: p.rate, targetNet: net, listNet: net };
      });
    lines.splice(index, 1, ...split);
    notes.push(line.code === shippingCode ? info('shipping-split', { shipping: line.description }) : info('fee-split', { fee: line.description }));
  }
  return [];
}

/**
 * A charge that follows the goods' rate: shipping, or a fee charged to the buyer (`feeLineCode`),
 * never a voucher sold as a fee (`giftCardFeeNames`).
 */
export function isCharge(line: PlannedLine, shippingCode: string, settings: Pick<MappingSettings, 'feeLineCode' | 'giftCardFeeNames'>): boolean {
  if (!line.ancillary) return false;
  // A fee with its own exemption code (exemptions.byFee) keeps its own treatment.
  if (line.exemption) return false;
  if (line.code === shippingCode) return true;
  return line.code === settings.feeLineCode && !isGiftCardName(line.description, settings);
}
