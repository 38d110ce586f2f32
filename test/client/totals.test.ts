import { computeTotals, lineNet } from '../../client/totals';
import { formatDecimal, formatDecimalComma, parseDecimal, round, divide } from '../../client/money';

const text = (d: Parameters<typeof formatDecimal>[0]) => formatDecimal(d, 2);

describe('money: exact decimals, half away from zero', () => {
  it.each([
    ['1.005', 2, '1.01'],
    ['-1.005', 2, '-1.01'],
    ['2.675', 2, '2.68'],
    ['0.125', 2, '0.13'],
    ['0.1249999', 2, '0.12'],
    ['12,345', 2, '12.35'],
  ])('round(%s, %i) = %s', (value, places, expected) => {
    expect(formatDecimal(round(parseDecimal(value), places), places)).toBe(expected);
  });

  it('parses numbers through their shortest text, not their binary value', () => {
    expect(formatDecimal(parseDecimal(0.1))).toBe('0.1');
    expect(formatDecimal(parseDecimal(1e-7))).toBe('0.0000001');
    expect(formatDecimal(parseDecimal(1.015))).toBe('1.015');
  });

  it('divides exactly with rounding', () => {
    expect(text(divide(parseDecimal('10'), parseDecimal('3'), 2))).toBe('3.33');
    expect(text(divide(parseDecimal('-2'), parseDecimal('3'), 2))).toBe('-0.67');
  });

  it('writes decimal-comma text', () => {
    expect(formatDecimalComma(parseDecimal('1234.5'))).toBe('1234,50');
  });

  it.each(['', '1.2.3', 'abc', '1e5', ' - 3'])('rejects %p', (value) => {
    expect(() => parseDecimal(value)).toThrow(RangeError);
  });
});

describe('totals rule', () => {
  it('rounds each line net to cents', () => {
    expect(text(lineNet({ UnitPrice: '8.130081', Quantity: 3, ProductDiscount: 0, TaxValue: 23 }))).toBe('24.39');
    expect(text(lineNet({ UnitPrice: '10', Quantity: 3, ProductDiscount: '12.5', TaxValue: 23 }))).toBe('26.25');
  });

  it.each([
    ['1.005', '1', '0.000', '1.01'],
    ['0.3333', '3', '0', '1.00'],
    ['2.675', '1', 0, '2.68'],
    ['7', '2', '0.00', '14.00'],
  ])('a line of %s × %s with discount %p nets %s, rounded half away from zero', (UnitPrice, Quantity, ProductDiscount, net) => {
    const line = { UnitPrice, Quantity, ProductDiscount, TaxValue: 23 };
    expect(text(lineNet(line))).toBe(net);
    expect({ units: lineNet(line).units, scale: lineNet(line).scale }).toEqual({ units: BigInt(net.replace('.', '')), scale: 2 });
  });

  it('taxes once per rate on the summed nets, not per line', () => {
    // Per line 0.02 × 23% = 0.0046 would round to 0.00 three times; per rate 0.06 × 23% = 0.0138 -> 0.01.
    const lines = [0, 1, 2].map(() => ({ UnitPrice: '0.02', Quantity: 1, ProductDiscount: 0, TaxValue: 23 }));
    const totals = computeTotals(lines);
    expect(text(totals.tax)).toBe('0.01');
    expect(text(totals.amount)).toBe('0.07');
  });

  it('keeps rates apart and sums them', () => {
    const totals = computeTotals([
      { UnitPrice: '10.00', Quantity: 2, ProductDiscount: 0, TaxValue: 23 },
      { UnitPrice: '3.99', Quantity: 1, ProductDiscount: 0, TaxValue: 6 },
      { UnitPrice: '5.00', Quantity: 1, ProductDiscount: 0, TaxValue: 0 },
    ]);
    expect(totals.byRate.map((r) => [formatDecimal(r.rate), text(r.base), text(r.tax)])).toEqual([
      ['23', '20.00', '4.60'],
      ['6', '3.99', '0.24'],
      ['0', '5.00', '0.00'],
    ]);
    expect(text(totals.withoutTax)).toBe('28.99');
    expect(text(totals.amount)).toBe('33.83');
  });

  it('reports discount, retention and the exchange-rate total', () => {
    const totals = computeTotals([{ UnitPrice: '100', Quantity: 1, ProductDiscount: 10, TaxValue: 23 }], {
      retention: 25,
      currency: 'USD',
      euroRate: '1.0850',
    });
    expect(text(totals.amountBeforeDiscountAndTax)).toBe('100.00');
    expect(text(totals.discountAmount)).toBe('10.00');
    expect(text(totals.discountPercent)).toBe('10.00');
    expect(text(totals.amount)).toBe('110.70');
    expect(text(totals.retentionAmount)).toBe('27.68');
    expect(text(totals.totalWithExchangeRate)).toBe('120.11');
  });

  it('gives no exchange-rate total in euros', () => {
    const totals = computeTotals([{ UnitPrice: 1, Quantity: 1, ProductDiscount: 0, TaxValue: 23 }], {
      currency: 'EUR',
      euroRate: 1,
    });
    expect(text(totals.totalWithExchangeRate)).toBe('0.00');
  });
});
