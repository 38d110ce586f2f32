import { z } from 'zod';
import type { TenantConfig } from '../../connector/config/load-config';
import type { ShopifyTenantConfig } from '../../connector/config/shopify-tenant';
import { both, fail, ok, warn, type Check, type Words } from '../../connector/doctor/check';
import { ShopifyApiError, type ShopifyAdminClient } from './admin-client';
import { describeNifSource } from './buyer-nif';
import { SHOPIFY_STATUSES } from './order-summary';
import { listSubscriptions, missingTopics, shopifyDeliveryUrl } from './webhook-subscriptions';

/**
 * The doctor's checks of a Shopify tenant: the token (read), its scopes (read_orders,
 * write_orders: orders, their notes and their app metafields), the webhook subscriptions at this
 * connector, taxes included or not, the store's currency against the currency policy, where the NIF
 * comes from, and that the trigger statuses are Shopify's.
 */

export const REQUIRED_SCOPES = ['read_orders', 'write_orders'] as const;
/** Either lets the app read a B2B order's company and its location's tax registration (the `company` NIF source). */
export const COMPANY_SCOPES = ['read_companies', 'read_customers'] as const;

const APP_PAGE = { en: 'the Shopify Dev Dashboard > your app > Versions (access scopes)', pt: 'o Dev Dashboard do Shopify > a sua app > Versões (âmbitos de acesso)' };

const FactsSchema = z.object({
  shop: z.object({ name: z.string(), currencyCode: z.string(), taxesIncluded: z.boolean(), ianaTimezone: z.string(), plan: z.object({ shopifyPlus: z.boolean() }) }),
  currentAppInstallation: z.object({ accessScopes: z.array(z.object({ handle: z.string() })) }),
});
const FACTS = '{ shop { name currencyCode taxesIncluded ianaTimezone plan { shopifyPlus } } currentAppInstallation { accessScopes { handle } } }';

/** Why the Admin API refused or did not answer, and what to do. */
export function adminCallProblem(error: unknown, store: ShopifyTenantConfig): { detail: Words; fix: Words } {
  const kind = error instanceof ShopifyApiError ? error.kind : 'unexpected';
  const message = (error as Error).message;
  if (kind === 'authentication') {
    return {
      detail: { en: `the store refused the access token: ${message}`, pt: `a loja recusou o token de acesso (${message})` },
      fix: store.accessToken === undefined
        ? {
            en: `Install the app on ${store.shopDomain} through this connector: open its install link (<publicUrl>/shopify/install/<tenant>) logged in to the store (an uninstall revokes the token).`,
            pt: `Instale a app em ${store.shopDomain} através deste conector: abra a ligação de instalação (<publicUrl>/shopify/install/<loja>) com sessão iniciada na loja (desinstalar revoga o token).`,
          }
        : {
            en: `Install the app on ${store.shopDomain} again (an uninstall revokes the token) and put its offline Admin API token in shopify.accessToken.`,
            pt: `Volte a instalar a app em ${store.shopDomain} (desinstalar revoga o token) e ponha o token offline da Admin API em shopify.accessToken.`,
          },
    };
  }
  if (kind === 'connection' || kind === 'timeout') {
    return {
      detail: { en: `no answer from ${store.adminUrl}: ${message}`, pt: `${store.adminUrl} não respondeu («${message}»)` },
      fix: { en: 'Check shopify.shopDomain and that this machine reaches the internet.', pt: 'Verifique shopify.shopDomain e se esta máquina chega à internet.' },
    };
  }
  return {
    detail: { en: message, pt: `a Admin API do Shopify respondeu com um erro («${message}»)` },
    fix: { en: 'Run the doctor again; if it persists, report it with this message.', pt: 'Volte a correr o doctor; se continuar, comunique-o com esta mensagem.' },
  };
}

export async function shopifyDoctorChecks(client: ShopifyAdminClient, tenant: TenantConfig, publicUrl: string): Promise<{ readable: boolean; checks: Check[] }> {
  const store = tenant.shopify as ShopifyTenantConfig;
  let facts: z.output<typeof FactsSchema>;
  try {
    facts = await client.query(FACTS, {}, FactsSchema);
  } catch (error) {
    const problem = adminCallProblem(error, store);
    return { readable: false, checks: [fail('shop', { en: 'Admin API token', pt: 'Token da Admin API' }, problem.detail, problem.fix)] };
  }
  const checks: Check[] = [ok('shop', { en: 'Admin API token', pt: 'Token da Admin API' }, both((w) => `accepted by ${w(facts.shop.name)}`, (w) => `aceite por ${w(facts.shop.name)}`))];

  const granted = facts.currentAppInstallation.accessScopes.map((s) => s.handle);
  // write_orders implies read_orders in Shopify's scopes.
  const missing = REQUIRED_SCOPES.filter((scope) => !granted.includes(scope) && !(scope === 'read_orders' && granted.includes('write_orders')));
  checks.push(
    missing.length === 0
      ? ok('shop', { en: 'Access scopes', pt: 'Âmbitos de acesso' }, granted.join(', '))
      : fail(
          'shop',
          { en: 'Access scopes', pt: 'Âmbitos de acesso' },
          { en: `missing ${missing.join(', ')} (granted: ${granted.join(', ') || 'none'})`, pt: `faltam ${missing.join(', ')} (concedidos: ${granted.join(', ') || 'nenhum'})` },
          {
            en: `Add ${missing.join(', ')} to the app's scopes in ${APP_PAGE.en}, release the version and approve it in the store.`,
            pt: `Acrescente ${missing.join(', ')} aos âmbitos da app em ${APP_PAGE.pt}, publique a versão e aprove-a na loja.`,
          },
        ),
  );

  // Shopify's Company and CompanyLocation need read_customers or read_companies: without either, a B2B order cannot be read at all.
  // B2B is for Shopify Plus stores only: another store has no company to read.
  if (facts.shop.plan.shopifyPlus && store.sale.nifSources.some((source) => source.from === 'company') && !COMPANY_SCOPES.some((scope) => granted.includes(scope))) {
    checks.push(
      warn(
        'shop',
        { en: 'B2B company NIFs', pt: 'NIF das empresas B2B' },
        {
          en: 'the app may not read companies (read_companies): an order bought for a B2B company cannot be read, and nothing is issued for it until it can',
          pt: 'a app não pode ler empresas (read_companies): uma encomenda comprada por uma empresa B2B não pode ser lida e nada é emitido para ela enquanto não puder',
        },
        {
          en: `If the store sells to B2B companies, add read_companies to the app's scopes in ${APP_PAGE.en}, release the version and approve it in the store; if it does not, take { from: company } out of shopify.sale.nifSources.`,
          pt: `Se a loja vende a empresas B2B, acrescente read_companies aos âmbitos da app em ${APP_PAGE.pt}, publique a versão e aprove-a na loja; se não vende, retire { from: company } de shopify.sale.nifSources.`,
        },
      ),
    );
  }

  const url = shopifyDeliveryUrl(publicUrl, tenant.id);
  try {
    const absent = missingTopics(await listSubscriptions(client), url);
    checks.push(
      absent.length === 0
        ? ok('webhooks', { en: 'Webhook subscriptions', pt: 'Subscrições de webhooks' }, url)
        : warn(
            'webhooks',
            { en: 'Webhook subscriptions', pt: 'Subscrições de webhooks' },
            { en: `none at ${url} for ${absent.join(', ')}`, pt: `nenhuma em ${url} para ${absent.join(', ')}` },
            {
              en: 'The connector creates them when it runs (and again whenever Shopify removes one after failed deliveries); check server.publicUrl is this connector as Shopify reaches it.',
              pt: 'O conector cria-as quando corre (e de novo sempre que o Shopify remove uma depois de entregas falhadas); verifique se server.publicUrl é este conector como o Shopify o alcança.',
            },
          ),
    );
  } catch (error) {
    const problem = adminCallProblem(error, store);
    checks.push(warn('webhooks', { en: 'Webhook subscriptions', pt: 'Subscrições de webhooks' }, problem.detail, problem.fix));
  }

  checks.push(
    ok(
      'orders',
      { en: 'Taxes included in prices', pt: 'Impostos incluídos nos preços' },
      facts.shop.taxesIncluded ? { en: 'yes: tax is taken out of each price as Shopify charged it', pt: 'sim: o imposto sai de cada preço tal como o Shopify o cobrou' } : { en: 'no: tax is added to each price as Shopify charged it', pt: 'não: o imposto soma-se a cada preço tal como o Shopify o cobrou' },
    ),
  );

  const policy = store.sale.currency;
  checks.push(
    facts.shop.currencyCode === 'EUR'
      ? ok('orders', { en: 'Store currency', pt: 'Moeda da loja' }, { en: `EUR; invoices carry the ${policy === 'shop' ? "store's" : "buyer's"} money`, pt: `EUR; as faturas levam o dinheiro ${policy === 'shop' ? 'da loja' : 'do comprador'}` })
      : warn(
          'orders',
          { en: 'Store currency', pt: 'Moeda da loja' },
          { en: `${facts.shop.currencyCode}, not EUR`, pt: `${facts.shop.currencyCode}, não EUR` },
          {
            en: 'Invoices in another currency need the euro rate of the day (exchangeRates); a Portuguese business usually keeps its Shopify store in EUR (Settings > Store details > Store currency).',
            pt: 'Faturas noutra moeda precisam da taxa de câmbio do euro do dia (exchangeRates); uma empresa portuguesa costuma ter a loja Shopify em EUR (Definições > Detalhes da loja > Moeda da loja).',
          },
        ),
  );

  const sources = store.sale.nifSources.map(describeNifSource).join(', ');
  checks.push(
    store.sale.nifSources.every((s) => s.from === 'address-company')
      ? warn(
          'orders',
          { en: 'Buyer NIF source', pt: 'Origem do NIF do comprador' },
          sources,
          {
            en: 'A relabelled Company field is easily filled with a company name: prefer a checkout field or VAT app that writes an order attribute or metafield (shopify.sale.nifSources).',
            pt: 'Um campo Empresa renomeado enche-se facilmente com o nome de uma empresa: prefira um campo de checkout ou uma app de IVA que escreva um atributo ou metafield da encomenda (shopify.sale.nifSources).',
          },
        )
      : ok('orders', { en: 'Buyer NIF source', pt: 'Origem do NIF do comprador' }, sources),
  );

  const unknown = tenant.settings.triggerStatuses.filter((status) => !SHOPIFY_STATUSES.includes(status));
  if (unknown.length > 0) {
    checks.push(
      fail(
        'orders',
        { en: 'Trigger statuses', pt: 'Estados que faturam' },
        { en: `not Shopify statuses: ${unknown.join(', ')}`, pt: `não são estados do Shopify: ${unknown.join(', ')}` },
        { en: `Use Shopify's: ${SHOPIFY_STATUSES.join(', ')} (usually paid, partially_refunded).`, pt: `Use os do Shopify: ${SHOPIFY_STATUSES.join(', ')} (normalmente paid, partially_refunded).` },
      ),
    );
  }
  if (tenant.settings.onCancelled !== 'ignore') {
    // Cancelling a paid order in Shopify refunds it through a Refund, which has its own credit note.
    checks.push(
      warn(
        'orders',
        { en: 'Cancelled orders', pt: 'Encomendas canceladas' },
        { en: `settings.onCancelled is ${tenant.settings.onCancelled}`, pt: `settings.onCancelled é ${tenant.settings.onCancelled}` },
        {
          en: "Set settings.onCancelled: ignore. In Shopify the money of a cancelled order goes back through a refund, and each refund gets its credit note: a second one for the cancellation would credit twice.",
          pt: 'Ponha settings.onCancelled: ignore. No Shopify o dinheiro de uma encomenda cancelada volta por um reembolso, e cada reembolso tem a sua nota de crédito: uma segunda pelo cancelamento creditaria duas vezes.',
        },
      ),
    );
  }
  return { readable: true, checks };
}
