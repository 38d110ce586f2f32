import type { Lang } from '../../messages/lang';

/**
 * What a person sees on the connector's install pages for a Shopify store (the merchant or the
 * agency who opened the install link), by code, in European Portuguese and English.
 */
type Words = { pt: string; en: string };
type Params = { shop: string; tenant: string; scopes: string };

const INSTALL_WORDS = {
  installed: (p: Params): Words => ({
    pt: `A app está instalada em ${p.shop}. O conector lê as encomendas pagas desta loja, emite os documentos e escreve-os na encomenda. O token de acesso ficou guardado cifrado.`,
    en: `The app is installed on ${p.shop}. The connector reads this store's paid orders, issues their documents and writes them back on the order. The access token is stored encrypted.`,
  }),
  'bad-hmac': (): Words => ({
    pt: 'Este pedido não foi assinado pela Shopify (a assinatura hmac não confere). Abra de novo a ligação de instalação a partir da Shopify.',
    en: 'This request was not signed by Shopify (its hmac does not match). Open the install link again from Shopify.',
  }),
  'stale-request': (): Words => ({
    pt: 'Este pedido da Shopify é antigo demais (mais de uma hora). Abra de novo a ligação de instalação.',
    en: 'This request from Shopify is too old (more than an hour). Open the install link again.',
  }),
  'other-shop': (p: Params): Words => ({
    pt: `O pedido vem de ${p.shop}, que não é a loja configurada para ${p.tenant}. Cada loja instala pela sua própria ligação.`,
    en: `The request comes from ${p.shop}, which is not the store configured for ${p.tenant}. Each store installs through its own link.`,
  }),
  'bad-state': (): Words => ({
    pt: 'A instalação não começou neste navegador, ou já foi concluída ou expirou (10 minutos). Comece de novo pela ligação de instalação.',
    en: 'The install did not start in this browser, or it was already completed or has expired (10 minutes). Start again from the install link.',
  }),
  'missing-scopes': (p: Params): Words => ({
    pt: `A Shopify não concedeu as permissões de que o conector precisa (${p.scopes}). Acrescente-as à configuração da app no Dev Dashboard e instale de novo. Nenhum token foi guardado.`,
    en: `Shopify did not grant the access the connector needs (${p.scopes}). Add it to the app's configuration in the Dev Dashboard and install again. No token was stored.`,
  }),
  'exchange-failed': (): Words => ({
    pt: 'A Shopify não trocou o código de autorização por um token (código usado, expirado ou credenciais da app erradas). Comece de novo pela ligação de instalação.',
    en: 'Shopify did not exchange the authorization code for a token (the code was used, expired, or the app credentials are wrong). Start again from the install link.',
  }),
  'no-secrets-key': (): Words => ({
    pt: 'O conector não tem a chave para guardar tokens cifrados (server.secretsKey). O operador tem de a configurar antes da instalação.',
    en: 'The connector has no key to store tokens encrypted (server.secretsKey). The operator must set it before the install.',
  }),
  title: (): Words => ({ pt: 'Instalação da app Shopify', en: 'Shopify app install' }),
} as const;

export type InstallWordCode = keyof typeof INSTALL_WORDS;

export function installWords(code: InstallWordCode, lang: Lang, params: Params): string {
  return INSTALL_WORDS[code](params)[lang];
}
