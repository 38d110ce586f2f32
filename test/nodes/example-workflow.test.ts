import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { JsonObject } from '../support/fake-woocommerce';

import { evaluateExpression, runNode } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';
import { startNodeShop, type NodeShop } from './support/shop';

interface WorkflowNode {
  name: string;
  type: string;
  onError?: 'continueErrorOutput' | 'continueRegularOutput' | 'stopWorkflow';
  parameters: INodeParameters;
  typeVersion: number;
}
type Connections = Record<string, { main: Array<Array<{ node: string }>> }>;

const FIXTURES = '/work/shared/fixtures/woocommerce';
const workflow = JSON.parse(readFileSync(join(__dirname, '../../examples/woocommerce-invoice.workflow.json'), 'utf8')) as {
  nodes: WorkflowNode[];
  connections: Connections;
};
const byName = new Map(workflow.nodes.map((n) => [n.name, n]));
const invoiceNode = workflow.nodes.find((n) => n.type === 'n8n-nodes-magnifinance.magniFinance') as WorkflowNode;
const done = byName.get('Done: the number is on the order') as WorkflowNode;
const alert = byName.get('Tell a person') as WorkflowNode;
const filter = byName.get('Paid and not invoiced yet') as WorkflowNode;
const afterInvoice = byName.get('Refunded or cancelled after its invoice') as WorkflowNode;
const creditNoteAlert = byName.get('Tell a person: credit note needed') as WorkflowNode;

function fixture(name: string): IDataObject {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as IDataObject;
}

/** The If node's single condition, evaluated by n8n's expression engine: output 0 when true. */
function ifOutput(node: WorkflowNode, json: IDataObject): number {
  const conditions = (node.parameters.conditions as { conditions: Array<{ leftValue: string }> }).conditions;
  expect(conditions).toHaveLength(1);
  return evaluateExpression(conditions[0].leftValue, json) === true ? 0 : 1;
}

/**
 * Follows an output item of the MagniFinance node through the example's If nodes, as n8n would,
 * to the node where it ends (write-back, nothing to do, or the alert).
 */
function destination(output: number, item: INodeExecutionData): string {
  let from = invoiceNode.name;
  let index = output;
  for (;;) {
    const next = workflow.connections[from]?.main[index] ?? [];
    expect(next).toHaveLength(1);
    const node = byName.get(next[0].node) as WorkflowNode;
    if (node.type !== 'n8n-nodes-base.if') return node.name;
    from = node.name;
    index = ifOutput(node, item.json);
  }
}

/** Where each output item of a run of the example's MagniFinance node ends. */
function destinations(output: INodeExecutionData[][]): Array<{ to: string; json: IDataObject }> {
  return output.flatMap((items, index) => items.map((item) => ({ to: destination(index, item), json: item.json })));
}

/** A delivery of the order as the shop has it now, through the example's filter and node. */
async function deliverToExample(s: NodeSandbox, shop: NodeShop, orderId: number, settings: IDataObject = {}) {
  const order = structuredClone(shop.woo.order(orderId)) as IDataObject;
  if (ifOutput(filter, order) !== 0) return { filtered: true as const, order };
  const mappingSettings = JSON.stringify({ ...JSON.parse(String(invoiceNode.parameters.mappingSettings)), ...settings });
  const result = await runNode({
    credentials: s.credentials,
    shop: shop.shop,
    parameters: { ...invoiceNode.parameters, mappingSettings },
    items: [{ json: order }],
    onError: invoiceNode.onError,
    typeVersion: invoiceNode.typeVersion,
  });
  return { filtered: false as const, order, ...result, sandboxRequests: result.requests.filter((r) => r.url.startsWith(s.sandbox.baseUrl)) };
}

describe('the example workflow: WooCommerce Trigger -> invoice, claimed and written back by the node (error output on) -> done, or a person told', () => {
  it('wires the steps with the package node type, the order record in the shop, its error output on', () => {
    expect(workflow.nodes.map((n) => n.type)).toEqual([
      'n8n-nodes-base.wooCommerceTrigger',
      'n8n-nodes-base.if',
      'n8n-nodes-magnifinance.magniFinance',
      'n8n-nodes-base.if',
      'n8n-nodes-base.noOp',
      'n8n-nodes-base.emailSend',
      'n8n-nodes-base.if',
      'n8n-nodes-base.emailSend',
    ]);
    expect(invoiceNode.parameters).toMatchObject({ resource: 'document', operation: 'createFromOrder', orderRecord: 'shop', waitForDocument: true });
    expect(Object.keys((invoiceNode as unknown as { credentials: object }).credentials)).toEqual(['magniFinanceApi', 'magniFinanceWooCommerceApi']);
    expect(invoiceNode.onError).toBe('continueErrorOutput');
    expect(workflow.connections[invoiceNode.name].main[1]).toEqual([expect.objectContaining({ node: alert.name })]);
    // What the filter drops goes on to the refund check, never to the invoice.
    expect(workflow.connections[filter.name].main[1]).toEqual([expect.objectContaining({ node: afterInvoice.name })]);
  });

  it.each([
    { case: 'numbered document', json: { orderId: 1, documentId: 7, documentNumber: 'FR A/7', alreadyIssued: false, writtenBack: true }, to: done.name },
    { case: 'already on the order (a repeated delivery)', json: { orderId: 1, documentId: 7, documentNumber: 'FR A/7', alreadyIssued: true }, to: done.name },
    { case: 'issued, no number within the wait', json: { orderId: 1, documentId: 7, documentNumber: null, alreadyIssued: false, finalized: false }, to: alert.name },
    { case: 'a draft (no number by design)', json: { orderId: 1, documentId: 7, closed: false, alreadyIssued: false }, to: alert.name },
  ])('a success item is done only with its number: $case', ({ json, to }) => {
    expect(destination(0, { json })).toBe(to);
  });

  it('a refund or a cancellation after the invoice: the example says loudly that the credit note is a person\'s to issue', () => {
    const invoiced = { id: 723, status: 'refunded', currency: 'EUR', meta_data: [{ key: '_magnifinance_document_number', value: 'FR A/9' }], refunds: [{ id: 726, total: '-10.00' }] };
    expect(ifOutput(filter, invoiced)).toBe(1);
    expect(ifOutput(afterInvoice, invoiced)).toBe(0);
    const text = String(evaluateExpression(String(creditNoteAlert.parameters.text), invoiced));
    expect(text).toContain('This workflow does NOT issue credit notes');
    expect(text).toContain('FR A/9');
    expect(text).toContain('#726 (-10.00 EUR)');
    expect(evaluateExpression(String(creditNoteAlert.parameters.subject), invoiced)).toBe('Order #723 was refunded after its invoice: a credit note is yours to issue');
    // Once the credit note's number is on the order, the alert stops.
    const credited = { ...invoiced, status: 'completed', meta_data: [...invoiced.meta_data, { key: '_magnifinance_credit_note_726', value: '{"number":"NC A/1"}' }] };
    expect(ifOutput(afterInvoice, credited)).toBe(1);
    // Cancelled with an invoice and no refund: told too.
    expect(ifOutput(afterInvoice, { ...invoiced, status: 'cancelled', refunds: [] })).toBe(0);
    // Not invoiced: nothing to credit.
    expect(ifOutput(afterInvoice, { ...invoiced, meta_data: [] })).toBe(1);
  });

  it('the alert names the order and says what to do, for an error item and for a document without number', () => {
    const held = { id: 964, error: { message: 'Order #964 is held, not invoiced: X', orderId: 964, whatToDo: 'Do Y' } };
    expect(evaluateExpression(String(alert.parameters.subject), held)).toBe('Order #964 is not invoiced yet: it needs you');
    expect(evaluateExpression(String(alert.parameters.text), held)).toBe('Order #964 is held, not invoiced: X\n\nDo Y');
    const service = { id: 965, error: { message: 'MagniFinance SaveFailed (14)', description: 'Validation: ...' } };
    expect(evaluateExpression(String(alert.parameters.subject), service)).toBe('Order #965 is not invoiced yet: it needs you');
    const unnumbered = { orderId: 966, documentId: 12, documentNumber: null, finalized: false };
    expect(evaluateExpression(String(alert.parameters.subject), unnumbered)).toBe('Order #966 is not invoiced yet: it needs you');
    expect(evaluateExpression(String(alert.parameters.text), unnumbered)).toContain('resumes it by its id and writes its number on the order');
  });
});

// Not in the table: wc-docs-order-727 charges a 7.5% US state tax, no Portuguese rate: the mapping
// refuses it before anything is sent (CIVA art. 18(9), law/vat-rates.ts).
// Each fixture gets its own sandbox (a series only accepts dates after its latest closed
// document, and the fixtures span 2017-2023); they run side by side because each waits 10 s.
describe("the example's node on the shared WooCommerce fixtures", () => {
  // Order 963 charged 4 % in 2018, a rate no Portuguese region had in this table then (CIVA art. 18(9)):
  // dated 2025 from an Azores shop, where 4 % is in force. Order 15 (free downloads) is no supply
  // (art. 3(7)) and has nothing to invoice, so a 0 % export to a US consumer (M05) stands in for it.
  const day2025 = '2025-04-03T10:00:00';
  it.concurrent.each([
    { file: 'wc-ios-order-963-coupon-tax.json', settings: { dispatchRegion: 'azores' } },
    { file: 'pt-007-export-us.json', settings: {} },
  ])('$file: issued to the cent, its number on the order; the later deliveries are dropped or end done, one document', async ({ file, settings }) => {
    const order: IDataObject = file.startsWith('pt-')
      ? (JSON.parse(readFileSync(join(__dirname, '../fixtures/orders', file), 'utf8')) as IDataObject)
      : { ...fixture(file), date_created: day2025, date_created_gmt: day2025, date_paid: day2025, date_paid_gmt: day2025 };
    const s = await startNodeSandbox();
    const shop = await startNodeShop();
    try {
      shop.woo.putOrder({ ...order, status: 'processing' } as JsonObject);
      const first = await deliverToExample(s, shop, Number(order.id), settings);
      if (first.filtered) throw new Error('the first delivery was filtered');
      expect(destinations(first.output).map((d) => d.to)).toEqual([done.name]);
      expect(first.output[0][0].json).toMatchObject({
        orderId: order.id,
        externalId: `wc-${order.id}`,
        held: false,
        finalized: true,
        writtenBack: true,
        documentId: expect.any(Number),
        documentNumber: expect.stringMatching(/\S+/),
        totalAmount: order.total,
      });
      expect(first.output[0][0].pairedItem).toEqual({ item: 0 });
      expect(shop.woo.meta(Number(order.id), '_magnifinance_document_number')).toBe(first.output[0][0].json.documentNumber);
      // WooCommerce sends order.updated again (the write-back's echo, a redelivery): the filter drops it.
      expect((await deliverToExample(s, shop, Number(order.id), settings)).filtered).toBe(true);
      // A delivery built before the number landed reaches the node: it finds the number on the order.
      const stale = await runNode({ credentials: s.credentials, shop: shop.shop, parameters: { ...invoiceNode.parameters, mappingSettings: JSON.stringify({ ...JSON.parse(String(invoiceNode.parameters.mappingSettings)), ...settings }) }, items: [{ json: { ...order, status: 'processing' } }], onError: invoiceNode.onError });
      expect(destinations(stale.output).map((d) => d.to)).toEqual([done.name]);
      expect(stale.output[0][0].json).toMatchObject({ alreadyIssued: true, orderRecord: { outcome: 'already-recorded' } });
      const documents = (await s.admin('GET', '/documents')).body as { documents: unknown[] };
      expect(documents.documents).toHaveLength(1);
    } finally {
      await shop.close();
      await s.close();
    }
  }, 60_000);

  it('a held order reaches the alert with its reasons and nothing is written back', async () => {
    const order = fixture('wc-ios-order-963-coupon-tax.json');
    const day2025 = '2025-04-03T10:00:00';
    // A company in Lisbon whose NIF fails its check digit: held (CIVA art. 36(5)(a)). Dated 2025
    // from an Azores shop, so that its 4% lines are a rate in force (see the case above).
    const held = {
      ...order,
      date_created: day2025,
      date_created_gmt: day2025,
      date_paid: day2025,
      date_paid_gmt: day2025,
      billing: { ...(order.billing as IDataObject), company: 'Loja Exemplo Lda', country: 'PT', postcode: '1100-053', city: 'Lisboa' },
      meta_data: [...(order.meta_data as IDataObject[]), { id: 9001, key: '_billing_nif', value: '123456780' }],
    };
    const s = await startNodeSandbox();
    const shop = await startNodeShop();
    try {
      shop.woo.putOrder({ ...held, status: 'processing' } as JsonObject);
      const run = await deliverToExample(s, shop, 963, { dispatchRegion: 'azores' });
      if (run.filtered) throw new Error('the delivery was filtered');
      const ends = destinations(run.output);
      expect(ends.map((d) => d.to)).toEqual([alert.name]);
      expect(evaluateExpression(String(alert.parameters.text), ends[0].json)).toContain('123456780');
      expect(run.sandboxRequests).toHaveLength(0);
      // No number, and the claim released: the corrected order's next delivery passes the filter.
      expect(shop.woo.meta(963, '_magnifinance_document_number')).toBeUndefined();
      expect(ifOutput(filter, shop.woo.order(963) as IDataObject)).toBe(0);
    } finally {
      await shop.close();
      await s.close();
    }
  });

  it('a payload that is not an order reaches the alert, naming the problem', async () => {
    const s = await startNodeSandbox();
    try {
      const refunds = JSON.parse(readFileSync(join(FIXTURES, 'wc-docs-order-723-refunds-list.json'), 'utf8')) as IDataObject[];
      const { output, requests } = await runNode({
        credentials: s.credentials,
        parameters: { ...invoiceNode.parameters, order: '={{ $json.refunds }}' },
        items: [{ json: { refunds } }],
        onError: invoiceNode.onError,
      });
      expect(destinations(output)).toEqual([{ to: alert.name, json: expect.objectContaining({ error: expect.objectContaining({ message: 'Order is not a WooCommerce order' }) }) }]);
      expect(requests).toHaveLength(0);
    } finally {
      await s.close();
    }
  });
});
