import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { z } from 'zod';
import type { ShopifyTenantConfig } from '../../connector/config/shopify-tenant';
import { openSealedSecret, sealSecret } from '../../connector/core/sealed-secret';
import type { ShopServices } from '../../connector/shop/shop-services';
import { ShopifyApiError } from './admin-client';

/**
 * A store's offline Admin API token as the install flow received it, kept in Redis sealed with the
 * operator's key (connector/core/sealed-secret.ts: AES-256-GCM, the tenant and the store bound as
 * additional data). Redis holds only the sealed values, the granted scopes and the times; the
 * tokens are opened in memory when the Shop needs them and never logged.
 *
 * Expiring offline tokens (Shopify, December 2025; shopify.dev "Offline access tokens now support
 * expiry and refresh", "Use expiring offline access tokens"): the code exchange asked with
 * `expiring=1` answers an access token that lasts `expires_in` seconds (3,600) and a refresh token
 * (`refresh_token`, `refresh_token_expires_in`); the refresh token, POSTed to the same
 * /admin/oauth/access_token with `grant_type=refresh_token` and the app's client id and secret,
 * gives a new access token and a new refresh token, which replaces the old one. Both are sealed like
 * the access token (each bound to its own purpose). The Shop refreshes a few minutes before the
 * access token expires, and when Shopify answers 401, under a Redis lock per store so two processes
 * (or two jobs) never both spend the refresh token; the one that waits reads what the other saved.
 * A refresh Shopify refuses (`invalid_grant`: the refresh token expired or was revoked, the app
 * uninstalled) is kept on the record, so the doctor tells the operator to install the app again.
 */

const storedSchema = z.object({
  sealed: z.string(),
  scopes: z.array(z.string()),
  installedAt: z.string(),
  /** Expiring tokens: when the access token expires, the sealed refresh token and when it expires. */
  expiresAt: z.string().optional(),
  refreshSealed: z.string().optional(),
  refreshExpiresAt: z.string().optional(),
  refreshedAt: z.string().optional(),
  /** The last refresh Shopify refused: when and its error code ("invalid_grant"); cleared by a refresh or an install. */
  refreshRefused: z.object({ at: z.string(), error: z.string() }).optional(),
});
type Stored = z.output<typeof storedSchema>;

export type InstalledToken = {
  token: string;
  scopes: string[];
  installedAt: string;
  /** Absent for a token that does not expire. */
  expiresAt?: string;
  refreshExpiresAt?: string;
  /** Whether a refresh token is kept (an expiring token). */
  refreshable: boolean;
  refreshRefused?: { at: string; error: string };
};

/** What Shopify answers a code exchange or a refresh: `expires_in` and `refresh_token` for an expiring token. */
export const tokenGrantSchema = z.object({
  access_token: z.string().min(1),
  scope: z.string(),
  expires_in: z.number().int().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  refresh_token_expires_in: z.number().int().positive().optional(),
});
export type TokenGrant = z.output<typeof tokenGrantSchema>;

/** Re-read the sealed token after this long (a reinstall or a refresh on another process replaces it). */
const TOKEN_TTL_MS = 60_000;
/** Refresh this long before the access token expires (Shopify: "a few minutes before"). */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** The refresh lock's lease, and how long a process waits for another's refresh. */
const LOCK_MS = 20_000;
const LOCK_POLL_MS = 100;

export function installedTokenKey(prefix: string, tenant: string): string {
  return `${prefix}:shopify-token:${tenant}`;
}

function lockKey(prefix: string, tenant: string): string {
  return `${prefix}:shopify-token-refresh:${tenant}`;
}

function contextOf(tenant: string, shopDomain: string): string {
  return `shopify-offline-token|${tenant}|${shopDomain}`;
}

function refreshContextOf(tenant: string, shopDomain: string): string {
  return `shopify-refresh-token|${tenant}|${shopDomain}`;
}

function later(now: Date, seconds: number | undefined): string | undefined {
  return seconds === undefined ? undefined : new Date(now.getTime() + seconds * 1000).toISOString();
}

/** The grant sealed as Redis keeps it; `installedAt` kept from the install when this is a refresh. */
function storedOf(services: Required<ShopServices>, tenant: string, shopDomain: string, grant: TokenGrant, scopes: string[], now: Date, installedAt?: string): Stored {
  return {
    sealed: sealSecret(grant.access_token, services.secretsKey, contextOf(tenant, shopDomain)),
    scopes,
    installedAt: installedAt ?? now.toISOString(),
    ...(grant.expires_in !== undefined ? { expiresAt: later(now, grant.expires_in) } : {}),
    ...(grant.refresh_token !== undefined ? { refreshSealed: sealSecret(grant.refresh_token, services.secretsKey, refreshContextOf(tenant, shopDomain)) } : {}),
    ...(grant.refresh_token_expires_in !== undefined ? { refreshExpiresAt: later(now, grant.refresh_token_expires_in) } : {}),
    ...(installedAt !== undefined ? { refreshedAt: now.toISOString() } : {}),
  };
}

export async function saveInstalledToken(services: Required<ShopServices>, tenant: string, shopDomain: string, grant: TokenGrant, scopes: string[], now = new Date()): Promise<void> {
  await services.redis.set(installedTokenKey(services.prefix, tenant), JSON.stringify(storedOf(services, tenant, shopDomain, grant, scopes, now)));
}

async function readStored(services: Required<ShopServices>, tenant: string): Promise<Stored | undefined> {
  const text = await services.redis.get(installedTokenKey(services.prefix, tenant));
  return text === null ? undefined : storedSchema.parse(JSON.parse(text));
}

function opened(services: Required<ShopServices>, tenant: string, shopDomain: string, stored: Stored): InstalledToken {
  return {
    token: openSealedSecret(stored.sealed, services.secretsKey, contextOf(tenant, shopDomain)),
    scopes: stored.scopes,
    installedAt: stored.installedAt,
    ...(stored.expiresAt ? { expiresAt: stored.expiresAt } : {}),
    ...(stored.refreshExpiresAt ? { refreshExpiresAt: stored.refreshExpiresAt } : {}),
    refreshable: stored.refreshSealed !== undefined,
    ...(stored.refreshRefused ? { refreshRefused: stored.refreshRefused } : {}),
  };
}

/** The store's installed token; undefined when the store has not installed the app through the connector (or Redis lost it). */
export async function readInstalledToken(services: Required<ShopServices>, tenant: string, shopDomain: string): Promise<InstalledToken | undefined> {
  const stored = await readStored(services, tenant);
  return stored ? opened(services, tenant, shopDomain, stored) : undefined;
}

/** Whether an access token that expires at `expiresAt` is due for a refresh at `now`. */
export function refreshDue(expiresAt: string | undefined, now: number): boolean {
  return expiresAt !== undefined && Date.parse(expiresAt) - REFRESH_MARGIN_MS <= now;
}

const refusalSchema = z.object({ error: z.string(), error_description: z.string().optional() }).passthrough();

/** The refresh grant at the store's token endpoint: the new grant, or Shopify's refusal (`invalid_grant`...). */
async function refreshGrant(store: ShopifyTenantConfig, refreshToken: string): Promise<{ grant: TokenGrant } | { refused: string }> {
  let answer: Awaited<ReturnType<typeof request>>;
  try {
    answer = await request(`${store.adminUrl}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ client_id: store.clientId, client_secret: store.clientSecrets[0], grant_type: 'refresh_token', refresh_token: refreshToken }),
      headersTimeout: store.timeoutMs,
      bodyTimeout: store.timeoutMs,
    });
  } catch (error) {
    throw new ShopifyApiError('connection', `${store.shopDomain} did not answer the token refresh: ${(error as Error).message}`);
  }
  const text = await answer.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (answer.statusCode >= 500) throw new ShopifyApiError('server', `Shopify answered HTTP ${answer.statusCode} to the token refresh of ${store.shopDomain}`);
  if (answer.statusCode === 200) {
    const grant = tokenGrantSchema.safeParse(json);
    // The answer's text is never in the error: a 200 of an odd shape could still hold a token.
    if (!grant.success) throw new ShopifyApiError('invalid-answer', `Shopify's answer to the token refresh of ${store.shopDomain} has an unexpected shape`);
    return { grant: grant.data };
  }
  const refusal = refusalSchema.safeParse(json);
  return { refused: refusal.success ? refusal.data.error : `HTTP ${answer.statusCode}` };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * Refreshes the store's expiring token once, whoever asks: under the store's lock, the record is
 * read again (another process may have refreshed meanwhile: then its token is used) and refreshed
 * only if still due (`force`: Shopify refused the token we hold, `stale`). Without the lock, waits
 * for the process that has it and reads what it saved.
 */
export async function refreshInstalledToken(
  services: Required<ShopServices>,
  store: ShopifyTenantConfig,
  tenant: string,
  /** The token Shopify refused (a 401), if that is why: refreshed unless the record already holds another. */
  stale?: string,
  now: () => number = Date.now,
): Promise<InstalledToken> {
  const key = lockKey(services.prefix, tenant);
  const nonce = randomBytes(12).toString('hex');
  const giveUpAt = now() + LOCK_MS;
  for (;;) {
    const stored = await readStored(services, tenant);
    if (!stored) throw lostToken(store, tenant);
    const current = opened(services, tenant, store.shopDomain, stored);
    const due = refreshDue(stored.expiresAt, now()) || (stale !== undefined && current.token === stale);
    if (!due) return current;
    if (!stored.refreshSealed) throw new ShopifyApiError('authentication', `${store.shopDomain} refused the installed access token and the connector holds no refresh token for it: install the app again (/shopify/install/${tenant})`);
    if ((await services.redis.set(key, nonce, 'PX', LOCK_MS, 'NX')) === 'OK') {
      try {
        return await refreshUnderLock(services, store, tenant, stale, now);
      } finally {
        await services.redis.eval(RELEASE, 1, key, nonce);
      }
    }
    if (now() > giveUpAt) throw new ShopifyApiError('timeout', `another process has been refreshing the access token of ${store.shopDomain} for ${LOCK_MS / 1000} s`);
    await sleep(LOCK_POLL_MS);
  }
}

async function refreshUnderLock(services: Required<ShopServices>, store: ShopifyTenantConfig, tenant: string, stale: string | undefined, now: () => number): Promise<InstalledToken> {
  // Read again under the lock: the process that held it before may have refreshed already.
  const stored = await readStored(services, tenant);
  if (!stored) throw lostToken(store, tenant);
  const current = opened(services, tenant, store.shopDomain, stored);
  if (!refreshDue(stored.expiresAt, now()) && !(stale !== undefined && current.token === stale)) return current;
  if (!stored.refreshSealed) throw lostToken(store, tenant);
  if (!store.clientId) throw new ShopifyApiError('authentication', `${store.shopDomain}'s access token expired and the tenant has no shopify.clientId to refresh it with`);
  const refreshToken = openSealedSecret(stored.refreshSealed, services.secretsKey, refreshContextOf(tenant, store.shopDomain));
  const answer = await refreshGrant(store, refreshToken);
  const at = new Date(now());
  if ('refused' in answer) {
    await services.redis.set(installedTokenKey(services.prefix, tenant), JSON.stringify({ ...stored, refreshRefused: { at: at.toISOString(), error: answer.refused } }));
    throw new ShopifyApiError('authentication', `Shopify refused to refresh the access token of ${store.shopDomain} (${answer.refused}): install the app again (/shopify/install/${tenant})`);
  }
  // Shopify replaces the refresh token on every use: the new one is kept at once (a lost one would mean a reinstall).
  const grant: TokenGrant = { ...answer.grant, refresh_token: answer.grant.refresh_token ?? refreshToken };
  const next = storedOf(services, tenant, store.shopDomain, grant, stored.scopes, at, stored.installedAt);
  if (!answer.grant.refresh_token && stored.refreshExpiresAt) next.refreshExpiresAt = stored.refreshExpiresAt;
  await services.redis.set(installedTokenKey(services.prefix, tenant), JSON.stringify(next));
  return opened(services, tenant, store.shopDomain, next);
}

function lostToken(store: ShopifyTenantConfig, tenant: string): ShopifyApiError {
  return new ShopifyApiError('authentication', `${store.shopDomain} has no installed access token in this connector's Redis (never installed, or Redis lost it): install the app again (/shopify/install/${tenant})`);
}

/** Where a Shop of an installed store reads its token, and what it does when Shopify refuses it. */
export interface InstalledTokenSource {
  /** The token to send now: read (a minute in memory), refreshed first when it expires within minutes. */
  token(): Promise<string>;
  /** Shopify refused `token` (401): refreshed when the store's token expires; true when a new token is there to try once more. */
  refused(token: string): Promise<boolean>;
}

/**
 * The installed token of a store through the running connector's services. A store not installed
 * yet, a token Redis lost, or a command without the connector's Redis and key, is an authentication
 * error that says what to do, like a revoked token.
 */
export function installedTokenSource(services: ShopServices | undefined, tenant: string, store: ShopifyTenantConfig): InstalledTokenSource {
  let cached: { token: string; expiresAt?: string; at: number } | undefined;
  const ready = (): Required<ShopServices> => {
    if (!services?.secretsKey) {
      throw new ShopifyApiError('authentication', `${store.shopDomain} has no access token in the tenants file, and this process has no server.secretsKey to open the one the install flow keeps`);
    }
    return { redis: services.redis, prefix: services.prefix, secretsKey: services.secretsKey };
  };
  const keep = (installed: InstalledToken): string => {
    cached = { token: installed.token, ...(installed.expiresAt ? { expiresAt: installed.expiresAt } : {}), at: Date.now() };
    return installed.token;
  };
  return {
    async token() {
      if (cached && Date.now() - cached.at < TOKEN_TTL_MS && !refreshDue(cached.expiresAt, Date.now())) return cached.token;
      const ours = ready();
      const installed = await readInstalledToken(ours, tenant, store.shopDomain);
      if (!installed) throw new ShopifyApiError('authentication', `${store.shopDomain} has not installed the app yet, or this connector's Redis lost its token: open /shopify/install/${tenant} on this connector`);
      if (refreshDue(installed.expiresAt, Date.now())) return keep(await refreshInstalledToken(ours, store, tenant));
      return keep(installed);
    },
    async refused(token) {
      cached = undefined;
      const ours = ready();
      const installed = await readInstalledToken(ours, tenant, store.shopDomain);
      if (!installed) return false;
      // Another process installed or refreshed since: its token is the one to try.
      if (installed.token !== token) return keep(installed) !== token;
      if (!installed.refreshable) return false;
      const refreshed = await refreshInstalledToken(ours, store, tenant, token);
      return keep(refreshed) !== token;
    },
  };
}
