/**
 * The few words the Shopify adapter itself puts on a document or a sale: names of lines Shopify
 * keeps outside its line items. Documents are written in European Portuguese; English for the
 * library's readers.
 */
export type ShopifyWordLang = 'pt' | 'en';

const WORDS = {
  duties: { pt: 'Direitos aduaneiros', en: 'Duties' },
  tip: { pt: 'Gorjeta', en: 'Tip' },
  adjustment: { pt: 'Acerto do reembolso', en: 'Refund adjustment' },
} as const;

export type ShopifyWord = keyof typeof WORDS;

export function shopifyWord(word: ShopifyWord, lang: ShopifyWordLang = 'pt'): string {
  return WORDS[word][lang];
}
