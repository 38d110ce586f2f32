/// <reference lib="es2023.intl" />
import { localeOf, type Lang, type PerLang } from './lang';

/**
 * Amounts as a person reads them, formatted once, with Intl: every amount carries its currency
 * (an order in dollars is never told "€20.00"). Portuguese writes "1 660,50 €" and "20,00 US$",
 * English "€1,660.50" and "US$20.00". Amounts are the library's decimal text ("1660.50"), formatted
 * exactly (Intl.NumberFormat reads the decimal string, never a float; Node 20+), with every decimal
 * given (a unit price of "0.1234" keeps its four).
 */

/** One formatter per language and currency: building one costs far more than using it. */
const formats = new Map<string, Intl.NumberFormat | null>();

/** A currency Intl knows, or null (an unknown code is written after the number: "20,00 XBT"). */
function formatFor(lang: Lang, currency: string): Intl.NumberFormat | null {
  const key = `${lang}:${currency}`;
  if (!formats.has(key)) {
    try {
      // 'always': Portuguese groups four-digit amounts too (1 660,50 €), as Portuguese documents do.
      formats.set(key, new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency, useGrouping: 'always', maximumFractionDigits: 10 }));
    } catch {
      formats.set(key, null);
    }
  }
  return formats.get(key) ?? null;
}

/** The library's decimal text ("1660.50", "-0.01"): what Intl.NumberFormat formats exactly. */
function isDecimal(text: string): text is `${number}` {
  return /^-?\d+(\.\d+)?$/.test(text);
}

/**
 * "1660.50" in EUR as "1 660,50 €" (pt) or "€1,660.50" (en), with plain spaces (the text of a note
 * or an e-mail); `oneLine` keeps Intl's no-break spaces so an amount never splits over two lines
 * (the console). A value that is not an amount is returned as it is.
 */
export function money(lang: Lang, amount: string, currency: string, options: { oneLine?: boolean } = {}): string {
  const text = amount.trim();
  if (!isDecimal(text)) return amount;
  const code = currency.trim().toUpperCase() || 'EUR';
  const format = formatFor(lang, code);
  const formatted = format ? format.format(text) : `${groupedFallback(lang, text)} ${code}`;
  return options.oneLine ? formatted.replace(/[ \u202f]/g, '\u00a0') : formatted.replace(/[\u00a0\u202f]/g, ' ');
}

/** How each language writes a number Intl cannot format as money. */
const SEPARATORS: PerLang<{ group: string; decimal: string }> = { pt: { group: ' ', decimal: ',' }, en: { group: ',', decimal: '.' } };

/** A currency Intl does not know: the number in the language's way, two decimals at least. */
function groupedFallback(lang: Lang, text: string): string {
  const negative = text.startsWith('-');
  const [whole, cents = ''] = text.replace('-', '').split('.');
  const { group, decimal } = SEPARATORS[lang];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${decimal}${cents.padEnd(2, '0')}`;
}
