/**
 * The node's invoice and credit note for a Shopify order (Shop Platform: Shopify), run inside n8n
 * through the harness against the sandbox, with the Shopify Trigger's own items
 * (./support/shopify-rest.ts). What it must do is what the connector does with the same order: the
 * connector's side is read from the fake Shopify's GraphQL Admin API (the same sale as a GraphQL
 * fixture) and mapped by the Shopify adapter, so both roads are held to one law.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { OrderMappingError } from '../../law/mapping-errors';
import { MappingSettingsSchema } from '../../law/mapping-settings';
import { documentForSale } from '../../law/order-to-document';
import { waybillForSale } from '../../law/order-to-waybill';
import { creditNoteForRefund } from '../../law/refund-to-credit-note';
import type { Sale } from '../../law/sale';
import { shopify } from '../../platforms/shopify/adapter';
import { ShopifyAdminClient } from '../../platforms/shopify/admin-client';
import { readShopifyOrder, readShopifyRefund } from '../../platforms/shopify/order-query';
import { FakeShopify, type JsonObject } from '../support/fake-shopify';
import { bag, sweaterAndShippingRefund, TAXES_INCLUDED } from '../platforms/shopify/fixtures/orders';
import { invoiceThroughNode } from './support/invoice';
import { runNode, savedNode } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';
import { b2bOrder, paidOrder1001, refund1001, set } from './support/shopify-rest';

const mapping = MappingSettingsSchema.parse({});
const store = new FakeShopify();
let connectorSale: Sale;
let s: NodeSandbox;

beforeAll(async () => {
  await store.start();
  store.addOrder(TAXES_INCLUDED);
  const client = new ShopifyAdminClient({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken });
  connectorSale = shopify.saleOf(await readShopifyOrder(client, String(TAXES_INCLUDED.legacyResourceId)), mapping);
});
afterAll(() => store.close());
beforeEach(async () => {
  s = await startNodeSandbox();
});
afterEach(async () => {
  await s.close();
});

const invoice = (more: INodeParameters = {}): INodeParameters => ({ resource: 'document', operation: 'createFromOrder', shopPlatform: 'shopify', orderRecord: 'none', ...more });
const creditNote = (invoiceNumber: string, more: INodeParameters = {}): INodeParameters => ({
  resource: 'document',
  operation: 'createCreditNoteFromRefund',
  shopPlatform: 'shopify',
  orderRecord: 'none',
  order: '={{ $json.order }}',
  refund: '={{ $json.refund }}',
  invoiceNumber,
  ...more,
});
type Body = { Client: IDataObject; Document: { Type: string; ExternalId: string; Lines: IDataObject[]; DocumentReference?: string } };
const bodyOf = (request: { body?: string }): Body => JSON.parse(request.body ?? '{}') as Body;
/** The law's lines as the client puts them on the wire (its decimal text as JSON numbers). */
const onWire = (lines: readonly object[]): IDataObject[] =>
  lines.map((line) => Object.fromEntries(Object.entries(line).map(([key, value]) => [key, ['UnitPrice', 'Quantity', 'TaxValue', 'ProductDiscount'].includes(key) ? Number(value) : value])));
const documentsOnService = async (): Promise<unknown[]> => ((await s.admin('GET', '/documents')).body as { documents: unknown[] }).documents;

describe('Document > Create From Order with Shop Platform "Shopify": the Shopify Trigger\'s orders/paid item', () => {
  it('is invoiced as the connector invoices the same order: the same client, lines and External ID', async () => {
    const { output, requests } = await runNode({ credentials: s.credentials, parameters: invoice(), items: [{ json: paidOrder1001() }] });
    expect(output[0][0].json).toMatchObject({ orderId: 5962412736508, orderName: '#1001', shopPlatform: 'shopify', held: false, documentId: expect.any(Number), externalId: 'wc-5962412736508' });
    const connector = documentForSale(connectorSale, mapping);
    const sent = bodyOf(requests[0]);
    expect(sent.Client).toEqual(connector.request.Client);
    expect(sent.Client).toMatchObject({ NIF: '509442013', Name: 'Maria Silva' });
    expect(sent.Document.Lines).toEqual(onWire(connector.request.Document.Lines));
    expect(sent.Document.Lines.map((l) => [l.Description, l.Quantity, l.TaxValue])).toEqual([
      ['Camisola de lã - M', 2, 23],
      ['Os Lusíadas', 1, 6],
      ['CTT Expresso', 1, 23],
    ]);
    expect(sent.Document.ExternalId).toBe(connector.request.Document.ExternalId);
  });

  it('a repeated delivery (orders/paid, then orders/updated of the same order) gives one document: the second run is "already issued"', async () => {
    const first = await runNode({ credentials: s.credentials, parameters: invoice(), items: [{ json: paidOrder1001() }] });
    const again = await runNode({ credentials: s.credentials, parameters: invoice(), items: [{ json: { ...paidOrder1001(), updated_at: '2026-11-20T10:20:00+00:00' } }] });
    expect(first.output[0][0].json.documentId).toEqual(expect.any(Number));
    expect(again.output[0][0].json).toMatchObject({ alreadyIssued: true, externalId: 'wc-5962412736508' });
    expect(await documentsOnService()).toHaveLength(1);
  });

  it('holds what the connector holds (a large consumer sale without name and address, with the shop\'s setting), nothing sent', async () => {
    const settings = { identifiedBuyerFrom: '100', holdUnidentifiedConsumerInvoices: true };
    const anonymous = { ...paidOrder1001(), billing_address: null, shipping_address: null, note_attributes: [] };
    const { output, requests } = await runNode({ credentials: s.credentials, parameters: invoice({ mappingSettings: JSON.stringify(settings) }), items: [{ json: anonymous }], onError: 'continueErrorOutput' });
    const blank = { ...connectorSale.billing, firstName: '', lastName: '', company: '', line1: '', line2: '', city: '', region: '', postcode: '', country: '', phone: '' };
    const connector = documentForSale({ ...connectorSale, billing: blank, shipping: undefined, taxNumbers: [] }, MappingSettingsSchema.parse(settings));
    expect(connector.hold).toBe(true);
    expect(requests).toHaveLength(0);
    expect(output[1][0].json.error).toMatchObject({ held: true, orderId: 5962412736508, holds: connector.holds?.map((h) => ({ code: h.code, params: h.params })) });
    expect(String((output[1][0].json.error as IDataObject).whatToDo)).toContain('Shopify');
  });

  it('Order Record "In the Shop" (a new node\'s default) asks for the MagniFinance: Shopify Shop API credential; without it nothing is sent (shopify-order-record.test.ts runs it)', async () => {
    const { output, requests } = await runNode({
      credentials: s.credentials,
      parameters: { resource: 'document', operation: 'createFromOrder', shopPlatform: 'shopify' },
      items: [{ json: paidOrder1001() }],
      onError: 'continueErrorOutput',
    });
    expect(requests).toHaveLength(0);
    expect(String((output[1][0].json.error as IDataObject).message)).toContain('magniFinanceShopifyApi');
    expect(savedNode({ resource: 'document', operation: 'createFromOrder', shopPlatform: 'shopify' }, 3).credentials).toEqual(['magniFinanceApi', 'magniFinanceShopifyApi']);
    expect(savedNode({ resource: 'document', operation: 'createFromOrder' }, 3).credentials).toEqual(['magniFinanceApi', 'magniFinanceWooCommerceApi']);
  });

  it('a B2B order whose NIF is its company\'s is refused (the REST body names the company by id only), never invoiced to the final consumer', async () => {
    const { output, requests } = await runNode({ credentials: s.credentials, parameters: invoice(), items: [{ json: b2bOrder() }], onError: 'continueErrorOutput' });
    expect(requests).toHaveLength(0);
    expect(output[1][0].json.error).toMatchObject({ refused: true, why: { code: 'shopify-company-nif-unread', params: { order: '#1002' } } });
    // With the NIF in an order attribute read first, it is invoiced to that NIF.
    const withAttribute = { ...b2bOrder(), note_attributes: [{ name: 'nif', value: '507957547' }] };
    const settings = JSON.stringify({ nifSources: [{ from: 'attribute', key: 'nif' }] });
    const issued = await runNode({ credentials: s.credentials, parameters: invoice({ shopifySettings: settings }), items: [{ json: withAttribute }] });
    expect(bodyOf(issued.requests[0]).Client).toMatchObject({ NIF: '507957547' });
  });

  it('a NIF source in a metafield is refused: a webhook body carries no metafields', async () => {
    const settings = JSON.stringify({ nifSources: [{ from: 'metafield', namespace: 'vat_app', key: 'nif' }] });
    const { output, requests } = await runNode({ credentials: s.credentials, parameters: invoice({ shopifySettings: settings }), items: [{ json: paidOrder1001() }], onError: 'continueErrorOutput' });
    expect(requests).toHaveLength(0);
    expect(output[1][0].json.error).toMatchObject({ why: { code: 'shopify-metafield-nif-unread', params: { metafield: 'vat_app.nif' } } });
  });

  it('the wrong platform is named: a Shopify order given as WooCommerce, a WooCommerce-shaped body given as Shopify', async () => {
    const asWoo = await runNode({ credentials: s.credentials, parameters: { ...invoice(), shopPlatform: 'woocommerce' }, items: [{ json: paidOrder1001() }], onError: 'continueRegularOutput' });
    expect(asWoo.output[0][0].json).toMatchObject({ error: 'Order is not a WooCommerce order', description: 'It is a Shopify order: set Shop Platform to "Shopify".' });
    const asShopify = await runNode({ credentials: s.credentials, parameters: invoice(), items: [{ json: { id: 963, status: 'processing', line_items: [] } }], onError: 'continueRegularOutput' });
    expect(asShopify.output[0][0].json.error).toBe('Order is not a Shopify order');
    expect(asShopify.requests).toHaveLength(0);
  });
});

describe('Document > Create Credit Note From Refund with Shop Platform "Shopify": the refunds/create item and its order', () => {
  it('credits the refunded sweater and shipping as the connector does (Shopify\'s shipping_refund adjustment is the shipping line said twice, not a second credit)', async () => {
    const base = sweaterAndShippingRefund();
    const transaction = { ...(base.transactions as JsonObject[])[0], amountSet: bag('49.81') };
    const refunded = store.refund(String(TAXES_INCLUDED.id), { ...base, orderAdjustments: [], totalRefundedSet: bag('49.81'), transactions: [transaction] });
    const client = new ShopifyAdminClient({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken });
    const connectorRefund = shopify.refundOf(await readShopifyRefund(client, String(refunded.id)), connectorSale);
    const invoiced = await invoiceThroughNode(s, invoice(), paidOrder1001());
    const connector = creditNoteForRefund(connectorSale, connectorRefund, invoiced.documentNumber, mapping);

    const { output, requests } = await runNode({ credentials: s.credentials, parameters: creditNote(invoiced.documentNumber, { invoiceDocumentId: invoiced.documentId }), items: [{ json: { order: paidOrder1001(), refund: refund1001() } }] });
    expect(output[0][0].json).toMatchObject({ orderId: 5962412736508, refundId: 929361501, documentType: 'C', reference: invoiced.documentNumber, externalId: 'wc-5962412736508-R929361501', documentId: expect.any(Number) });
    // The invoice is read first (the buyer it carried), then the credit note is created.
    expect(requests.map((r) => r.method)).toEqual(['GET', 'POST']);
    const sent = bodyOf(requests[1]);
    expect(sent.Document.Lines).toEqual(onWire(connector.request.Document.Lines));
    expect(sent.Document.Lines.map((l) => [l.Description, l.Quantity, l.TaxValue])).toEqual([
      ['Camisola de lã - M', 1, 23],
      ['CTT Expresso', 1, 23],
    ]);
    expect(sent.Client).toEqual(connector.request.Client);
  });

  it('a goodwill amount beyond the items (an order adjustment) stops the credit note as it stops the connector\'s, nothing sent', async () => {
    const refunded = store.refund(String(TAXES_INCLUDED.id), sweaterAndShippingRefund());
    const client = new ShopifyAdminClient({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken });
    const connectorRefund = shopify.refundOf(await readShopifyRefund(client, String(refunded.id)), connectorSale);
    const invoiced = await invoiceThroughNode(s, invoice(), paidOrder1001());
    // The connector's answer for the same refund: a hold with its reasons, or a refusal with its code.
    let expected: IDataObject;
    try {
      const note = creditNoteForRefund(connectorSale, connectorRefund, invoiced.documentNumber, mapping);
      expect(note.hold).toBe(true);
      expected = { held: true, holds: note.holds.map((hold) => expect.objectContaining({ code: hold.code })) };
    } catch (error) {
      expected = { refused: true, why: expect.objectContaining({ code: (error as OrderMappingError).code }) };
    }
    const { output, requests } = await runNode({
      credentials: s.credentials,
      parameters: creditNote(invoiced.documentNumber, { invoiceDocumentId: invoiced.documentId }),
      items: [{ json: { order: paidOrder1001(), refund: refund1001(true) } }],
      onError: 'continueErrorOutput',
    });
    // The invoice was read (its buyer); nothing was created.
    expect(requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
    expect(output[1][0].json.error).toMatchObject(expected);
  });

  it('a refund paid back in another currency than the invoice\'s is refused (REST gives that amount in its own currency only)', async () => {
    const refund = refund1001();
    const [transaction] = refund.transactions as IDataObject[];
    const inDollars = { ...refund, transactions: [{ ...transaction, amount: '53.79', currency: 'USD' }] };
    const { output, requests } = await runNode({ credentials: s.credentials, parameters: creditNote('FR A/1'), items: [{ json: { order: paidOrder1001(), refund: inDollars } }], onError: 'continueErrorOutput' });
    expect(requests).toHaveLength(0);
    expect(output[1][0].json.error).toMatchObject({ why: { code: 'shopify-refund-currency-unread', params: { refundCurrency: 'USD', invoiceCurrency: 'EUR' } } });
  });

  it('CIVA art. 29(7), 78(2): without the invoice\'s document id the credit note is refused (a webhook body carries no metafields), nothing sent', async () => {
    const { output, requests } = await runNode({ credentials: s.credentials, parameters: creditNote('FR A/1'), items: [{ json: { order: paidOrder1001(), refund: refund1001() } }], onError: 'continueErrorOutput' });
    expect(requests).toHaveLength(0);
    expect(output[1][0].json.error).toMatchObject({ refused: true, orderName: '#1001', why: { code: 'invoice-buyer-unknown', params: { invoiceNumber: 'FR A/1', order: '#1001' } } });
  });

  it('a refund given with another order is refused', async () => {
    const { output } = await runNode({ credentials: s.credentials, parameters: creditNote('FR A/1'), items: [{ json: { order: b2bOrder(), refund: { ...refund1001(), total_duties_set: set('0.00') } } }], onError: 'continueErrorOutput' });
    expect(output[1][0].json.error).toMatchObject({ why: { code: 'shopify-refund-other-order', params: { refundOrderId: 5962412736508 } } });
  });
});

describe('Waybill > Create From Order with Shop Platform "Shopify": the law\'s waybill of the neutral sale', () => {
  const loadAddress = { addressDetail: 'Rua Augusta 100', city: 'Lisboa', postalCode: '1100-053', countryCode: 'PT' };
  const mappingSettings = JSON.stringify({ waybill: { loadAddress } });

  it('carries the goods to the shipping address as the connector\'s sale would (shipping does not travel), once per order', async () => {
    const parameters = { resource: 'waybill', operation: 'createFromOrder', shopPlatform: 'shopify', orderRecord: 'none', mappingSettings };
    const { output, requests } = await runNode({ credentials: s.credentials, parameters, items: [{ json: paidOrder1001() }] });
    expect(output[0][0].json).toMatchObject({ orderId: 5962412736508, orderName: '#1001', shopPlatform: 'shopify', externalId: 'wc-5962412736508-W', documentId: expect.any(Number) });
    const connector = waybillForSale(connectorSale, MappingSettingsSchema.parse({ waybill: { loadAddress } }), new Date());
    const sent = JSON.parse(requests[0].body ?? '{}') as { Client: IDataObject; Waybill: { Lines: IDataObject[]; DestinationAddress: IDataObject } };
    expect(sent.Waybill.Lines).toEqual(onWire(connector.request.Waybill.Lines));
    expect(sent.Waybill.Lines.map((line) => line.Description)).not.toContain('CTT Expresso');
    expect(sent.Waybill.DestinationAddress).toEqual(connector.request.Waybill.DestinationAddress);
    expect(sent.Client).toEqual(connector.request.Client);

    const again = await runNode({ credentials: s.credentials, parameters, items: [{ json: paidOrder1001() }] });
    expect(again.output[0][0].json).toMatchObject({ alreadyIssued: true, externalId: 'wc-5962412736508-W' });
  });

  it('without a load address it is refused as the law refuses it, nothing sent', async () => {
    const { output, requests } = await runNode({
      credentials: s.credentials,
      parameters: { resource: 'waybill', operation: 'createFromOrder', shopPlatform: 'shopify', orderRecord: 'none' },
      items: [{ json: paidOrder1001() }],
      onError: 'continueErrorOutput',
    });
    expect(requests).toHaveLength(0);
    expect(output[1][0].json.error).toMatchObject({ refused: true, why: expect.objectContaining({ code: 'waybill-no-load-address' }) });
  });
});
