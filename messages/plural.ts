import { localeOf, type Lang } from './lang';

/** A count's words in each plural category the languages use (Portuguese and English: one, other). */
export interface CountWords {
  one: string;
  other: string;
}

const rules = new Map<Lang, Intl.PluralRules>();

/** "1 encomenda vista", "2 encomendas vistas": the count with its words, chosen by Intl's plural rules. */
export function countOf(lang: Lang, count: number, words: CountWords): string {
  let rule = rules.get(lang);
  if (!rule) {
    rule = new Intl.PluralRules(localeOf(lang));
    rules.set(lang, rule);
  }
  return `${count} ${rule.select(count) === 'one' ? words.one : words.other}`;
}
