import { ConfigError, parseConfig } from '../../connector/config/load-config';
import { SECRET_MIN_LENGTH } from '../../connector/config/secret-ref';
import { startHarness, type Harness } from './support/harness';

const base = {
  server: { publicUrl: 'https://invoices.example.pt', linkSecret: { env: 'LINK_SECRET' } },
  admin: { username: 'admin', password: { env: 'ADMIN_PASSWORD' } },
  tenants: [
    {
      id: 'loja1',
      shop: { url: 'https://loja1.example.pt', consumerKey: { env: 'CK' }, consumerSecret: { env: 'CS' }, webhookSecret: { env: 'WH' } },
      invoicing: { email: 'faturas@loja1.pt', token: { env: 'MF_TOKEN' } },
    },
  ],
};
const good = { LINK_SECRET: '9f3c1a7e5b2d4c6a8e0f1b3d5c7a9e1f', ADMIN_PASSWORD: 'a-long-admin-pw', CK: 'ck_1', CS: 'cs_1', WH: 'wh-secret-1', MF_TOKEN: 'tok' };

function problemsWith(changes: Record<string, string>): string[] {
  try {
    parseConfig(base, 'tenants.yaml', { ...good, ...changes });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((p) => `${p.path}: ${p.message}`);
  }
}

describe('secrets are refused at load when they are examples or too short', () => {
  it('strong secrets of every kind load', () => {
    expect(problemsWith({})).toEqual([]);
  });

  it.each([
    ['the link secret of connector/env.example', 'LINK_SECRET', 'change-me-random-32-characters-or-more', 'server.linkSecret: is an example value'],
    ['a 1-character link secret', 'LINK_SECRET', 'x', `server.linkSecret: is too short (1 characters): use at least ${SECRET_MIN_LENGTH.key}`],
    ['a 15-character link secret', 'LINK_SECRET', 'abcdefghijklmno', 'server.linkSecret: is too short (15 characters)'],
    ['the admin password of connector/env.example', 'ADMIN_PASSWORD', 'change-me', 'admin.password: is an example value'],
    ['"password" as the admin password', 'ADMIN_PASSWORD', 'Password', 'admin.password: is an example value'],
    ['a 7-character admin password', 'ADMIN_PASSWORD', 'abcdefg', `admin.password: is too short (7 characters): use at least ${SECRET_MIN_LENGTH.password}`],
    ['the webhook secret of connector/env.example', 'WH', 'change-me-the-secret-typed-into-the-woocommerce-webhook', 'tenants.0.shop.webhookSecret: is an example value'],
    ['a 1-character webhook secret', 'WH', 'w', 'tenants.0.shop.webhookSecret: is too short'],
    ['the MagniFinance token of connector/env.example', 'MF_TOKEN', 'change-me-magnifinance-api-token', 'tenants.0.invoicing.token: is an example value'],
    ['a WooCommerce key of connector/env.example', 'CK', 'ck_change-me', 'tenants.0.shop.consumerKey: is an example value'],
    ['16 identical characters as the link secret', 'LINK_SECRET', 'aaaaaaaaaaaaaaaa', 'server.linkSecret: is easy to guess (the same characters repeated): choose a long random value, e.g. `openssl rand -hex 32`'],
    ['a repeated unit as the link secret', 'LINK_SECRET', 'abc1abc1abc1abc1abc1', 'server.linkSecret: is easy to guess (the same characters repeated)'],
    ['a link secret of few different characters', 'LINK_SECRET', '0101011010100101', 'server.linkSecret: is easy to guess (too few different characters)'],
    ['the alphabet as the link secret', 'LINK_SECRET', 'abcdefghijklmnopqrs', 'server.linkSecret: is easy to guess (a run of the alphabet'],
    ['"Password2026!" as the admin password', 'ADMIN_PASSWORD', 'Password2026!', 'admin.password: is easy to guess (a common word with digits or signs around it)'],
    ['"P@ssw0rd1" as the admin password', 'ADMIN_PASSWORD', 'P@ssw0rd1', 'admin.password: is easy to guess (a common word'],
    ['"12345678" as the admin password', 'ADMIN_PASSWORD', '87654321', 'admin.password: is easy to guess (a run of the alphabet, the digits or a keyboard row)'],
    ['"qwertyuiop" as the admin password', 'ADMIN_PASSWORD', 'qwertyuiop', 'admin.password: is easy to guess'],
    ['"magnifinance" as the admin password', 'ADMIN_PASSWORD', 'MagniFinance2026', 'admin.password: is easy to guess (a common word'],
    ['a webhook secret of one letter repeated', 'WH', 'zzzzzzzzzz', 'tenants.0.shop.webhookSecret: is easy to guess (the same characters repeated)'],
  ])('%s is refused with a clear error', (_what, variable, value, problem) => {
    const problems = problemsWith({ [variable]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
    // The message never repeats the secret itself (it ends up in logs).
    if (value.length > 3) expect(problems[0]).not.toContain(value);
  });

  it('the same words in Portuguese, from the catalogue', () => {
    try {
      parseConfig(base, 'tenants.yaml', { ...good, LINK_SECRET: 'aaaaaaaaaaaaaaaa' });
      throw new Error('loaded');
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      expect(error.problems[0].pt).toBe('é fácil de adivinhar (os mesmos caracteres repetidos): escolha um valor longo e aleatório, por exemplo `openssl rand -hex 32`');
    }
  });

  it('every weak secret is reported at once', () => {
    expect(problemsWith({ LINK_SECRET: 'short', ADMIN_PASSWORD: 'change-me', WH: 'x' }).map((p) => p.split(':')[0])).toEqual(['server.linkSecret', 'admin.password', 'tenants.0.shop.webhookSecret']);
  });
});

describe('admin logins are limited per client, with back-off and a metric', () => {
  // Each case its own connector: the limits are counted per process, and no case may lean on another's guesses.
  // Behind a proxy on this host (server.trustProxy: loopback): its X-Forwarded-For names the client.
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ server: { trustProxy: ['loopback'] } });
  });
  afterEach(async () => h.close());

  const login = (password: string, forwardedFor?: string) =>
    fetch(`${h.connector?.origin}/admin/api/attention`, { headers: { authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) } });

  it('five wrong guesses are free; then the client waits (429, Retry-After) even with the right password, and gets in once the wait is over', async () => {
    const client = '203.0.113.7';
    for (let i = 0; i < 6; i++) expect((await login('wrong-guess', client)).status).toBe(401);
    const blocked = await login('admin-pw', client);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another client is not affected.
    expect((await login('admin-pw', '198.51.100.9')).status).toBe(200);
    // The wait the answer named (Retry-After, whole seconds, rounded up), and not a moment less.
    await new Promise((resolve) => setTimeout(resolve, Number(blocked.headers.get('retry-after')) * 1_000));
    expect((await login('admin-pw', client)).status).toBe(200);
    const metric = await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_admin_login_refusals_total');
    expect(metric).toContain('outcome="wrong"} 6');
    expect(metric).toContain('outcome="blocked"} 1');
  });

  it('a client that forges a new X-Forwarded-For for every guess meets the limit of its TCP peer', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 102; i++) statuses.push((await login(`guess-${i}`, `192.0.2.${i % 250}, 10.0.0.${i % 250}`)).status);
    // The peer's allowance is 100 wrong guesses: the 101st still gets its 401, and sets the wait.
    expect(statuses.indexOf(429)).toBe(101);
    expect(statuses.slice(0, 101).every((status) => status === 401)).toBe(true);
  });
});

describe('issue 30, point 5: X-Forwarded-For is believed only from the proxies the operator named', () => {
  const login = (h: Harness, password: string, forwardedFor: string) =>
    fetch(`${h.connector?.origin}/admin/api/attention`, { headers: { authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`, 'x-forwarded-for': forwardedFor } });

  it.each([
    ['no proxy configured (the default)', undefined],
    ['a proxy configured that is not the caller', ['10.9.9.9', '172.16.0.0/12']],
  ])('%s: guesses forged as coming from the operator\'s address are counted against the caller, who cannot pick whom to lock out', async (_what, trustProxy) => {
    const h = await startHarness(trustProxy ? { server: { trustProxy } } : {});
    try {
      const operator = '198.51.100.9';
      for (let i = 0; i < 6; i++) expect((await login(h, 'wrong-guess', operator)).status).toBe(401);
      // The same caller, whatever address it now claims, is the one that waits.
      expect((await login(h, 'admin-pw', '203.0.113.50')).status).toBe(429);
    } finally {
      await h.close();
    }
  });

  it('a trustProxy entry that is not an address, a range or a keyword is refused at load', () => {
    const raw = { ...base, server: { ...base.server, trustProxy: ['10.0.0.0/33', 'my-proxy'] } };
    try {
      parseConfig(raw, 'tenants.yaml', good);
      throw new Error('loaded');
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      expect(error.problems.map((p) => p.path)).toEqual(['server.trustProxy.0', 'server.trustProxy.1']);
    }
  });
});
