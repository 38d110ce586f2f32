import { catalogue, fixed } from '../../messages/catalogue';
import type { Lang } from '../../messages/lang';

/**
 * What a Shopify merchant is told about their store's own figures, in Shopify's words: the cent an
 * invoice differs from the order's total by (Shopify rounds each line's tax, with no setting to round
 * per rate as the invoice must). Codes per language (messages/catalogue.ts).
 */

export const SHOPIFY_SHOP_WORDS = catalogue({
  'rounding-fix': fixed({
    en: 'Shopify always rounds the tax per line (it has no setting to round per rate): settle the cent with the customer if needed (a credit note for it can be issued in the back-office); your accountant may choose roundingLine, which closes such a gap with a 0% line.',
    pt: 'O Shopify arredonda sempre o imposto linha a linha (não tem uma opção para arredondar por taxa): se necessário, acerte o cêntimo com o cliente (pode emitir uma nota de crédito no back-office); o seu contabilista pode escolher o roundingLine, que fecha essa diferença com uma linha a 0 %.',
  }),
});

export const shopifyRoundingFix = (lang: Lang): string => SHOPIFY_SHOP_WORDS.say(lang, 'rounding-fix');
