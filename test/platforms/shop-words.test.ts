import { parseConfig } from '../../connector/config/load-config';
import { problemWords, type Problem } from '../../connector/pipeline/problems';
import { PLATFORMS } from '../../platforms/registry';
import { rawTestConfig } from '../connector/support/harness';

/**
 * The words that send a person into the shop's own admin come from the tenant's platform (issue 25.3,
 * issue 27): the 0.01 rounding fix of `total-differs` and the sweep's refused listing. A WooCommerce
 * tenant reads word for word what the connector wrote before (the literals below are those texts), a
 * Shopify tenant reads Shopify's.
 */

const ref = { tenant: 'loja', orderId: 1001, purpose: 'invoice' as const };
const differs = (shop?: string): Problem => ({ code: 'total-differs', number: 'FR 1/7', total: '10.00', difference: '0.01', currency: 'EUR', ...(shop ? { shop } : {}) });

const BEFORE = {
  woocommerce: {
    en: 'Turn on WooCommerce > Settings > Tax > "Round tax at subtotal level, instead of rounding per line" so new orders agree to the cent; settle the cent with the customer if needed (a credit note for it can be issued in the back-office).',
    pt: 'Ative WooCommerce > Definições > Impostos > "Arredondar o imposto ao nível do subtotal, em vez de arredondar por linha", para que as novas encomendas batam certo ao cêntimo; se necessário, acerte o cêntimo com o cliente (pode emitir uma nota de crédito no back-office).',
  },
  shopify: {
    en: 'Shopify always rounds the tax per line (it has no setting to round per rate): settle the cent with the customer if needed (a credit note for it can be issued in the back-office); your accountant may choose roundingLine, which closes such a gap with a 0% line.',
    pt: 'O Shopify arredonda sempre o imposto linha a linha (não tem uma opção para arredondar por taxa): se necessário, acerte o cêntimo com o cliente (pode emitir uma nota de crédito no back-office); o seu contabilista pode escolher o roundingLine, que fecha essa diferença com uma linha a 0 %.',
  },
};

describe('the 0.01 rounding fix is the platform\'s (total-differs)', () => {
  it.each(['en', 'pt'] as const)('%s: a WooCommerce problem (no platform recorded, as every one before) reads as before', (lang) => {
    expect(problemWords(lang, differs(), ref).action).toBe(BEFORE.woocommerce[lang]);
    expect(PLATFORMS.woocommerce.roundingFix(lang)).toBe(BEFORE.woocommerce[lang]);
  });

  it.each(['en', 'pt'] as const)("%s: a Shopify problem reads Shopify's words", (lang) => {
    expect(problemWords(lang, differs('Shopify'), ref).action).toBe(BEFORE.shopify[lang]);
    expect(problemWords(lang, differs('Shopify'), ref).action).not.toMatch(/WooCommerce/);
  });

  it.each(['en', 'pt'] as const)('%s: a platform this version does not know gets what holds on any shop, no screen', (lang) => {
    const action = problemWords(lang, differs('Magento'), ref).action;
    expect(action).toContain('roundingLine');
    expect(action).not.toMatch(/WooCommerce|Shopify|>/);
  });
});

describe("the sweep's refused listing says the platform's credentials", () => {
  const raw = rawTestConfig({ prefix: 'words', wooOrigin: 'http://shop.test', consumerKey: 'ck', consumerSecret: 'cs', baseUrl: 'http://mf.test' });
  const woo = parseConfig(raw, 'tenants.yaml', {}).tenants[0];

  it('WooCommerce: its REST key, as the sweep wrote it before', () => {
    expect(PLATFORMS.woocommerce.listingRefusedFix('en', woo)).toBe(`Check the shop URL and the REST API key of tenant "${woo.id}"`);
    expect(PLATFORMS.woocommerce.listingRefusedFix('pt', woo)).toBe(`Verifique o endereço da loja e a chave da API REST da loja "${woo.id}"`);
  });

  it("Shopify: the store's token, as its console banner says it", () => {
    const tenant = { ...woo, platform: 'shopify' as const, shopify: { shopDomain: 'loja.myshopify.com', accessToken: 'shpat_x' } } as unknown as typeof woo;
    for (const lang of ['en', 'pt'] as const) {
      expect(PLATFORMS.shopify.listingRefusedFix(lang, tenant)).toBe(PLATFORMS.shopify.refusedWords?.(lang, tenant));
      expect(PLATFORMS.shopify.listingRefusedFix(lang, tenant)).not.toMatch(/REST|WooCommerce/);
    }
  });
});

describe("the shop refused an order's request: what to check is the platform's (shop-refused)", () => {
  // How each language says to press «Try again»: read off a problem this change does not touch (credentials).
  const pressed = (lang: 'en' | 'pt'): string => {
    const action = problemWords(lang, { code: 'credentials' }, ref).action;
    return action.slice(action.lastIndexOf(lang === 'en' ? ', then ' : ' e depois ') + (lang === 'en' ? ', then ' : ' e depois ').length, -1);
  };
  const refused = (shop?: string): Problem => ({ code: 'shop-refused', ...(shop ? { shop } : {}) });

  it('WooCommerce (no platform recorded): its REST key, word for word as before', () => {
    expect(problemWords('en', refused(), ref).action).toBe(`Check the shop URL and that the REST API key of tenant "loja" has read/write access, then ${pressed('en')}.`);
    expect(problemWords('pt', refused(), ref).action).toBe(`Verifique o endereço da loja e se a chave da API REST da loja "loja" tem acesso de leitura e escrita; depois ${pressed('pt')}.`);
  });

  it("Shopify: the app's scopes in the Dev Dashboard, word for word as before", () => {
    expect(problemWords('en', refused('Shopify'), ref).action).toBe(
      `Check that the app is installed on the store of tenant "loja" and has the access scopes Shopify named above (read_orders, write_orders; read_companies for orders of B2B companies) in the Shopify Dev Dashboard, then ${pressed('en')}.`,
    );
    expect(problemWords('pt', refused('Shopify'), ref).action).toBe(
      `Verifique se a app está instalada na loja "loja" e tem os âmbitos de acesso que o Shopify indica acima (read_orders, write_orders; read_companies para encomendas de empresas B2B) no Dev Dashboard do Shopify; depois ${pressed('pt')}.`,
    );
  });

  it('a platform this version does not know: no REST key, no Dev Dashboard', () => {
    for (const lang of ['en', 'pt'] as const) expect(problemWords(lang, refused('Magento'), ref).action).not.toMatch(/REST|Dev Dashboard|WooCommerce|Shopify/);
  });
});
