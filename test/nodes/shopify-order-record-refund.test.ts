/**
 * Order Record "In the Shop" for a Shopify order: the claim, the resume and the write-back kept in
 * the order's app metafields through the GraphQL Admin API (nodes/MagniFinance/shop/shopify-orders.ts),
 * with the package's own MagniFinance: Shopify Shop API credential. Against the fake Shopify (GraphQL
 * validated against the Admin schema, cost headers, throttling) and the sandbox, over HTTP, through
 * the node's real execute (or the installed package: scripts/test-n8n-package.sh).
 * This file: the refund's credit note and a drained API budget (the claims: shopify-order-record.test.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { sweaterAndShippingRefund } from '../platforms/shopify/fixtures/orders';
import { paidOrder1001, refund1001 } from './support/shopify-rest';
import { creditNote, invoice, ORDER, useShopifyRecord } from './support/shopify-record';

const ctx = useShopifyRecord();
const { run, made, metafield } = ctx;

describe('Order Record "In the Shop" for a Shopify order: app metafields through the GraphQL Admin API', () => {
  it('the refund\'s credit note: claimed and recorded under the refund, naming the buyer the recorded invoice carried (CIVA art. 29(7), 78(2)), not the NIF the order gives since', async () => {
    const issued = await run(invoice, paidOrder1001());
    const invoiceNumber = String(issued.output[0][0].json.documentNumber);
    expect((await made('wc-5962412736508'))[0].client.NIF).toBe('509442013');
    ctx.store.setAttributes(ORDER, [{ key: 'nif', value: '232013969' }]);
    ctx.store.refund(ORDER, { ...sweaterAndShippingRefund(), id: 'gid://shopify/Refund/929361501', orderAdjustments: [] });

    const [a, b] = await Promise.all([
      run(creditNote(invoiceNumber), { order: paidOrder1001(), refund: refund1001() }, { executionId: 'refund-1' }),
      run(creditNote(invoiceNumber), { order: paidOrder1001(), refund: refund1001() }, { executionId: 'refund-2' }),
    ]);
    expect([a, b].map((r) => r.output[1])).toEqual([[], []]);
    const notes = await made('wc-5962412736508-R929361501');
    expect(notes).toHaveLength(1);
    expect(notes[0].client.NIF).toBe('509442013');
    const record = JSON.parse(metafield('magnifinance_credit_note_929361501') ?? '{}') as IDataObject;
    expect(record).toMatchObject({ documentId: String(notes[0].id), number: expect.any(String) });
    const issuedRun = [a, b].find((r) => (r.output[0][0].json.orderRecord as IDataObject).outcome === 'issued');
    expect(issuedRun?.output[0][0].json).toMatchObject({ documentType: 'C', reference: invoiceNumber, refundId: 929361501 });
    expect(issuedRun?.output[0][0].json.notes).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'credit-note-invoice-buyer', params: expect.objectContaining({ nif: '509442013', orderNif: '232013969' }) })]));
  }, 120_000);

  it('a drained API budget (another app spent it): the queries wait for Shopify\'s bucket, nothing is lost', async () => {
    ctx.store.drainBucket(0);
    const result = await run(invoice, paidOrder1001());
    expect(result.output[1]).toEqual([]);
    expect(result.output[0][0].json).toMatchObject({ writtenBack: true, alreadyIssued: false });
    expect(await made('wc-5962412736508')).toHaveLength(1);
    expect(metafield('magnifinance_document_number')).toBe(result.output[0][0].json.documentNumber);
    // Shopify said THROTTLED at least once, and every query ran in the end.
    expect(ctx.store.costLog.some((entry) => entry.throttled)).toBe(true);
  }, 120_000);
});
