import type { LedgerEntry } from '../../connector/core/ledger';
import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { buildRefund, eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { wooRefundJson } from '../support/payloads';

async function ledgerOf(h: Harness, orderId: number): Promise<Record<string, LedgerEntry>> {
  return (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
}

describe('a signed order webhook becomes one invoice whose number and PDF land on the order', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('answers 202, issues the invoice closed with ExternalId = order id, writes meta and a private note', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    const delivery = await h.deliver(order);
    expect(delivery.status).toBe(202);
    expect(JSON.parse(delivery.body)).toEqual({ accepted: [`invoice.shop1.${id}`], resumed: [] });

    const number = await eventually('the number on the order', () => h.woo.meta(id, META.documentNumber) as string | undefined);
    const docs = await h.documentsOf(id);
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ status: 'closed', number, document: { ExternalId: `wc-${id}`, Type: 'T' } });
    expect(h.woo.meta(id, META.documentId)).toBe(String(docs[0].id));
    expect(h.woo.meta(id, META.documentType)).toBe('T');
    expect(h.woo.meta(id, META.documentState)).toBe('closed');
    const pdfUrl = String(h.woo.meta(id, META.pdfUrl));
    expect(pdfUrl).toMatch(new RegExp(`^http://connector.test/documents/shop1/${docs[0].id}/pdf\\?exp=\\d+&sig=`));
    await eventually('the note', () => h.woo.notes(id).length > 0);
    expect(h.woo.notes(id)).toEqual([expect.objectContaining({ customer_note: false, note: expect.stringContaining(number) })]);
    expect(h.woo.notes(id)[0].note).toContain(pdfUrl);
    const ledger = await eventually('ledger written-back', async () => ((await ledgerOf(h, id)).invoice?.state === 'written-back' ? ledgerOf(h, id) : undefined));
    expect(ledger.invoice).toMatchObject({ externalId: `wc-${id}`, documentId: docs[0].id, documentNumber: number });
    for (const step of ['creatingAt', 'createdAt', 'finalizedAt', 'metaWrittenAt', 'noteWrittenAt', 'writtenBackAt'] as const) expect(ledger.invoice[step]).toEqual(expect.any(Number));
    expect(ledger.invoice.creatingAt).toBeLessThanOrEqual(ledger.invoice.createdAt as number);
  });

  it('serves the stable PDF link: a 302 to a fresh DownloadUrl, refused when tampered', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    const link = new URL(await eventually('the pdf link', () => h.woo.meta(id, META.pdfUrl) as string | undefined));
    const local = `${h.connector?.origin}${link.pathname}${link.search}`;
    const response = await fetch(local, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const pdf = await fetch(String(response.headers.get('location')));
    expect(pdf.status).toBe(200);
    expect((await pdf.arrayBuffer()).byteLength).toBeGreaterThan(100);
    const tampered = local.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A'));
    expect((await fetch(tampered, { redirect: 'manual' })).status).toBe(403);
    const expired = local.replace(/exp=\d+/, 'exp=1000');
    expect((await fetch(expired, { redirect: 'manual' })).status).toBe(403);
  });
});

describe('exactly one document per order under repeated and concurrent deliveries', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it.each([
    ['the same delivery 5 times in a row', 'sequential'],
    ['20 deliveries at the same moment', 'concurrent'],
  ])('%s', async (_name, mode) => {
    const order = portugueseOrder();
    const id = Number(order.id);
    h.woo.putOrder(order);
    const send = (topic: string) => sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic, payload: h.woo.order(id) });
    if (mode === 'sequential') {
      for (const topic of ['order.created', 'order.updated', 'order.updated', 'order.created', 'order.updated']) expect((await send(topic)).status).toBe(202);
    } else {
      const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i % 2 ? 'order.updated' : 'order.created')));
      expect(statuses.map((s) => s.status)).toEqual(Array(20).fill(202));
    }
    await eventually('written back', () => h.woo.meta(id, META.documentNumber));
    await h.woo.settle();
    // Deliveries after the write-back (repeats, late retries) still change nothing.
    expect((await send('order.updated')).status).toBeLessThan(300);
    await eventually('ledger done', async () => (await ledgerOf(h, id)).invoice?.state === 'written-back');
    await h.woo.settle();
    expect(await h.documentsOf(id)).toHaveLength(1);
    expect(h.woo.notes(id)).toHaveLength(1);
  });

  it('our own write-back echo (order.updated with our meta) enqueues nothing and changes nothing', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('written back', () => h.woo.meta(id, META.documentNumber));
    // The note follows the meta (its own request): wait for it, so the count below is the final one.
    await eventually('the note', () => h.woo.notes(id).length > 0);
    await h.woo.settle(); // the fake shop delivered the echo of our PUT to the connector
    const echo = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) });
    expect(echo.status).toBe(202);
    expect(JSON.parse(echo.body)).toEqual({ ignored: 'nothing-to-issue' });
    // Two PUTs, both ours: the issuing marker before the close, the document's meta after it.
    const puts = h.woo.requests.filter((r) => r.method === 'PUT' && r.path.endsWith(`/orders/${id}`));
    expect(puts).toHaveLength(2);
    expect(await h.documentsOf(id)).toHaveLength(1);
    expect(h.woo.notes(id)).toHaveLength(1);
  });
});

describe('status decides: only trigger statuses are invoiced; drafts are ignored', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { triggerStatuses: ['completed'] } });
  });
  afterAll(async () => h.close());

  it.each([
    ['pending', 'nothing-to-issue', 202],
    ['on-hold', 'nothing-to-issue', 202],
    ['processing', 'nothing-to-issue', 202],
    ['checkout-draft', 'checkout-draft', 200],
  ])('an order in %s is not invoiced (%s)', async (status, reason, code) => {
    const order = portugueseOrder({ status });
    const delivery = await h.deliver(order);
    expect(delivery.status).toBe(code);
    expect(JSON.parse(delivery.body)).toEqual({ ignored: reason });
  });

  it('the order is invoiced once it moves to a trigger status', async () => {
    const order = portugueseOrder({ status: 'processing' });
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);
    h.woo.editOrder(id, { status: 'completed' });
    expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) })).status).toBe(202);
    await eventually('written back', () => h.woo.meta(id, META.documentNumber));
    expect(await h.documentsOf(id)).toHaveLength(1);
  });
});

describe('refunds become credit notes referencing the invoice, one per refund', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { customerNote: true } });
  });
  afterAll(async () => h.close());

  it('two refunds -> two credit notes with DocumentReference = invoice number, each written back once', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    const invoiceNumber = await eventually('invoice number', () => h.woo.meta(id, META.documentNumber) as string | undefined);
    const first = h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 901, items: [{ index: 0, quantity: 1 }], reason: 'Caneca partida' })));
    // WooCommerce fires order.updated on refund creation; deliver it twice (a repeat changes nothing).
    for (let i = 0; i < 2; i++) expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) })).status).toBe(202);
    const second = h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 902, shipping: true })));
    expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) })).status).toBe(202);

    // The invoice's own notes follow its number on the order (their own requests): counted below.
    await eventually('invoice written-back', async () => (await ledgerOf(h, id)).invoice?.state === 'written-back');
    for (const refund of [first, second]) {
      await eventually(`credit note for ${String(refund.id)}`, async () => (await ledgerOf(h, id))[`credit-note-${String(refund.id)}`]?.state === 'written-back');
      expect(h.woo.meta(id, `${META.creditNotePrefix}${String(refund.id)}`)).toMatchObject({ number: expect.any(String), pdfUrl: expect.any(String) });
    }
    await h.woo.settle();
    const docs = await h.documentsOf(id);
    const credits = docs.filter((d) => d.document.Type === 'C');
    expect(credits).toHaveLength(2);
    expect(credits.map((c) => c.document.ExternalId).sort()).toEqual([`wc-${id}-R901`, `wc-${id}-R902`]);
    for (const credit of credits) expect(credit.document.DocumentReference).toBe(invoiceNumber);
    const privateNotes = h.woo.notes(id).filter((n) => !n.customer_note);
    expect(privateNotes).toHaveLength(3);
    expect(h.woo.notes(id).filter((n) => n.customer_note)).toHaveLength(3);
  });
});

describe('a cancelled order after invoicing follows onCancelled', () => {
  it.each([
    ['credit-note', 'C', 'closed'],
    ['cancel', undefined, 'canceled'],
  ])('onCancelled %s', async (onCancelled, creditType, invoiceStatus) => {
    const h = await startHarness({ settings: { onCancelled } });
    try {
      const order = portugueseOrder();
      const id = Number(order.id);
      await h.deliver(order);
      await eventually('invoice number', () => h.woo.meta(id, META.documentNumber));
      h.woo.editOrder(id, { status: 'cancelled' });
      expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) })).status).toBe(202);
      await eventually('cancellation meta', () => h.woo.meta(id, META.cancellation));
      // WooCommerce's own note of the status change sits beside the connector's two.
      const ours = (): unknown[] => h.woo.notes(id).filter((n) => !n.note.startsWith('Order status changed'));
      await eventually('the second note', () => ours().length === 2);
      await h.woo.settle();
      const docs = await h.documentsOf(id);
      const invoice = docs.find((d) => d.document.Type === 'T');
      expect(invoice?.status).toBe(invoiceStatus);
      expect(docs.filter((d) => d.document.Type === 'C').map((d) => d.document.Type)).toEqual(creditType ? [creditType] : []);
      expect(ours()).toHaveLength(2);
    } finally {
      await h.close();
    }
  });
});

describe('waybill per setting', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      settings: { waybill: true, mapping: { waybill: { loadAddress: { addressDetail: 'Armazém 3, Zona Industrial', city: 'Maia', postalCode: '4470-000', countryCode: 'PT' } } } },
    });
  });
  afterAll(async () => h.close());

  it('issues the invoice and one waybill and writes both on the order', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    expect(JSON.parse((await h.deliver(order)).body)).toEqual({ accepted: [`invoice.shop1.${id}`, `waybill.shop1.${id}`], resumed: [] });
    await eventually('waybill meta', () => h.woo.meta(id, META.waybill));
    await eventually('invoice meta', () => h.woo.meta(id, META.documentNumber));
    const docs = await h.documentsOf(id);
    expect(docs.map((d) => d.document.Type ?? d.kind).sort()).toEqual(['T', 'W'].sort());
  });
});

describe('the service numbers the document later than the first Get Document', () => {
  let h: Harness;
  // The sandbox numbers 600 ms after closing; the connector first reads at 150 ms and gets
  // 6 ElementDoesNotExist (the real service's answer to an early read): waiting, not a failure.
  beforeAll(async () => {
    h = await startHarness({ sandbox: { finalizeDelayMs: 600 } });
  });
  afterAll(async () => h.close());

  it('keeps polling through 6 ElementDoesNotExist and writes the number back, one document', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);
    const number = await eventually('the number on the order', () => h.woo.meta(id, META.documentNumber) as string | undefined);
    expect(number).toMatch(/\S/);
    expect(await h.documentsOf(id)).toHaveLength(1);
    // The number is on the order before the note is written and the ledger says written-back (its
    // own requests after the meta): wait for the ledger, as a slow shop or a loaded machine shows.
    const ledger = await eventually('ledger written-back', async () => ((await ledgerOf(h, id)).invoice?.state === 'written-back' ? ledgerOf(h, id) : undefined));
    expect(ledger.invoice).toMatchObject({ state: 'written-back', documentNumber: number });
    expect((ledger.invoice.finalizedAt as number) - (ledger.invoice.createdAt as number)).toBeGreaterThanOrEqual(600);
    expect(ledger.invoice.lastError ?? '').toBe('');
  });
});
