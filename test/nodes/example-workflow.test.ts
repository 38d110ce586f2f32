import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { evaluateExpression, runNode } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';

interface WorkflowNode {
  name: string;
  type: string;
  onError?: 'continueErrorOutput' | 'continueRegularOutput' | 'stopWorkflow';
  parameters: INodeParameters;
}
type Connections = Record<string, { main: Array<Array<{ node: string }>> }>;

const FIXTURES = '/work/shared/fixtures/woocommerce';
const workflow = JSON.parse(readFileSync(join(__dirname, '../../examples/woocommerce-invoice.workflow.json'), 'utf8')) as {
  nodes: WorkflowNode[];
  connections: Connections;
};
const byName = new Map(workflow.nodes.map((n) => [n.name, n]));
const invoiceNode = workflow.nodes.find((n) => n.type === 'n8n-nodes-magnifinance.magniFinance') as WorkflowNode;
const writeBack = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.wooCommerce') as WorkflowNode;
const alert = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.emailSend') as WorkflowNode;

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

async function runExampleNode(s: NodeSandbox, order: IDataObject, settings: IDataObject = {}) {
  const mappingSettings = JSON.stringify({ ...JSON.parse(String(invoiceNode.parameters.mappingSettings)), ...settings });
  return await runNode({
    credentials: s.credentials,
    parameters: { ...invoiceNode.parameters, mappingSettings },
    items: [{ json: order }],
    onError: invoiceNode.onError,
  });
}

describe('the example workflow: WooCommerce Trigger -> invoice (error output on) -> write-back with a number, or a person told', () => {
  it('wires the steps with the package node type, its error output on', () => {
    expect(workflow.nodes.map((n) => n.type)).toEqual([
      'n8n-nodes-base.wooCommerceTrigger',
      'n8n-nodes-base.if',
      'n8n-nodes-magnifinance.magniFinance',
      'n8n-nodes-base.if',
      'n8n-nodes-base.wooCommerce',
      'n8n-nodes-base.if',
      'n8n-nodes-base.noOp',
      'n8n-nodes-base.emailSend',
    ]);
    expect(invoiceNode.parameters).toMatchObject({ resource: 'document', operation: 'createFromOrder', waitForDocument: true });
    expect(invoiceNode.onError).toBe('continueErrorOutput');
    expect(workflow.connections[invoiceNode.name].main[1]).toEqual([expect.objectContaining({ node: alert.name })]);
  });

  it('writes back what lasts: the document id and number (the PDF link expires after 2 hours)', () => {
    const expressions = JSON.stringify(writeBack.parameters);
    const used = [...expressions.matchAll(/\$json\.(\w+)/g)].map((m) => m[1]);
    expect(new Set(used)).toEqual(new Set(['orderId', 'documentId', 'documentNumber']));
  });

  it.each([
    { case: 'numbered document', json: { orderId: 1, documentId: 7, documentNumber: 'FR A/7', alreadyIssued: false }, to: writeBack.name },
    { case: 'already issued (repeated delivery)', json: { orderId: 1, documentId: null, documentNumber: null, alreadyIssued: true }, to: 'Repeated delivery: nothing to do' },
    { case: 'issued, no number within the wait', json: { orderId: 1, documentId: 7, documentNumber: null, alreadyIssued: false, finalized: false }, to: alert.name },
    { case: 'a draft (no number by design)', json: { orderId: 1, documentId: 7, closed: false, alreadyIssued: false }, to: alert.name },
  ])('a success item reaches the write-back only with a number: $case', ({ json, to }) => {
    expect(destination(0, { json })).toBe(to);
  });

  it('the alert names the order and says what to do, for an error item and for a document without number', () => {
    const held = { id: 964, error: { message: 'Order #964 is held, not invoiced: X', orderId: 964, whatToDo: 'Do Y' } };
    expect(evaluateExpression(String(alert.parameters.subject), held)).toBe('Order #964 is not invoiced yet: it needs you');
    expect(evaluateExpression(String(alert.parameters.text), held)).toBe('Order #964 is held, not invoiced: X\n\nDo Y');
    const service = { id: 965, error: { message: 'MagniFinance SaveFailed (14)', description: 'Validation: ...' } };
    expect(evaluateExpression(String(alert.parameters.subject), service)).toBe('Order #965 is not invoiced yet: it needs you');
    const unnumbered = { orderId: 966, documentId: 12, documentNumber: null, finalized: false };
    expect(evaluateExpression(String(alert.parameters.subject), unnumbered)).toBe('Order #966 is not invoiced yet: it needs you');
    expect(evaluateExpression(String(alert.parameters.text), unnumbered)).toContain('MagniFinance > Document > Get (Document ID 12)');
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
  ])('$file: issued to the cent and written back; two repeated deliveries end green with nothing to do, one document', async ({ file, settings }) => {
    const order: IDataObject = file.startsWith('pt-')
      ? (JSON.parse(readFileSync(join(__dirname, '../fixtures/orders', file), 'utf8')) as IDataObject)
      : { ...fixture(file), date_created: day2025, date_created_gmt: day2025, date_paid: day2025, date_paid_gmt: day2025 };
    const s = await startNodeSandbox();
    try {
      const first = await runExampleNode(s, order, settings);
      expect(destinations(first.output).map((d) => d.to)).toEqual([writeBack.name]);
      expect(first.output[0][0].json).toMatchObject({
        orderId: order.id,
        externalId: `wc-${order.id}`,
        held: false,
        finalized: true,
        documentId: expect.any(Number),
        documentNumber: expect.stringMatching(/\S+/),
        totalAmount: order.total,
      });
      expect(first.output[0][0].pairedItem).toEqual({ item: 0 });
      // WooCommerce sends order.updated again (and redelivers) before the write-back lands.
      for (let delivery = 2; delivery <= 3; delivery += 1) {
        const again = await runExampleNode(s, order, settings);
        expect(destinations(again.output).map((d) => d.to)).toEqual(['Repeated delivery: nothing to do']);
      }
      const documents = (await s.admin('GET', '/documents')).body as { documents: unknown[] };
      expect(documents.documents).toHaveLength(1);
    } finally {
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
    try {
      const { output, requests } = await runExampleNode(s, held, { dispatchRegion: 'azores' });
      const ends = destinations(output);
      expect(ends.map((d) => d.to)).toEqual([alert.name]);
      expect(evaluateExpression(String(alert.parameters.text), ends[0].json)).toContain('123456780');
      expect(requests).toHaveLength(0);
    } finally {
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
