import { z } from 'zod';
import { openSealedSecret, sealSecret } from '../../connector/core/sealed-secret';
import type { ShopServices } from '../../connector/shop/shop-services';
import { ShopifyApiError } from './admin-client';

/**
 * A store's offline Admin API token as the install flow received it, kept in Redis sealed with the
 * operator's key (connector/core/sealed-secret.ts: AES-256-GCM, the tenant and the store bound as
 * additional data). Redis holds only the sealed value, the granted scopes and when it was installed;
 * the token is opened in memory when the Shop needs it and never logged.
 */

const storedSchema = z.object({ sealed: z.string(), scopes: z.array(z.string()), installedAt: z.string() });
export type InstalledToken = { token: string; scopes: string[]; installedAt: string };

/** Re-read the sealed token after this long (a reinstall on another process replaces it). */
const TOKEN_TTL_MS = 60_000;

export function installedTokenKey(prefix: string, tenant: string): string {
  return `${prefix}:shopify-token:${tenant}`;
}

function contextOf(tenant: string, shopDomain: string): string {
  return `shopify-offline-token|${tenant}|${shopDomain}`;
}

export async function saveInstalledToken(services: Required<ShopServices>, tenant: string, shopDomain: string, token: string, scopes: string[], now = new Date()): Promise<void> {
  const stored = { sealed: sealSecret(token, services.secretsKey, contextOf(tenant, shopDomain)), scopes, installedAt: now.toISOString() };
  await services.redis.set(installedTokenKey(services.prefix, tenant), JSON.stringify(stored));
}

/** The store's installed token; undefined when the store has not installed the app through the connector. */
export async function readInstalledToken(services: Required<ShopServices>, tenant: string, shopDomain: string): Promise<InstalledToken | undefined> {
  const text = await services.redis.get(installedTokenKey(services.prefix, tenant));
  if (text === null) return undefined;
  const stored = storedSchema.parse(JSON.parse(text));
  return { token: openSealedSecret(stored.sealed, services.secretsKey, contextOf(tenant, shopDomain)), scopes: stored.scopes, installedAt: stored.installedAt };
}

/**
 * Where a Shop of an installed store reads its token: Redis through the running connector's
 * services, kept in memory a minute. A store not installed yet (or a command without the connector's
 * Redis and key) is an authentication error that says what to do, like a revoked token.
 */
export function installedTokenSource(services: ShopServices | undefined, tenant: string, shopDomain: string): () => Promise<string> {
  let cached: { token: string; at: number } | undefined;
  return async () => {
    if (cached && Date.now() - cached.at < TOKEN_TTL_MS) return cached.token;
    if (!services?.secretsKey) {
      throw new ShopifyApiError('authentication', `${shopDomain} has no access token in the tenants file, and this process has no server.secretsKey to open the one the install flow keeps`);
    }
    const installed = await readInstalledToken({ redis: services.redis, prefix: services.prefix, secretsKey: services.secretsKey }, tenant, shopDomain);
    if (!installed) throw new ShopifyApiError('authentication', `${shopDomain} has not installed the app yet: open /shopify/install/${tenant} on this connector`);
    cached = { token: installed.token, at: Date.now() };
    return installed.token;
  };
}
