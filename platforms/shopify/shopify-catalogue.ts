import { z } from 'zod';
import { catalogue, fixed, words } from '../../messages/catalogue';
import type { Lang } from '../../messages/lang';

/**
 * Every sentence the Shopify platform itself puts before a person, by code, in European Portuguese
 * and English (the catalogue pattern, messages/catalogue.ts): the names of the lines Shopify keeps
 * outside its line items (on documents, written in Portuguese), the connector's install pages (the
 * merchant or the agency who opened the install link), and the doctor's words on the installed token.
 */

const S = z.string();
const INSTALL = { shop: S, tenant: S, scopes: S };

export const SHOPIFY_WORDS = catalogue({
  // Lines of a document
  'line-duties': fixed({ pt: 'Direitos aduaneiros', en: 'Duties' }),
  'line-tip': fixed({ pt: 'Gorjeta', en: 'Tip' }),
  'line-adjustment': fixed({ pt: 'Acerto do reembolso', en: 'Refund adjustment' }),

  // An order's status as the Shopify admin names it (its financial status; `cancelled` and `test` for such orders)
  'status-pending': fixed({ pt: 'Pendente', en: 'Payment pending' }),
  'status-authorized': fixed({ pt: 'Autorizado', en: 'Authorized' }),
  'status-partially_paid': fixed({ pt: 'Parcialmente pago', en: 'Partially paid' }),
  'status-paid': fixed({ pt: 'Pago', en: 'Paid' }),
  'status-partially_refunded': fixed({ pt: 'Parcialmente reembolsado', en: 'Partially refunded' }),
  'status-refunded': fixed({ pt: 'Reembolsado', en: 'Refunded' }),
  'status-voided': fixed({ pt: 'Anulado', en: 'Voided' }),
  'status-expired': fixed({ pt: 'Expirado', en: 'Expired' }),
  'status-cancelled': fixed({ pt: 'Cancelada', en: 'Cancelled' }),
  'status-test': fixed({ pt: 'Encomenda de teste', en: 'Test order' }),

  // The install pages
  'install-title': fixed({ pt: 'Instalação da app Shopify', en: 'Shopify app install' }),
  'install-installed': words(INSTALL, {
    pt: (p) => `A app está instalada em ${p.shop}. O conector lê as encomendas pagas desta loja, emite os documentos e escreve-os na encomenda. O token de acesso ficou guardado cifrado.`,
    en: (p) => `The app is installed on ${p.shop}. The connector reads this store's paid orders, issues their documents and writes them back on the order. The access token is stored encrypted.`,
  }),
  'install-bad-hmac': fixed({
    pt: 'Este pedido não foi assinado pela Shopify (a assinatura hmac não confere). Abra de novo a ligação de instalação a partir da Shopify.',
    en: 'This request was not signed by Shopify (its hmac does not match). Open the install link again from Shopify.',
  }),
  'install-stale-request': fixed({
    pt: 'Este pedido da Shopify é antigo demais (mais de uma hora). Abra de novo a ligação de instalação.',
    en: 'This request from Shopify is too old (more than an hour). Open the install link again.',
  }),
  'install-other-shop': words(INSTALL, {
    pt: (p) => `O pedido vem de ${p.shop}, que não é a loja configurada para ${p.tenant}. Cada loja instala pela sua própria ligação.`,
    en: (p) => `The request comes from ${p.shop}, which is not the store configured for ${p.tenant}. Each store installs through its own link.`,
  }),
  'install-bad-state': fixed({
    pt: 'A instalação não começou neste navegador, ou já foi concluída ou expirou (10 minutos). Comece de novo pela ligação de instalação.',
    en: 'The install did not start in this browser, or it was already completed or has expired (10 minutes). Start again from the install link.',
  }),
  'install-missing-scopes': words(INSTALL, {
    pt: (p) => `A Shopify não concedeu as permissões de que o conector precisa (${p.scopes}). Acrescente-as à configuração da app no Dev Dashboard e instale de novo. Nenhum token foi guardado.`,
    en: (p) => `Shopify did not grant the access the connector needs (${p.scopes}). Add it to the app's configuration in the Dev Dashboard and install again. No token was stored.`,
  }),
  'install-exchange-failed': fixed({
    pt: 'A Shopify não trocou o código de autorização por um token (código usado, expirado ou credenciais da app erradas). Comece de novo pela ligação de instalação.',
    en: 'Shopify did not exchange the authorization code for a token (the code was used, expired, or the app credentials are wrong). Start again from the install link.',
  }),
  'install-no-secrets-key': fixed({
    pt: 'O conector não tem a chave para guardar tokens cifrados (server.secretsKey). O operador tem de a configurar antes da instalação.',
    en: 'The connector has no key to store tokens encrypted (server.secretsKey). The operator must set it before the install.',
  }),

  // The doctor on the installed token
  'token-check': fixed({ pt: 'Token instalado', en: 'Installed token' }),
  'token-missing': words(
    { shop: S },
    {
      pt: (p) => `o conector não tem o token de ${p.shop}: a app nunca foi instalada por este conector, ou o Redis perdeu o token guardado (um Redis reiniciado sem o ficheiro AOF perde-o)`,
      en: (p) => `the connector holds no token for ${p.shop}: the app was never installed through this connector, or Redis lost the stored token (a Redis restarted without its append-only file loses it)`,
    },
  ),
  'token-reinstall': words(
    { shop: S, link: S },
    {
      pt: (p) => `Instale a app de novo: abra ${p.link} com sessão iniciada em ${p.shop} e aceite. Demora um minuto; as encomendas pagas entretanto são apanhadas pela sincronização.`,
      en: (p) => `Install the app again: open ${p.link} while logged in to ${p.shop} and accept. It takes a minute; the orders paid meanwhile are caught by the sweep.`,
    },
  ),
  'token-refresh-refused': words(
    { shop: S, error: S, at: S },
    {
      pt: (p) => `a Shopify recusou renovar o token de ${p.shop} em ${p.at} (${p.error}): o token de renovação expirou ou foi revogado (por exemplo, a app foi desinstalada), e o token de acesso dura só uma hora`,
      en: (p) => `Shopify refused to refresh the token of ${p.shop} at ${p.at} (${p.error}): the refresh token expired or was revoked (the app uninstalled, for one), and the access token lasts only an hour`,
    },
  ),
  'token-refresh-expired': words(
    { shop: S, at: S },
    {
      pt: (p) => `o token de renovação de ${p.shop} expirou em ${p.at}: o conector já não consegue obter um token de acesso novo`,
      en: (p) => `the refresh token of ${p.shop} expired at ${p.at}: the connector can no longer get a new access token`,
    },
  ),
  'token-expiring': words(
    { until: S },
    {
      pt: (p) => `expira de hora a hora e o conector renova-o sozinho (token de renovação válido até ${p.until})`,
      en: (p) => `expires every hour and the connector refreshes it itself (refresh token valid until ${p.until})`,
    },
  ),
  'token-lasting': fixed({ pt: 'não expira (token offline de longa duração)', en: 'does not expire (a long-lived offline token)' }),
  'token-refused': words(
    { shop: S, link: S },
    {
      pt: (p) =>
        `a Shopify recusou o token de acesso de ${p.shop}: a app foi desinstalada, ou o conector perdeu o token guardado (um Redis reiniciado sem o ficheiro AOF perde-o), ou já não o consegue renovar. Instale a app de novo: abra ${p.link} com sessão iniciada na loja e aceite`,
      en: (p) =>
        `Shopify refused the access token of ${p.shop}: the app was uninstalled, or the connector lost the stored token (a Redis restarted without its append-only file loses it), or can no longer refresh it. Install the app again: open ${p.link} while logged in to the store and accept`,
    },
  ),
  'token-refused-file': words(
    { shop: S },
    {
      pt: (p) => `a Shopify recusou o token de acesso de ${p.shop} (shopify.accessToken): ponha um token offline válido da Admin API no ficheiro de lojas e recarregue-o`,
      en: (p) => `Shopify refused the access token of ${p.shop} (shopify.accessToken): put a valid offline Admin API token in the tenants file and reload it`,
    },
  ),
  'token-unreadable': words(
    { detail: S },
    {
      pt: (p) => `não foi possível ler o token guardado no Redis (${p.detail})`,
      en: (p) => `the stored token could not be read from Redis (${p.detail})`,
    },
  ),
});

export type ShopifyWordCode = keyof typeof SHOPIFY_WORDS.entries;

type StatusCode = Extract<ShopifyWordCode, `status-${string}`>;
const STATUS_CODES = new Set<string>(Object.keys(SHOPIFY_WORDS.entries).filter((code) => code.startsWith('status-')));

/** An order's status (the connector's slug of Shopify's financial status) as the Shopify admin names it; an unknown one as its slug. */
export function shopifyStatusLabel(lang: Lang, status: string): string {
  const code = `status-${status}`;
  return STATUS_CODES.has(code) ? SHOPIFY_WORDS.say(lang, code as StatusCode) : status;
}
