/**
 * Order Record "In the Shop" for a Shopify order: the claim, the resume and the write-back kept in
 * the order's app metafields through the GraphQL Admin API (nodes/MagniFinance/shop/shopify-orders.ts),
 * with the package's own MagniFinance: Shopify Shop API credential. Against the fake Shopify (GraphQL
 * validated against the Admin schema, cost headers, throttling) and the sandbox, over HTTP, through
 * the node's real execute (or the installed package: scripts/test-n8n-package.sh).
 * The claim, its races and the waybill; the credit note and the API budget: shopify-order-record-refund.test.ts.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { JsonObject } from '../support/fake-shopify';
import { paidOrder1001 } from './support/shopify-rest';
import { savedNode, testShopifyCredential } from './support/n8n-harness';
import { invoice, ORDER, until, useShopifyRecord, wait, type SandboxDoc } from './support/shopify-record';

const ctx = useShopifyRecord();
const { run, made, metafield, metafields, namedDocument } = ctx;

describe('Order Record "In the Shop" for a Shopify order: app metafields through the GraphQL Admin API', () => {
  it('asks for the package\'s own Shopify credential (n8n\'s Shopify credentials belong to another package), not the WooCommerce one', () => {
    expect(savedNode({ resource: 'document', operation: 'createFromOrder', shopPlatform: 'shopify' }, 3).credentials).toEqual(['magniFinanceApi', 'magniFinanceShopifyApi']);
    expect(savedNode({ resource: 'document', operation: 'createCreditNoteFromRefund', shopPlatform: 'shopify' }, 3).credentials).toEqual(['magniFinanceApi', 'magniFinanceShopifyApi']);
    expect(savedNode({ resource: 'document', operation: 'createFromOrder', shopPlatform: 'shopify', orderRecord: 'none' }, 3).credentials).toEqual(['magniFinanceApi']);
  });

  it('the credential\'s Test asks the store\'s GraphQL Admin API with the token: a good one passes, a wrong one gets 401', async () => {
    expect(await testShopifyCredential({ shopUrl: `${ctx.store.url}/`, accessToken: ctx.store.accessToken })).toMatchObject({ status: 'OK', httpStatus: 200 });
    expect(await testShopifyCredential({ shopUrl: ctx.store.url, accessToken: 'shpat_wrong' })).toMatchObject({ status: 'Error', httpStatus: 401 });
  });

  it('orders/paid and orders/updated at the same moment: one invoice, its number in the order\'s metafields; a later run finds it there', async () => {
    const [a, b] = await Promise.all([run(invoice, paidOrder1001(), { executionId: 'paid' }), run(invoice, paidOrder1001(), { executionId: 'updated' })]);
    expect([a, b].map((r) => r.output[1])).toEqual([[], []]);
    const invoices = await made('wc-5962412736508');
    expect(invoices).toHaveLength(1);
    const outcomes = [a, b].map((r) => String((r.output[0][0].json.orderRecord as IDataObject).outcome)).sort();
    expect([['already-recorded', 'issued'], ['issued', 'resumed']]).toContainEqual(outcomes);
    const number = a.output[0][0].json.documentNumber;
    expect(number).toEqual(expect.any(String));
    expect(b.output[0][0].json.documentNumber).toBe(number);
    // Where the connector writes them: the merchant, the connector and the next run read the same keys.
    expect(metafield('magnifinance_document_number')).toBe(number);
    expect(metafield('magnifinance_document_id')).toBe(String(invoices[0].id));
    // The mapping read the order from the shop as the connector does: the same document as the item's.
    const issuing = [a, b].find((r) => (r.output[0][0].json.orderRecord as IDataObject).outcome === 'issued');
    expect(issuing?.output[0][0].json).toMatchObject({ orderId: 5962412736508, orderName: '#1001', shopPlatform: 'shopify', externalId: 'wc-5962412736508' });

    const later = await run(invoice, paidOrder1001(), { executionId: 'retry' });
    expect(later.output[0][0].json).toMatchObject({ alreadyIssued: true, documentNumber: number, orderRecord: { outcome: 'already-recorded' } });
    expect(await made('wc-5962412736508')).toHaveLength(1);
  }, 120_000);

  it('two runs race for the order (both read it unclaimed): Shopify\'s compare-and-set lets one claim it, the other resumes its document; one document in all, drafts included', async () => {
    // Both runs' first claim writes are held until both have arrived (each read the order unclaimed before writing);
    // the first then runs, and the second only once the first run's claim names its draft.
    const fresh = (inputs: JsonObject[]): boolean =>
      inputs.some((m) => String(m.key).startsWith('magnifinance_claim_invoice_') && (JSON.parse(String(m.value)) as { documentId?: number }).documentId === undefined);
    let arrived = 0;
    let bothArrived!: () => void;
    const both = new Promise<void>((resolve) => (bothArrived = resolve));
    let releaseSecond!: () => void;
    const second = new Promise<void>((resolve) => (releaseSecond = resolve));
    ctx.store.beforeMetafieldsSet = async (inputs) => {
      if (!fresh(inputs)) return;
      arrived += 1;
      if (arrived === 1) await both;
      else if (arrived === 2) {
        bothArrived();
        await second;
      }
    };
    const racing = Promise.all([run(invoice, paidOrder1001(), { executionId: 'race-1' }), run(invoice, paidOrder1001(), { executionId: 'race-2' })]);
    const draft = await until('the claim to name its draft', () => namedDocument('magnifinance_claim_invoice_'));
    releaseSecond();
    const [a, b] = await racing;
    expect(arrived).toBeGreaterThanOrEqual(2);
    expect([a, b].map((r) => r.output[1])).toEqual([[], []]);
    // The second run's claim was refused (STALE_OBJECT): it never saved a draft of its own.
    const all = ((await ctx.sandbox.admin('GET', '/documents')).body as { documents: SandboxDoc[] }).documents.filter((d) => String(d.document.ExternalId).startsWith('wc-5962412736508'));
    expect(all.map((d) => d.id)).toEqual([draft]);
    expect(all[0].status).not.toBe('draft');
    const outcomes = [a, b].map((r) => String((r.output[0][0].json.orderRecord as IDataObject).outcome)).sort();
    expect([['already-recorded', 'issued'], ['issued', 'resumed']]).toContainEqual(outcomes);
    expect(b.output[0][0].json.documentNumber).toBe(a.output[0][0].json.documentNumber);
    // One claim for the purpose, not one per run.
    expect(metafields().filter((m) => String(m.key).startsWith('magnifinance_claim_invoice_')).map((m) => m.key)).toEqual(['magnifinance_claim_invoice_held']);
  }, 120_000);

  it('the order changed during the wait (the buyer\'s NIF changed while the first run waits for its number): one invoice, the second run resumes it', async () => {
    const first = run(invoice, paidOrder1001(), { executionId: 'first' });
    const documentId = await until('the first run to name its draft', () => namedDocument('magnifinance_claim_invoice_'));
    // The merchant corrects the buyer's NIF: the service's External ID check alone would let a second invoice through for the new buyer.
    ctx.store.setAttributes(ORDER, [{ key: 'nif', value: '232013969' }]);
    const second = run(invoice, paidOrder1001(), { executionId: 'second' });
    const [a, b] = await Promise.all([first, second]);
    expect([a, b].map((r) => r.output[1])).toEqual([[], []]);
    const invoices = await made('wc-5962412736508');
    expect(invoices).toHaveLength(1);
    expect(invoices[0].id).toBe(documentId);
    // Closed with the order as the shop had it at the close (before or after the correction, as the race fell): one buyer, one invoice.
    expect(['509442013', '232013969']).toContain(invoices[0].client.NIF);
    expect(b.output[0][0].json).toMatchObject({ documentId, alreadyIssued: true });
    expect(metafield('magnifinance_document_number')).toBe(a.output[0][0].json.documentNumber);
  }, 120_000);

  it('a run that dies after the close, before the write-back: the next run resumes the invoice by its id and writes its number', async () => {
    const cancel = new AbortController();
    const first = run(invoice, paidOrder1001(), { cancel });
    const documentId = await until('the draft to be named', () => namedDocument('magnifinance_claim_invoice_'));
    await until('the invoice to be closed', async () => (await made('wc-5962412736508')).length === 1 || undefined);
    cancel.abort();
    await expect(first).rejects.toThrow();
    expect(metafield('magnifinance_document_number')).toBeUndefined();

    const later = await run(invoice, paidOrder1001());
    expect(later.output[0][0].json).toMatchObject({ documentId, writtenBack: true, alreadyIssued: true, orderRecord: { outcome: 'resumed' } });
    expect(await made('wc-5962412736508')).toHaveLength(1);
  }, 120_000);

  it('the waybill (the law\'s waybill of the neutral sale): two runs at once give one, its number in the order\'s metafield magnifinance_waybill', async () => {
    const loadAddress = { addressDetail: 'Rua Augusta 100', city: 'Lisboa', postalCode: '1100-053', countryCode: 'PT' };
    const waybill: INodeParameters = { resource: 'waybill', operation: 'createFromOrder', shopPlatform: 'shopify', orderRecord: 'shop', mappingSettings: JSON.stringify({ waybill: { loadAddress } }), ...wait };
    const [a, b] = await Promise.all([run(waybill, paidOrder1001(), { executionId: 'w-1' }), run(waybill, paidOrder1001(), { executionId: 'w-2' })]);
    expect([a, b].map((r) => r.output[1])).toEqual([[], []]);
    const waybills = await made('wc-5962412736508-W');
    expect(waybills).toHaveLength(1);
    const number = a.output[0][0].json.documentNumber;
    expect(number).toEqual(expect.any(String));
    expect(b.output[0][0].json.documentNumber).toBe(number);
    expect(JSON.parse(metafield('magnifinance_waybill') ?? '{}')).toMatchObject({ number, documentId: String(waybills[0].id) });
  }, 120_000);

  it('a refused token fails the item with the reason, before anything is issued', async () => {
    const result = await run(invoice, paidOrder1001(), { accessToken: 'shpat_wrong' });
    expect(String((result.output[1][0].json.error as IDataObject).message)).toContain('Shopify refused the access token (HTTP 401)');
    expect(await made('wc-5962412736508')).toHaveLength(0);
    expect(result.requests.filter((r) => r.url.startsWith(ctx.sandbox.sandbox.baseUrl))).toEqual([]);
  }, 60_000);
});
