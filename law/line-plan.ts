import { compare, Decimal, divide, formatDecimal, isZero, multiply, parseDecimal, round, subtract } from '../client/money';
import { DocumentLine } from '../client/schemas/line';
import { lineNet } from '../client/totals';

/**
 * A document line before its numbers are fixed: what the line must come to (its net in cents,
 * WooCommerce's line total) and what it was before discounts. `solveLine` turns it into UnitPrice,
 * Quantity and ProductDiscount that make the service's rule (round2(UnitPrice × Quantity ×
 * (1 − ProductDiscount/100))) land exactly on that net.
 */
export interface PlannedLine {
  code: string;
  description: string;
  type: 'P' | 'S';
  unit: string;
  quantity: Decimal;
  /** Net before discounts for the whole line; may carry more than 2 decimals (tax-inclusive prices). */
  listNet: Decimal;
  /** The net the line must come to, in cents. */
  targetNet: Decimal;
  rate: Decimal;
  /** Lines the exact-cent balancing may move by a cent (not the rounding line itself). */
  adjustable: boolean;
  /**
   * A charge that follows the sale it belongs to (shipping, a fee, a refund's amount line): its
   * type S says nothing about goods versus services, so it takes the exemption reason of the
   * order's product lines (CIVA art. 16(5)(b): incidental costs charged, such as transport and packaging, are part of the supply's taxable amount and share its treatment).
   */
  ancillary?: boolean;
  /** The exemption code the accountant gave this product (exemptions.byProduct), if any. */
  exemption?: string;
  /**
   * A service whose place of supply has its own rule (line-type.ts `specialSupply`): electronic
   * (CIVA art. 6-A) or taxed where performed (art. 6(7)).
   */
  special?: SpecialSupply;
  /** The product's name matches `giftCardFeeNames`: the sale of a multi-purpose voucher (art. 7(13)-(14)). */
  voucher?: boolean;
  /** The charge (shipping or a fee, by its description) a line split over the goods' rates came from. */
  charge?: string;
}

export type SpecialSupply = 'electronic' | 'where-performed';

const UNIT_PRICE_PLACES = 10;
const HUNDRED = parseDecimal(100);

function trimmed(d: Decimal): string {
  return formatDecimal(d);
}

function fits(unitPrice: Decimal, quantity: Decimal, discount: Decimal, target: Decimal): boolean {
  return compare(lineNet({ UnitPrice: trimmed(unitPrice), Quantity: trimmed(quantity), ProductDiscount: trimmed(discount), TaxValue: 0 }), target) === 0;
}

/** UnitPrice / Quantity / ProductDiscount whose net under the totals rule is exactly `targetNet`. */
export function solveLine(line: PlannedLine): DocumentLine {
  const target = round(line.targetNet, 2);
  const quantity = line.quantity;
  const zero = parseDecimal(0);
  const list = compare(line.listNet, target) < 0 ? target : line.listNet;
  let unitPrice: Decimal = zero;
  let discount: Decimal = zero;
  let solved = false;
  if (isZero(list)) {
    solved = isZero(target);
  } else {
    unitPrice = divide(list, quantity, UNIT_PRICE_PLACES);
    const gross = multiply(unitPrice, quantity);
    if (fits(unitPrice, quantity, zero, target)) {
      solved = true;
    } else {
      // The coarsest percentage that lands on the net: a 10% coupon shows as 10, not 9.9999.
      for (let places = 0; places <= 8 && !solved; places += 1) {
        const candidate = divide(multiply(subtract(gross, target), HUNDRED), gross, places);
        if (candidate.units >= 0n && compare(candidate, HUNDRED) <= 0 && fits(unitPrice, quantity, candidate, target)) {
          discount = candidate;
          solved = true;
        }
      }
    }
    if (!solved) {
      // No discount expresses it: price the units at the discounted net instead.
      unitPrice = divide(target, quantity, UNIT_PRICE_PLACES);
      discount = zero;
      solved = fits(unitPrice, quantity, zero, target);
    }
  }
  if (!solved) throw new RangeError(`No unit price gives the net ${trimmed(target)} for "${line.description}"`);
  return {
    Code: line.code,
    Description: line.description,
    UnitPrice: trimmed(unitPrice),
    Quantity: trimmed(quantity),
    Unit: line.unit,
    Type: line.type,
    TaxValue: trimmed(line.rate),
    ProductDiscount: trimmed(discount),
  };
}

/**
 * Goods (P) or service (S) for the tax rules: a product line's own type; a charge (shipping, a
 * fee, a refund's amount line) follows the order's products (CIVA art. 16(5)(b)), services only
 * when every product line is a service.
 */
export function supplyNature(line: PlannedLine, lines: readonly PlannedLine[]): 'P' | 'S' {
  if (!line.ancillary) return line.type;
  const products = lines.filter((l) => !l.ancillary);
  return products.length > 0 && products.every((p) => p.type === 'S') ? 'S' : 'P';
}
