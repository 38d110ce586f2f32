import { MagniFinanceClient } from '../../client/rest-client';
import { portugueseNifCheckDigit } from '../../client/nif';
import { verifyCompany } from '../../connector/config/company-check';
import { checkInvoicing } from '../../connector/doctor/invoicing-checks';
import { renderDoctorReport } from '../../connector/doctor/render';
import { buildTenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { ConfigError, parseConfig, type ConnectorConfig } from '../../connector/config/load-config';
import { ConnectorMetrics } from '../../connector/core/metrics';
import { startConnector, type RunningConnector } from '../../connector/main/runtime';
import { TEST_ACCOUNT } from '../support/sandbox';
import { eventually, portugueseOrder, quietLogger, rawTestConfig, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { wooOrderJson } from '../support/payloads';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

function nif(firstEight: string): string {
  return `${firstEight}${portugueseNifCheckDigit(firstEight)}`;
}

const COMPANY_A = { nif: nif('51230001'), name: 'Loja Azul, Lda.' };
const COMPANY_B = { nif: nif('51230002'), name: 'Loja Verde, Lda.' };

interface AttentionItem {
  orderId: number;
  purpose: string;
  ledger: { state: string; detail: string; action: string };
}

describe('the right company: a partner token is checked to be the tenant company\'s before anything is issued', () => {
  let h: Harness;
  const tokens: Record<string, string> = {};
  const running: RunningConnector[] = [];

  beforeAll(async () => {
    h = await startHarness({ role: 'none' });
    const owner = new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: h.sandbox.baseUrl });
    for (const company of [COMPANY_A, COMPANY_B]) {
      await owner.addPartner({ CompanyTaxId: company.nif, CompanyLegalName: company.name, UserEmail: `dono@${company.nif}.pt` });
      tokens[company.nif] = (await owner.getPartnerAccessTokens(company.nif, { password: 'sandbox-password' }))[0].token;
    }
  }, 60_000);
  afterAll(async () => {
    for (const connector of running) await connector.close();
    await h.close();
  });

  function configWith(invoicing: Record<string, unknown>, prefix: string): ConnectorConfig {
    const raw = rawTestConfig({ prefix, wooOrigin: h.woo.origin, consumerKey: h.woo.consumerKey, consumerSecret: h.woo.consumerSecret, baseUrl: h.sandbox.baseUrl });
    const tenant = (raw.tenants as Record<string, unknown>[])[0];
    tenant.invoicing = { email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: h.sandbox.baseUrl, timeoutMs: 2_000, password: 'sandbox-password', ...invoicing };
    return parseConfig(raw, 'tenants.yaml', {});
  }

  async function start(config: ConnectorConfig): Promise<string> {
    const connector = await startConnector(config, { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    running.push(connector);
    return connector.origin as string;
  }

  async function deliver(origin: string, order: Record<string, unknown>): Promise<number> {
    const stored = h.woo.putOrder(wooOrderJson(order));
    const answer = await sendWooWebhook({ url: `${origin}/webhooks/woocommerce/shop1`, secret: WEBHOOK_SECRET, topic: 'order.created', payload: stored, source: `${h.woo.origin}/` });
    return answer.status;
  }

  it('company A\'s tenant holding company B\'s token (a copied tenant block): nothing reaches the service, the order waits for a person, naming company A', async () => {
    const origin = await start(configWith({ partnerToken: tokens[COMPANY_B.nif], companyNif: COMPANY_A.nif }, `${h.prefix}-wrong`));
    const before = (await h.documents()).length;
    const order = portugueseOrder();
    expect(await deliver(origin, order)).toBe(202);
    const item = await eventually('the order on the attention list', async () => {
      const list = (await (await fetch(`${origin}/admin/api/attention`, { headers: ADMIN })).json()) as AttentionItem[];
      return list.find((entry) => entry.orderId === Number(order.id));
    });
    expect(item.ledger.state).toBe('failed');
    expect(item.ledger.detail).toContain(`invoices for company ${COMPANY_A.nif} (${COMPANY_A.name}), but the partner token is not one of the tokens Get Partner Access Tokens lists for company ${COMPANY_A.nif}`);
    expect(item.ledger.action).toContain(`magnifinance partner tokens --tax-id ${COMPANY_A.nif}`);
    const note = await eventually('the note on the order', () => h.woo.notes(Number(order.id))[0]);
    expect(note.note).toContain('Nothing was issued');
    // Not a single document, not even a draft, reached the service.
    expect((await h.documents()).length).toBe(before);
  });

  it('the same check names the company the token belongs to when another tenant of the file is that company', async () => {
    const config = configWith({ partnerToken: tokens[COMPANY_B.nif], companyNif: COMPANY_A.nif }, 'unused');
    const tenant = config.tenants[0];
    const other = { ...tenant, id: 'loja-verde', invoicing: { ...tenant.invoicing, partnerToken: 'another', companyNif: COMPANY_B.nif } };
    const client = new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: h.sandbox.baseUrl });
    const verdict = await verifyCompany(client, tenant, [tenant, other]);
    expect(verdict).toMatchObject({ status: 'wrong', nif: COMPANY_A.nif, cause: 'not-listed', actual: { nif: COMPANY_B.nif, tenant: 'loja-verde' } });
  });

  describe("the agency's own partner list (agency.partners) names the company a wrong token belongs to", () => {
    const VERDE = 'Verde (cliente da agência)';
    function agencyConfig(partners: Record<string, unknown>[], env: Record<string, string>, prefix: string): ConnectorConfig {
      const raw = rawTestConfig({ prefix, wooOrigin: h.woo.origin, consumerKey: h.woo.consumerKey, consumerSecret: h.woo.consumerSecret, baseUrl: h.sandbox.baseUrl });
      const tenant = (raw.tenants as Record<string, unknown>[])[0];
      tenant.invoicing = { email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: h.sandbox.baseUrl, timeoutMs: 2_000, password: 'sandbox-password', partnerToken: tokens[COMPANY_B.nif], companyNif: COMPANY_A.nif };
      raw.agency = { partners };
      return parseConfig(raw, 'tenants.yaml', env);
    }
    const client = (): MagniFinanceClient => new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: h.sandbox.baseUrl });

    it.each([
      ['its token in the list (from .env): known without asking', { name: VERDE, nif: COMPANY_B.nif, token: { env: 'VERDE_PARTNER_TOKEN' } }, { nif: COMPANY_B.nif, partner: VERDE, name: VERDE }],
      ['no token in the list: Get Partner Access Tokens for its NIF says so', { name: VERDE, nif: COMPANY_B.nif }, { nif: COMPANY_B.nif, partner: VERDE, name: COMPANY_B.name }],
    ])('%s', async (_name, partner, actual) => {
      const config = agencyConfig([{ name: 'Outra, Lda.', nif: nif('51230009') }, partner], { VERDE_PARTNER_TOKEN: tokens[COMPANY_B.nif] }, 'unused');
      expect(config.tenants[0].agencyPartners).toHaveLength(2);
      const verdict = await verifyCompany(client(), config.tenants[0], config.tenants);
      expect(verdict).toMatchObject({ status: 'wrong', nif: COMPANY_A.nif, cause: 'not-listed', actual });
      expect(verdict.status === 'wrong' ? verdict.actual?.tenant : 'not wrong').toBeUndefined();
    });

    it('a list without that company: only the configured company is named', async () => {
      const config = agencyConfig([{ name: 'Outra, Lda.', nif: nif('51230009') }], {}, 'unused');
      const verdict = await verifyCompany(client(), config.tenants[0], config.tenants);
      expect(verdict).toMatchObject({ status: 'wrong', nif: COMPANY_A.nif, cause: 'not-listed' });
      expect(verdict.status === 'wrong' ? verdict.actual : 'not wrong').toBeUndefined();
    });

    it('the doctor names the partner in both languages', async () => {
      const config = agencyConfig([{ name: VERDE, nif: COMPANY_B.nif, token: { env: 'VERDE_PARTNER_TOKEN' } }], { VERDE_PARTNER_TOKEN: tokens[COMPANY_B.nif] }, 'unused');
      const checks = await checkInvoicing(buildTenantRuntime(config.tenants[0]), config.tenants);
      const company = checks.find((check) => check.name === 'company');
      expect(company).toMatchObject({ status: 'fail' });
      expect(company?.detail).toContain(`; the token is company ${COMPANY_B.nif} (${VERDE})'s (the agency's partner "${VERDE}" in agency.partners): documents would be issued in another company's name`);
      expect(company?.pt?.detail).toContain(`; o token é da empresa ${COMPANY_B.nif} (${VERDE}) (parceira da agência «${VERDE}» em agency.partners): os documentos seriam emitidos em nome de outra empresa`);
      expect(renderDoctorReport({ ready: false, redis: [], tenants: [{ tenant: 'shop1', shop: 'https://loja', ready: false, checks }] }, 'tenants.yaml', 'pt')).toContain(`parceira da agência «${VERDE}»`);
    });

    it("the order and the console's company line name the partner, in English and Portuguese", async () => {
      const config = agencyConfig([{ name: VERDE, nif: COMPANY_B.nif }], {}, `${h.prefix}-agency`);
      const origin = await start(config);
      const order = portugueseOrder();
      expect(await deliver(origin, order)).toBe(202);
      const item = await eventually('the order on the attention list', async () => {
        const list = (await (await fetch(`${origin}/admin/api/attention`, { headers: ADMIN })).json()) as AttentionItem[];
        return list.find((entry) => entry.orderId === Number(order.id));
      });
      expect(item.ledger.detail).toContain(`; the token is company ${COMPANY_B.nif} (${COMPANY_B.name})'s (the agency's partner "${VERDE}")`);
      const en = await (await fetch(`${origin}/console/shop1?lang=en`, { headers: ADMIN })).text();
      expect(en).toContain(`Company: <b>${COMPANY_A.nif}</b> · <span class="warn">the partner token is not this company&#39;s: it is company ${COMPANY_B.nif} (${COMPANY_B.name})&#39;s, the agency&#39;s partner &quot;${VERDE}&quot;; nothing is issued until it is corrected</span>`);
      const pt = await (await fetch(`${origin}/console/shop1?lang=pt`, { headers: ADMIN })).text();
      expect(pt).toContain(`o token de parceiro não é desta empresa: é da empresa ${COMPANY_B.nif} (${COMPANY_B.name}), parceira da agência «${VERDE}»; nada é emitido até ser corrigido`);
      const page = await (await fetch(`${origin}/console/shop1/orders/${String(order.id)}?lang=pt`, { headers: ADMIN })).text();
      expect(page).toContain(`parceira da agência «${VERDE}»`);
    });
  });

  it.each([
    ['documented form (password)', {}],
    ['spec form (no password)', { partnerTokensForm: 'spec', password: undefined }],
  ])('the right token (%s): checked once, then the invoice is issued in the partner company', async (_name, form) => {
    const origin = await start(configWith({ partnerToken: tokens[COMPANY_A.nif], companyNif: COMPANY_A.nif, ...form }, `${h.prefix}-right-${String(Date.now())}`));
    const order = portugueseOrder();
    expect(await deliver(origin, order)).toBe(202);
    await eventually('invoiced', () => h.woo.meta(Number(order.id), '_magnifinance_document_number'));
    // The console shows the company, and that the token was checked to be its.
    const console = await (await fetch(`${origin}/console/shop1?lang=en`, { headers: ADMIN })).text();
    expect(console).toContain(`Company: <b>${COMPANY_A.nif}</b> · <span class="muted">partner token checked to be this company&#39;s</span>`);
  });
});

describe('refused at load: credentials that would invoice in the wrong company', () => {
  const base = (): Record<string, unknown> => rawTestConfig({ prefix: 'unused', wooOrigin: 'http://shop.test', consumerKey: 'ck', consumerSecret: 'cs', baseUrl: 'http://sandbox.test/api/v1.1' });
  const tenantOf = (raw: Record<string, unknown>, index = 0): Record<string, unknown> => (raw.tenants as Record<string, unknown>[])[index];
  const invoicing = { email: 'agencia@example.pt', token: 'own', baseUrl: 'http://sandbox.test/api/v1.1' };

  it.each<[string, (raw: Record<string, unknown>) => void, string]>([
    ['a partner token without companyNif', (raw) => void (tenantOf(raw).invoicing = { ...invoicing, partnerToken: 'p1', password: 'pw' }), 'tenants.0.invoicing.companyNif: is required with a partnerToken'],
    ['a partner token without the password Get Partner Access Tokens needs', (raw) => void (tenantOf(raw).invoicing = { ...invoicing, partnerToken: 'p1', companyNif: COMPANY_A.nif }), 'tenants.0.invoicing.password: is required with a partnerToken'],
    ['a companyNif that is not a NIF', (raw) => void (tenantOf(raw).invoicing = { ...invoicing, companyNif: '123456788' }), 'tenants.0.invoicing.companyNif: a Portuguese NIF'],
    [
      "two of the agency's partners with one NIF",
      (raw) => void (raw.agency = { partners: [{ name: 'Azul', nif: COMPANY_A.nif }, { name: 'Azul de novo', nif: COMPANY_A.nif }] }),
      `agency.partners.1.nif: NIF ${COMPANY_A.nif} is already agency.partners.0's: one entry per company`,
    ],
    ["an agency partner's NIF that is not a NIF", (raw) => void (raw.agency = { partners: [{ name: 'Azul', nif: '123456788' }] }), 'agency.partners.0.nif: a Portuguese NIF'],
    [
      "an agency partner's token from a variable the .env does not set",
      (raw) => void (raw.agency = { partners: [{ name: 'Azul', nif: COMPANY_A.nif, token: { env: 'AZUL_PARTNER_TOKEN' } }] }),
      'agency.partners.0.token: the environment variable AZUL_PARTNER_TOKEN is not set',
    ],
    [
      'two tenants with one partner token',
      (raw) => {
        tenantOf(raw).invoicing = { ...invoicing, partnerToken: 'same', companyNif: COMPANY_A.nif, password: 'pw' };
        (raw.tenants as unknown[]).push({ ...tenantOf(raw), id: 'shop2', invoicing: { ...invoicing, partnerToken: 'same', companyNif: COMPANY_B.nif, password: 'pw' } });
      },
      'tenants.1.invoicing.partnerToken: the same partner token as tenant shop1',
    ],
    [
      'two tenants on one account with one ExternalId prefix',
      (raw) => {
        tenantOf(raw).invoicing = invoicing;
        (raw.tenants as unknown[]).push({ ...tenantOf(raw), id: 'shop2' });
      },
      'tenants.1.settings.mapping.externalIdPrefix: the same MagniFinance account and ExternalId prefix "wc-" as tenant shop1',
    ],
  ])('%s', (_name, change, message) => {
    const raw = base();
    change(raw);
    let error: unknown;
    try {
      parseConfig(raw, 'tenants.yaml', {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(message);
  });

  it('two tenants on one account with their own ExternalId prefixes load', () => {
    const raw = base();
    tenantOf(raw).invoicing = invoicing;
    (raw.tenants as unknown[]).push({ ...tenantOf(raw), id: 'shop2', settings: { mapping: { externalIdPrefix: 'loja2-' } } });
    expect(parseConfig(raw, 'tenants.yaml', {}).tenants).toHaveLength(2);
  });
});
