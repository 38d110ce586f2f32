import { money } from '../../messages/money';

describe('money: every amount with its currency, formatted once (Intl)', () => {
  it.each([
    ['pt', '1660.50', 'EUR', '1 660,50 €'],
    ['en', '1660.50', 'EUR', '€1,660.50'],
    ['pt', '20', 'USD', '20,00 US$'],
    ['en', '20.00', 'usd', 'US$20.00'],
    ['en', '12.5', 'GBP', '£12.50'],
    ['pt', '-0.01', 'EUR', '-0,01 €'],
    ['en', '1234567.89', 'EUR', '€1,234,567.89'],
    // A unit price keeps every decimal it has: nothing is rounded on the way to the reader.
    ['pt', '0.1234', 'EUR', '0,1234 €'],
    // Exact beyond a float's 15 digits: the decimal text is formatted, never a number.
    ['en', '90071992547409.93', 'EUR', '€90,071,992,547,409.93'],
  ] as const)('%s %s %s -> %s', (lang, amount, currency, expected) => {
    expect(money(lang, amount, currency)).toBe(expected);
  });

  it('keeps an amount on one line where asked (no-break spaces), plain spaces otherwise', () => {
    expect(money('pt', '1660.50', 'EUR', { oneLine: true })).toBe('1\u00a0660,50\u00a0€');
    expect(money('pt', '1660.50', 'EUR')).not.toMatch(/[\u00a0\u202f]/);
  });

  it('a currency with no symbol is written by its code, and what is not an amount stays as it is', () => {
    expect(money('en', '5', 'XBT')).toMatch(/^XBT\s?5\.00$/);
    expect(money('pt', '5', 'E$')).toBe('5,00 E$');
    expect(money('pt', 'a total', 'EUR')).toBe('a total');
  });
});
