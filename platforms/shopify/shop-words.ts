import { z } from 'zod';
import { catalogue, fixed, words } from '../../messages/catalogue';
import type { Lang } from '../../messages/lang';

/**
 * What a Shopify merchant is told to do in their store, in Shopify's words: the app's scopes when the
 * store refused a request for an order, and the cent an invoice differs from the order's total by (Shopify rounds each line's tax, with no setting to round
 * per rate as the invoice must). Codes per language (messages/catalogue.ts).
 */

export const SHOPIFY_SHOP_WORDS = catalogue({
  // Shopify refused a request for an order (its answer, quoted above, names the scope it requires).
  'shop-refused-fix': words(
    { tenant: z.string() },
    {
      en: (p) => `Check that the app is installed on the store of tenant "${p.tenant}" and has the access scopes Shopify named above (read_orders, write_orders; read_companies for orders of B2B companies) in the Shopify Dev Dashboard`,
      pt: (p) => `Verifique se a app está instalada na loja "${p.tenant}" e tem os âmbitos de acesso que o Shopify indica acima (read_orders, write_orders; read_companies para encomendas de empresas B2B) no Dev Dashboard do Shopify`,
    },
  ),
  'rounding-fix': fixed({
    en: 'Shopify always rounds the tax per line (it has no setting to round per rate): settle the cent with the customer if needed (a credit note for it can be issued in the back-office); your accountant may choose roundingLine, which closes such a gap with a 0% line.',
    pt: 'O Shopify arredonda sempre o imposto linha a linha (não tem uma opção para arredondar por taxa): se necessário, acerte o cêntimo com o cliente (pode emitir uma nota de crédito no back-office); o seu contabilista pode escolher o roundingLine, que fecha essa diferença com uma linha a 0 %.',
  }),
});

export const shopifyShopRefusedFix = (lang: Lang, tenant: string): string => SHOPIFY_SHOP_WORDS.say(lang, 'shop-refused-fix', { tenant });
export const shopifyRoundingFix = (lang: Lang): string => SHOPIFY_SHOP_WORDS.say(lang, 'rounding-fix');
