import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import { request } from 'undici';
import { z } from 'zod';
import type { WebhookRouteDeps } from '../../connector/ingest/webhook-route-deps';
import type { TenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { html, page } from '../../connector/console/page';
import type { Lang } from '../../messages/lang';
import { REQUIRED_SCOPES } from './doctor-checks';
import { saveInstalledToken, tokenGrantSchema, type TokenGrant } from './installed-token';
import { installWords, type InstallWordCode } from './install-words';

/**
 * The OAuth install flow of a custom-distribution app, served per tenant (Shopify's "authorization
 * code grant", shopify.dev/docs/apps/build/authentication-authorization/access-tokens/authorization-code-grant):
 *
 * GET /shopify/install/:tenant (the app URL Shopify opens with `shop`, `timestamp`, `hmac`, or a person
 *   opening it by hand): the query's hmac is checked when Shopify sent one, the store must be the
 *   tenant's own `*.myshopify.com` domain, a one-use `state` nonce is kept 10 minutes in Redis and
 *   bound to this browser by an HttpOnly cookie, and the browser goes to the store's
 *   /admin/oauth/authorize with the client id, the scopes the connector needs, this connector's
 *   callback and the nonce (no `grant_options[]`: an offline token, which outlives the person).
 * GET /shopify/callback/:tenant (Shopify sends the browser back with `code`, `shop`, `state`,
 *   `timestamp`, `hmac`): the hmac, the store, the timestamp (an hour at most), the nonce (the same
 *   as the cookie's and still unused) are checked before the code is exchanged at
 *   /admin/oauth/access_token; the granted scopes must cover the connector's (write implies read);
 *   then the token is sealed with the operator's key and kept (./installed-token.ts). Nothing is
 *   stored on any refusal, and the token is never logged.
 */

const STATE_TTL_MS = 10 * 60_000;
const MAX_REQUEST_AGE_S = 3_600;
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/** The query Shopify signed: every parameter but `hmac` (and the legacy `signature`), sorted, `k=v` joined by `&`, HMAC-SHA256 in hex with the client secret. */
export function signedQueryMessage(query: URLSearchParams): string {
  return [...query.entries()]
    .filter(([key]) => key !== 'hmac' && key !== 'signature')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

export function verifyShopifyQueryHmac(query: URLSearchParams, secrets: readonly string[]): boolean {
  const given = query.get('hmac') ?? '';
  if (!/^[0-9a-f]{64}$/i.test(given) || query.getAll('hmac').length !== 1) return false;
  const message = signedQueryMessage(query);
  return secrets.some((secret) => secret !== '' && timingSafeEqual(createHmac('sha256', secret).update(message).digest(), Buffer.from(given, 'hex')));
}


/** The scopes the connector needs that Shopify did not grant; `write_x` covers `read_x`. */
export function missingScopes(granted: readonly string[]): string[] {
  return REQUIRED_SCOPES.filter((scope) => !granted.includes(scope) && !(scope.startsWith('read_') && granted.includes(scope.replace(/^read_/, 'write_'))));
}

function queryOf(req: Request): URLSearchParams {
  const at = req.originalUrl.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : req.originalUrl.slice(at + 1));
}

function cookieName(tenant: string): string {
  return `mf_shopify_state_${tenant.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export function shopifyInstallRouter(deps: WebhookRouteDeps): Router {
  const router = Router();
  const now = deps.now ?? Date.now;
  const stateKey = (tenant: string, nonce: string): string => `${deps.prefix}:shopify-oauth-state:${tenant}:${nonce}`;
  const secure = deps.publicUrl.startsWith('https:');
  const callbackUrl = (tenant: string): string => `${deps.publicUrl.replace(/\/+$/, '')}/shopify/callback/${encodeURIComponent(tenant)}`;

  const answer = (res: Response, status: number, lang: Lang, code: InstallWordCode, params: { shop: string; tenant: string; scopes?: string }, reason: string): void => {
    const words = { shop: params.shop, tenant: params.tenant, scopes: params.scopes ?? '' };
    if (status >= 400) {
      deps.metrics.webhooksRefused.inc({ tenant: params.tenant, reason: `install-${reason}` });
      deps.logger.warn({ tenant: params.tenant, shop: params.shop, reason }, 'Shopify install refused');
    }
    res.status(status).type('html').send(page(lang, installWords('title', lang, words), html`<p>${installWords(code, lang, words)}</p>`));
  };

  /** The tenant of an install request: a Shopify tenant with a client id; otherwise 404, as for any unknown path. */
  const tenantOf = (req: Request, res: Response): TenantRuntime | undefined => {
    const runtime = deps.tenants.get(String(req.params.tenant));
    if (!runtime?.config.shopify?.clientId) {
      res.status(404).json({ error: 'unknown-tenant' });
      return undefined;
    }
    return runtime;
  };

  /** The checks both routes make of what Shopify sent: the hmac, the store, the age. Undefined when they pass. */
  const refusal = (query: URLSearchParams, runtime: TenantRuntime, requireHmac: boolean): { status: number; code: InstallWordCode; reason: string } | undefined => {
    const store = runtime.config.shopify;
    if (!store) return { status: 404, code: 'other-shop', reason: 'unknown-tenant' };
    const shop = query.get('shop');
    if ((requireHmac || query.has('hmac') || shop !== null) && !verifyShopifyQueryHmac(query, store.clientSecrets)) return { status: 401, code: 'bad-hmac', reason: 'invalid-hmac' };
    if (shop !== null && (!SHOP_DOMAIN.test(shop) || shop !== store.shopDomain)) return { status: 400, code: 'other-shop', reason: 'other-shop' };
    const timestamp = query.get('timestamp');
    if (timestamp !== null && !(Math.abs(now() / 1000 - Number(timestamp)) <= MAX_REQUEST_AGE_S)) return { status: 400, code: 'stale-request', reason: 'stale' };
    return undefined;
  };

  /**
   * What both routes do first: the tenant (404 otherwise), its store and language, the query and the
   * words' parameters; Shopify's hmac, the store and the age checked (required on the callback); the
   * operator's key present. Undefined when the request was answered already.
   */
  const opening = (req: Request, res: Response, requireHmac: boolean) => {
    const runtime = tenantOf(req, res);
    if (!runtime) return undefined;
    const tenant = runtime.config;
    const store = tenant.shopify as NonNullable<typeof tenant.shopify>;
    const lang = tenant.settings.language;
    const query = queryOf(req);
    const params = { shop: query.get('shop') ?? store.shopDomain, tenant: tenant.id };
    const refused = refusal(query, runtime, requireHmac);
    if (refused) return void answer(res, refused.status, lang, refused.code, params, refused.reason);
    if (!deps.secretsKey) return void answer(res, 503, lang, 'no-secrets-key', params, 'no-secrets-key');
    return { tenant, store, lang, query, params, secretsKey: deps.secretsKey };
  };

  router.get('/shopify/install/:tenant', async (req: Request, res: Response) => {
    const opened = opening(req, res, false);
    if (!opened) return;
    const { tenant, store } = opened;
    const nonce = randomBytes(16).toString('hex');
    try {
      await deps.redis.set(stateKey(tenant.id, nonce), '1', 'PX', STATE_TTL_MS);
    } catch (error) {
      return void res.status(503).json({ error: 'redis-unavailable', detail: (error as Error).message });
    }
    const cookie = [`${cookieName(tenant.id)}=${nonce}`, `Path=/shopify/callback/${encodeURIComponent(tenant.id)}`, `Max-Age=${STATE_TTL_MS / 1000}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
    res.setHeader('Set-Cookie', cookie.join('; '));
    const authorize = new URL(`${store.adminUrl}/admin/oauth/authorize`);
    authorize.searchParams.set('client_id', store.clientId as string);
    authorize.searchParams.set('scope', REQUIRED_SCOPES.join(','));
    authorize.searchParams.set('redirect_uri', callbackUrl(tenant.id));
    authorize.searchParams.set('state', nonce);
    deps.logger.info({ tenant: tenant.id, shop: store.shopDomain }, 'Shopify install started');
    res.redirect(302, authorize.toString());
  });

  router.get('/shopify/callback/:tenant', async (req: Request, res: Response) => {
    const opened = opening(req, res, true);
    if (!opened) return;
    const { tenant, store, lang, query, params, secretsKey } = opened;
    const state = query.get('state') ?? '';
    const cookie = cookieOf(req, cookieName(tenant.id));
    // The nonce must be this browser's (the cookie) and still unused (deleted as it is read: one use).
    const known = cookie !== undefined && /^[0-9a-f]{32}$/.test(state) && state === cookie ? await deps.redis.getdel(stateKey(tenant.id, state)) : null;
    if (known === null) return answer(res, 403, lang, 'bad-state', params, 'bad-state');
    res.setHeader('Set-Cookie', `${cookieName(tenant.id)}=; Path=/shopify/callback/${encodeURIComponent(tenant.id)}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);

    let granted: TokenGrant;
    try {
      const exchange = await request(`${store.adminUrl}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        // `expiring: 1`: an expiring offline token and its refresh token (./installed-token.ts).
        body: JSON.stringify({ client_id: store.clientId, client_secret: store.clientSecrets[0], code: query.get('code') ?? '', expiring: 1 }),
        headersTimeout: store.timeoutMs,
        bodyTimeout: store.timeoutMs,
      });
      const text = await exchange.body.text();
      if (exchange.statusCode !== 200) throw new Error(`HTTP ${exchange.statusCode}`);
      granted = tokenGrantSchema.parse(JSON.parse(text));
    } catch (error) {
      // The answer's text is not logged: a 200 with an odd shape could still hold a token.
      deps.logger.warn({ tenant: tenant.id, shop: store.shopDomain, err: error instanceof z.ZodError ? 'unexpected answer shape' : (error as Error).message }, 'Shopify code exchange failed');
      return answer(res, 502, lang, 'exchange-failed', params, 'exchange-failed');
    }
    const scopes = granted.scope.split(',').map((scope) => scope.trim()).filter((scope) => scope !== '');
    const missing = missingScopes(scopes);
    if (missing.length > 0) return answer(res, 403, lang, 'missing-scopes', { ...params, scopes: missing.join(', ') }, 'missing-scopes');
    try {
      await saveInstalledToken({ redis: deps.redis, prefix: deps.prefix, secretsKey }, tenant.id, store.shopDomain, granted, scopes, new Date(now()));
    } catch (error) {
      return void res.status(503).json({ error: 'redis-unavailable', detail: (error as Error).message });
    }
    deps.logger.info({ tenant: tenant.id, shop: store.shopDomain, scopes, expiring: granted.expires_in !== undefined }, 'Shopify app installed; offline token stored sealed');
    answer(res, 200, lang, 'installed', params, 'installed');
  });
  return router;
}
