import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { documentForOrder } from '../../platforms/woocommerce/documents';
import { buildRefund } from '../law/support/woo-cart';
import { wooOrder } from '../support/payloads';
import { invoiceAsIssued, invoiceThroughNode } from './support/invoice';
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

const fromOrder = { resource: 'document', operation: 'createFromOrder' };
const creditNote = (invoiceNumber: string, invoiceDocumentId?: number) => ({
  resource: 'document',
  operation: 'createCreditNoteFromRefund',
  orderRecord: 'none',
  refund: '={{ $json.refund }}',
  order: '={{ $json.order }}',
  invoiceNumber,
  ...(invoiceDocumentId === undefined ? {} : { invoiceDocumentId }),
});
type Body = { Client: IDataObject; Document: { Lines: { TaxValue: number }[]; TaxExemptionReasonCode?: string } };
const created = (requests: { method: string; url: string; body?: string }[]): Body[] =>
  requests.filter((r) => r.method === 'POST' && r.url.endsWith('/document')).map((r) => JSON.parse(r.body ?? '{}') as Body);

describe('Document > Create Credit Note From WooCommerce Refund', () => {
  it('issues the credit note of the refund, referencing the invoice, for the refund amount', async () => {
    const { documentNumber: invoiceNumber, documentId: invoiceId } = await invoiceThroughNode(s, fromOrder, order);
    const refund = buildRefund(order, { id: 7001, reason: 'Artigo devolvido', items: [{ index: 0, quantity: 1 }] });
    const { output, requests: sent } = await runNode({
      credentials: s.credentials,
      parameters: creditNote(invoiceNumber, invoiceId),
      items: [{ json: { order, refund: refund as IDataObject } }],
    });
    // The invoice is read first (its buyer), then the credit note is created.
    const requests = sent.filter((r) => r.method === 'POST');
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
      parameters: creditNote(invoiceNumber, invoiceId),
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

describe('CIVA art. 29(7), 78(2): the credit note names the buyer its invoice carried, read from the invoice itself', () => {
  const refundOf = (sold: IDataObject, id: number): IDataObject => buildRefund(sold, { id, items: [{ index: 0, quantity: 1 }] }) as IDataObject;

  it('a NIF added to the order after its invoice: the credit note keeps the final consumer the invoice named (the order\'s record gives the invoice)', async () => {
    const sold: IDataObject = { ...order, id: 5201 };
    const invoiced = await invoiceThroughNode(s, fromOrder, sold);
    // The shop owner saves the buyer's NIF on the order afterwards; the order also records its invoice (the connector's keys).
    const now: IDataObject = {
      ...sold,
      meta_data: [
        { id: 801, key: '_billing_nif', value: '509442013' },
        { id: 802, key: '_magnifinance_document_id', value: String(invoiced.documentId) },
        { id: 803, key: '_magnifinance_document_number', value: invoiced.documentNumber },
      ],
    };
    const { output, requests } = await runNode({ credentials: s.credentials, parameters: creditNote(invoiced.documentNumber), items: [{ json: { order: now, refund: refundOf(now, 7201) } }] });
    const [body] = created(requests);
    expect(body.Client).toMatchObject({ NIF: '999999990', CountryCode: 'PT' });
    expect(output[0][0].json.notes).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'credit-note-invoice-buyer', params: expect.objectContaining({ nif: '999999990', orderNif: '509442013' }) })]));
  });

  it('an EU VAT number VIES called invalid at invoice time: invoiced to the final consumer with Portuguese VAT, credited the same (never to the VAT number at 0 %)', async () => {
    const spanish: IDataObject = {
      ...order,
      id: 5101,
      billing: { ...(order.billing as IDataObject), first_name: 'Lucía', last_name: 'García', address_1: 'Calle Mayor 5', city: 'Madrid', postcode: '28013', country: 'ES' },
      meta_data: [{ id: 9100, key: '_billing_vat', value: 'ESB12345678' }],
    };
    // As the connector issued it after VIES answered "invalid" (a person released the hold).
    const asIssued = documentForOrder(wooOrder(spanish), {}, {}, { countryCode: 'ES', number: 'B12345678', valid: false });
    expect(asIssued.request.Client).toMatchObject({ NIF: '999999990', CountryCode: 'ES' });
    const invoiced = await invoiceAsIssued(s, asIssued.request);

    const { output, requests } = await runNode({ credentials: s.credentials, parameters: creditNote(invoiced.documentNumber, invoiced.documentId), items: [{ json: { order: spanish, refund: refundOf(spanish, 7202) } }] });
    expect(output[0][0].json).toMatchObject({ documentType: 'C', reference: invoiced.documentNumber, documentId: expect.any(Number) });
    const [body] = created(requests);
    expect(body.Client).toMatchObject({ NIF: '999999990', CountryCode: 'ES' });
    expect(body.Document.Lines.map((line) => line.TaxValue)).toEqual([23]);
    expect(body.Document.TaxExemptionReasonCode).toBeUndefined();
  });

  it('no invoice id given and none recorded on the order: refused with the reason, nothing created (never the order\'s buyer of now)', async () => {
    const refund = refundOf(order, 7203);
    const { output, requests } = await runNode({ credentials: s.credentials, onError: 'continueErrorOutput', parameters: creditNote('FR A/1'), items: [{ json: { order, refund } }] });
    expect(requests).toEqual([]);
    const error = output[1][0].json.error as IDataObject;
    expect(error).toMatchObject({ refused: true, orderId: order.id, refundId: 7203, why: { code: 'invoice-buyer-unknown', params: { invoiceNumber: 'FR A/1', order: `#${order.id}` } } });
    expect(String(error.message)).toContain('CIVA art. 29(7), 78(2)');
    expect(String(error.whyPt)).toContain('Invoice Document ID');
  });

  it('an id that names another document than the invoice number: refused, nothing created', async () => {
    const sold: IDataObject = { ...order, id: 5204 };
    const invoiced = await invoiceThroughNode(s, fromOrder, sold);
    const { output, requests } = await runNode({ credentials: s.credentials, onError: 'continueErrorOutput', parameters: creditNote('FR A/999', invoiced.documentId), items: [{ json: { order: sold, refund: refundOf(sold, 7204) } }] });
    expect(created(requests)).toEqual([]);
    expect(output[1][0].json.error).toMatchObject({ why: { code: 'invoice-document-other', params: { invoiceNumber: 'FR A/999', documentId: invoiced.documentId, found: expect.stringContaining(invoiced.documentNumber) } } });
    const missing = await runNode({ credentials: s.credentials, onError: 'continueErrorOutput', parameters: creditNote(invoiced.documentNumber, 987654), items: [{ json: { order: sold, refund: refundOf(sold, 7205) } }] });
    expect(missing.output[1][0].json.error).toMatchObject({ why: { code: 'invoice-document-missing', params: { documentId: 987654 } } });
  });
});
