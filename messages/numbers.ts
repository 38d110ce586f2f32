import { localeOf, type Lang, type PerLang } from './lang';

/** How each language writes a percentage after its number: "23 %" in Portuguese, "23%" in English. */
const PERCENT_SIGN: PerLang = { pt: ' %', en: '%' };

function decimalSeparator(lang: Lang): string {
  return new Intl.NumberFormat(localeOf(lang)).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
}

/** A decimal written as the library writes it ("1.5") in the reader's way ("1,5"), digit for digit (no float). */
export function decimalWords(lang: Lang, text: string): string {
  return text.replace('.', decimalSeparator(lang));
}

/** A rate as the library writes it ("23.00", "6") as a percentage in the reader's way: "23 %", "6%". */
export function percentWords(lang: Lang, rate: string): string {
  const trimmed = rate.replace(/\.0+$/, '').replace(/(\.\d*?)0+$/, '$1');
  return `${decimalWords(lang, trimmed)}${PERCENT_SIGN[lang]}`;
}
