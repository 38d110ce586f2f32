import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import IORedis from 'ioredis';
import { request } from 'undici';
import { parseConfig } from '../../../connector/config/load-config';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import { openSealedSecret } from '../../../connector/core/sealed-secret';
import { startConnector, type RunningConnector } from '../../../connector/main/runtime';
import { installedTokenKey } from '../../../platforms/shopify/installed-token';
import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { startTestSandbox, type RunningSandbox } from '../../support/sandbox';
import { eventually, quietLogger, rawTestConfig, REDIS_URL } from '../../connector/support/harness';
import { TAXES_INCLUDED } from './fixtures/orders';

/**
 * A client store installs the agency's custom-distribution app through the connector: the app URL
 * Shopify opens (signed query) -> the store's consent screen -> the callback with the code -> the
 * offline token exchanged, its scopes checked and kept sealed in Redis -> the webhook watch
 * subscribes with it -> a paid order is invoiced with it. Every refusal stores nothing.
 */

const TENANT = 'cliente-a';
const KEY_HEX = randomBytes(32).toString('hex');

describe('the Shopify install flow served by the connector', () => {
  // No token until the store installs the app.
  const store = new FakeShopify({ retryDelayMs: () => 5, accessToken: '', shopDomain: 'cliente-a.myshopify.com' });
  const redis = new IORedis(REDIS_URL);
  const prefix = `mft-${randomBytes(6).toString('hex')}`;
  let sandbox: RunningSandbox;
  let connector: RunningConnector;
  /** The connector's public origin is its own address here: Shopify's redirects and deliveries reach it directly. */
  let publicUrl: string;

  const installUrl = (): string => `${connector.origin}/shopify/install/${TENANT}`;
  const get = async (url: string, cookie?: string) => {
    const answer = await request(url, { headers: cookie ? { cookie } : {} });
    const body = await answer.body.text();
    const setCookie = answer.headers['set-cookie'];
    return { status: answer.statusCode, location: String(answer.headers.location ?? ''), cookie: (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0], body };
  };
  /** Install -> consent -> the callback URL Shopify sends the browser to, and the browser's state cookie. */
  const throughConsent = async (): Promise<{ callback: string; cookie: string }> => {
    const install = await get(store.installRequestUrl(installUrl()));
    expect(install.status).toBe(302);
    const consent = await get(install.location);
    expect(consent.status).toBe(302);
    return { callback: consent.location, cookie: install.cookie as string };
  };
  const stored = (): Promise<string | null> => redis.get(installedTokenKey(prefix, TENANT));

  beforeAll(async () => {
    await store.start();
    sandbox = await startTestSandbox();
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    publicUrl = `http://127.0.0.1:${port}`;
    const raw = rawTestConfig({ prefix, wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: sandbox.baseUrl, server: { port, publicUrl, secretsKey: KEY_HEX }, sweep: { webhookCheckSeconds: 1 } });
    const tenant = (raw.tenants as JsonObject[])[0];
    delete tenant.shop;
    Object.assign(tenant, {
      id: TENANT,
      platform: 'shopify',
      shopify: { shopDomain: store.shopDomain, adminUrl: store.url, clientId: store.clientId, clientSecret: store.clientSecret },
      settings: { language: 'en', goLiveAt: '2020-01-01T00:00:00Z', onCancelled: 'ignore', mapping: { externalIdPrefix: 'shopify-', shopTimeZone: 'Europe/Lisbon' } },
    });
    connector = await startConnector(parseConfig(raw, 'tenants.yaml', {}), { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
  });
  afterAll(async () => {
    await connector.close();
    await store.close();
    await sandbox.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('sends the browser to the store\'s consent screen with the client id, the scopes, the callback and a state bound by a cookie', async () => {
    const install = await get(store.installRequestUrl(installUrl()));
    expect(install.status).toBe(302);
    const authorize = new URL(install.location);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${store.url}/admin/oauth/authorize`);
    expect(authorize.searchParams.get('client_id')).toBe(store.clientId);
    expect(authorize.searchParams.get('scope')).toBe('read_orders,write_orders');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${publicUrl}/shopify/callback/${TENANT}`);
    expect(authorize.searchParams.getAll('grant_options[]')).toEqual([]); // an offline token
    const state = authorize.searchParams.get('state') as string;
    expect(state).toMatch(/^[0-9a-f]{32}$/);
    expect(install.cookie).toBe(`mf_shopify_state_${TENANT}=${state}`);
  });

  it.each([
    ['a query not signed by the app\'s secret', (url: string) => url.replace(/hmac=[0-9a-f]+/, `hmac=${'0'.repeat(64)}`), 401],
    ['a signed request from another store', () => `${installUrl()}?${store.signQuery({ shop: 'outra-loja.myshopify.com', timestamp: String(Math.floor(Date.now() / 1000)) }).toString()}`, 400],
    ['a shop that is not a myshopify.com domain', () => `${installUrl()}?${store.signQuery({ shop: 'evil.example.com', timestamp: String(Math.floor(Date.now() / 1000)) }).toString()}`, 400],
    ['a request two hours old', () => store.installRequestUrl(installUrl(), new Date(Date.now() - 2 * 3_600_000)), 400],
  ])('refuses %s', async (_name, urlOf, status) => {
    const answer = await get(urlOf(store.installRequestUrl(installUrl())));
    expect(answer.status).toBe(status);
    expect(answer.location).toBe('');
  });

  it('refuses a callback whose state is not this browser\'s, or that comes back a second time; nothing is stored', async () => {
    const { callback, cookie } = await throughConsent();
    // Another browser (no cookie, or another one) cannot finish it.
    expect((await get(callback)).status).toBe(403);
    expect((await get(callback, `mf_shopify_state_${TENANT}=${'a'.repeat(32)}`)).status).toBe(403);
    // An altered callback fails its hmac before anything else.
    expect((await get(callback.replace(/code=[0-9a-f]+/, 'code=forged'), cookie)).status).toBe(401);
    expect(await stored()).toBeNull();
    expect(store.accessToken).toBe('');
  });

  it('stores nothing when the merchant granted less than the connector needs', async () => {
    store.consent = { scopes: ['read_orders'] };
    const { callback, cookie } = await throughConsent();
    const answer = await get(callback, cookie);
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('write_orders');
    expect(await stored()).toBeNull();
    store.consent = {};
  });

  it('exchanges the code for the offline token and keeps it sealed with the operator\'s key, never in clear', async () => {
    const { callback, cookie } = await throughConsent();
    const answer = await get(callback, cookie);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('The app is installed on cliente-a.myshopify.com');
    expect(answer.cookie).toBe(`mf_shopify_state_${TENANT}=`); // the state cookie cleared
    expect(store.accessToken).toMatch(/^shpat_/);
    const value = (await stored()) as string;
    expect(value).not.toContain(store.accessToken);
    const { sealed, scopes } = JSON.parse(value) as { sealed: string; scopes: string[] };
    expect(scopes).toEqual(['write_orders']);
    expect(openSealedSecret(sealed, Buffer.from(KEY_HEX, 'hex'), `shopify-offline-token|${TENANT}|${store.shopDomain}`)).toBe(store.accessToken);
    // An expiring token (expiring=1): its refresh token kept sealed beside it, never in clear.
    const refreshToken = store.expiring?.refreshToken as string;
    expect(refreshToken).toMatch(/\S/);
    expect(value).not.toContain(refreshToken);
    const { refreshSealed } = JSON.parse(value) as { refreshSealed: string };
    expect(openSealedSecret(refreshSealed, Buffer.from(KEY_HEX, 'hex'), `shopify-refresh-token|${TENANT}|${store.shopDomain}`)).toBe(refreshToken);
    expect(() => openSealedSecret(sealed, randomBytes(32), `shopify-offline-token|${TENANT}|${store.shopDomain}`)).toThrow(/does not open/);
    expect(() => openSealedSecret(sealed, Buffer.from(KEY_HEX, 'hex'), `shopify-offline-token|another|${store.shopDomain}`)).toThrow(/does not open/);
    // The same callback again: its state was used once and is gone.
    expect((await get(callback, cookie)).status).toBe(403);
  });

  it('then subscribes to the store\'s webhooks and invoices a paid order with the installed token', async () => {
    await eventually('the webhook watch subscribed with the installed token', () => ([...store.subscriptions.values()].some((s) => s.topic === 'orders/paid') ? true : undefined));
    store.addOrder(TAXES_INCLUDED);
    const number = await eventually('the invoice number on the Shopify order', () => {
      const order = store.orders.get(String(TAXES_INCLUDED.id)) as JsonObject;
      return ((order.metafields as JsonObject[]).find((m) => m.key === 'magnifinance_document_number')?.value as string | undefined) ?? undefined;
    });
    expect(number).toMatch(/\S+/);
    expect(sandbox.store.documents().filter((doc) => doc.document.ExternalId === `shopify-${String(TAXES_INCLUDED.legacyResourceId)}` && doc.status !== 'draft')).toHaveLength(1);
  });
  it('Redis lost the sealed token and the token Shopify had expired: the store\'s console page says, in plain words, to install the app again', async () => {
    await redis.del(installedTokenKey(prefix, TENANT));
    store.expireAccessToken();
    const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };
    // The sweep (every few minutes, or now) finds the store refusing the token.
    const sweep = await request(`${connector.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ tenant: TENANT }) });
    await sweep.body.text();
    const text = await eventually('the console page names the fix', async () => {
      const answer = await request(`${connector.origin}/console/${TENANT}?lang=en`, { headers: ADMIN });
      const body = await answer.body.text();
      return body.includes('Install the app again') ? body : undefined;
    });
    expect(text).toMatch(/Shopify refused the access token of cliente-a\.myshopify\.com: the app was uninstalled, or the connector lost the stored token \(a Redis restarted without its append-only file loses it\), or can no longer refresh it\. Install the app again: open \/shopify\/install\/cliente-a/);
    expect(text).not.toMatch(/WooCommerce|consumerKey|REST key/);
  });
});
