import { SHOPIFY_WORDS } from './shopify-catalogue';

/**
 * The names of lines Shopify keeps outside its line items, as the adapter puts them on a sale:
 * documents are written in European Portuguese (./shopify-catalogue.ts holds both languages).
 */
export type ShopifyWord = 'duties' | 'tip' | 'adjustment';

export function shopifyWord(word: ShopifyWord): string {
  return SHOPIFY_WORDS.say('pt', `line-${word}`);
}
