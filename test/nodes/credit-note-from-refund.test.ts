import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { buildRefund } from '../law/support/woo-cart';
import { runNode } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';

let s: NodeSandbox;
beforeAll(async () => {
  s = await startNodeSandbox({ finalizeDelayMs: 0 });
});
afterAll(async () => {
  await s.close();
});

const order = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'orders', 'pt-001-mainland-23-single.json'), 'utf8')) as IDataObject;

async function invoiceNumberOf(): Promise<string> {
  const created = await runNode({ credentials: s.credentials, parameters: { resource: 'document', operation: 'createFromOrder', orderRecord: 'none' }, items: [{ json: order }] });
  const documentId = created.output[0][0].json.documentId as number;
  const got = await runNode({ credentials: s.credentials, parameters: { resource: 'document', operation: 'get', documentId } });
  return got.output[0][0].json.documentNumber as string;
}

describe('Document > Create Credit Note From WooCommerce Refund', () => {
  it('issues the credit note of the refund, referencing the invoice, for the refund amount', async () => {
    const invoiceNumber = await invoiceNumberOf();
    const refund = buildRefund(order, { id: 7001, reason: 'Artigo devolvido', items: [{ index: 0, quantity: 1 }] });
    const { output, requests } = await runNode({
      credentials: s.credentials,
      parameters: { resource: 'document', operation: 'createCreditNoteFromRefund', orderRecord: 'none', refund: '={{ $json.refund }}', order: '={{ $json.order }}', invoiceNumber },
      items: [{ json: { order, refund: refund as IDataObject } }],
    });
    expect(output[0][0].json).toMatchObject({ orderId: order.id, refundId: 7001, documentType: 'C', reference: invoiceNumber, documentId: expect.any(Number) });
    const body = JSON.parse(requests[0].body ?? '{}') as { Document: { Type: string; ExternalId: string; Lines: unknown[] } };
    expect(body.Document.Type).toBe('C');
    expect(requests[0].body).toContain(invoiceNumber);
    const got = await runNode({ credentials: s.credentials, parameters: { resource: 'document', operation: 'get', documentId: output[0][0].json.documentId as number } });
    expect(got.output[0][0].json).toMatchObject({ type: 'C' });
    expect(got.output[0][0].json.totalAmount).toBe(Math.abs(Number(refund.amount)).toFixed(2));

    // The same refund again is refused by the service (External ID per refund): already issued, not a second note.
    const again = await runNode({
      credentials: s.credentials,
      continueOnFail: true,
      parameters: { resource: 'document', operation: 'createCreditNoteFromRefund', orderRecord: 'none', refund: '={{ $json.refund }}', order: '={{ $json.order }}', invoiceNumber },
      items: [{ json: { order, refund: refund as IDataObject } }],
    });
    expect(again.output[0][0].json).toMatchObject({ alreadyIssued: true, documentId: null, refundId: refund.id });
  });

  it('without the invoice number it fails before any request, naming the field', async () => {
    const refund = buildRefund(order, { id: 7002, items: [{ index: 0, quantity: 1 }] });
    const run = runNode({
      credentials: s.credentials,
      parameters: { resource: 'document', operation: 'createCreditNoteFromRefund', orderRecord: 'none', refund: '={{ $json.refund }}', order: '={{ $json.order }}' },
      items: [{ json: { order, refund: refund as IDataObject } }],
    });
    await expect(run).rejects.toThrow(/Invoice Number is required/);
  });
});
