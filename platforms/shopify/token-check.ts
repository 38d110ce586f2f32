import type { ShopifyTenantConfig } from '../../connector/config/shopify-tenant';
import { fail, ok, warn, type Check } from '../../connector/doctor/check';
import type { ShopServices } from '../../connector/shop/shop-services';
import { shopDateTime } from '../../messages/dates';
import type { Lang } from '../../messages/lang';
import { readInstalledToken } from './installed-token';
import { SHOPIFY_WORDS } from './shopify-catalogue';

type Say = (lang: Lang) => string;
const both = (say: Say): { en: string; pt: string } => ({ en: say('en'), pt: say('pt') });

/**
 * The doctor's check of a token the install flow keeps (a tenant without `shopify.accessToken`):
 * there (Redis may have lost it: a Redis restarted without its append-only file), still refreshable
 * when it expires (a refresh Shopify refused, a refresh token past its date), and what kind. Each
 * problem ends in the same plain fix: install the app again, with the link.
 */
export async function installedTokenCheck(
  services: ShopServices | undefined,
  tenantId: string,
  store: ShopifyTenantConfig,
  publicUrl: string,
  timeZone: string,
  now = Date.now(),
): Promise<Check | undefined> {
  if (store.accessToken !== undefined || !services?.secretsKey) return undefined;
  const name = both((lang) => SHOPIFY_WORDS.say(lang, 'token-check'));
  const reinstall = both((lang) => SHOPIFY_WORDS.say(lang, 'token-reinstall', { shop: store.shopDomain, link: `${publicUrl.replace(/\/+$/, '')}/shopify/install/${encodeURIComponent(tenantId)}` }));
  const at = (lang: Lang, iso: string): string => shopDateTime(lang, new Date(iso), timeZone);
  let installed: Awaited<ReturnType<typeof readInstalledToken>>;
  try {
    installed = await readInstalledToken({ redis: services.redis, prefix: services.prefix, secretsKey: services.secretsKey }, tenantId, store.shopDomain);
  } catch (error) {
    return warn('shop', name, both((lang) => SHOPIFY_WORDS.say(lang, 'token-unreadable', { detail: (error as Error).message })), reinstall);
  }
  if (!installed) return fail('shop', name, both((lang) => SHOPIFY_WORDS.say(lang, 'token-missing', { shop: store.shopDomain })), reinstall);
  if (installed.refreshRefused) {
    const refused = installed.refreshRefused;
    return fail('shop', name, both((lang) => SHOPIFY_WORDS.say(lang, 'token-refresh-refused', { shop: store.shopDomain, error: refused.error, at: at(lang, refused.at) })), reinstall);
  }
  const refreshUntil = installed.refreshExpiresAt;
  if (installed.refreshable && refreshUntil !== undefined && Date.parse(refreshUntil) <= now) {
    return fail('shop', name, both((lang) => SHOPIFY_WORDS.say(lang, 'token-refresh-expired', { shop: store.shopDomain, at: at(lang, refreshUntil) })), reinstall);
  }
  const kind: Say = (lang) =>
    installed.refreshable ? SHOPIFY_WORDS.say(lang, 'token-expiring', { until: refreshUntil ? at(lang, refreshUntil) : '?' }) : SHOPIFY_WORDS.say(lang, 'token-lasting');
  return ok('shop', name, both(kind));
}


