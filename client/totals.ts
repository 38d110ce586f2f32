import {
  add,
  Decimal,
  divide,
  isZero,
  multiply,
  parseDecimal,
  round,
  shift,
  subtract,
  sum,
} from './money';

/**
 * The document totals rule (the sandbox computes it; the order mapping must reproduce each shop
 * total with it to the cent). Written out in the README under "How totals are computed".
 *
 * 1. Line gross    = UnitPrice × Quantity, exact.
 * 2. Line discount = gross × ProductDiscount / 100, exact.
 * 3. Line net      = gross − discount, rounded half away from zero to cents.
 * 4. Per tax rate:   tax = (sum of the nets of the lines with that rate) × rate / 100,
 *                    rounded half away from zero to cents, once per rate (not per line).
 * 5. WithoutTax = sum of line nets; Tax = sum of the per-rate taxes; Amount = WithoutTax + Tax.
 * 6. AmountBeforeDiscountAndTax = sum of line gross rounded to cents; the discount amount is
 *    that minus WithoutTax, and Discount (a percentage, as the spec says) is it over the gross.
 * 7. Retention (a percentage of Amount) is reported as RetentionAmount; Amount is not reduced.
 * 8. TotalAmountWithExchangeRate = Amount × EuroRate rounded to cents when Currency is not EUR.
 */
export interface TotalsLine {
  UnitPrice: string | number;
  Quantity: string | number;
  ProductDiscount: string | number;
  TaxValue: string | number;
}

export interface TaxBreakdown {
  rate: Decimal;
  base: Decimal;
  tax: Decimal;
}

export interface DocumentTotals {
  lineNets: Decimal[];
  byRate: TaxBreakdown[];
  withoutTax: Decimal;
  tax: Decimal;
  amount: Decimal;
  amountBeforeDiscountAndTax: Decimal;
  discountAmount: Decimal;
  discountPercent: Decimal;
  retentionPercent: Decimal;
  retentionAmount: Decimal;
  totalWithExchangeRate: Decimal;
}

const ZERO: Decimal = { units: 0n, scale: 2 };

export function lineNet(line: TotalsLine): Decimal {
  return netOf(lineGross(line), line);
}

function lineGross(line: TotalsLine): Decimal {
  return multiply(parseDecimal(line.UnitPrice), parseDecimal(line.Quantity));
}

function netOf(gross: Decimal, line: TotalsLine): Decimal {
  const percent = parseDecimal(line.ProductDiscount);
  if (percent.units === 0n) return round(gross, 2);
  const discount = shift(multiply(gross, percent), 2);
  return round(subtract(gross, discount), 2);
}

const HUNDRED = parseDecimal(100);

export function computeTotals(
  lines: readonly TotalsLine[],
  options: { retention?: string | number; currency?: string; euroRate?: string | number } = {},
): DocumentTotals {
  // Each line's gross is read once, for its net (rule 3) and for AmountBeforeDiscountAndTax (rule 6).
  const grosses = lines.map(lineGross);
  const lineNets = lines.map((line, i) => netOf(grosses[i], line));
  const rates = new Map<string, TaxBreakdown>();
  lines.forEach((line, i) => {
    const rate = parseDecimal(line.TaxValue);
    const key = round(rate, 6).units.toString();
    const entry = rates.get(key) ?? { rate, base: ZERO, tax: ZERO };
    entry.base = add(entry.base, lineNets[i]);
    rates.set(key, entry);
  });
  const byRate = [...rates.values()].map((r) => ({ ...r, tax: round(shift(multiply(r.base, r.rate), 2), 2) }));
  const withoutTax = round(sum(lineNets), 2);
  const tax = round(sum(byRate.map((r) => r.tax)), 2);
  const amount = add(withoutTax, tax);
  const amountBeforeDiscountAndTax = round(sum(grosses), 2);
  const discountAmount = subtract(amountBeforeDiscountAndTax, withoutTax);
  const discountPercent = isZero(amountBeforeDiscountAndTax)
    ? ZERO
    : divide(shift(multiply(discountAmount, HUNDRED), 0), amountBeforeDiscountAndTax, 2);
  const retentionPercent = parseDecimal(options.retention ?? 0);
  const retentionAmount = round(shift(multiply(amount, retentionPercent), 2), 2);
  const foreign = options.currency !== undefined && options.currency.toUpperCase() !== 'EUR';
  const totalWithExchangeRate =
    foreign && options.euroRate !== undefined ? round(multiply(amount, parseDecimal(options.euroRate)), 2) : ZERO;
  return {
    lineNets,
    byRate,
    withoutTax,
    tax,
    amount,
    amountBeforeDiscountAndTax,
    discountAmount,
    discountPercent,
    retentionPercent,
    retentionAmount,
    totalWithExchangeRate,
  };
}
