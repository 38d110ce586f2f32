import IORedis from 'ioredis';
import { documentJobId } from '../../connector/core/jobs';
import type { LedgerEntry } from '../../connector/core/ledger';
import { traceInNotes } from '../../connector/pipeline/earlier-traces';
import { parseProblem } from '../../connector/pipeline/problems';
import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook, type JsonObject, type JsonValue } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, REDIS_URL, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };

async function ledgerOf(h: Harness, orderId: number): Promise<Record<string, LedgerEntry>> {
  return (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
}

async function numberedOf(h: Harness, orderId: number) {
  return (await h.documentsOf(orderId)).filter((d) => d.status !== 'draft');
}

async function attentionOrders(h: Harness): Promise<number[]> {
  const list = (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN })).json()) as { orderId: number }[];
  return list.map((item) => item.orderId);
}

/** The shop owner adds the buyer's NIF in the admin, and WooCommerce sends order.updated. */
async function addBuyerNif(h: Harness, orderId: number, nif: string): Promise<void> {
  const current = h.woo.order(orderId) as JsonObject;
  const meta = [...((current.meta_data ?? []) as JsonValue[]).filter((m) => (m as { key?: string }).key !== '_billing_nif'), { key: '_billing_nif', value: nif }];
  const edited = h.woo.editOrder(orderId, { meta_data: meta });
  const answer = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: edited });
  expect(answer.status).toBeLessThan(300);
}

describe('issue 30, point 4: the ledger is gone and our meta was removed, then the buyer NIF is added', () => {
  let h: Harness;
  let redis: IORedis;
  beforeAll(async () => {
    h = await startHarness();
    redis = new IORedis(REDIS_URL);
  });
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

  /** An invoiced order whose ledger expired (and, with `story`, whose story in the connector went too) and whose _magnifinance* meta an admin deleted. */
  async function invoicedThenForgotten(story: 'kept' | 'lost'): Promise<{ id: number; first: LedgerEntry }> {
    const order = portugueseOrder({ meta: [] });
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);
    const first = await eventually('written back', async () => {
      const invoice = (await ledgerOf(h, id)).invoice;
      return invoice?.state === 'written-back' ? invoice : undefined;
    }, 30_000);
    await h.woo.settle();
    // Months later: the first run is long over (its job gone from the queue).
    await eventually('the first job done', async () => ((await h.connector?.queue.getJob(documentJobId('shop1', id, 'invoice'))) === undefined ? true : undefined));
    await redis.del(h.connector?.ledger.key({ tenant: 'shop1', orderId: id, purpose: 'invoice' }) ?? '');
    if (story === 'lost') await redis.del(h.connector?.history.key('shop1', id) ?? '');
    expect(h.woo.deleteMeta(id, (key) => key.startsWith('_magnifinance'))).toBeGreaterThan(0);
    expect(h.woo.meta(id, META.documentNumber)).toBeUndefined();
    await addBuyerNif(h, id, '123456789');
    return { id, first };
  }

  it.each([
    ['note', 'lost' as const],
    ['history', 'kept' as const],
  ])('found in the order\'s %s: no second document, held for a person naming the first one', async (where, story) => {
    const { id, first } = await invoicedThenForgotten(story);
    const held = await eventually('held', async () => {
      const invoice = (await ledgerOf(h, id)).invoice;
      return invoice?.state === 'held' ? invoice : undefined;
    }, 30_000);
    expect(parseProblem(held.problem)).toEqual({ code: 'earlier-document', where, number: first.documentNumber, documentId: first.documentId });
    expect(await numberedOf(h, id)).toHaveLength(1);
    expect(await attentionOrders(h)).toContain(id);
    // The note on the order tells the owner in the shop's language, naming the document.
    const told = await eventually('the note to the owner', () => h.woo.notes(id).find((n) => n.note.includes('needs your attention')));
    expect(told?.note).toContain(`names document ${first.documentNumber ?? ''}`);
    // A later update changes nothing: still held, still one document.
    await addBuyerNif(h, id, '232013969');
    await h.woo.settle();
    expect((await ledgerOf(h, id)).invoice?.state).toBe('held');
    expect(await numberedOf(h, id)).toHaveLength(1);
  }, 60_000);

  it('attaching the named document puts its number and PDF back on the order: still one document', async () => {
    const { id, first } = await invoicedThenForgotten('lost');
    await eventually('held', async () => ((await ledgerOf(h, id)).invoice?.state === 'held' ? true : undefined), 30_000);
    const answer = await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${id}/attach`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ purpose: 'invoice', documentId: first.documentId }) });
    expect(answer.status).toBe(202);
    await eventually('written back again', () => h.woo.meta(id, META.documentNumber), 30_000);
    expect(h.woo.meta(id, META.documentNumber)).toBe(first.documentNumber);
    expect(await numberedOf(h, id)).toHaveLength(1);
    // The earlier-document hold is gone. What the order still asks of a person is the NIF added
    // after the invoice (issue 30.5): the invoice went to 999999990, the order now names 123456789;
    // the invoice stays, a credit note and a new invoice are the owner's choice.
    const told = await eventually('the NIF added after the invoice told', async () => {
      const invoice = (await ledgerOf(h, id)).invoice;
      return parseProblem(invoice?.problem)?.code === 'buyer-changed' ? invoice : undefined;
    }, 30_000);
    expect(told.state).toBe('written-back');
    expect(parseProblem(told.problem)).toMatchObject({ code: 'buyer-changed', number: first.documentNumber, invoiceNif: '999999990', orderNif: '123456789' });
    expect(await numberedOf(h, id)).toHaveLength(1);
  }, 60_000);

  it('a new order, with no trace anywhere, is invoiced at once', async () => {
    const order = portugueseOrder();
    expect((await h.deliver(order)).status).toBe(202);
    await eventually('invoiced', () => h.woo.meta(Number(order.id), META.documentNumber), 30_000);
  });
});

describe('traces in notes', () => {
  const note = (id: number, text: string) => ({ id, note: text, customer_note: false });
  it('our issued note (pt and en), with the document id', () => {
    expect(traceInNotes([note(1, 'MagniFinance: Fatura-recibo FR A/12 emitida (documento 4711). PDF: https://x')])).toEqual({ where: 'note', number: 'FR A/12', documentId: 4711 });
    expect(traceInNotes([note(1, 'MagniFinance: Invoice FT 2026A/3 issued (document 88).')])).toEqual({ where: 'note', number: 'FT 2026A/3', documentId: 88 });
  });
  it("another plugin's or a person's note naming a document number; the oldest (notes come newest first)", () => {
    expect(traceInNotes([note(2, 'Download Fatura FT 01P2026/9 (PDF): click here.'), note(1, 'Fatura simplificada FS X/1 enviada ao cliente')])).toEqual({ where: 'note', number: 'FS X/1' });
  });
  it("WooCommerce's own notes and notes without a document number are no trace", () => {
    expect(traceInNotes([note(1, 'Order status changed from Pending payment to Processing.'), note(2, 'Stock levels reduced: Caneca (CAN-01) 12→10'), note(3, 'Ref. 2026/11 FTP upload')])).toBeUndefined();
  });
});
