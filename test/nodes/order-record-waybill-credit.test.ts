/**
 * Order Record "In the Shop" for the waybill and a refund's credit note: claimed on the order like
 * the invoice (order-record.test.ts), against the sandbox over HTTP and the fake WooCommerce over
 * HTTPS, through the node's real execute (or the installed package: scripts/test-n8n-package.sh).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { buildRefund } from '../law/support/woo-cart';
import type { JsonObject, RunningFakeWoo } from '../support/fake-woocommerce';
import { invoiceThroughNode } from './support/invoice';
import { runNode, type RunResult } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';
import { startNodeShop, type NodeShop } from './support/shop';

const day2025 = '2025-04-03T10:00:00';
const fixture = JSON.parse(readFileSync(join('/work/shared/fixtures/woocommerce', 'wc-ios-order-963-coupon-tax.json'), 'utf8')) as JsonObject;
const order963: JsonObject = { ...fixture, status: 'processing', date_created: day2025, date_created_gmt: day2025, date_paid: day2025, date_paid_gmt: day2025 };
const loadAddress = { addressDetail: 'Rua Augusta 100', city: 'Lisboa', postalCode: '1100-053', countryCode: 'PT' };
const mappingSettings = JSON.stringify({ dispatchRegion: 'azores', euroRates: { USD: '0.92' }, waybill: { loadAddress } });
const wait = { waitForDocument: true, options: { firstCheckAfterSeconds: 10, checkIntervalSeconds: 1, waitTimeoutSeconds: 30 } };

const waybill: INodeParameters = { resource: 'waybill', operation: 'createFromOrder', mappingSettings, ...wait };
const creditNote = (invoiceNumber: string): INodeParameters => ({
  resource: 'document',
  operation: 'createCreditNoteFromRefund',
  order: '={{ $json.order }}',
  refund: '={{ $json.refund }}',
  invoiceNumber,
  mappingSettings,
  ...wait,
});

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

function run(parameters: INodeParameters, json: IDataObject, extra: { cancel?: AbortController; executionId?: string } = {}): Promise<RunResult> {
  return runNode({ credentials: s.credentials, shop: shop.shop, parameters, onError: 'continueErrorOutput', items: [{ json: structuredClone(json) }], ...extra });
}

interface SandboxDoc {
  id: number;
  kind: string;
  status: string;
  client: { NIF: string };
  document: { ExternalId?: string; Type?: string };
}
async function made(externalId: string): Promise<SandboxDoc[]> {
  return ((await s.admin('GET', '/documents')).body as { documents: SandboxDoc[] }).documents.filter((d) => d.status !== 'draft' && d.document.ExternalId === externalId);
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
const namedDocument = (prefix: string): number | undefined => {
  for (const entry of metaOf(963)) {
    if (!entry.key.startsWith(prefix)) continue;
    const claim = JSON.parse(String(entry.value)) as { documentId?: number };
    if (claim.documentId !== undefined) return claim.documentId;
  }
  return undefined;
};
/** The shop owner saves the buyer's NIF on the order (the admin keeps the other meta). */
function saveNif(nif: string): JsonObject {
  return woo.editOrder(963, { meta_data: [...metaOf(963), { id: 777_001, key: '_billing_nif', value: nif }] as unknown as JsonObject[] });
}
const recordOf = (key: string): IDataObject | undefined => {
  const value = woo.meta(963, key);
  return value === undefined ? undefined : ((typeof value === 'string' ? JSON.parse(value) : value) as IDataObject);
};

describe('Waybill > Create From WooCommerce Order with Order Record "In the Shop"', () => {
  it('two runs at the same moment give one waybill, its number on the order; a later run with another buyer finds it there', async () => {
    const [a, b] = await Promise.all([run(waybill, order963, { executionId: 'w-1' }), run(waybill, order963, { executionId: 'w-2' })]);
    const waybills = await made('wc-963-W');
    expect(waybills).toHaveLength(1);
    expect([a, b].map((r) => r.output[1])).toEqual([[], []]);
    // The other run resumed the waybill by its id, or (it polls while the first names it) found its number on the order.
    const outcomes = [a, b].map((r) => String((r.output[0][0].json.orderRecord as IDataObject).outcome)).sort();
    expect([['already-recorded', 'issued'], ['issued', 'resumed']]).toContainEqual(outcomes);
    const number = a.output[0][0].json.documentNumber;
    expect(b.output[0][0].json.documentNumber).toBe(number);
    expect(number).toEqual(expect.any(String));
    expect(recordOf('_magnifinance_waybill')).toMatchObject({ number, documentId: String(waybills[0].id) });

    // The buyer changes (the service's External ID check would let a second waybill through): the order's record answers.
    const later = await run(waybill, saveNif('509442013'), { executionId: 'w-3' });
    expect(later.output[0][0].json).toMatchObject({ alreadyIssued: true, documentNumber: number, orderRecord: { outcome: 'already-recorded' } });
    expect(await made('wc-963-W')).toHaveLength(1);
  }, 120_000);

  it('a run that sent the create and died before naming the waybill: past its lease a person is told, nothing is created', async () => {
    const now = Date.now();
    const dead = { run: 'dead0000run00000', externalId: 'wc-963-W', at: now - 600_000, until: now - 420_000, sending: now - 590_000, execution: 'exec-dead' };
    woo.editOrder(963, { meta_data: [...metaOf(963), { id: 500_001, key: '_magnifinance_claim_waybill_dead0000run00000', value: JSON.stringify(dead) }] as unknown as JsonObject[] });
    const result = await run(waybill, woo.order(963) as JsonObject);
    expect(result.output[0]).toEqual([]);
    const error = result.output[1][0].json.error as IDataObject;
    expect(error).toMatchObject({ orderId: 963, why: { code: 'create-unknown', params: { externalId: 'wc-963-W', claim: '_magnifinance_claim_waybill_dead0000run00000', record: '_magnifinance_waybill' } } });
    expect(String(error.whyPt)).toContain('pode existir');
    expect(result.requests.filter((r) => r.url.startsWith(s.sandbox.baseUrl))).toEqual([]);
    expect(await made('wc-963-W')).toHaveLength(0);
  }, 60_000);
});

describe('Create Credit Note From WooCommerce Refund with Order Record "In the Shop"', () => {
  const refund = (): IDataObject => buildRefund(order963, { id: 7001, reason: 'Artigo devolvido', items: [{ index: 0, quantity: 1 }] });
  let invoiceNumber: string;
  // The order's invoice, recorded on the order as the order record writes it: the credit note reads its buyer from it (CIVA art. 29(7), 78(2)).
  beforeEach(async () => {
    const invoiced = await invoiceThroughNode(s, { resource: 'document', operation: 'createFromOrder', mappingSettings }, order963);
    invoiceNumber = invoiced.documentNumber;
    woo.editOrder(963, {
      meta_data: [
        ...metaOf(963),
        { id: 600_001, key: '_magnifinance_document_id', value: String(invoiced.documentId) },
        { id: 600_002, key: '_magnifinance_document_number', value: invoiced.documentNumber },
      ] as unknown as JsonObject[],
    });
  });

  it('the buyer NIF saved between two runs of the same refund: one credit note, its number on the order under the refund', async () => {
    const first = run(creditNote(invoiceNumber), { order: order963, refund: refund() }, { executionId: 'c-1' });
    await until('the first run to name its credit note', () => namedDocument('_magnifinance_claim_creditnote-7001_'));
    const changed = saveNif('509442013');
    const second = run(creditNote(invoiceNumber), { order: changed, refund: refund() }, { executionId: 'c-2' });
    const [a, b] = await Promise.all([first, second]);
    const notes = await made('wc-963-R7001');
    expect(notes).toHaveLength(1);
    expect([a, b].map((r) => r.output[1])).toEqual([[], []]);
    expect(a.output[0][0].json).toMatchObject({ documentId: notes[0].id, documentType: 'C', reference: invoiceNumber, writtenBack: true, alreadyIssued: false });
    expect(b.output[0][0].json).toMatchObject({ documentId: notes[0].id, alreadyIssued: true });
    expect(recordOf('_magnifinance_credit_note_7001')).toMatchObject({ number: a.output[0][0].json.documentNumber, documentId: String(notes[0].id) });

    const again = await run(creditNote(invoiceNumber), { order: woo.order(963) as IDataObject, refund: refund() });
    expect(again.output[0][0].json).toMatchObject({ alreadyIssued: true, orderRecord: { outcome: 'already-recorded' } });
    expect(await made('wc-963-R7001')).toHaveLength(1);
  }, 120_000);

  it('a run that dies after the close, before the write-back: the next run resumes the credit note by its id', async () => {
    const cancel = new AbortController();
    const first = run(creditNote(invoiceNumber), { order: order963, refund: refund() }, { cancel });
    const documentId = await until('the credit note to be named', () => namedDocument('_magnifinance_claim_creditnote-7001_'));
    await until('the credit note to be closed', async () => (await made('wc-963-R7001')).length === 1 || undefined);
    cancel.abort();
    await expect(first).rejects.toThrow();
    expect(woo.meta(963, '_magnifinance_credit_note_7001')).toBeUndefined();

    const later = await run(creditNote(invoiceNumber), { order: woo.order(963) as IDataObject, refund: refund() });
    expect(later.output[0][0].json).toMatchObject({ documentId, writtenBack: true, alreadyIssued: true, orderRecord: { outcome: 'resumed' } });
    expect(recordOf('_magnifinance_credit_note_7001')).toMatchObject({ documentId: String(documentId) });
    expect(await made('wc-963-R7001')).toHaveLength(1);
  }, 120_000);

  it('a NIF saved on the order after its invoice: the credit note names the invoice\'s buyer, read from the invoice the order records', async () => {
    const changed = saveNif('509442013');
    const result = await run(creditNote(invoiceNumber), { order: changed, refund: refund() });
    expect(result.output[1]).toEqual([]);
    const notes = await made('wc-963-R7001');
    expect(notes).toHaveLength(1);
    expect(notes[0].client.NIF).toBe('999999990');
    expect(result.output[0][0].json.notes).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'credit-note-invoice-buyer' })]));
  }, 120_000);

  it('a refund without an id cannot be recorded: refused before any request', async () => {
    const { id: _id, ...withoutId } = refund();
    const result = await run(creditNote(invoiceNumber), { order: order963, refund: withoutId });
    expect(String((result.output[1][0].json.error as IDataObject).message)).toContain('Refund has no id');
    expect(result.requests).toEqual([]);
  }, 60_000);
});
