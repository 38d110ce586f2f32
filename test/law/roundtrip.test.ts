import fc from 'fast-check';
import { MagniFinanceClient } from '../../client/rest-client';
import { add, compare, formatDecimal, parseDecimal, subtract } from '../../client/money';
import { CreateDocumentRequest } from '../../client/schemas/document';
import { MappingSettingsInput } from '../../law/mapping-settings';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { waybillForOrder } from '../../platforms/woocommerce/documents';
import { creditNoteForRefund } from '../../platforms/woocommerce/documents';
import type { RunningSandbox } from '../../sandbox/server';
import { startTestSandbox, TEST_ACCOUNT } from '../support/sandbox';
import { orderFixture, orderFixtureNames, refundFixture, sharedFixture } from './support/fixtures';
import { cartArbitrary } from './support/random-carts';
import { buildOrder } from './support/woo-cart';
import { wooOrder, wooRefund } from '../support/payloads';

/**
 * Every mapped document goes to the sandbox over HTTP through the real REST client; Get Document's
 * Totals.Amount (computed by the service's rule on its side) must equal the shop's total.
 */

let sandbox: RunningSandbox;
let client: MagniFinanceClient;

interface Case {
  name: string;
  total: string;
  request: CreateDocumentRequest;
}

const usd: MappingSettingsInput = { euroRates: { USD: '0.9251' }, shopTimeZone: 'America/New_York' };
const SETTINGS: Record<string, MappingSettingsInput> = { 'pt-021-simplified-small': { documentType: 'S' }, 'pt-022-unpaid-bank-transfer': { invoiceUnpaidStatuses: ['on-hold'] } };
const settingsFor = (name: string): MappingSettingsInput => SETTINGS[name] ?? {};

/** Closed documents must not predate the last one of their series: create them in date order. */
function byDate(cases: Case[]): Case[] {
  return [...cases].sort((a, b) => (a.request.Document.Date < b.request.Document.Date ? -1 : a.request.Document.Date > b.request.Document.Date ? 1 : 0));
}

async function passFinalizeDelay(): Promise<void> {
  const response = await fetch(`${sandbox.origin}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: 10_000 }),
  });
  expect(response.status).toBe(200);
}

const orderCases: Case[] = byDate([
  ...orderFixtureNames().map((name) => {
    const order = orderFixture(name);
    const mapped = documentForOrder(wooOrder(order), settingsFor(name));
    // An unreachable total is issued at the nearest one: the service must compute exactly that.
    const total = formatDecimal(subtract(parseDecimal(String(order.total)), parseDecimal(mapped.totalDifference ?? '0')), 2);
    return { name, total, request: mapped.request };
  }),
  // Orders 963 (4 % of 2018, CIVA art. 18(9)) and 15 (free, art. 3(7)) are refused before sending: shared-fixtures.test.ts.
]);
const created = new Map<string, number>();

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: sandbox.baseUrl, retry: false });
  for (const c of orderCases) created.set(c.name, (await client.createDocument(c.request)).documentId);
  await passFinalizeDelay();
});
afterAll(() => sandbox?.close());

describe('round trip: each mapped order, created in the sandbox, totals to the order total', () => {
  it.each(orderCases.map((c) => [c.name, c] as const))('%s', async (name, c) => {
    const read = await client.getDocument(created.get(name)!);
    expect(read.documentNumber).toMatch(/\S/);
    expect(formatDecimal(read.totalAmount!, 2)).toBe(c.total);
    expect(compare(parseDecimal(String(read.details.totals.Amount)), parseDecimal(c.total))).toBe(0);
    expect(read.details.document.Type).toBe(c.request.Document.Type);
    expect(read.details.document.ExternalId).toBe(c.request.Document.ExternalId);
  });
});

describe('round trip: credit notes reference the invoice and total to the refund amount', () => {
  it.each(['pt-026-refund-partial-one-shirt', 'pt-026-refund-shipping-only', 'pt-026-refund-amount-only', 'pt-026-refund-full'])('%s', async (name) => {
    const invoice = (await client.getDocument(created.get('pt-026-refund-source')!)).documentNumber!;
    const refund = refundFixture(name);
    const { request } = creditNoteForRefund(wooOrder(orderFixture('pt-026-refund-source')), wooRefund(refund), invoice);
    const { documentId } = await client.createDocument(request);
    await passFinalizeDelay();
    const read = await client.getDocument(documentId);
    expect(read.details.document).toMatchObject({ Type: 'C', DocumentReference: invoice });
    expect(formatDecimal(read.totalAmount!, 2)).toBe(refund.amount);
  });
});

describe('round trip: waybill and refusals', () => {
  it('creates the waybill of an order', async () => {
    const settings: MappingSettingsInput = {
      waybill: { loadAddress: { addressDetail: 'Zona Industrial da Maia, Lote 12', city: 'Maia', postalCode: '4470-122', countryCode: 'PT' } },
    };
    const { request } = waybillForOrder(wooOrder(orderFixture('pt-002-mixed-23-13-6-incl')), settings, new Date());
    const result = await client.createWaybill(request);
    expect(result.documentId).toBeGreaterThan(0);
    await passFinalizeDelay();
    const read = await client.getDocument(result.documentId);
    expect(read.details.document.Type).toBe('W');
  });

  it('Lei 47/2020: the 7.5% Californian rate of order 727 is refused by the mapping before anything is sent', () => {
    expect(() => documentForOrder(wooOrder(sharedFixture('wc-docs-order-727-create-response.json')), usd)).toThrow(/is taxed at 7\.5%, which is no Portuguese VAT rate.*OSS/);
  });
});

describe('round trip: random WooCommerce carts, totalled by the sandbox', () => {
  const carts = fc.sample(cartArbitrary, { numRuns: 25, seed: 20250314 }).map((cart, i) => ({ ...cart, id: 9100 + i }));
  it.each(carts.map((cart) => [cart.id, cart] as const))('cart %i', async (_id, cart) => {
    const order = buildOrder(cart);
    const { request, totalDifference } = documentForOrder(wooOrder(order), { exemptions: { regime: 'M10' }, externalIdPrefix: 'rnd-' });
    const { documentId } = await client.createDocument(request);
    await passFinalizeDelay();
    const read = await client.getDocument(documentId);
    expect(formatDecimal(add(read.totalAmount!, parseDecimal(totalDifference ?? '0')), 2)).toBe(order.total);
  });
});
