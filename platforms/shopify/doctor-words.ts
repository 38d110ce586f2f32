import { z } from 'zod';
import { catalogue, fixed, inEveryLang, words } from '../../messages/catalogue';
import type { PerLang } from '../../messages/lang';
import { countOf, type CountWords } from '../../messages/plural';

/**
 * What the doctor says of a Shopify tenant's store, to the operator who sets the connector up (an
 * agency's or the merchant's own), by code with typed parameters, in English and European Portuguese
 * (messages/catalogue.ts): the Admin API token, its access scopes, the webhook subscriptions, the
 * store's taxes and currency, where the buyer's NIF comes from, and the trigger statuses; where a
 * fix is made in Shopify (the Dev Dashboard, the store's settings) is said here, never by the connector.
 */

const S = z.string();
const LIST = z.array(z.string());
const list = (items: readonly string[]): string => items.join(', ');

/** Where an app's access scopes are set (each language's Dev Dashboard). */
const APP_PAGE: PerLang = { en: 'the Shopify Dev Dashboard > your app > Versions (access scopes)', pt: 'o Dev Dashboard do Shopify > a sua app > Versões (âmbitos de acesso)' };
const SCOPES_MISSING: PerLang<CountWords> = { en: { one: 'scope missing', other: 'scopes missing' }, pt: { one: 'âmbito em falta', other: 'âmbitos em falta' } };
const NOT_SHOPIFY_STATUSES: PerLang<CountWords> = { en: { one: 'status Shopify does not have', other: 'statuses Shopify does not have' }, pt: { one: 'estado que o Shopify não tem', other: 'estados que o Shopify não tem' } };

export const SHOPIFY_DOCTOR = catalogue({
  // A call to the Admin API refused or unanswered (adminCallProblem).
  'token-refused': words({ error: S }, { en: (p) => `the store refused the access token: ${p.error}`, pt: (p) => `a loja recusou o token de acesso (${p.error})` }),
  'install-here-fix': words(
    { shop: S },
    {
      en: (p) => `Install the app on ${p.shop} through this connector: open its install link (<publicUrl>/shopify/install/<tenant>) logged in to the store (an uninstall revokes the token).`,
      pt: (p) => `Instale a app em ${p.shop} através deste conector: abra a ligação de instalação (<publicUrl>/shopify/install/<loja>) com sessão iniciada na loja (desinstalar revoga o token).`,
    },
  ),
  'install-again-fix': words(
    { shop: S },
    {
      en: (p) => `Install the app on ${p.shop} again (an uninstall revokes the token) and put its offline Admin API token in shopify.accessToken.`,
      pt: (p) => `Volte a instalar a app em ${p.shop} (desinstalar revoga o token) e ponha o token offline da Admin API em shopify.accessToken.`,
    },
  ),
  'no-answer': words({ url: S, error: S }, { en: (p) => `no answer from ${p.url}: ${p.error}`, pt: (p) => `${p.url} não respondeu («${p.error}»)` }),
  'no-answer-fix': fixed({ en: 'Check shopify.shopDomain and that this machine reaches the internet.', pt: 'Verifique shopify.shopDomain e se esta máquina chega à internet.' }),
  'api-error': words({ error: S }, { en: (p) => p.error, pt: (p) => `a Admin API do Shopify respondeu com um erro («${p.error}»)` }),
  'report-it-fix': fixed({ en: 'Run the doctor again; if it persists, report it with this message.', pt: 'Volte a correr o doctor; se continuar, comunique-o com esta mensagem.' }),

  // The token and its scopes.
  'token-name': fixed({ en: 'Admin API token', pt: 'Token da Admin API' }),
  'token-accepted': words({ shop: S }, { en: (p) => `accepted by ${p.shop}`, pt: (p) => `aceite por ${p.shop}` }),
  'scopes-name': fixed({ en: 'Access scopes', pt: 'Âmbitos de acesso' }),
  'scopes-missing': words(
    { missing: LIST, granted: LIST },
    {
      en: (p) => `missing ${list(p.missing)} (granted: ${list(p.granted) || 'none'})`,
      pt: (p) => `${countOf('pt', p.missing.length, SCOPES_MISSING.pt)}: ${list(p.missing)} (concedidos: ${list(p.granted) || 'nenhum'})`,
    },
  ),
  'scopes-missing-fix': words(
    { missing: LIST },
    {
      en: (p) => `Add ${list(p.missing)} to the app's scopes in ${APP_PAGE.en}, release the version and approve it in the store.`,
      pt: (p) => `Acrescente ${list(p.missing)} aos âmbitos da app em ${APP_PAGE.pt}, publique a versão e aprove-a na loja.`,
    },
  ),
  'companies-name': fixed({ en: 'B2B company NIFs', pt: 'NIF das empresas B2B' }),
  'companies-unreadable': fixed({
    en: 'the app may not read companies (read_companies): an order bought for a B2B company cannot be read, and nothing is issued for it until it can',
    pt: 'a app não pode ler empresas (read_companies): uma encomenda comprada por uma empresa B2B não pode ser lida e nada é emitido para ela enquanto não puder',
  }),
  'companies-fix': fixed({
    en: `If the store sells to B2B companies, add read_companies to the app's scopes in ${APP_PAGE.en}, release the version and approve it in the store; if it does not, take { from: company } out of shopify.sale.nifSources.`,
    pt: `Se a loja vende a empresas B2B, acrescente read_companies aos âmbitos da app em ${APP_PAGE.pt}, publique a versão e aprove-a na loja; se não vende, retire { from: company } de shopify.sale.nifSources.`,
  }),

  // The app's webhook subscriptions at this connector.
  'subscriptions-name': fixed({ en: 'Webhook subscriptions', pt: 'Subscrições de webhooks' }),
  'subscriptions-missing': words({ url: S, topics: LIST }, { en: (p) => `none at ${p.url} for ${list(p.topics)}`, pt: (p) => `nenhuma em ${p.url} para ${list(p.topics)}` }),
  'subscriptions-fix': fixed({
    en: 'The connector creates them when it runs (and again whenever Shopify removes one after failed deliveries); check server.publicUrl is this connector as Shopify reaches it.',
    pt: 'O conector cria-as quando corre (e de novo sempre que o Shopify remove uma depois de entregas falhadas); verifique se server.publicUrl é este conector como o Shopify o alcança.',
  }),

  // The store's taxes and currency.
  'taxes-name': fixed({ en: 'Taxes included in prices', pt: 'Impostos incluídos nos preços' }),
  'taxes-included': fixed({ en: 'yes: tax is taken out of each price as Shopify charged it', pt: 'sim: o imposto sai de cada preço tal como o Shopify o cobrou' }),
  'taxes-excluded': fixed({ en: 'no: tax is added to each price as Shopify charged it', pt: 'não: o imposto soma-se a cada preço tal como o Shopify o cobrou' }),
  'currency-name': fixed({ en: 'Store currency', pt: 'Moeda da loja' }),
  'currency-eur': words(
    { policy: z.enum(['shop', 'presentment']) },
    {
      en: (p) => `EUR; invoices carry the ${p.policy === 'shop' ? "store's" : "buyer's"} money`,
      pt: (p) => `EUR; as faturas levam o dinheiro ${p.policy === 'shop' ? 'da loja' : 'do comprador'}`,
    },
  ),
  'currency-other': words({ currency: S }, { en: (p) => `${p.currency}, not EUR`, pt: (p) => `${p.currency}, não EUR` }),
  'currency-fix': fixed({
    en: 'Invoices in another currency need the euro rate of the day (exchangeRates); a Portuguese business usually keeps its Shopify store in EUR (Settings > Store details > Store currency).',
    pt: 'Faturas noutra moeda precisam da taxa de câmbio do euro do dia (exchangeRates); uma empresa portuguesa costuma ter a loja Shopify em EUR (Definições > Detalhes da loja > Moeda da loja).',
  }),

  // Where the buyer's NIF comes from, and the settings.
  'nif-source-name': fixed({ en: 'Buyer NIF source', pt: 'Origem do NIF do comprador' }),
  'nif-source-fix': fixed({
    en: 'A relabelled Company field is easily filled with a company name: prefer a checkout field or VAT app that writes an order attribute or metafield (shopify.sale.nifSources).',
    pt: 'Um campo Empresa renomeado enche-se facilmente com o nome de uma empresa: prefira um campo de checkout ou uma app de IVA que escreva um atributo ou metafield da encomenda (shopify.sale.nifSources).',
  }),
  'statuses-name': fixed({ en: 'Trigger statuses', pt: 'Estados que faturam' }),
  'statuses-unknown': words(
    { unknown: LIST },
    {
      en: (p) => `${countOf('en', p.unknown.length, NOT_SHOPIFY_STATUSES.en)}: ${list(p.unknown)}`,
      pt: (p) => `${countOf('pt', p.unknown.length, NOT_SHOPIFY_STATUSES.pt)}: ${list(p.unknown)}`,
    },
  ),
  'statuses-fix': words({ statuses: LIST }, { en: (p) => `Use Shopify's: ${list(p.statuses)} (usually paid, partially_refunded).`, pt: (p) => `Use os do Shopify: ${list(p.statuses)} (normalmente paid, partially_refunded).` }),
  'cancelled-name': fixed({ en: 'Cancelled orders', pt: 'Encomendas canceladas' }),
  'cancelled-setting': words({ setting: S }, { en: (p) => `settings.onCancelled is ${p.setting}`, pt: (p) => `settings.onCancelled é ${p.setting}` }),
  'cancelled-fix': fixed({
    en: 'Set settings.onCancelled: ignore. In Shopify the money of a cancelled order goes back through a refund, and each refund gets its credit note: a second one for the cancellation would credit twice.',
    pt: 'Ponha settings.onCancelled: ignore. No Shopify o dinheiro de uma encomenda cancelada volta por um reembolso, e cada reembolso tem a sua nota de crédito: uma segunda pelo cancelamento creditaria duas vezes.',
  }),
});

/** A doctor's words in both languages at once (a Check carries `pt` beside the English). */
export const shopifySays = inEveryLang(SHOPIFY_DOCTOR);
