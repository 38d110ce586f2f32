import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { request } from 'undici';
import { z } from 'zod';
import { shopifySaleSettingsSchema, type ShopifyTenantConfig } from '../../../connector/config/shopify-tenant';
import { openSealedSecret } from '../../../connector/core/sealed-secret';
import { shopServices } from '../../../connector/shop/shop-services';
import { installedTokenKey, installedTokenSource, readInstalledToken, saveInstalledToken, tokenGrantSchema } from '../../../platforms/shopify/installed-token';
import { ShopifyShop } from '../../../platforms/shopify/shopify-shop';
import { installedTokenCheck } from '../../../platforms/shopify/token-check';
import { FakeShopify } from '../../support/fake-shopify';
import { REDIS_URL } from '../../connector/support/harness';

/**
 * Expiring offline tokens (shopify.dev: "Offline access tokens now support expiry and refresh"): the
 * code exchange asked with `expiring=1` gives an access token of an hour and a refresh token; the
 * connector keeps both sealed, refreshes before the hour is out and when Shopify answers 401, one
 * process at a time, and the doctor says when the token can no longer be refreshed or is gone from
 * Redis: install the app again. Against the fake store, which issues and enforces such tokens.
 */

const TENANT = 'cliente-exp';
const KEY_HEX = randomBytes(32).toString('hex');
const SHOP_SCHEMA = z.object({ shop: z.object({ name: z.string() }) });

describe('an expiring offline token, kept and refreshed', () => {
  const store = new FakeShopify({ accessToken: '', shopDomain: 'cliente-exp.myshopify.com' });
  const redis = new IORedis(REDIS_URL);
  const prefix = `mft-${randomBytes(6).toString('hex')}`;
  const services = shopServices(redis, prefix, KEY_HEX);
  const sealedServices = { redis, prefix, secretsKey: Buffer.from(KEY_HEX, 'hex') };
  let config: ShopifyTenantConfig;

  /** A store of this tenant as one connector process builds it (its own token cache). */
  const aProcess = (): ShopifyShop => new ShopifyShop(config, undefined, { installedToken: installedTokenSource(services, TENANT, config) });
  const askName = (shop: ShopifyShop) => shop.client.query('{ shop { name } }', {}, SHOP_SCHEMA);

  /** The merchant consents and the code is exchanged for an expiring token, as the install route does. */
  async function install(): Promise<void> {
    const consent = await request(`${store.url}/admin/oauth/authorize?client_id=${store.clientId}&scope=read_orders,write_orders&redirect_uri=${encodeURIComponent('http://connector.test/cb')}&state=s`);
    const code = new URL(String(consent.headers.location)).searchParams.get('code');
    await consent.body.text();
    const exchange = await request(`${store.url}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: store.clientId, client_secret: store.clientSecret, code, expiring: 1 }),
    });
    const grant = tokenGrantSchema.parse(await exchange.body.json());
    expect(grant.expires_in).toBe(3600);
    expect(grant.refresh_token).toMatch(/\S/);
    await saveInstalledToken(sealedServices, TENANT, store.shopDomain, grant, grant.scope.split(','));
  }

  beforeAll(async () => {
    await store.start();
    config = { shopDomain: store.shopDomain, adminUrl: store.url, clientId: store.clientId, clientSecrets: [store.clientSecret], timeoutMs: 5000, sale: shopifySaleSettingsSchema.parse({}) };
  });
  beforeEach(install);
  afterAll(async () => {
    await store.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('keeps the refresh token sealed like the access token, never in clear', async () => {
    const text = (await redis.get(installedTokenKey(prefix, TENANT))) as string;
    const refreshToken = store.expiring?.refreshToken as string;
    expect(text).not.toContain(refreshToken);
    expect(text).not.toContain(store.accessToken);
    const kept = JSON.parse(text) as { refreshSealed: string; expiresAt: string };
    expect(openSealedSecret(kept.refreshSealed, sealedServices.secretsKey, `shopify-refresh-token|${TENANT}|${store.shopDomain}`)).toBe(refreshToken);
    // Bound to its purpose: the refresh token does not open as an access token.
    expect(() => openSealedSecret(kept.refreshSealed, sealedServices.secretsKey, `shopify-offline-token|${TENANT}|${store.shopDomain}`)).toThrow(/does not open/);
    expect(Date.parse(kept.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('an access token Shopify no longer takes (401): refreshed once, the query sent again, the new pair kept', async () => {
    const shop = aProcess();
    expect((await askName(shop)).shop.name).toBe('Loja Exemplo');
    const before = store.refreshRequests.length;
    store.expireAccessToken();
    expect((await askName(shop)).shop.name).toBe('Loja Exemplo');
    expect(store.refreshRequests.length - before).toBe(1);
    expect(store.requestStatuses.slice(-2)).toEqual([401, 200]);
    const kept = await readInstalledToken(sealedServices, TENANT, store.shopDomain);
    expect(kept?.token).toBe(store.accessToken);
  });

  it('two processes and many jobs on an expired token: one refresh, under the lock; every query answered', async () => {
    const [first, second] = [aProcess(), aProcess()];
    await Promise.all([askName(first), askName(second)]);
    const before = store.refreshRequests.length;
    store.expireAccessToken();
    const answers = await Promise.all([...Array.from({ length: 4 }, () => askName(first)), ...Array.from({ length: 4 }, () => askName(second))]);
    expect(answers.every((a) => a.shop.name === 'Loja Exemplo')).toBe(true);
    expect(store.refreshRequests.slice(before)).toEqual([{ refreshToken: expect.any(String), status: 200 }]);
  });

  it('a token about to expire is refreshed before it is sent, not after a refusal', async () => {
    const kept = JSON.parse((await redis.get(installedTokenKey(prefix, TENANT))) as string) as Record<string, unknown>;
    // Two minutes left: within the refresh margin.
    await redis.set(installedTokenKey(prefix, TENANT), JSON.stringify({ ...kept, expiresAt: new Date(Date.now() + 120_000).toISOString() }));
    const statuses = store.requestStatuses.length;
    const before = store.refreshRequests.length;
    expect((await askName(aProcess())).shop.name).toBe('Loja Exemplo');
    expect(store.refreshRequests.length - before).toBe(1);
    expect(store.requestStatuses.slice(statuses)).toEqual([200]);
  });

  it('a refresh Shopify refuses (invalid_grant): the call fails saying to install again, and the doctor says it in plain words', async () => {
    store.revokeRefreshToken();
    store.expireAccessToken();
    await expect(askName(aProcess())).rejects.toThrow(/refused to refresh the access token of cliente-exp\.myshopify\.com \(invalid_grant\): install the app again/);
    const check = await installedTokenCheck(services, TENANT, config, 'https://connector.example.pt', 'Europe/Lisbon');
    expect(check).toMatchObject({ status: 'fail', name: 'Installed token' });
    expect(check?.detail).toMatch(/Shopify refused to refresh the token of cliente-exp\.myshopify\.com .*\(invalid_grant\)/);
    expect(check?.fix).toBe('Install the app again: open https://connector.example.pt/shopify/install/cliente-exp while logged in to cliente-exp.myshopify.com and accept. It takes a minute; the orders paid meanwhile are caught by the sweep.');
    expect(check?.pt?.fix).toMatch(/^Instale a app de novo: abra https:\/\/connector\.example\.pt\/shopify\/install\/cliente-exp/);
  });

  it('Redis lost the sealed token (no append-only file): the doctor says install the app again, and why', async () => {
    await redis.del(installedTokenKey(prefix, TENANT));
    const check = await installedTokenCheck(services, TENANT, config, 'https://connector.example.pt', 'Europe/Lisbon');
    expect(check?.status).toBe('fail');
    expect(check?.detail).toMatch(/Redis lost the stored token \(a Redis restarted without its append-only file loses it\)/);
    expect(check?.fix).toMatch(/^Install the app again: open https:\/\/connector\.example\.pt\/shopify\/install\/cliente-exp/);
    await expect(askName(aProcess())).rejects.toThrow(/open \/shopify\/install\/cliente-exp on this connector/);
  });

  it('a working expiring token: the doctor says it refreshes itself', async () => {
    const check = await installedTokenCheck(services, TENANT, config, 'https://connector.example.pt', 'Europe/Lisbon');
    expect(check?.status).toBe('ok');
    expect(check?.detail).toMatch(/^expires every hour and the connector refreshes it itself \(refresh token valid until \d\d\/\d\d\/\d{4}/);
  });
});
