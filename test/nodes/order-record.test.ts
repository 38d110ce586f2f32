/**
 * Order Record "In the Shop": the order in WooCommerce is the record every run shares. Against the
 * sandbox over HTTP and the fake WooCommerce over HTTPS (Basic auth, as WooCommerce takes REST keys
 * over SSL), through the node's real execute (or the installed package: scripts/test-n8n-package.sh).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { JsonObject, RunningFakeWoo } from '../support/fake-woocommerce';
import { evaluateExpression, runNode, type RunResult } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';
import { startNodeShop, type NodeShop } from './support/shop';

const day2025 = '2025-04-03T10:00:00';
const fixture = JSON.parse(readFileSync(join('/work/shared/fixtures/woocommerce', 'wc-ios-order-963-coupon-tax.json'), 'utf8')) as JsonObject;
const order963: JsonObject = { ...fixture, status: 'processing', date_created: day2025, date_created_gmt: day2025, date_paid: day2025, date_paid_gmt: day2025 };
const example = JSON.parse(readFileSync(join(__dirname, '../../examples/woocommerce-invoice.workflow.json'), 'utf8')) as {
  nodes: { name: string; parameters: { conditions?: { conditions: { leftValue: string }[] } } }[];
};
const exampleCondition = (name: string): string => String(example.nodes.find((n) => n.name === name)?.parameters.conditions?.conditions[0].leftValue);

const parameters: INodeParameters = {
  resource: 'document',
  operation: 'createFromOrder',
  mappingSettings: JSON.stringify({ dispatchRegion: 'azores', euroRates: { USD: '0.92' } }),
  waitForDocument: true,
  options: { firstCheckAfterSeconds: 10, checkIntervalSeconds: 1, waitTimeoutSeconds: 30 },
};

let woo: RunningFakeWoo;
let shop: NodeShop;
let s: NodeSandbox;

beforeEach(async () => {
  s = await startNodeSandbox();
  shop = await startNodeShop();
  woo = shop.woo;
  woo.putOrder(order963);
});
afterEach(async () => {
  await shop.close();
  await s.close();
});

function deliver(payload: JsonObject, extra: { cancel?: AbortController; executionId?: string; items?: INodeExecutionData[] } = {}): Promise<RunResult> {
  return runNode({
    credentials: s.credentials,
    shop: shop.shop,
    parameters,
    onError: 'continueErrorOutput',
    items: extra.items ?? [{ json: structuredClone(payload) as IDataObject }],
    ...(extra.cancel ? { cancel: extra.cancel } : {}),
    ...(extra.executionId ? { executionId: extra.executionId } : {}),
  });
}

interface SandboxDoc {
  id: number;
  status: string;
  client: { NIF: string };
  document: { ExternalId?: string };
}
async function documents(): Promise<SandboxDoc[]> {
  return ((await s.admin('GET', '/documents')).body as { documents: SandboxDoc[] }).documents;
}
async function closedFor(externalId: string): Promise<SandboxDoc[]> {
  return (await documents()).filter((d) => d.status === 'closed' && d.document.ExternalId === externalId);
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 600; i += 1) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const metaOf = (orderId: number): { id: number; key: string; value: unknown }[] => (woo.order(orderId)?.meta_data ?? []) as unknown as { id: number; key: string; value: unknown }[];
const claimWithDocument = (orderId: number): number | undefined => {
  for (const entry of metaOf(orderId)) {
    if (!entry.key.startsWith('_magnifinance_claim_invoice_')) continue;
    const claim = JSON.parse(String(entry.value)) as { documentId?: number };
    if (claim.documentId !== undefined) return claim.documentId;
  }
  return undefined;
};

/** The shop owner saves the buyer's NIF on the order (the admin keeps the other meta): WooCommerce then sends order.updated. */
function saveNif(orderId: number, nif: string): JsonObject {
  const meta = metaOf(orderId);
  return woo.editOrder(orderId, { meta_data: [...meta, { id: 777_001, key: '_billing_nif', value: nif }] as unknown as JsonObject[] });
}

describe('Order Record "In the Shop": one document per order, its number on the order', () => {
  it('the NIF saved while the first run waits: one invoice, its number on the order, both runs green', async () => {
    const first = deliver(order963, { executionId: 'exec-1' });
    // The first run has its draft named on the order (the close follows at once): the shop owner saves the NIF now.
    await until('the first run to name its document on the order', () => claimWithDocument(963));
    const secondPayload = saveNif(963, '509442013');
    const second = deliver(secondPayload, { executionId: 'exec-2' });
    const [a, b] = await Promise.all([first, second]);

    const closed = await closedFor('wc-963');
    expect(closed).toHaveLength(1);
    expect(a.output[1]).toEqual([]);
    expect(b.output[1]).toEqual([]);
    const one = a.output[0][0].json;
    const two = b.output[0][0].json;
    expect(one).toMatchObject({ orderId: 963, documentId: closed[0].id, finalized: true, writtenBack: true, alreadyIssued: false });
    // The second run resumed the same document by its id (or found its number on the order): never a second one.
    expect(two).toMatchObject({ orderId: 963, documentId: closed[0].id, documentNumber: one.documentNumber, alreadyIssued: true });
    expect(woo.meta(963, '_magnifinance_document_number')).toBe(one.documentNumber);
    expect(woo.meta(963, '_magnifinance_document_id')).toBe(String(closed[0].id));
  }, 120_000);

  it('two deliveries at the same moment (queue mode, two workers): both claim, the first row leads, one invoice', async () => {
    const [a, b] = await Promise.all([deliver(order963, { executionId: 'worker-1' }), deliver(order963, { executionId: 'worker-2' })]);
    const closed = await closedFor('wc-963');
    expect(closed).toHaveLength(1);
    const outcomes = [a, b].map((r) => (r.output[0][0].json.orderRecord as IDataObject).outcome).sort();
    expect(outcomes).toEqual(['issued', 'resumed']);
    for (const r of [a, b]) expect(r.output[0][0].json).toMatchObject({ documentId: closed[0].id, writtenBack: true });
    // The claims stay on the order (one or two: a run that read the other's claim first places none), the first naming the document.
    const claims = metaOf(963).filter((m) => m.key.startsWith('_magnifinance_claim_invoice_'));
    expect(JSON.parse(String(claims.sort((x, y) => x.id - y.id)[0].value))).toMatchObject({ documentId: closed[0].id });
  }, 120_000);

  it('the example filter lets no delivery through while a live run holds the order, and lets it through once the claim is stale', async () => {
    const filter = exampleCondition('Paid and not invoiced yet');
    const cancel = new AbortController();
    const first = deliver(order963, { cancel });
    await until('the claim', () => claimWithDocument(963));
    expect(evaluateExpression(filter, woo.order(963) as IDataObject)).toBe(false);
    cancel.abort();
    await expect(first).rejects.toThrow();
    // Minutes later (the lease of the claim is over), a delivery passes again and resumes.
    const stale = structuredClone(woo.order(963) as JsonObject);
    for (const entry of stale.meta_data as JsonObject[]) {
      if (String(entry.key).startsWith('_magnifinance_claim_')) entry.value = JSON.stringify({ ...JSON.parse(String(entry.value)), until: Date.now() - 1 });
    }
    expect(evaluateExpression(filter, stale as IDataObject)).toBe(true);
  }, 120_000);

  it('a run that dies after the create, before the write-back: the next delivery resumes the document by id and writes its number', async () => {
    const cancel = new AbortController();
    const first = deliver(order963, { cancel, executionId: 'exec-dies' });
    const documentId = await until('the first run to name its document', () => claimWithDocument(963));
    await until('the document to be closed', async () => (await closedFor('wc-963')).length === 1 || undefined);
    cancel.abort(); // n8n stops (or its process dies) while the run waits for the number
    await expect(first).rejects.toThrow();
    expect(woo.meta(963, '_magnifinance_document_number')).toBeUndefined();

    const later = await deliver(woo.order(963) as JsonObject, { executionId: 'exec-later' });
    expect(later.output[1]).toEqual([]);
    expect(later.output[0][0].json).toMatchObject({ documentId, finalized: true, writtenBack: true, alreadyIssued: true, orderRecord: { outcome: 'resumed' } });
    expect(woo.meta(963, '_magnifinance_document_number')).toBe(later.output[0][0].json.documentNumber);
    expect(await closedFor('wc-963')).toHaveLength(1);
  }, 120_000);

  it('a write-back the shop refuses: a person is told which document it is, and the next run writes the same number', async () => {
    const run = deliver(order963);
    await until('the first run to name its document', () => claimWithDocument(963));
    woo.failNext(1, 503, 'PUT'); // the write-back, the run's next PUT
    const failed = await run;
    expect(failed.output[0]).toEqual([]);
    const error = failed.output[1][0].json.error as IDataObject;
    expect(error).toMatchObject({ orderId: 963, why: { code: 'written-back-failed' }, documentId: expect.any(Number), documentNumber: expect.any(String) });
    expect(String(error.message)).toContain(String(error.documentNumber));
    expect(String(error.whyPt)).toContain('foi emitido para a encomenda #963');

    const again = await deliver(woo.order(963) as JsonObject);
    expect(again.output[0][0].json).toMatchObject({ documentNumber: error.documentNumber, writtenBack: true });
    expect(await closedFor('wc-963')).toHaveLength(1);
  }, 120_000);

  it('a document issued outside the record (same External ID and buyer): nothing issued, a person told why', async () => {
    await runNode({ credentials: s.credentials, parameters: { ...parameters, orderRecord: 'none', waitForDocument: false }, items: [{ json: order963 as IDataObject }] });
    const result = await deliver(order963);
    expect(result.output[0]).toEqual([]);
    expect(result.output[1][0].json.error).toMatchObject({ orderId: 963, why: { code: 'unrecorded-duplicate', params: { externalId: 'wc-963' } } });
    expect(await closedFor('wc-963')).toHaveLength(1);
  }, 120_000);

  it('several orders in one run: each number is on its order as soon as it is known, not at the end', async () => {
    woo.putOrder({ ...order963, id: 964, number: '964' });
    woo.putOrder({ ...order963, id: 965, number: '965' });
    const cancel = new AbortController();
    const run = deliver(order963, { cancel, items: [963, 964, 965].map((id) => ({ json: structuredClone(woo.order(id)) as IDataObject })) });
    await until('the second order to carry its number', () => woo.meta(964, '_magnifinance_document_number'));
    expect(woo.meta(963, '_magnifinance_document_number')).toEqual(expect.any(String));
    cancel.abort();
    await expect(run).rejects.toThrow();
    expect(woo.meta(965, '_magnifinance_document_number')).toBeUndefined();
  }, 120_000);
});
