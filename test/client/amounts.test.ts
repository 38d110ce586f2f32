import { inspect } from 'node:util';
import { exactTotals, money, parseServiceAmount, toDocumentDetails, writeRequestJson } from '../../client';

describe('decimal-comma amounts are read exactly', () => {
  it.each([
    ['1234,50', '1234.50'],
    ['0,00', '0.00'],
    ['-12,34', '-12.34'],
    ['1.234,56', '1234.56'],
    ['1 234,56', '1234.56'],
    ['0,1', '0.1'],
    ['12.5', '12.5'],
    ['123456789012345678,99', '123456789012345678.99'],
  ])('%s -> %s', (text, expected) => {
    expect(money.formatDecimal(parseServiceAmount(text), 1)).toBe(money.formatDecimal(money.parseDecimal(expected), 1));
  });

  it('0,10 + 0,20 is exactly 0,30 (no float)', () => {
    expect(money.formatDecimalComma(money.add(parseServiceAmount('0,10'), parseServiceAmount('0,20')))).toBe('0,30');
  });

  it('DocumentGetOut amounts come from the text, not the float twin', () => {
    const details = toDocumentDetails({
      DocumentNumber: 'FR FR2026/7',
      TotalAmount: '44,82',
      UnpaidAmount: '44,82',
      PaymentStatus: 'NoPayment',
      Details: { Totals: { Amount: 44.819999999, AmountText: '44,82', TaxText: '7,07', WithoutTaxText: '37,75' } },
    });
    expect(details.documentNumber).toBe('FR FR2026/7');
    expect(money.formatDecimal(details.totalAmount!, 2)).toBe('44.82');
    const totals = exactTotals(details.details.totals);
    expect(money.formatDecimal(totals.Amount!, 2)).toBe('44.82');
    expect(money.formatDecimal(money.add(totals.WithoutTax!, totals.Tax!), 2)).toBe('44.82');
    expect(totals.Discount).toBeUndefined();
  });

  it('a document with no number yet has documentNumber undefined', () => {
    expect(toDocumentDetails({ DocumentNumber: null, DownloadUrl: '' }).documentNumber).toBeUndefined();
  });
});

describe('request decimals are written as JSON number literals verbatim', () => {
  it.each([
    [{ UnitPrice: '12.3456' }, '{"UnitPrice":12.3456}'],
    [{ UnitPrice: '10.10' }, '{"UnitPrice":10.10}'],
    [{ Quantity: '007.5' }, '{"Quantity":7.5}'],
    [{ TaxValue: 23 }, '{"TaxValue":23}'],
    [{ ProductDiscount: '-0.5' }, '{"ProductDiscount":-0.5}'],
    [{ EuroRate: '0.123456789012345678901' }, '{"EuroRate":0.123456789012345678901}'],
    [{ Code: '12.50' }, '{"Code":"12.50"}'],
    [{ Lines: [{ UnitPrice: '1.10', Description: 'a "quoted" mug' }] }, '{"Lines":[{"UnitPrice":1.10,"Description":"a \\"quoted\\" mug"}]}'],
    [{ IsToClose: true, SendTo: undefined, Id: null }, '{"IsToClose":true,"Id":null}'],
  ])('%j -> %s', (value, json) => {
    expect(writeRequestJson(value)).toBe(json);
    expect(() => JSON.parse(json)).not.toThrow();
  });
});

describe('money in results prints and serialises as its decimal text', () => {
  it('a Get Document result JSON-serialises (no BigInt error) with totals as "20.00", and prints 20.00', () => {
    const details = toDocumentDetails({ DocumentNumber: 'FR A/1', TotalAmount: '20,00', UnpaidAmount: '1.234,50' });
    expect(JSON.parse(JSON.stringify(details))).toMatchObject({ totalAmount: '20.00', unpaidAmount: '1234.50' });
    expect(inspect(details.totalAmount)).toBe('20.00');
    expect(inspect({ total: details.totalAmount })).toBe('{ total: 20.00 }');
    expect(String(details.totalAmount)).toBe('20.00');
  });

  it('stays {units, scale} for the arithmetic, exactly', () => {
    const total = money.add(money.parseDecimal('0.1'), money.parseDecimal('0.20'));
    expect(total).toEqual({ units: 30n, scale: 2 });
    expect(JSON.stringify(total)).toBe('"0.30"');
    expect(JSON.stringify(money.round(money.parseDecimal('1.005'), 2))).toBe('"1.01"');
  });
});
