import { englishWords } from '../support/english-words';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MagniFinanceClient } from '../../client/rest-client';
import { parseConfig } from '../../connector/config/load-config';
import type { Check, TenantReport } from '../../connector/doctor/check';
import { postcodeMatches } from '../../platforms/woocommerce/doctor/shop-checks';
import { renderDoctorReport } from '../../connector/doctor/render';
import { runDoctor, type DoctorReport } from '../../connector/doctor/run-doctor';
import { startFakeWooCommerce, type FakeWooOptions, type RunningFakeWoo } from '../support/fake-woocommerce';
import { startTestSandbox, TEST_ACCOUNT, type RunningSandbox } from '../support/sandbox';
import { portugueseOrder, quietLogger, rawTestConfig, WEBHOOK_SECRET } from './support/harness';
import { describeWithRedisServer, ownRedisServer, type OwnRedisServer } from './support/redis-servers';
import { runCli, writeConfigFile } from './support/worker-process';
import { startViesStandIn, type StandIn } from './support/vies-stand-in';

/** server.publicUrl of rawTestConfig: where the shop must deliver tenant shop1's orders. */
const DELIVERY_URL = 'http://connector.test/webhooks/woocommerce/shop1';
const PARTNER_TAX_ID = '232013969';
/** Another client of the agency: its token in PARTNER_TAX_ID's tenant block is the copied-block mistake. */
const OTHER_PARTNER_TAX_ID = '513000003';

/** What a healthy shop has; each fault changes one thing. */
interface ShopSpec {
  woo: FakeWooOptions;
  roundAtSubtotal: 'yes' | 'no';
  rates: boolean;
  /** Postcode rows giving Madeira and Azores buyers their region's rate (the revoked DL 347/85). */
  regionalRows?: boolean;
  /** The last orders carry the NIF under _billing_nif. */
  nifOnOrders: boolean;
  orders: boolean;
}

const HEALTHY: ShopSpec = { woo: {}, roundAtSubtotal: 'yes', rates: true, nifOnOrders: true, orders: true };

async function startShop(spec: ShopSpec): Promise<RunningFakeWoo> {
  const woo = await startFakeWooCommerce(spec.woo);
  woo.setSetting('tax', 'woocommerce_tax_round_at_subtotal', spec.roundAtSubtotal);
  if (spec.rates) {
    // A mainland shop (the fake's store address is in Lisbon): 23 % for every buyer, wherever in Portugal (CIVA art. 6(1)).
    woo.putTaxRate({ id: 1, rate: '23', name: 'IVA' });
    woo.putTaxRate({ id: 4, rate: '6', name: 'IVA reduzida', class: 'reduced-rate' });
  }
  if (spec.regionalRows) {
    // Rows that charge 9xxx buyers their region's rate, as the revoked DL 347/85 did.
    woo.putTaxRate({ id: 2, rate: '22', name: 'IVA Madeira', postcodes: ['9000000...9399999'] });
    woo.putTaxRate({ id: 3, rate: '16', name: 'IVA Açores', postcodes: ['95*', '96*', '97*', '98*', '99*'] });
  }
  for (const topic of ['order.created', 'order.updated', 'product.updated', 'product.deleted']) woo.addWebhook({ topic, status: 'active', delivery_url: DELIVERY_URL, secret: WEBHOOK_SECRET });
  const meta = spec.nifOnOrders ? [{ key: '_billing_nif', value: '232013969' }] : [{ key: '_billing_contribuinte', value: '232013969' }];
  if (spec.orders) {
    woo.putOrder(portugueseOrder({ meta }));
    woo.putOrder(portugueseOrder({ meta: [] }));
  }
  return woo;
}

/**
 * English words in a Portuguese report, leaving out what is not prose: someone else's words quoted
 * («...»), identifiers (snake_case woocommerce_rest_cannot_view, kebab-case invalid-payload, ids with
 * digits such as the tenant shop1), and Redis settings as they are written (appendonly yes).
 */
function englishIn(text: string): string[] {
  return englishWords(
    text
      .replace(/«[^»]*»/g, ' ')
      .replace(/\b\w+_\w+\b/g, ' ')
      .replace(/\b\w+(?:-\w+)+\b/g, ' ')
      .replace(/\b[a-z]+\d+\b/g, ' ')
      .replace(/\b(appendonly|maxmemory-policy) \S+/g, ' '),
  );
}

const describeWithRedis = describeWithRedisServer('doctor.test.ts', 'the doctor tests');

describeWithRedis('magnifinance doctor (issue 12.1): each check against the sandbox, the fake shop over HTTP and a Redis of its own', () => {
  let sandbox: RunningSandbox;
  let redis: OwnRedisServer;
  /** VIES on loopback: the doctor asks whether it answers (the real one is out of reach here). */
  let vies: StandIn;
  let partnerToken: string;
  let otherPartnerToken: string;
  const shops: RunningFakeWoo[] = [];
  /** Rendered outputs by case, for docs/doctor.md (DOCTOR_EXAMPLES=1). */
  const examples = new Map<string, string>();

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    redis = await ownRedisServer(['--appendonly', 'yes']);
    vies = await startViesStandIn();
    const owner = new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: sandbox.baseUrl });
    await owner.addPartner({ CompanyTaxId: PARTNER_TAX_ID, CompanyLegalName: 'Cliente Novo, Lda.', UserEmail: 'dono@cliente.pt' });
    partnerToken = (await owner.getPartnerAccessTokens(PARTNER_TAX_ID, { password: 'sandbox-password' }))[0].token;
    await owner.addPartner({ CompanyTaxId: OTHER_PARTNER_TAX_ID, CompanyLegalName: 'Outro Cliente, Lda.', UserEmail: 'dono@outro.pt' });
    otherPartnerToken = (await owner.getPartnerAccessTokens(OTHER_PARTNER_TAX_ID, { password: 'sandbox-password' }))[0].token;
  }, 60_000);
  afterAll(async () => {
    for (const woo of shops) await woo.close();
    await sandbox?.close();
    await vies?.close();
    await redis?.destroy();
    if (process.env.DOCTOR_EXAMPLES === '1') writeExamples(examples);
  });

  async function shop(spec: Partial<ShopSpec> = {}): Promise<RunningFakeWoo> {
    const woo = await startShop({ ...HEALTHY, ...spec });
    shops.push(woo);
    return woo;
  }

  /** The config file of one tenant on this shop (with the partner token), as a user writes it. */
  function configFor(woo: RunningFakeWoo, key = { consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret }): Record<string, unknown> {
    const raw = rawTestConfig({ prefix: 'mf-doctor', wooOrigin: woo.origin, consumerKey: key.consumerKey, consumerSecret: key.consumerSecret, baseUrl: sandbox.baseUrl, redisUrl: `redis://127.0.0.1:${redis.port}` });
    tenantOf(raw).invoicing = { ...(tenantOf(raw).invoicing as object), partnerToken, companyNif: PARTNER_TAX_ID, password: 'sandbox-password' };
    tenantOf(raw).vies = { url: vies.url };
    return raw;
  }

  async function doctor(raw: Record<string, unknown>, example: string, dryRunOrders?: number): Promise<{ report: DoctorReport; tenant: TenantReport; text: string }> {
    const config = parseConfig(raw, 'tenants.yaml', {});
    const report = await runDoctor(config, config.tenants, quietLogger(), { dryRunOrders });
    const text = renderDoctorReport(report, 'tenants.yaml');
    examples.set(example, text);
    // Every report also reads in Portuguese (--lang pt): no English sentence in it.
    expect(englishIn(renderDoctorReport(report, 'tenants.yaml', 'pt'))).toEqual([]);
    return { report, tenant: report.tenants[0], text };
  }

  const check = (checks: readonly Check[], name: string): Check | undefined => checks.find((c) => c.name === name);

  describe('a healthy tenant is ready: exit code 0', () => {
    it('every check passes; what the REST API of a real WooCommerce cannot show (webhook secret, API version) is a warning that says so', async () => {
      const woo = await shop();
      const { report, tenant, text } = await doctor(configFor(woo), 'healthy tenant');
      const statuses = Object.fromEntries([...report.redis, ...tenant.checks].map((c) => [c.name, c.status]));
      expect(statuses).toEqual({
        'Redis reachable': 'ok',
        'Redis persistence (AOF)': 'ok',
        'Redis eviction policy': 'ok',
        'REST key (read)': 'ok',
        'WooCommerce version': 'ok',
        'REST key (write)': 'ok',
        'Round tax at subtotal level': 'ok',
        'Prices entered with tax': 'ok',
        'VAT rate mainland': 'ok',
        'VAT rate Madeira': 'ok',
        'VAT rate Azores': 'ok',
        'webhook order.created': 'ok',
        'webhook order.updated': 'ok',
        'webhook product.updated': 'ok',
        'webhook product.deleted': 'ok',
        'webhook secret': 'warn',
        'webhook API version': 'warn',
        'NIF meta key': 'ok',
        'trigger statuses': 'ok',
        'MagniFinance credentials': 'ok',
        'MagniFinance partner token': 'ok',
        company: 'ok',
        'VIES answers': 'ok',
        'go-live cut-off': 'ok',
      });
      expect(report.ready).toBe(true);
      expect(check(tenant.checks, 'WooCommerce version')?.detail).toBe('9.4.2');
      expect(check(tenant.checks, 'webhook secret')?.detail).toBe("could not check: WooCommerce's REST API does not show a webhook's secret");
      expect(check(tenant.checks, 'webhook secret')?.fix).toContain('equals shop.webhookSecret');
      expect(text).toMatch(/^ {2}OK {4}REST key \(write\) +accepted/m);
      expect(text).toContain('READY (0 problems, 2 warnings)');
      // The write probe is a PUT of order 0, which does not exist; nothing else but reads.
      expect(woo.requests.filter((r) => r.method !== 'GET')).toEqual([{ method: 'PUT', path: '/orders/0', status: 400 }]);
    });

    it('a shop whose REST answer shows the secret and API version (a plugin adds them): both compared, all OK', async () => {
      const woo = await shop({ woo: { webhookExtras: true } });
      const { report, tenant } = await doctor(configFor(woo), 'healthy tenant, on a shop whose REST answer shows the webhook secret and API version');
      expect(report.ready).toBe(true);
      expect(tenant.checks.every((c) => c.status === 'ok')).toBe(true);
      // The product webhooks sign with the same secret and send the same v3 payloads: all four are compared.
      expect(check(tenant.checks, 'webhook API version')?.detail).toMatch(/^v3 \(webhook \d+, \d+, \d+, \d+\)$/);
    });

    it('the real CLI entry (cli/magnifinance.ts doctor) exits 0 and prints the report; --json gives the same report as JSON', async () => {
      const woo = await shop();
      const path = writeConfigFile(configFor(woo), 'doctor-healthy');
      const result = await runCli(['doctor', '--config', path]);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(`Tenant shop1 (${woo.origin})`);
      expect(result.stdout).toContain('READY (0 problems, 2 warnings)');
      const json = await runCli(['doctor', '--config', path, '--json']);
      expect(json.status).toBe(0);
      const parsed = JSON.parse(json.stdout) as DoctorReport;
      expect(parsed.ready).toBe(true);
      expect(parsed.tenants.map((t) => t.tenant)).toEqual(['shop1']);
    }, 120_000);
  });

  interface FaultCase {
    case: string;
    spec?: Partial<ShopSpec>;
    /** Changes the config or the shop after the healthy set-up. */
    arrange?: (woo: RunningFakeWoo, raw: Record<string, unknown>) => void;
    check: string;
    status: 'fail' | 'warn';
    detail: RegExp;
    fix: RegExp;
  }

  const hook = (woo: RunningFakeWoo, topic: string) => woo.webhooks().find((h) => h.topic === topic) as ReturnType<RunningFakeWoo['webhooks']>[number];

  const faults: FaultCase[] = [
    {
      case: 'wrong consumer secret',
      arrange: (_woo, raw) => Object.assign(shopOf(raw), { consumerSecret: 'cs_wrong' }),
      check: 'REST key (read)',
      status: 'fail',
      detail: /the shop refused the REST key: shop answered 401 woocommerce_rest_authentication_error: Invalid signature - provided signature does not match/,
      fix: /Copy the consumer key and secret of a Read\/Write key/,
    },
    {
      case: 'read-only REST key',
      arrange: (woo, raw) => Object.assign(shopOf(raw), woo.addKey('read')),
      check: 'REST key (write)',
      status: 'fail',
      detail: /the key is read-only/,
      fix: /set Permissions to Read\/Write/,
    },
    {
      case: 'wrong MagniFinance token',
      arrange: (_woo, raw) => Object.assign(tenantOf(raw).invoicing as object, { token: 'not-the-token' }),
      check: 'MagniFinance credentials',
      status: 'fail',
      detail: /MagniFinance refused the e-mail or token/,
      fix: /Check invoicing\.email .* and invoicing\.token/,
    },
    {
      case: 'bad partner token',
      arrange: (_woo, raw) => Object.assign(tenantOf(raw).invoicing as object, { partnerToken: 'not-a-partner-token' }),
      check: 'MagniFinance partner token',
      status: 'fail',
      detail: /MagniFinance refused the partner token/,
      fix: /magnifinance partner tokens --tax-id/,
    },
    {
      case: "another client's partner token (a copied tenant block)",
      arrange: (_woo, raw) => Object.assign(tenantOf(raw).invoicing as object, { partnerToken: otherPartnerToken }),
      check: 'company',
      status: 'fail',
      detail: /^the tenant invoices for company 232013969 \(Cliente Novo, Lda\.\), but the partner token is not one of the tokens Get Partner Access Tokens lists for company 232013969: documents would be issued in another company's name$/,
      fix: /magnifinance partner tokens --tax-id 232013969/,
    },
    {
      case: 'webhook missing',
      arrange: (woo) => woo.webhooks().splice(woo.webhooks().indexOf(hook(woo, 'order.updated')), 1),
      check: 'webhook order.updated',
      status: 'fail',
      detail: /^missing: the shop sends no order\.updated to anyone$/,
      fix: /Add webhook: Status Active, Topic Order updated, Delivery URL http:\/\/connector\.test\/webhooks\/woocommerce\/shop1, Secret = shop\.webhookSecret, API version WP REST API Integration v3/,
    },
    {
      case: 'no product.updated webhook (a warning: a changed product reaches invoices when the cached copy expires)',
      arrange: (woo) => woo.webhooks().splice(woo.webhooks().indexOf(hook(woo, 'product.updated')), 1),
      check: 'webhook product.updated',
      status: 'warn',
      detail: /^no active product\.updated webhook delivers to http:\/\/connector\.test\/webhooks\/woocommerce\/shop1: a product made virtual, moved to another category or deleted reaches invoices only when the connector's copy of it expires \(up to 10 minutes\)$/,
      fix: /Add webhook: Status Active, Topic Product updated, Delivery URL http:\/\/connector\.test\/webhooks\/woocommerce\/shop1, Secret = shop\.webhookSecret/,
    },
    {
      case: 'webhook disabled',
      arrange: (woo) => (hook(woo, 'order.created').status = 'disabled'),
      check: 'webhook order.created',
      status: 'fail',
      detail: /^webhook \d+ is disabled: nothing is delivered$/,
      fix: /set Status to Active/,
    },
    {
      case: 'webhook with a wrong delivery URL',
      arrange: (woo) => (hook(woo, 'order.created').delivery_url = 'https://old-connector.example.pt/webhooks/woocommerce/shop1'),
      check: 'webhook order.created',
      status: 'fail',
      detail: /delivers to https:\/\/old-connector\.example\.pt\/webhooks\/woocommerce\/shop1, not to this connector/,
      fix: /set its Delivery URL to http:\/\/connector\.test\/webhooks\/woocommerce\/shop1/,
    },
    {
      case: 'webhook with a wrong secret (shown by the shop)',
      spec: { woo: { webhookExtras: true } },
      arrange: (woo) => (hook(woo, 'order.updated').secret = 'another-secret'),
      check: 'webhook secret',
      status: 'fail',
      detail: /signs with another secret than shop\.webhookSecret/,
      fix: /set the Secret of webhook \d+ to the value of shop\.webhookSecret/,
    },
    {
      case: 'webhook with API version v2 (shown by the shop)',
      spec: { woo: { webhookExtras: true } },
      arrange: (woo) => (hook(woo, 'order.created').api_version = 'wp_api_v2'),
      check: 'webhook API version',
      status: 'fail',
      detail: /webhook \d+ uses wp_api_v2/,
      fix: /set API version to "WP REST API Integration v3"/,
    },
    {
      case: 'round tax at subtotal off (a warning)',
      spec: { roundAtSubtotal: 'no' },
      check: 'Round tax at subtotal level',
      status: 'warn',
      detail: /^off: the shop rounds VAT per line/,
      fix: /turn on "Round tax at subtotal level"/,
    },
    {
      case: 'Portuguese VAT rates missing',
      spec: { rates: false },
      check: 'VAT rate mainland',
      status: 'fail',
      detail: /no standard tax rate for Portugal/,
      fix: /Country code PT, no postcode, Rate % 23/,
    },
    {
      case: 'CIVA art. 6(1): postcode rows charge Madeira buyers 22 % in a mainland shop',
      spec: { regionalRows: true },
      check: 'VAT rate Madeira',
      status: 'warn',
      detail: /a buyer at postcode 9000-001 pays 22% \(rate id 2\), not the 23% of mainland Portugal: the shop dispatches from mainland Portugal \(its store address\); such orders are held/,
      fix: /delete rows that give 9xxx postcodes another rate \(goods are taxed where they ship from, CIVA art\. 6\(1\); DL 347\/85 was revoked in 2022\)/,
    },
    {
      case: 'NIF meta key never seen on recent orders',
      spec: { nifOnOrders: false },
      check: 'NIF meta key',
      status: 'fail',
      detail: /none of the last 2 orders has a NIF under _billing_nif, .*; keys that look like one: _billing_contribuinte/,
      fix: /nifMetaKeys: \["_billing_contribuinte"\]/,
    },
    {
      case: 'a shop without orders yet (a warning)',
      spec: { orders: false },
      check: 'NIF meta key',
      status: 'warn',
      detail: /^could not check: the shop has no orders yet$/,
      fix: /Place a test order with a NIF/,
    },
    {
      case: 'WooCommerce older than 3.7 (a warning)',
      spec: { woo: { version: '3.6.5' } },
      check: 'WooCommerce version',
      status: 'warn',
      detail: /^3\.6\.5: before 3\.7 orders carry no tax_lines\[\]\.rate_percent/,
      fix: /Update WooCommerce/,
    },
  ];

  describe.each(faults)('$case', (fault) => {
    it(`${fault.status === 'fail' ? 'exit code 1' : 'exit code 0'}: ${fault.check} is ${fault.status.toUpperCase()} with the problem and its fix`, async () => {
      const woo = await shop(fault.spec);
      const raw = configFor(woo);
      fault.arrange?.(woo, raw);
      const { report, tenant, text } = await doctor(raw, fault.case);
      const found = check(tenant.checks, fault.check);
      expect(found).toMatchObject({ status: fault.status, detail: expect.stringMatching(fault.detail), fix: expect.stringMatching(fault.fix) });
      expect(report.ready).toBe(fault.status !== 'fail');
      expect(text).toContain(`${fault.status.toUpperCase()}  ${fault.check}`);
      if (fault.status === 'fail') expect(text).toMatch(new RegExp(`NOT READY \\(\\d+ problems?, \\d+ warnings?\\):\\n(.*\\n)*  - shop1: ${escapeRegExp(fault.check)}: `));
    });
  });

  describe('Redis: persistence and eviction (CONFIG GET on a server of its own)', () => {
    it.each([
      { case: 'Redis without AOF', set: ['appendonly', 'no'], restore: ['appendonly', 'yes'], check: 'Redis persistence (AOF)', detail: /^appendonly no: a restart of Redis loses/, fix: /Set appendonly yes in redis\.conf/ },
      { case: 'Redis with allkeys-lru', set: ['maxmemory-policy', 'allkeys-lru'], restore: ['maxmemory-policy', 'noeviction'], check: 'Redis eviction policy', detail: /^maxmemory-policy allkeys-lru: when memory is full Redis deletes keys/, fix: /Set maxmemory-policy noeviction/ },
    ])('$case -> exit code 1 with the fix', async ({ case: name, set, restore, check: checkName, detail, fix }) => {
      const woo = await shop();
      redisCli(redis.port, ['config', 'set', ...set]);
      try {
        const { report, text } = await doctor(configFor(woo), name);
        expect(report.ready).toBe(false);
        expect(check(report.redis, checkName)).toMatchObject({ status: 'fail', detail: expect.stringMatching(detail), fix: expect.stringMatching(fix) });
        expect(text).toContain(`  - redis: ${checkName}: `);
      } finally {
        redisCli(redis.port, ['config', 'set', ...restore]);
      }
    });

    it('CONFIG disabled (as on some managed Redis) -> "could not check" warnings, still ready', async () => {
      const woo = await shop();
      const locked = await ownRedisServer(['--appendonly', 'yes', '--rename-command', 'CONFIG', '']);
      try {
        const raw = configFor(woo);
        (raw.redis as Record<string, unknown>).url = `redis://127.0.0.1:${locked.port}`;
        const { report } = await doctor(raw, 'Redis with CONFIG disabled (a warning)');
        expect(report.ready).toBe(true);
        expect(report.redis.map((c) => [c.name, c.status])).toEqual([
          ['Redis reachable', 'ok'],
          ['Redis persistence (AOF)', 'warn'],
          ['Redis eviction policy', 'warn'],
        ]);
        expect(check(report.redis, 'Redis persistence (AOF)')?.detail).toMatch(/^could not check: CONFIG GET is refused here \(ERR unknown command 'config'/);
      } finally {
        await locked.destroy();
      }
    });

    it('Redis unreachable -> exit code 1, and the CLI child process says so', async () => {
      const woo = await shop();
      const raw = configFor(woo);
      (raw.redis as Record<string, unknown>).url = 'redis://127.0.0.1:1';
      const result = await runCli(['doctor', '--config', writeConfigFile(raw, 'doctor-no-redis')]);
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(/FAIL {2}Redis reachable +no answer from redis:\/\/127\.0\.0\.1:1/);
      expect(result.stdout).toContain('fix: Start Redis, or fix redis.url');
      expect(result.stdout).toContain('  - redis: Redis reachable: Start Redis');
    }, 120_000);
  });

  describe('--dry-run N maps the last N paid orders with the connector\'s mapping and issues nothing', () => {
    it('a normal order would get its invoice-receipt at the shop\'s total; a company with an invalid NIF would be held', async () => {
      const woo = await shop();
      const normal = woo.putOrder(portugueseOrder());
      const held = woo.putOrder(portugueseOrder({ billing: { company: 'Empresa Exemplo, Lda.', first_name: 'Rui', last_name: 'Costa', address_1: 'Av. da Liberdade 1', city: 'Lisboa', postcode: '1250-096', country: 'PT', email: 'rui@empresa.pt' }, meta: [{ key: '_billing_nif', value: '123456788' }] }));
      const before = await sandboxDocumentCount(sandbox);
      const { report, tenant, text } = await doctor(configFor(woo), 'dry run of the last 2 orders', 2);
      expect(report.ready).toBe(true);
      const byId = new Map((tenant.dryRun ?? []).map((o) => [o.orderId, o]));
      expect([...byId.keys()].sort()).toEqual([Number(normal.id), Number(held.id)].sort());
      expect(byId.get(Number(normal.id))).toMatchObject({ outcome: 'issue', documentType: 'Invoice-receipt (T)', documentTotal: normal.total, shopTotal: normal.total, exemptionCodes: [] });
      expect(byId.get(Number(held.id))).toMatchObject({ outcome: 'hold', shopTotal: held.total });
      expect(byId.get(Number(held.id))?.notes.join(' ')).toMatch(/123456788/);
      expect(text).toMatch(new RegExp(`#${String(normal.id)} +processing +would issue +Invoice-receipt \\(T\\) +${escapeRegExp(String(normal.total))} EUR = shop ${escapeRegExp(String(normal.total))}`));
      expect(text).toMatch(new RegExp(`#${String(held.id)} +processing +would HOLD`));
      // Nothing issued, nothing written on the shop.
      expect(await sandboxDocumentCount(sandbox)).toBe(before);
      expect(woo.requests.filter((r) => r.method !== 'GET').map((r) => r.path)).toEqual(['/orders/0']);
    });

    it('prints the go-live cut-off; before the first start the dry run shows that going live issues none of the past orders, nor one with another system\'s document', async () => {
      const woo = await shop();
      // Fixed dates: the rendered report is an example in docs/doctor.md.
      const past = woo.putOrder(portugueseOrder({ datePaidGmt: '2026-01-10T10:00:00', dateCreatedGmt: '2026-01-10T09:58:00' }));
      const moloni = woo.putOrder(portugueseOrder({ meta: [{ key: '_moloni_sent', value: '4411' }] }));
      const raw = configFor(woo);
      const settings = { ...(tenantOf(raw).settings as Record<string, unknown>) };
      delete settings.goLiveAt;
      tenantOf(raw).settings = settings;
      (raw.redis as Record<string, unknown>).prefix = `mf-doctor-golive-${String(Date.now())}`;
      const { tenant, text } = await doctor(raw, 'go-live cut-off before the first start, with --dry-run', 5);
      expect(check(tenant.checks, 'go-live cut-off')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^not started yet: the first start will be the cut-off/) });
      const byId = new Map((tenant.dryRun ?? []).map((o) => [o.orderId, o]));
      expect(byId.get(Number(past.id))).toMatchObject({ outcome: 'not-invoiced', notes: [expect.stringMatching(/before the go-live cut-off/)] });
      expect(byId.get(Number(moloni.id))).toMatchObject({ outcome: 'not-invoiced', notes: [expect.stringContaining('Moloni: _moloni_sent = 4411')] });
      expect(text).toMatch(new RegExp(`#${String(past.id)} +processing +NOT invoiced`));

      // With settings.goLiveAt fixed, the January order is still before it.
      tenantOf(raw).settings = { ...settings, goLiveAt: '2026-06-01T00:00:00Z' };
      const fixed = await doctor(raw, 'go-live cut-off from the setting', 5);
      expect(check(fixed.tenant.checks, 'go-live cut-off')?.detail).toContain('(settings.goLiveAt)');
      // On the shop's clock (Lisbon, summer time), not a UTC stamp.
      expect(check(fixed.tenant.checks, 'go-live cut-off')?.detail).toMatch(/^01\/06\/2026, 01:00 \(settings\.goLiveAt\)/);
      const again = new Map((fixed.tenant.dryRun ?? []).map((o) => [o.orderId, o]));
      expect(again.get(Number(past.id))?.outcome).toBe('not-invoiced');
      expect(again.get(Number(moloni.id))?.outcome).toBe('not-invoiced');
    });

    it('the CLI refuses a tenant the config does not have, naming the known ones', async () => {
      const woo = await shop();
      const result = await runCli(['doctor', '--config', writeConfigFile(configFor(woo), 'doctor-tenant'), '--tenant', 'loja9']);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('No tenant "loja9" in');
      expect(result.stderr).toContain('(known: shop1)');
    }, 60_000);

    it('the CLI exits 2 on a config file with mistakes, naming each one', async () => {
      const woo = await shop();
      const raw = configFor(woo);
      Object.assign(shopOf(raw), { url: 'not a url' });
      const result = await runCli(['doctor', '--config', writeConfigFile(raw, 'doctor-bad-config')]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/tenants\.0\.shop\.url: /);
      expect(result.stdout).toBe('');
    }, 60_000);

    it('refuses a --dry-run that is not a number of orders, before reading anything', async () => {
      const result = await runCli(['doctor', '--config', 'tenants.yaml', '--dry-run', 'all']);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('--dry-run must be a number of orders from 1 to 100');
    }, 60_000);
  });
});

describe('which tax rate covers a Portuguese postcode: WooCommerce\'s patterns (wc_postcode_location_matcher)', () => {
  it.each([
    { pattern: '', postcode: '1000-001', matches: true },
    { pattern: '90*', postcode: '9000-001', matches: true },
    { pattern: '95*', postcode: '9000-001', matches: false },
    { pattern: '9000000...9399999', postcode: '9000-001', matches: true },
    { pattern: '9000000...9399999', postcode: '9500-001', matches: false },
    // The range is compared with the whole postcode (9000001), so four-digit bounds never match.
    { pattern: '9000...9399', postcode: '9000-001', matches: false },
    { pattern: '9000-001', postcode: '9000 001', matches: true },
  ])('$pattern covers $postcode: $matches', ({ pattern, postcode, matches }) => {
    expect(postcodeMatches(pattern, postcode)).toBe(matches);
  });
});

function tenantOf(raw: Record<string, unknown>): Record<string, unknown> {
  return (raw.tenants as Record<string, unknown>[])[0];
}

function shopOf(raw: Record<string, unknown>): Record<string, unknown> {
  return tenantOf(raw).shop as Record<string, unknown>;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function redisCli(port: number, args: string[]): void {
  const result = spawnSync('redis-cli', ['-p', String(port), ...args]);
  if (!result.stdout.toString().includes('OK')) throw new Error(`redis-cli ${args.join(' ')}: ${result.stdout.toString()}${result.stderr.toString()}`);
}

async function sandboxDocumentCount(sandbox: RunningSandbox): Promise<number> {
  const body = (await (await fetch(`${sandbox.origin}/_sandbox/documents`)).json()) as { documents: unknown[] };
  return body.documents.length;
}

/** Puts the rendered outputs into docs/doctor.md between its example markers (scripts/doctor-examples.sh). */
function writeExamples(examples: Map<string, string>): void {
  const path = join(__dirname, '..', '..', 'docs', 'doctor.md');
  const page = readFileSync(path, 'utf8');
  const start = '<!-- doctor-examples:start -->';
  const end = '<!-- doctor-examples:end -->';
  const full = (name: string): boolean => name.startsWith('healthy') || name.startsWith('dry run');
  const body = [...examples]
    .map(([name, text]) => {
      // A fault's example leaves out the OK lines, which read as in the healthy example.
      const shown = full(name) ? text : text.split('\n').filter((line) => !line.startsWith('  OK  ')).join('\n');
      return `### ${name[0].toUpperCase()}${name.slice(1)}\n\n\`\`\`\n${shown.replace(/127\.0\.0\.1:\d{4,5}/g, '127.0.0.1:PORT').trimEnd()}\n\`\`\``;
    })
    .join('\n\n');
  writeFileSync(path, `${page.slice(0, page.indexOf(start) + start.length)}\n\n${body}\n\n${page.slice(page.indexOf(end))}`);
}
