import {
  abs,
  add,
  compare,
  Decimal,
  divide,
  formatDecimal,
  fromCents,
  isZero,
  multiply,
  parseDecimal,
  round,
  shift,
  subtract,
  sum,
  toCents,
} from '../client/money';
import { PlannedLine } from './line-plan';
import { withoutDonations } from './donations';
import { configuredExemption, configuredFeeExemption } from './exemption-rules';
import { itemType, lineProductId, specialSupply, type ProductRef } from './line-type';
import { isVoucherSale, withoutVouchersSold } from './vouchers';
import { info, MappingNote, mappingError } from './mapping-errors';
import { currencyParam } from './mapping-messages';
import { MappingSettings } from './mapping-settings';
import { feeLinesOf, lineTax, productLinesOf, saleRef, shippingLinesOf, type Sale, type SaleAttribute, type SaleLine, type SaleLineTax } from './sale';
import { lineRate, type SaleRates } from './tax-rates';
import { clipText, plainText } from './text';
import { applyShippingRate } from './shipping-rate';

/**
 * Sale -> planned document lines. The shop has already spread coupons over the line totals (line
 * subtotal = before coupons, total = after), so a line's ProductDiscount is just the gap between
 * the two; shipping and positive fees are service lines; negative fees are spread over the
 * products as extra discount (a document never gets a negative line).
 */

const ONE = parseDecimal(1);
const HUNDRED = parseDecimal(100);

function visibleAttributes(attributes: readonly SaleAttribute[], name: string): string[] {
  const parts: string[] = [];
  for (const entry of attributes) {
    if (entry.key.startsWith('_')) continue;
    const rawValue = entry.shownValue ?? entry.value;
    if (typeof rawValue !== 'string' && typeof rawValue !== 'number') continue;
    const value = plainText(String(rawValue));
    if (!value || name.toLowerCase().includes(value.toLowerCase())) continue;
    const rawKey = entry.label ?? entry.key.replace(/^pa_/, '');
    parts.push(`${plainText(rawKey)}: ${value}`);
  }
  return parts;
}

export function itemDescription(item: Pick<SaleLine, 'name' | 'attributes' | 'id'>): string {
  const name = plainText(item.name) || `Artigo ${item.id}`;
  const attributes = visibleAttributes(item.attributes, name);
  const text = attributes.length > 0 ? `${name} (${attributes.join(', ')})` : name;
  return clipText(text, 200);
}

export function itemCode(item: ProductRef & Pick<SaleLine, 'id'>): string {
  const sku = item.sku.trim();
  if (sku) return clipText(sku, 60);
  const id = lineProductId(item);
  return id !== '' ? id : `ITEM-${item.id}`;
}

/**
 * The unrounded net before coupons of a tax-inclusive line: the shop priced it with tax
 * (subtotal + unrounded tax, a whole number of cents), WooCommerce took the tax out unrounded.
 */
function unroundedListNet(item: SaleLine): Decimal | undefined {
  if (item.taxes.length === 0) return undefined;
  const tax = sum(item.taxes.map((t) => parseDecimal(t.beforeDiscounts ?? t.amount)));
  if (isZero(tax)) return undefined;
  const subtotal = parseDecimal(item.subtotal);
  const gross = round(add(subtotal, tax), 2);
  const net = subtract(gross, tax);
  return compare(round(net, 2), round(subtotal, 2)) === 0 ? net : undefined;
}

export interface PlannedOrderLines {
  lines: PlannedLine[];
  notes: MappingNote[];
}

export function productLines(sale: Sale, rates: SaleRates, settings: MappingSettings, notes: MappingNote[]): PlannedLine[] {
  const lines: PlannedLine[] = [];
  const orderId = saleRef(sale);
  for (const item of productLinesOf(sale)) {
    const description = itemDescription(item);
    const total = round(parseDecimal(item.total), 2);
    if (item.quantity <= 0) {
      if (isZero(total)) {
        notes.push(info('line-quantity-zero', { line: description, quantity: item.quantity }));
        continue;
      }
      throw mappingError(orderId, 'line-quantity-with-total', { line: description, quantity: item.quantity, total: formatDecimal(total, 2), ...currencyParam(sale.currency) });
    }
    if (total.units < 0n) throw mappingError(orderId, 'line-negative-total', { line: description, total: formatDecimal(total, 2), ...currencyParam(sale.currency) });
    const rate = lineRate(orderId, description, item.taxes, total, rates, notes);
    if (isZero(total) && isZero(rate)) {
      // A free sample or gift is no supply (CIVA art. 3(7)): it needs no exemption code and does not block the order.
      notes.push(info('free-sample', { line: description }));
      continue;
    }
    const subtotal = parseDecimal(item.subtotal);
    let listNet = subtotal;
    if (sale.pricesIncludeTax && settings.taxInclusiveUnitPrice === 'unrounded') {
      listNet = unroundedListNet(item) ?? subtotal;
    }
    const type = itemType(sale, item, settings);
    const special = specialSupply(item, type, settings);
    lines.push({
      code: itemCode(item),
      description,
      type,
      ...(special ? { special } : {}),
      ...(isVoucherSale(item, settings) ? { voucher: true } : {}),
      unit: settings.unit,
      quantity: parseDecimal(item.quantity),
      listNet,
      targetNet: total,
      rate,
      adjustable: true,
      exemption: configuredExemption(item, settings),
    });
  }
  return lines;
}

export function shippingLines(sale: Sale, rates: SaleRates, settings: MappingSettings, notes: MappingNote[]): PlannedLine[] {
  const lines: PlannedLine[] = [];
  for (const shipping of shippingLinesOf(sale)) {
    const total = round(parseDecimal(shipping.total), 2);
    const description = shippingDescription(shipping.name);
    if (total.units < 0n) throw mappingError(saleRef(sale), 'shipping-negative', { shipping: description });
    if (isZero(total) && !settings.includeFreeShipping) {
      notes.push(info('free-shipping', { shipping: description }));
      continue;
    }
    lines.push(amountLine(saleRef(sale), settings.shippingLineCode, description, shipping.taxes, total, { rates, settings, notes }));
  }
  return lines;
}

export function shippingDescription(methodTitle: string | undefined): string {
  return clipText(plainText(methodTitle ?? '') || 'Portes de envio', 200);
}

export function feeDescription(fee: Pick<SaleLine, 'name'>): string {
  return clipText(plainText(fee.name) || 'Taxa', 200);
}

/** A shipping or fee charge as one service line of quantity 1 whose net is the charge. */
export function amountLine(
  orderId: number | string,
  code: string,
  description: string,
  taxes: readonly SaleLineTax[],
  total: Decimal,
  context: { rates: SaleRates; settings: MappingSettings; notes: MappingNote[] },
): PlannedLine {
  return {
    code,
    description,
    type: 'S',
    unit: context.settings.unit,
    quantity: ONE,
    listNet: total,
    targetNet: total,
    rate: lineRate(orderId, description, taxes, total, context.rates, context.notes),
    adjustable: true,
    ancillary: true,
  };
}

export function positiveFeeLines(sale: Sale, rates: SaleRates, settings: MappingSettings, notes: MappingNote[]): PlannedLine[] {
  const lines: PlannedLine[] = [];
  for (const fee of feeLinesOf(sale)) {
    const total = round(parseDecimal(fee.total), 2);
    if (total.units <= 0n) continue;
    const line = amountLine(saleRef(sale), settings.feeLineCode, feeDescription(fee), fee.taxes, total, { rates, settings, notes });
    // A fee with its own code (exemptions.byFee: a returnable packaging deposit, M01) keeps it.
    const exemption = configuredFeeExemption(fee.name, settings);
    if (exemption) line.exemption = exemption;
    // A multi-purpose voucher sold as a fee: its own rule, like one sold as a product (art. 7(13)-(14)).
    if (isVoucherSale(fee, settings)) line.voucher = true;
    lines.push(line);
  }
  return lines;
}

/**
 * Negative fees (a "discount" added as a fee) become extra discount on the products, never a
 * negative line. The shop splits such a fee across the sale's rates itself (its `taxes` per rate
 * id on the fee line, as WooCommerce does): that split is followed, so the document's VAT per rate equals the shop's
 * (issue 21.6): per rate, the fee's net there (its tax there / the rate) plus that tax is shared
 * among the product lines of that rate in proportion to their gross, largest remainder first; an
 * untaxed fee, or what its taxes do not explain, is shared among all product lines. The balancing
 * step then absorbs the last cent of rounding.
 */
export function spreadNegativeFees(sale: Sale, productLines: PlannedLine[], notes: MappingNote[], rates?: SaleRates): void {
  const negative = feeLinesOf(sale).filter((fee) => parseDecimal(fee.total).units < 0n);
  spreadFeesAsDiscount(saleRef(sale), negative, productLines, notes, rates, sale.currency);
}

/** What the discount spreading reads of a fee (a sale's or a refund's). */
export type DiscountFee = Pick<SaleLine, 'name' | 'total' | 'totalTax' | 'taxes'>;

/** Shares `cents` of gross among `lines` in proportion to their gross (largest remainder), taking each share off the line's net. */
function shareGross(cents: bigint, lines: readonly PlannedLine[]): void {
  if (cents <= 0n || lines.length === 0) return;
  const grossOf = (line: PlannedLine): Decimal => multiply(line.targetNet, add(ONE, shift(line.rate, 2)));
  const grosses = lines.map((line) => round(grossOf(line), 6));
  const totalGross = sum(grosses);
  const amount = fromCents(cents);
  const exact = grosses.map((g) => divide(multiply(amount, g), totalGross, 8));
  const shares = exact.map((e) => (e.units * 100n) / 10n ** BigInt(e.scale));
  let left = cents - shares.reduce((a, b) => a + b, 0n);
  const byRemainder = exact
    .map((e, i) => ({ i, rest: e.units * 100n - shares[i] * 10n ** BigInt(e.scale) }))
    .sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  for (const { i } of byRemainder) {
    if (left <= 0n) break;
    shares[i] += 1n;
    left -= 1n;
  }
  lines.forEach((line, i) => {
    const netShare = round(divide(fromCents(shares[i]), add(ONE, shift(line.rate, 2)), 6), 2);
    line.targetNet = subtract(round(line.targetNet, 2), netShare);
    if (line.targetNet.units < 0n) line.targetNet = fromCents(0n);
  });
}

/**
 * Spreads `fees` (discount fees, whatever their sign: an order's negative fee, or its reversal in
 * a refund, which WooCommerce writes positive) over the product lines as extra discount, following
 * WooCommerce's split of each fee across rates when `rates` is given.
 */
export function spreadFeesAsDiscount(
  orderId: number | string,
  negative: readonly DiscountFee[],
  productLines: PlannedLine[],
  notes: MappingNote[],
  rates?: SaleRates,
  /** The order's currency, for the amounts in the messages. */
  currency?: string,
): void {
  if (negative.length === 0) return;
  const feeGross = abs(sum(negative.map((fee) => add(parseDecimal(fee.total), lineTax(fee)))));
  const products = productLines.filter((line) => toCents(line.targetNet) > 0n);
  const totalGross = sum(products.map((line) => round(multiply(line.targetNet, add(ONE, shift(line.rate, 2))), 6)));
  if (products.length === 0 || compare(feeGross, totalGross) > 0) {
    throw mappingError(orderId, 'negative-fees-exceed', { fees: formatDecimal(feeGross, 2), products: formatDecimal(round(totalGross, 2), 2), ...currencyParam(currency) });
  }
  // WooCommerce's own split: per rate, the fee's tax there and the net it implies (tax / rate).
  const perRate = new Map<string, { rate: Decimal; net: Decimal; tax: Decimal }>();
  if (rates) {
    for (const fee of negative) {
      for (const tax of fee.taxes) {
        const rate = rates.get(tax.rateId)?.percent;
        const amount = abs(parseDecimal(tax.amount));
        if (!rate || isZero(rate) || isZero(amount)) continue;
        const key = round(rate, 6).units.toString();
        const entry = perRate.get(key) ?? { rate, net: parseDecimal(0), tax: parseDecimal(0) };
        entry.net = add(entry.net, divide(multiply(amount, HUNDRED), rate, 8));
        entry.tax = add(entry.tax, amount);
        perRate.set(key, entry);
      }
    }
  }
  const feeNet = abs(sum(negative.map((fee) => parseDecimal(fee.total))));
  const impliedNet = sum([...perRate.values()].map((e) => e.net));
  // A refund's taxes come rounded to cents, and tax / rate magnifies that at low rates: when the
  // taxes explain the whole fee, the nets are scaled to the fee's exact net (their proportions kept).
  const whole = !isZero(impliedNet) && compare(abs(subtract(impliedNet, feeNet)), divide(feeNet, parseDecimal(50), 8)) <= 0;
  // Taxes that do not explain the fee (a partly untaxed fee, rounded refund taxes): the whole fee
  // is shared over all products in proportion to their gross, as before.
  const groups = (whole ? [...perRate.values()] : [])
    .map((e) => {
      const net = whole ? divide(multiply(feeNet, e.net), impliedNet, 8) : e.net;
      return { rate: e.rate, cents: toCents(round(add(net, e.tax), 2)), lines: products.filter((line) => compare(round(line.rate, 6), round(e.rate, 6)) === 0) };
    })
    .filter((g) => g.lines.length > 0 && g.cents > 0n);
  const feeCents = toCents(feeGross);
  let rest = feeCents - groups.reduce((total, g) => total + g.cents, 0n);
  if (whole && groups.length > 0 && rest !== 0n && (rest < 0n ? -rest : rest) <= BigInt(2 * groups.length)) {
    // The last cents of rounding go to the largest share.
    const largest = groups.reduce((a, b) => (b.cents > a.cents ? b : a));
    largest.cents += rest;
    rest = 0n;
  }
  for (const group of groups) shareGross(group.cents, group.lines);
  // What WooCommerce's taxes do not explain (an untaxed fee): over all products.
  shareGross(rest, products);
  const spreadCents = groups.reduce((total, g) => total + g.cents, 0n);
  const names = negative.map((fee) => `"${feeDescription(fee)}"`).join(', ');
  notes.push(info('negative-fee-spread', { names, amount: formatDecimal(feeGross, 2), split: spreadCents > 0n ? 1 : 0, ...currencyParam(currency) }));
}

/** The shop's own tax per rate (what it charged at each, all lines), keyed like the balancing's rate groups. */
export function shopTaxByRate(sale: Sale, rates: SaleRates): Map<string, Decimal> {
  const byRate = new Map<string, Decimal>();
  for (const line of sale.taxRates) {
    const rate = rates.get(line.id);
    if (!rate || line.tax === undefined) continue;
    const key = round(rate.percent, 6).units.toString();
    const amount = parseDecimal(line.tax);
    byRate.set(key, add(byRate.get(key) ?? parseDecimal(0), amount));
  }
  return byRate;
}

export interface RateGross {
  rate: Decimal;
  gross: Decimal;
  /** The nature of the products at this rate (shipping and fees follow them): 'S' only when all are services. */
  type: 'P' | 'S';
  /** The per-product exemption code the products at this rate share, if they share one. */
  exemption?: string;
}

/** Gross (net + tax at the line's rate) per rate of planned lines, with what was sold at it, for refunds without items. */
export function grossByRate(lines: readonly PlannedLine[]): RateGross[] {
  const map = new Map<string, { rate: Decimal; gross: Decimal; products: PlannedLine[] }>();
  for (const line of lines) {
    const key = round(line.rate, 6).units.toString();
    const entry = map.get(key) ?? { rate: line.rate, gross: parseDecimal(0), products: [] };
    entry.gross = add(entry.gross, multiply(line.targetNet, add(ONE, divide(line.rate, HUNDRED, 8))));
    if (!line.ancillary) entry.products.push(line);
    map.set(key, entry);
  }
  const all = lines.filter((line) => !line.ancillary);
  return [...map.values()].map((entry) => {
    // A rate that carries only shipping or fees follows the order's products.
    const products = entry.products.length > 0 ? entry.products : all;
    const type = products.length > 0 && products.every((p) => p.type === 'S') ? 'S' : 'P';
    const codes = [...new Set(products.map((p) => p.exemption))];
    return { rate: entry.rate, gross: entry.gross, type, ...(codes.length === 1 && codes[0] ? { exemption: codes[0] } : {}) };
  });
}

/**
 * The lines of the sale's invoice as the mapping plans them (donations left out), before balancing,
 * shipping at the rates the invoice gives it (`shippingRate`: re-rated to the goods' rate or split):
 * what a credit note corrects (CIVA art. 29(7), 78(2)).
 */
export function invoicedLines(sale: Sale, rates: SaleRates, settings: MappingSettings): PlannedLine[] {
  const scratch: MappingNote[] = [];
  // What the invoice carried: no donations, no multi-purpose vouchers sold (no supply).
  const kept = withoutVouchersSold(withoutDonations(sale, settings).sale, settings).sale;
  const lines = productLines(kept, rates, settings, scratch);
  spreadNegativeFees(kept, lines, scratch, rates);
  const planned = [...lines, ...shippingLines(kept, rates, settings, scratch), ...positiveFeeLines(kept, rates, settings, scratch)];
  applyShippingRate(planned, settings.shippingLineCode, settings, scratch, sale.currency);
  return planned;
}

/**
 * A refunded shipping or fee line at the rates its invoice carried (CIVA art. 29(7): a credit note
 * corrects that invoice): the refunded gross shared over the invoice's lines of that charge (all its
 * shipping; the fee of the same name, split or not) in proportion to their gross. Unchanged when the
 * invoice kept the shop's rate, or has no such charge.
 */
export function asInvoiced(refunded: PlannedLine, invoiced: readonly PlannedLine[], shippingCode: string): PlannedLine[] {
  const sameCharge = (line: PlannedLine): boolean =>
    line.code === refunded.code && (refunded.code === shippingCode || (line.charge ?? line.description) === refunded.description);
  const charged = invoiced.filter((line) => line.ancillary && sameCharge(line) && toCents(line.targetNet) > 0n);
  if (charged.length === 0 || charged.every((line) => compare(line.rate, refunded.rate) === 0)) return [refunded];
  const grossOf = (line: PlannedLine): bigint => toCents(round(multiply(line.targetNet, add(ONE, shift(line.rate, 2))), 2));
  const gross = grossOf(refunded);
  const totalInvoiced = charged.reduce((sum, line) => sum + grossOf(line), 0n);
  let left = gross;
  return charged
    .map((line, i) => {
      const share = i === charged.length - 1 ? left : (gross * grossOf(line)) / totalInvoiced;
      left -= share;
      const net = round(divide(fromCents(share), add(ONE, shift(line.rate, 2)), 6), 2);
      return { ...refunded, description: charged.length > 1 ? line.description : refunded.description, rate: line.rate, targetNet: net, listNet: net };
    })
    .filter((line) => toCents(line.targetNet) > 0n);
}
