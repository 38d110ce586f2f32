import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfigFile, parseConfig, parseConfigText } from '../../connector/config/load-config';
import { parseRedisUrl, tlsOptions } from '../../connector/core/redis-connection';
import { rawTestConfig } from './support/harness';

const base = {
  server: { publicUrl: 'https://invoices.example.pt', linkSecret: { env: 'LINK_SECRET' } },
  admin: { username: 'admin', password: '${ADMIN_PASSWORD}' },
  tenants: [
    {
      id: 'loja1',
      shop: { url: 'https://loja1.example.pt', consumerKey: { env: 'LOJA1_CK' }, consumerSecret: { env: 'LOJA1_CS' }, webhookSecret: { env: 'LOJA1_WH' } },
      invoicing: { email: 'faturas@loja1.pt', token: { env: 'LOJA1_MF_TOKEN' } },
    },
  ],
};
const env = { LINK_SECRET: '6b1f0e9a3c7d2e5f8a4b1c9d0e7f3a2b', ADMIN_PASSWORD: 'admin-password', LOJA1_CK: 'ck', LOJA1_CS: 'cs', LOJA1_WH: 'webhook-secret', LOJA1_MF_TOKEN: 't' };

function problemsOf(raw: unknown, environment: NodeJS.ProcessEnv = env): string[] {
  try {
    parseConfig(raw, 'tenants.json', environment);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((p) => `${p.path}: ${p.message}`);
  }
}

describe('the tenants file: one zod schema, secrets from the environment, every problem at once', () => {
  it('a minimal file gets the documented defaults and resolved secrets', () => {
    const config = parseConfig(base, 'tenants.json', env);
    expect(config.tenants[0]).toMatchObject({
      shop: { consumerKey: 'ck', consumerSecret: 'cs', webhookSecret: 'webhook-secret' },
      invoicing: { token: 't', baseUrl: 'https://bo.magnifinance.com/api/v1.1' },
      settings: { triggerStatuses: ['processing', 'completed'], waybill: false, onCancelled: 'credit-note', customerNote: false },
    });
    expect(config.pipeline.finalizeDelayMs).toBe(10_000);
    expect(config.admin.password).toBe('admin-password');
    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'mf', enqueueTimeoutMs: 2_000, cluster: false });
  });

  it('reports every missing environment variable in one go, saying where it looked', () => {
    const looked = "(looked in the process's environment; no .env file beside the tenants file, none given with --env-file)";
    expect(problemsOf(base, {}).sort()).toEqual(
      [
        `server.linkSecret: the environment variable LINK_SECRET is not set ${looked}: add LINK_SECRET=… to the .env file`,
        `admin.password: the environment variable ADMIN_PASSWORD is not set ${looked}: add ADMIN_PASSWORD=… to the .env file`,
        `tenants.0.invoicing.token: the environment variable LOJA1_MF_TOKEN is not set ${looked}: add LOJA1_MF_TOKEN=… to the .env file`,
        `tenants.0.shop.consumerKey: the environment variable LOJA1_CK is not set ${looked}: add LOJA1_CK=… to the .env file`,
        `tenants.0.shop.consumerSecret: the environment variable LOJA1_CS is not set ${looked}: add LOJA1_CS=… to the .env file`,
        `tenants.0.shop.webhookSecret: the environment variable LOJA1_WH is not set ${looked}: add LOJA1_WH=… to the .env file`,
      ].sort(),
    );
  });

  it('a file with schema mistakes AND missing variables is refused with all of them at once, in Portuguese for Portuguese tenants', () => {
    const bad = { ...base, tenants: [{ ...base.tenants[0], shop: { ...base.tenants[0].shop, url: 'ftp://x' } }] };
    let error: ConfigError | undefined;
    try {
      parseConfig(bad, 'tenants.json', { ...env, LOJA1_CS: '', ADMIN_PASSWORD: '' }, { envFile: '/srv/loja/.env' });
    } catch (caught) {
      error = caught as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.problems.map((p) => p.path).sort()).toEqual(['admin.password', 'tenants.0.shop.consumerSecret', 'tenants.0.shop.url']);
    // The tenants say no language: Portuguese, the product's default; no English word in it.
    expect(error?.lang).toBe('pt');
    const text = error?.text() ?? '';
    expect(text).toContain('tenants.json: 3 problemas');
    expect(text).toContain('admin.password: a variável de ambiente ADMIN_PASSWORD não está definida (procurada em /srv/loja/.env e no ambiente do processo)');
    expect(text).not.toMatch(/\b(environment|variable|not set|Invalid|expected)\b/);
    expect(error?.text('en')).toContain('admin.password: the environment variable ADMIN_PASSWORD is not set (looked in /srv/loja/.env and in the process\'s environment)');
  });

  it('reports every schema problem in one go, each with its path', () => {
    const bad = {
      ...base,
      tenants: [{ ...base.tenants[0], id: 'Loja 1', shop: { ...base.tenants[0].shop, url: 'ftp://x' }, settings: { onCancelled: 'refund', documentType: 'X', bogus: 1 } }],
    };
    const problems = problemsOf(bad);
    expect(problems.length).toBeGreaterThanOrEqual(5);
    for (const path of ['tenants.0.id', 'tenants.0.shop.url', 'tenants.0.settings.onCancelled', 'tenants.0.settings.documentType', 'tenants.0.settings']) {
      expect(problems.some((p) => p.startsWith(`${path}:`))).toBe(true);
    }
  });

  it.each([
    ['against the real service, below 10 s', { finalizeDelayMs: 2_000, minFinalizeDelayMs: 1_000 }, undefined, 'pipeline.finalizeDelayMs: tenant loja1 uses the real service'],
    ['below the configured floor', { finalizeDelayMs: 2_000 }, 'http://127.0.0.1:4010/api/v1.1', 'pipeline.finalizeDelayMs: must be at least pipeline.minFinalizeDelayMs (10000 ms)'],
  ])('refuses a finalize delay %s', (_name, pipeline, baseUrl, message) => {
    const tenant = { ...base.tenants[0], invoicing: { ...base.tenants[0].invoicing, ...(baseUrl ? { baseUrl } : {}) } };
    expect(problemsOf({ ...base, pipeline, tenants: [tenant] }).join('\n')).toContain(message);
  });

  it('accepts a short delay for a sandbox when the floor is lowered (tests, demo)', () => {
    const tenant = { ...base.tenants[0], invoicing: { ...base.tenants[0].invoicing, baseUrl: 'http://127.0.0.1:4010/api/v1.1' } };
    expect(problemsOf({ ...base, pipeline: { finalizeDelayMs: 2_000, minFinalizeDelayMs: 2_000 }, tenants: [tenant] })).toEqual([]);
  });

  it('refuses duplicate tenant ids', () => {
    expect(problemsOf({ ...base, tenants: [base.tenants[0], base.tenants[0]] })).toEqual(['tenants.1.id: duplicate tenant id loja1']);
  });

  it.each([
    ['tenants.yaml', `server:\n  publicUrl: https://invoices.example.pt\n  linkSecret: \${LINK_SECRET}\nadmin:\n  username: admin\n  password: { env: ADMIN_PASSWORD }\ntenants:\n  - id: loja1\n    shop:\n      url: https://loja1.example.pt\n      consumerKey: { env: LOJA1_CK }\n      consumerSecret: { env: LOJA1_CS }\n      webhookSecret: { env: LOJA1_WH }\n    invoicing:\n      email: faturas@loja1.pt\n      token: { env: LOJA1_MF_TOKEN }\n      partnerToken: \${LOJA1_MF_TOKEN}\n      companyNif: '232013969'\n      partnerTokensForm: spec\n    settings:\n      triggerStatuses: [completed]\n      waybill: true\n`],
    ['tenants.json', JSON.stringify(base)],
  ])('reads %s', (name, text) => {
    const dir = mkdtempSync(join(tmpdir(), 'mf-config-'));
    writeFileSync(join(dir, name), text);
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const config = loadConfigFile(join(dir, name));
      expect(config.tenants[0].invoicing.token).toBe('t');
    } finally {
      process.env = saved;
    }
  });

  it('a file that is not YAML/JSON is reported, not thrown raw', () => {
    expect(() => parseConfigText('{ not json', 'tenants.json', env)).toThrow(ConfigError);
    expect(() => loadConfigFile('/nonexistent/tenants.yaml')).toThrow(/cannot read the file/);
  });
});

describe('the example tenants file in the repository is valid', () => {
  it('connector/tenants.example.yaml parses with its variables set', () => {
    const names = ['LINK_SECRET', 'ADMIN_PASSWORD', 'REDIS_URL', 'LOJA1_WC_KEY', 'LOJA1_WC_SECRET', 'LOJA1_WEBHOOK_SECRET', 'LOJA1_MF_TOKEN', 'CLIENTE_WC_KEY', 'CLIENTE_WC_SECRET', 'CLIENTE_WEBHOOK_SECRET', 'AGENCIA_MF_TOKEN', 'CLIENTE_PARTNER_TOKEN', 'AGENCIA_MF_PASSWORD', 'SMTP_USER', 'SMTP_PASSWORD', 'LOJA1_ALERT_WEBHOOK_URL', 'LOJA_SHOPIFY_TOKEN', 'LOJA_SHOPIFY_SECRET', 'LOJA_SHOPIFY_MF_TOKEN'];
    const environment = Object.fromEntries(names.map((name) => [name, name === 'REDIS_URL' ? 'redis://127.0.0.1:6379' : name.endsWith('_URL') ? 'https://hooks.slack.com/services/T/B/x' : `value-of-${name}`]));
    const config = parseConfigText(readFileSync(join(__dirname, '../../connector/tenants.example.yaml'), 'utf8'), 'tenants.example.yaml', environment);
    expect(config.tenants.map((t) => t.id)).toEqual(['loja1', 'cliente-agencia', 'loja-shopify']);
    // The agency's partner list, its token read from the environment, lent to every tenant.
    expect(config.agency?.partners).toEqual([
      { name: 'Cliente Novo, Lda.', nif: '232013969', token: 'value-of-CLIENTE_PARTNER_TOKEN' },
      { name: 'Outro Cliente, Lda.', nif: '516123459' },
    ]);
    expect(config.tenants[1].agencyPartners).toEqual(config.agency?.partners);
    // A Shopify store: its block resolved, the client secret is its webhook key, Shopify's trigger statuses by default.
    expect(config.tenants[2]).toMatchObject({
      platform: 'shopify',
      shopify: { shopDomain: 'loja-exemplo.myshopify.com', accessToken: 'value-of-LOJA_SHOPIFY_TOKEN', clientSecrets: ['value-of-LOJA_SHOPIFY_SECRET'], adminUrl: 'https://loja-exemplo.myshopify.com', sale: { currency: 'shop' } },
      shop: { url: 'https://loja-exemplo.myshopify.com', webhookSecret: 'value-of-LOJA_SHOPIFY_SECRET' },
      settings: { triggerStatuses: ['paid', 'partially_refunded'] },
    });
    expect(config.tenants[1].invoicing.partnerToken).toBe('value-of-CLIENTE_PARTNER_TOKEN');
    expect(config.tenants[1].invoicing).toMatchObject({ companyNif: '232013969', password: 'value-of-AGENCIA_MF_PASSWORD' });
    expect(config.tenants[0].alerts).toMatchObject({ digestSeconds: 300, maxMessagesPerHour: 6, email: { smtp: { password: 'value-of-SMTP_PASSWORD', port: 587 } }, webhook: { url: 'https://hooks.slack.com/services/T/B/x' } });
  });

  it('an alerts block needs a channel; a webhook URL that is not http(s) is refused', () => {
    const withAlerts = (alerts: unknown) => ({ ...base, tenants: [{ ...base.tenants[0], alerts }] });
    expect(problemsOf(withAlerts({ digestSeconds: 60 }))).toEqual(['tenants.0.alerts: name at least one channel: email or webhook']);
    expect(problemsOf(withAlerts({ webhook: { url: { env: 'HOOK' } } }), { ...env, HOOK: 'ftp://x' })).toEqual(['tenants.0.alerts.webhook.url: must be an http(s) URL']);
    expect(problemsOf(withAlerts({ webhook: { url: { env: 'HOOK' } } }))).toEqual([expect.stringMatching(/^tenants\.0\.alerts\.webhook\.url: the environment variable HOOK is not set \(/)]);
  });
});

describe('the redis block: managed (TLS) and clustered Redis', () => {
  const withRedis = (redis: Record<string, unknown>) => ({ ...base, redis: { url: { env: 'REDIS_URL' }, ...redis } });
  const redisEnv = { ...env, REDIS_URL: 'rediss://default:s%40cret@cache.example.com:6380/0' };

  it('a hash-tag prefix such as {mf} is accepted, with or without cluster', () => {
    expect(problemsOf(withRedis({ prefix: '{mf}' }), redisEnv)).toEqual([]);
    expect(problemsOf(withRedis({ prefix: '{mf}:loja', cluster: true }), redisEnv)).toEqual([]);
    expect(parseConfig(withRedis({ prefix: '{mf}', cluster: true }), 't', redisEnv).redis).toMatchObject({ prefix: '{mf}', cluster: true, url: redisEnv.REDIS_URL });
  });

  it('cluster without a hash tag, or a broken tag, is refused with the fix', () => {
    expect(problemsOf(withRedis({ prefix: 'mf', cluster: true }), redisEnv)).toEqual(['redis.prefix: on a Redis Cluster the prefix must be a hash tag such as {mf} so each script\'s keys share one slot']);
    expect(problemsOf(withRedis({ prefix: '{mf' }), redisEnv)).toEqual(['redis.prefix: at most one {hash-tag}, not empty, braces balanced']);
    expect(problemsOf(withRedis({ prefix: '{}' }), redisEnv)).toHaveLength(1);
  });

  it('a rediss:// URL turns TLS on with the certificate checked; credentials and db come from the URL', () => {
    const node = parseRedisUrl(redisEnv.REDIS_URL);
    expect(node).toEqual({ host: 'cache.example.com', port: 6380, username: 'default', password: 's@cret', db: 0, tls: true });
    expect(tlsOptions({ url: redisEnv.REDIS_URL, cluster: false }, node)).toEqual({ rejectUnauthorized: true, servername: 'cache.example.com' });
    const plain = parseRedisUrl('redis://127.0.0.1');
    expect(plain).toEqual({ host: '127.0.0.1', port: 6379, tls: false });
    expect(tlsOptions({ url: 'redis://127.0.0.1', cluster: false }, plain)).toBeUndefined();
    expect(() => parseRedisUrl('http://127.0.0.1:6379')).toThrow('must start with redis:// or rediss://');
  });

  it('a private CA file is read into the TLS options', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mf-ca-'));
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    try {
      const tls = tlsOptions({ url: 'rediss://r.internal:6379', cluster: false, tls: { caFile, rejectUnauthorized: true } }, parseRedisUrl('rediss://r.internal:6379'));
      expect(String(tls?.ca)).toContain('BEGIN CERTIFICATE');
      expect(tls?.servername).toBe('r.internal');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('removed settings', () => {
  it('sweep.initialLookbackHours (read by no version any more) is dropped: an older tenants file still loads, and the parsed config has no such key', () => {
    const raw = rawTestConfig({ prefix: 'x', wooOrigin: 'https://shop.example.pt', consumerKey: 'ck', consumerSecret: 'cs', baseUrl: 'http://127.0.0.1:1' });
    const config = parseConfig({ ...raw, sweep: { everyMinutes: 5, initialLookbackHours: 48 } }, 'tenants.yaml', {});
    expect(config.sweep).toEqual({ everyMinutes: 5, webhookCheckSeconds: 60, watchSeconds: 30 });
  });
});
