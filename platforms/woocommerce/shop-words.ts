import { z } from 'zod';
import { catalogue, fixed, words } from '../../messages/catalogue';
import type { Lang } from '../../messages/lang';

/**
 * What a WooCommerce shop owner (or the operator) is told to do in WooCommerce itself, when the
 * connector's words reach the shop: the shop refused the sweep's listing or an order's request (its
 * REST key), and the cent
 * an invoice differs from the shop's total by (WooCommerce's tax rounding setting). Codes per language
 * (messages/catalogue.ts); the connector asks the platform (platforms/shop-platform.ts).
 */

export const WOO_SHOP_WORDS = catalogue({
  'listing-refused-fix': words(
    { tenant: z.string() },
    { en: (p) => `Check the shop URL and the REST API key of tenant "${p.tenant}"`, pt: (p) => `Verifique o endereço da loja e a chave da API REST da loja "${p.tenant}"` },
  ),
  'shop-refused-fix': words(
    { tenant: z.string() },
    {
      en: (p) => `Check the shop URL and that the REST API key of tenant "${p.tenant}" has read/write access`,
      pt: (p) => `Verifique o endereço da loja e se a chave da API REST da loja "${p.tenant}" tem acesso de leitura e escrita`,
    },
  ),
  'rounding-fix': fixed({
    en: 'Turn on WooCommerce > Settings > Tax > "Round tax at subtotal level, instead of rounding per line" so new orders agree to the cent; settle the cent with the customer if needed (a credit note for it can be issued in the back-office).',
    pt: 'Ative WooCommerce > Definições > Impostos > "Arredondar o imposto ao nível do subtotal, em vez de arredondar por linha", para que as novas encomendas batam certo ao cêntimo; se necessário, acerte o cêntimo com o cliente (pode emitir uma nota de crédito no back-office).',
  }),
});

export const wooListingRefusedFix = (lang: Lang, tenant: { id: string }): string => WOO_SHOP_WORDS.say(lang, 'listing-refused-fix', { tenant: tenant.id });
export const wooShopRefusedFix = (lang: Lang, tenant: string): string => WOO_SHOP_WORDS.say(lang, 'shop-refused-fix', { tenant });
export const wooRoundingFix = (lang: Lang): string => WOO_SHOP_WORDS.say(lang, 'rounding-fix');
