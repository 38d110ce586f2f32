import type { Lang } from '../../messages/lang';
import { SHOPIFY_WORDS } from './shopify-catalogue';

/** The install pages' codes (./shopify-catalogue.ts, `install-<code>`). */
export type InstallWordCode = 'installed' | 'bad-hmac' | 'stale-request' | 'other-shop' | 'bad-state' | 'missing-scopes' | 'exchange-failed' | 'no-secrets-key' | 'title';
type Params = { shop: string; tenant: string; scopes: string };

/** What a person sees on the connector's install pages for a Shopify store, in their language. */
export function installWords(code: InstallWordCode, lang: Lang, params: Params): string {
  return SHOPIFY_WORDS.text(lang, SHOPIFY_WORDS.message(`install-${code}`, params));
}
