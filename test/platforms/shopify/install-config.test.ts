import { ConfigError, parseConfig } from '../../../connector/config/load-config';
import { parseSecretsKey } from '../../../connector/core/sealed-secret';
import type { JsonObject } from '../../support/fake-shopify';
import { rawTestConfig } from '../../connector/support/harness';

/** The tenants file's side of the install flow: a Shopify store needs a token or a client id; the operator's key must be 32 bytes. */

function configWith(shopify: JsonObject, server: JsonObject = {}): Record<string, unknown> {
  const raw = rawTestConfig({ prefix: 'mft-config', wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: 'http://sandbox.test', server });
  const tenant = (raw.tenants as JsonObject[])[0];
  delete tenant.shop;
  Object.assign(tenant, { id: 'loja', platform: 'shopify', shopify: { shopDomain: 'loja.myshopify.com', clientSecret: 'shpss_secret', ...shopify } });
  return raw;
}

function problemsOf(raw: Record<string, unknown>): string {
  try {
    parseConfig(raw, 'tenants.yaml', {});
    return '';
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
}

describe('a Shopify store installed through the connector, in the tenants file', () => {
  it('takes a client id instead of a token', () => {
    const config = parseConfig(configWith({ clientId: 'abcdef0123456789' }, { secretsKey: 'a'.repeat(64) }), 'tenants.yaml', {});
    expect(config.tenants[0].shopify?.clientId).toBe('abcdef0123456789');
    expect(config.tenants[0].shopify?.accessToken).toBeUndefined();
  });

  it('refuses a store with neither a token nor a client id, saying which to give', () => {
    expect(problemsOf(configWith({}))).toMatch(/accessToken.*needs accessToken \(a token given here\) or clientId/s);
  });

  it.each([
    ['too short', 'abc123'],
    ['hex of 31 bytes', 'ab'.repeat(31)],
    ['base64 of 16 bytes', Buffer.alloc(16, 7).toString('base64')],
  ])('refuses an operator key %s, without echoing it', (_name, key) => {
    const problems = problemsOf(configWith({ clientId: 'abcdef0123456789' }, { secretsKey: key }));
    expect(problems).toMatch(/server\.secretsKey.*32 random bytes/s);
    expect(problems).not.toContain(key);
  });

  it.each([
    ['64 hex digits', 'ab'.repeat(32)],
    ['base64', Buffer.alloc(32, 9).toString('base64')],
    ['base64url', Buffer.alloc(32, 250).toString('base64url')],
  ])('reads a key of %s as 32 bytes', (_name, key) => {
    expect(parseSecretsKey(key)?.length).toBe(32);
  });
});
