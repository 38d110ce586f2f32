import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { parseConfig, type ConnectorConfig } from '../../../connector/config/load-config';
import { ConnectorMetrics } from '../../../connector/core/metrics';
import { startConnector, type RunningConnector } from '../../../connector/main/runtime';
import { ShopifyShop } from '../../../platforms/shopify/shopify-shop';
import { ShopifyAdminClient } from '../../../platforms/shopify/admin-client';
import { shopifyDoctorChecks } from '../../../platforms/shopify/doctor-checks';
import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { startTestSandbox, type RunningSandbox } from '../../support/sandbox';
import { eventually, quietLogger, rawTestConfig } from '../../connector/support/harness';
import { MULTI_CURRENCY_TAXES_EXCLUDED, TAXES_INCLUDED } from './fixtures/orders';

/**
 * Issue 27: a buyer's NIF that no webhook body carries. A B2B company's tax registration (its
 * company location's `taxSettings.taxRegistrationId`) and a VAT app's order metafield are read
 * only through the GraphQL Admin API: the worker, which reads the order itself, and the sweep, which
 * queues what the webhooks missed, find them; a NIF that arrives that way after the invoice reaches
 * the "NIF added after the invoice" path on the order's next update (the order itself does not
 * change when a company location's tax ID or another app's metafield does, so nothing fires then).
 */

const TENANT = 'loja-b2b';
const SOURCES = [{ from: 'company' }, { from: 'metafield', namespace: 'vatapp', key: 'nif' }, { from: 'attribute', key: 'nif' }];
const headers = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

/** A B2B order of its own company location (its tax registration ID as given). */
function companyOrder(id: string, location: string, taxRegistrationId: string | null): JsonObject {
  const order = structuredClone(MULTI_CURRENCY_TAXES_EXCLUDED);
  const entity = order.purchasingEntity as JsonObject;
  return {
    ...order,
    id: `gid://shopify/Order/${id}`,
    legacyResourceId: id,
    name: `#${id.slice(-4)}`,
    purchasingEntity: { ...entity, location: { ...(entity.location as JsonObject), id: `gid://shopify/CompanyLocation/${location}`, taxSettings: { taxRegistrationId, taxExempt: false } } },
  };
}

/** A consumer's order without a NIF in its attributes. */
function consumerOrder(id: string): JsonObject {
  return { ...structuredClone(TAXES_INCLUDED), id: `gid://shopify/Order/${id}`, legacyResourceId: id, name: `#${id.slice(-4)}`, note: null, customAttributes: [], metafields: [] };
}

describe('a NIF only the Admin API shows: a B2B company\'s tax registration, a VAT app\'s metafield', () => {
  // A Shopify Plus store (B2B is Plus only) whose app may read companies.
  const store = new FakeShopify({ retryDelayMs: () => 5, scopes: ['read_orders', 'write_orders', 'read_companies'], shopifyPlus: true });
  let config: ConnectorConfig;
  let sandbox: RunningSandbox;
  let connector: RunningConnector;

  const order = (id: string): JsonObject => store.orders.get(`gid://shopify/Order/${id}`) as JsonObject;
  const metafield = (id: string, key: string): string | undefined => ((order(id).metafields as JsonObject[]).find((m) => m.key === key)?.value as string | undefined) ?? undefined;
  const invoices = (id: string) => sandbox.store.documents().filter((doc) => doc.document.ExternalId === `b2b-${id}` && doc.status !== 'draft');
  const idle = () =>
    eventually('the queue idle', async () => {
      const counts = await connector.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(counts).every((n) => n === 0) ? true : undefined;
    });

  beforeAll(async () => {
    await store.start();
    sandbox = await startTestSandbox();
    const prefix = `mft-${randomBytes(6).toString('hex')}`;
    const raw = rawTestConfig({ prefix, wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: sandbox.baseUrl });
    const tenant = (raw.tenants as JsonObject[])[0];
    delete tenant.shop;
    Object.assign(tenant, {
      id: TENANT,
      platform: 'shopify',
      shopify: { shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecret: store.clientSecret, sale: { nifSources: SOURCES } },
      settings: { language: 'pt', goLiveAt: '2020-01-01T00:00:00Z', onCancelled: 'ignore', mapping: { externalIdPrefix: 'b2b-', shopTimeZone: 'Europe/Lisbon' } },
    });
    config = parseConfig(raw, 'tenants.yaml', {});
    connector = await startConnector(config, { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
  });
  afterAll(async () => {
    await connector.close();
    await store.close();
    await sandbox.close();
  });

  it('the sweep finds a B2B order paid while no subscription delivered, and its invoice carries the company\'s tax registration', async () => {
    // No subscription yet: Shopify delivers nothing (as after it removed one for failed deliveries).
    store.addOrder(companyOrder('5962412737001', '441870801', 'PT 507 957 547'));
    expect(store.deliveries).toHaveLength(0);
    const swept = await request(`${connector.origin}/admin/api/sweep`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: TENANT }) });
    expect(swept.statusCode).toBe(200);
    await swept.body.dump();
    await eventually('the invoice number on the B2B order', () => metafield('5962412737001', 'magnifinance_document_number'));
    expect(invoices('5962412737001')).toHaveLength(1);
    expect(invoices('5962412737001')[0].client).toMatchObject({ NIF: '507957547', LegalName: 'Tecidos do Norte, Lda.' });
    // From here on the store delivers: the connector registers its subscriptions as its webhook watch does.
    const shop = new ShopifyShop({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecrets: [store.clientSecret], timeoutMs: 5_000, sale: { currency: 'shop', nifSources: [{ from: 'attribute', key: 'nif' }] } });
    await shop.ensureWebhooks(connector.origin as string, TENANT);
  });

  it('a VAT app\'s order metafield: the worker reads it, the invoice carries it (the orders/paid body has none)', async () => {
    const placed = consumerOrder('5962412737002');
    placed.metafields = [{ id: 'gid://shopify/Metafield/77001', namespace: 'vatapp', key: 'nif', type: 'single_line_text_field', value: '503504564' }];
    store.addOrder(placed);
    const paid = store.deliveries.find((d) => d.topic === 'orders/paid' && String(d.body).includes('5962412737002'));
    expect(String(paid?.body)).not.toContain('503504564');
    await eventually('the invoice of the metafield order', () => metafield('5962412737002', 'magnifinance_document_number'));
    expect(invoices('5962412737002')[0].client.NIF).toBe('503504564');
  });

  it('a company\'s tax registration added after the invoice: told on the order\'s next update, once, nothing issued', async () => {
    const id = '5962412737003';
    store.addOrder(companyOrder(id, '441870803', null));
    const number = await eventually('the invoice of the company without a tax registration', () => metafield(id, 'magnifinance_document_number'));
    const issuedTo = String(invoices(id)[0].client.NIF);
    expect(issuedTo).toBe('999999990');
    // The merchant adds the company location's tax ID: the order does not change, nothing fires.
    const before = store.deliveries.length;
    store.setCompanyTaxRegistration('gid://shopify/CompanyLocation/441870803', 'PT 510 000 002');
    expect(store.deliveries).toHaveLength(before);
    // The order's next update (the merchant saves it): its body names the company, not its tax ID; the review reads the order.
    store.setAttributes(`gid://shopify/Order/${id}`, [{ key: 'gift', value: 'yes' }]);
    const told = `A fatura ${number} foi emitida com o NIF 999999990; a encomenda tem agora o NIF do comprador PT 510 000 002`;
    await eventually('the owner told on the order', () => (String(order(id).note ?? '').includes(told) ? true : undefined));
    store.setAttributes(`gid://shopify/Order/${id}`, [{ key: 'gift', value: 'no' }]);
    await idle();
    expect(String(order(id).note).split(told)).toHaveLength(2);
    expect(sandbox.store.documents().filter((doc) => String(doc.document.ExternalId).startsWith(`b2b-${id}`) && doc.status !== 'draft')).toHaveLength(1);
  });

  it('a VAT app\'s metafield written after the invoice: told on the order\'s next update, nothing issued', async () => {
    const id = '5962412737004';
    store.addOrder(consumerOrder(id));
    const number = await eventually('the consumer invoice', () => metafield(id, 'magnifinance_document_number'));
    expect(invoices(id)[0].client.NIF).toBe('999999990');
    store.setOtherAppMetafield(`gid://shopify/Order/${id}`, 'vatapp', 'nif', '506000001');
    store.setAttributes(`gid://shopify/Order/${id}`, [{ key: 'gift', value: 'yes' }]);
    const told = `A fatura ${number} foi emitida com o NIF 999999990; a encomenda tem agora o NIF do comprador 506000001`;
    await eventually('the owner told on the order', () => (String(order(id).note ?? '').includes(told) ? true : undefined));
    await idle();
    expect(sandbox.store.documents().filter((doc) => String(doc.document.ExternalId).startsWith(`b2b-${id}`) && doc.status !== 'draft')).toHaveLength(1);
  });

  it('without read_companies a B2B order cannot be read: nothing issued, and the order says which scope, in Shopify\'s words', async () => {
    store.scopes = ['read_orders', 'write_orders'];
    try {
      const id = '5962412737005';
      store.addOrder(companyOrder(id, '441870805', 'PT 507 957 547'));
      const note = await eventually('the problem told on the order', () => (String(order(id).note ?? '').includes('read_companies') ? String(order(id).note) : undefined));
      // Shopify's own reason (the scopes it requires), and the fix in Shopify's words.
      expect(note).toContain('A Admin API do Shopify recusou o pedido: «Access denied for company field. Required access: `read_customers` access scope or `read_companies` access scope.»');
      expect(note).toContain('Dev Dashboard do Shopify');
      expect(note).not.toMatch(/REST|WooCommerce/);
      expect(invoices(id)).toHaveLength(0);
      // The doctor says it before any order does: a Plus store, a company NIF source, no scope to read companies.
      const { checks } = await shopifyDoctorChecks(new ShopifyAdminClient({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken }), config.tenants[0], connector.origin as string);
      expect(checks.find((c) => c.name === 'B2B company NIFs')).toMatchObject({ status: 'warn', fix: expect.stringContaining('read_companies') });
    } finally {
      store.scopes = ['read_orders', 'write_orders', 'read_companies'];
    }
  });
});
