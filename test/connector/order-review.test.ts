import WooCommerceRestApi from '@woocommerce/woocommerce-rest-api';
import type { LedgerEntry } from '../../connector/core/ledger';
import { coverageDiffers, coverageOf, type CoveringDocument, type CoverageOrder } from '../../connector/pipeline/coverage';
import { problemWords, type Problem } from '../../connector/pipeline/problems';
import { WooOrderSummarySchema } from '../../platforms/woocommerce/order-summary';
import { META } from '../../connector/shop/order-meta';
import type { SweepReport } from '../../connector/core/sweep-report';
import { sendWooWebhook, type JsonObject } from '../support/fake-woocommerce';
import { buildRefund, eventually, orderQuiet, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { wooOrderJson, wooRefundJson } from '../support/payloads';

/**
 * Issue 21 points 2 and 3: a certified document cannot change, so an invoiced order that changes
 * afterwards (a line added, a refund deleted after its credit note) is never "fixed" by the
 * connector: a person is told, on the order and in the attention list, with the lawful ways.
 */

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };

async function ledgerOf(h: Harness, orderId: number): Promise<Record<string, LedgerEntry>> {
  return (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
}

async function invoiced(h: Harness, order = portugueseOrder()): Promise<number> {
  const id = Number(order.id);
  expect((await h.deliver(order)).status).toBe(202);
  await eventually(`order ${id} invoiced`, async () => (await ledgerOf(h, id)).invoice?.state === 'written-back');
  return id;
}

async function attention(h: Harness): Promise<string[]> {
  const list = (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN })).json()) as { orderId: number; purpose: string }[];
  return list.map((a) => `${a.orderId}:${a.purpose}`);
}

function problemOf(entry: LedgerEntry | undefined): Problem | undefined {
  return entry?.problem ? (JSON.parse(entry.problem) as Problem) : undefined;
}

describe('what the documents of an order cover, net of credit notes (the rule)', () => {
  const invoice = (amount: string): CoveringDocument => ({ kind: 'invoice', number: 'FT A/1', amount });
  const credit = (amount: string, refundId?: number): CoveringDocument => ({ kind: 'credit', number: `NC A/${refundId ?? 0}`, amount, refundId, purpose: refundId === undefined ? 'cancellation' : `credit-note-${refundId}` });
  const order = (total: string, refunds: CoverageOrder['refunds'] = [], status = 'processing'): CoverageOrder => ({ status, total, refunds });

  it.each<[string, CoverageOrder, CoveringDocument[], { differs: boolean; difference: string; orphans: number[] }]>([
    ['unchanged', order('44.71'), [invoice('44.71')], { differs: false, difference: '0.00', orphans: [] }],
    ['a line added after the invoice (44.71 -> 83.13)', order('83.13'), [invoice('44.71')], { differs: true, difference: '38.42', orphans: [] }],
    ['a line removed', order('30.00'), [invoice('44.71')], { differs: true, difference: '-14.71', orphans: [] }],
    ['a refund with its credit note', order('44.71', [{ id: 5, total: '-10.00' }]), [invoice('44.71'), credit('10.00', 5)], { differs: false, difference: '0.00', orphans: [] }],
    ['a refund whose credit note is not issued yet: no verdict on totals', order('44.71', [{ id: 5, total: '-10.00' }]), [invoice('44.71')], { differs: false, difference: '-10.00', orphans: [] }],
    ['a refund deleted after its credit note: one orphan, no second problem', order('44.71'), [invoice('44.71'), credit('10.00', 5)], { differs: false, difference: '0.00', orphans: [5] }],
    ['a cancelled order with its cancellation credit note', order('44.71', [], 'cancelled'), [invoice('44.71'), credit('44.71')], { differs: false, difference: '0.00', orphans: [] }],
    ['a cancelled order whose invoice was cancelled on the service', order('44.71', [], 'cancelled'), [invoice('44.71'), { kind: 'invoice-cancelled' }], { differs: false, difference: '0.00', orphans: [] }],
    ['a cancelled order with no credit note: the invoice still covers it all', order('44.71', [], 'cancelled'), [invoice('44.71')], { differs: true, difference: '-44.71', orphans: [] }],
  ])('%s', (_name, shop, documents, expected) => {
    const verdict = coverageOf(shop, documents);
    expect(verdict && { differs: coverageDiffers(verdict), difference: verdict.difference, orphans: verdict.orphans.map((o) => o.refundId) }).toEqual(expected);
  });

  it("a refund summary whose total is not money text leaves the order unjudged, and the delivery is still accepted", () => {
    const summary = WooOrderSummarySchema.parse({ id: 1, status: 'processing', currency: 'EUR', total: '44.71', billing: {}, line_items: [], refunds: [{ id: 5, total: 'n/a' }] });
    expect(summary.refunds).toEqual([{ id: 5, total: undefined }]);
    expect(coverageOf({ status: 'processing', total: '44.71', refunds: summary.refunds }, [invoice('44.71')])).toBeUndefined();
  });

  it('the words name the difference in the reader\'s money and the lawful way the accountant chose (settings.orderChanged)', () => {
    const ref = { tenant: 'shop1', orderId: 7, purpose: 'invoice' };
    const problem = (way: 'ask' | 'credit-and-reissue' | 'difference-document'): Problem => ({ code: 'order-changed', number: 'FT A/12', shopNet: '1660.50', covered: '1622.08', difference: '38.42', way });
    expect(problemWords('pt', problem('ask'), ref).reason).toContain('é agora 1 660,50 €, e os documentos do conector cobrem 1 622,08 € (uma diferença de 38,42 €)');
    expect(problemWords('en', problem('ask'), ref).reason).toContain('is now €1,660.50 while the connector\'s documents cover €1,622.08 (a difference of €38.42)');
    expect(problemWords('en', problem('ask'), ref).action).toMatch(/a credit note for FT A\/12 and a new invoice .* or a document for the difference only/);
    expect(problemWords('en', problem('credit-and-reissue'), ref).action).toContain('issue a credit note for FT A/12 and a new invoice for the order as it is now (€1,660.50)');
    expect(problemWords('pt', problem('difference-document'), ref).action).toContain('uma segunda fatura de 38,42 €, se a encomenda aumentou');
  });
});

describe('an invoiced order changed afterwards: a person is told, nothing is issued (issue 21, point 2)', () => {
  let h: Harness;
  let rest: WooCommerceRestApi;
  beforeAll(async () => {
    h = await startHarness({ settings: { orderChanged: 'difference-document' } });
    rest = new WooCommerceRestApi({ url: h.woo.origin, consumerKey: h.woo.consumerKey, consumerSecret: h.woo.consumerSecret, version: 'wc/v3' });
    h.woo.putTaxRate({ id: 100, rate: '23', name: 'IVA 23%', class: 'standard' });
    h.woo.putProduct({ id: 77, name: 'Caneca grande', price: '19.20', virtual: false, downloadable: false, tax_class: '' });
  });
  afterAll(async () => h.close());

  it('the owner adds a line (PUT line_items): WooCommerce recalculates the total, the connector tells a person on the order and in the attention list, then accepts the settlement', async () => {
    const id = await invoiced(h);
    const before = String(h.woo.order(id)?.total);
    expect(h.woo.meta(id, META.coveredTotal)).toBe(before);
    await h.woo.settle();
    await rest.put(`orders/${id}`, { line_items: [{ product_id: 77, quantity: 2 }] });
    // 2 x 19.20 = 38.40 + 23 % (8.83) = 47.23 more.
    const after = String(h.woo.order(id)?.total);
    expect(Number(after) - Number(before)).toBeCloseTo(47.23, 2);
    const flagged = await eventually('the invoice flagged', async () => {
      const p = problemOf((await ledgerOf(h, id)).invoice);
      return p?.code === 'order-changed' ? p : undefined;
    });
    expect(flagged).toMatchObject({ shopNet: after, covered: before, difference: '47.23', way: 'difference-document' });
    expect((await ledgerOf(h, id)).invoice?.state).toBe('written-back');
    expect(await attention(h)).toContain(`${id}:invoice`);
    await h.woo.settle();
    const note = await eventually('the note on the order', () => h.woo.notes(id).find((n) => n.note.includes('The order was changed after')));
    expect(note?.note).toContain('a second invoice for €47.23 when the order grew');
    expect(note?.customer_note).toBe(false);
    expect(await h.documentsOf(id)).toHaveLength(1);
    // The console, in Portuguese: why, what to do, and the "mark as handled" form for the issued invoice.
    const consolePage = await (await fetch(`${h.connector?.origin}/console/shop1?lang=pt`, { headers: { authorization: ADMIN.authorization } })).text();
    expect(consolePage).toContain(`A encomenda foi alterada depois de emitida a ${String(flagged.number)}`);
    expect(consolePage).toContain('uma segunda fatura de 47,23 €, se a encomenda aumentou');
    expect(consolePage).toContain(`action="/console/shop1/orders/${id}/dismiss"`);

    // A refund with its credit note moves both totals alike: the same difference is not told twice.
    h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 7451, items: [{ index: 1, quantity: 1 }] })));
    await eventually('the credit note', async () => (await ledgerOf(h, id))['credit-note-7451']?.state === 'written-back');
    await orderQuiet(h, id);
    expect(h.woo.notes(id).filter((n) => n.note.includes('The order was changed after'))).toHaveLength(1);
    expect(problemOf((await ledgerOf(h, id)).invoice)).toMatchObject({ code: 'order-changed', difference: '47.23' });

    // Settled in the back-office: marked as handled; the same difference is not told again.
    const dismissed = await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${id}/dismiss`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ purpose: 'invoice', reason: 'FT A/99 issued for the difference' }) });
    expect(dismissed.status).toBe(200);
    expect(await attention(h)).not.toContain(`${id}:invoice`);
    await h.woo.settle();
    expect(h.woo.notes(id).some((n) => n.note.includes('was marked as settled by admin: FT A/99 issued for the difference'))).toBe(true);
    await rest.put(`orders/${id}`, { customer_note: 'edited again' });
    await orderQuiet(h, id);
    expect(await attention(h)).not.toContain(`${id}:invoice`);
    // One invoice and the refund's credit note: nothing was issued for the difference.
    expect((await h.documentsOf(id)).map((d) => d.document.Type).sort()).toEqual(['C', 'T']);
  }, 30_000);

  it('an order deleted before its review runs: nothing to compare, no retries, nobody told', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    const meta = [...(order.meta_data as JsonObject[]), { key: META.documentNumber, value: 'FR A/77' }, { key: META.coveredTotal, value: '1.00' }];
    const delivery = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: { ...order, meta_data: meta } });
    expect(JSON.parse(delivery.body)).toMatchObject({ accepted: [`review.shop1.${id}`] });
    await eventually('the review asked the shop', () => h.woo.requests.some((r) => r.path.endsWith(`/orders/${id}`) && r.status === 404));
    await orderQuiet(h, id);
    expect(h.woo.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/orders/${id}`))).toHaveLength(1);
    expect((await attention(h)).filter((a) => a.startsWith(`${id}:`))).toEqual([]);
  });

  it('our own write-back echo and an update that changes no amount cost nothing: no review job', async () => {
    const id = await invoiced(h);
    await h.woo.settle();
    const echo = await h.woo.deliver(h.hooks[1].id, wooOrderJson(h.woo.order(id)));
    expect(JSON.parse(echo.body)).toEqual({ ignored: 'nothing-to-issue' });
  });
});

describe('a refund deleted after its credit note: the next update and the sweep tell a person (issue 21, point 3)', () => {
  it('WooCommerce sends nothing for the deletion; the next update of the order finds the credit note whose refund is gone, and tells once', async () => {
    const h = await startHarness();
    try {
      const id = await invoiced(h);
      h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 7501, items: [{ index: 0, quantity: 1 }] })));
      await eventually('credit note', async () => (await ledgerOf(h, id))['credit-note-7501']?.state === 'written-back');
      await h.woo.settle();
      expect(h.woo.meta(id, `${META.creditNotePrefix}7501`)).toMatchObject({ amount: expect.stringMatching(/^\d+\.\d\d$/) });
      h.woo.deleteRefund(id, 7501);
      // The owner saves the order later (a note to the courier): that update carries the order without the refund.
      for (const text of ['Entregar à tarde', 'Entregar de manhã']) {
        h.woo.editOrder(id, { customer_note: text }, { fire: true });
        await h.woo.settle();
        await eventually('the orphan flagged', async () => problemOf((await ledgerOf(h, id))['credit-note-7501'])?.code === 'refund-gone');
      }
      expect(problemOf((await ledgerOf(h, id))['credit-note-7501'])).toMatchObject({ refundId: 7501, number: expect.any(String) });
      expect(await attention(h)).toEqual(expect.arrayContaining([`${id}:credit-note-7501`]));
      // One problem, not two: the invoice is not also "changed".
      expect(problemOf((await ledgerOf(h, id)).invoice)).toBeUndefined();
      await h.woo.settle();
      await eventually('the note on the order', () => h.woo.notes(id).some((n) => n.note.includes('which is no longer on the order')));
      const notes = h.woo.notes(id).filter((n) => n.note.includes('which is no longer on the order'));
      expect(notes).toHaveLength(1);
      expect(notes[0].note).toContain('Do not create the refund again in WooCommerce');
    } finally {
      await h.close();
    }
  }, 30_000);

  it("no update follows: the sweep checks the orders of recent credit notes (a deleted refund leaves the order's date_modified as it was)", async () => {
    const h = await startHarness({ woo: { delivery: 'queued' } });
    try {
      const id = await invoiced(h);
      h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 7502, items: [{ index: 1, quantity: 1 }] })));
      await h.woo.runQueue();
      await eventually('credit note', async () => (await ledgerOf(h, id))['credit-note-7502']?.state === 'written-back');
      await h.woo.runQueue();
      const sweep = async (): Promise<SweepReport> => {
        const response = await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ tenant: 'shop1' }) });
        return ((await response.json()) as SweepReport[])[0];
      };
      expect((await sweep()).reviewed).toEqual([]);
      // The order was last modified two days ago, outside the sweep's modified_after window.
      const order = h.woo.order(id) as Record<string, unknown>;
      order.date_modified_gmt = order.date_modified = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 19);
      const modified = order.date_modified_gmt;
      h.woo.deleteRefund(id, 7502);
      expect(h.woo.queued()).toEqual([]);
      expect(h.woo.order(id)?.date_modified_gmt).toBe(modified);
      const report = await sweep();
      expect(report.reviewed).toEqual([`review.shop1.${id}`]);
      expect(report.enqueued).toEqual([]);
      await eventually('the orphan flagged', async () => problemOf((await ledgerOf(h, id))['credit-note-7502'])?.code === 'refund-gone');
      // Told once: the next sweep leaves it (it is on the attention list already).
      expect((await sweep()).reviewed).toEqual([]);
    } finally {
      await h.close();
    }
  }, 30_000);
});
