import type { LedgerEntry } from '../../connector/core/ledger';
import { WooShop } from '../../platforms/woocommerce/woo-shop';
import { ShopRequestError } from '../../connector/shop/shop';
import WooCommerceRestApi from '@woocommerce/woocommerce-rest-api';
import { startFakeWooCommerce, type JsonObject, type RunningFakeWoo } from '../support/fake-woocommerce';
import { buildRefund, eventually, portugueseOrder, startHarness, type Harness } from './support/harness';
import { wooRefundJson } from '../support/payloads';

/**
 * The connector against the fake shop behaving like a real WooCommerce 10.0.2 (../shared/FACTS.md,
 * issue 21): each test here exercises a behaviour the fake did not have before, and so would fail
 * against the old fake.
 */

async function ledgerOf(h: Harness, orderId: number): Promise<Record<string, LedgerEntry>> {
  return (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
}

async function writtenBack(h: Harness, orderId: number, purpose = 'invoice'): Promise<void> {
  await eventually(`${purpose} of ${orderId} written back`, async () => (await ledgerOf(h, orderId))[purpose]?.state === 'written-back');
}

const answer = (body: string): unknown => JSON.parse(body) as unknown;

describe('deliveries as WooCommerce 10 queues them: WP-Cron runs when the test says', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ woo: { delivery: 'queued' } });
  });
  afterAll(async () => h.close());
  afterEach(() => h.woo.loseQueue());

  it('an order created through REST and paid before the queue ran: order.created already shows processing and our echo carries our meta; one invoice', async () => {
    const order = h.woo.createOrder(portugueseOrder({ status: 'pending' }), 'rest');
    const id = Number(order.id);
    h.woo.editOrder(id, { status: 'processing' }, { fire: true });
    // Folded: the status change joins the order.updated already waiting for this order.
    expect(h.woo.queued().map((q) => q.topic)).toEqual(['order.created', 'order.updated']);
    const sent = await h.woo.runQueue();
    expect(sent.map((s) => [s.topic, s.status])).toEqual([
      ['order.created', 202],
      ['order.updated', 202],
    ]);
    await writtenBack(h, id);
    // The write-back's own order.updated waits in the queue; when it runs, the payload shows our meta.
    await eventually('the echo queued', () => h.woo.queued().some((q) => q.orderId === id));
    const echo = await h.woo.runQueue();
    expect(echo.map((e) => answer(e.body))).toContainEqual({ ignored: 'nothing-to-issue' });
    expect(await h.documentsOf(id)).toHaveLength(1);
  });

  it("a shopper's checkout: order.updated arrives before order.created; one invoice", async () => {
    const id = Number(h.woo.createOrder(portugueseOrder(), 'checkout').id);
    const sent = await h.woo.runQueue();
    expect(sent.map((s) => s.topic)).toEqual(['order.updated', 'order.created']);
    await writtenBack(h, id);
    await h.woo.settle();
    expect(await h.documentsOf(id)).toHaveLength(1);
  });

  it('a refund and a status change made before the queue ran arrive as one order.updated showing both: one credit note', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await writtenBack(h, id);
    h.woo.loseQueue();
    h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 7301, items: [{ index: 0, quantity: 1 }] })));
    h.woo.editOrder(id, { status: 'completed' }, { fire: true });
    expect(h.woo.queued()).toHaveLength(1);
    const [delivery] = await h.woo.runQueue();
    expect(delivery.status).toBe(202);
    await writtenBack(h, id, 'credit-note-7301');
    expect((await h.documentsOf(id)).filter((d) => d.document.Type === 'C')).toHaveLength(1);
  });

  it('a refund deleted before the queue ran is not in the delivery: no credit note', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await writtenBack(h, id);
    h.woo.loseQueue();
    h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 7302, items: [{ index: 0, quantity: 1 }] })));
    h.woo.deleteRefund(id, 7302);
    const [delivery] = await h.woo.runQueue();
    expect(answer(delivery.body)).toEqual({ ignored: 'nothing-to-issue' });
    expect((await h.documentsOf(id)).filter((d) => d.document.Type === 'C')).toHaveLength(0);
  });
});

describe('refunds as wc_create_refund makes them (deliveries at once)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  async function invoiced(): Promise<number> {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await writtenBack(h, id);
    await h.woo.settle();
    return id;
  }

  it('a refund fires order.updated by itself: its credit note follows with no other delivery', async () => {
    const id = await invoiced();
    h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 7401, items: [{ index: 1, quantity: 1 }] })));
    await writtenBack(h, id, 'credit-note-7401');
  });

  it('a refund of everything moves the order to refunded: one credit note, no cancellation', async () => {
    const id = await invoiced();
    h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 7402, items: [{ index: 0, quantity: 2 }, { index: 1, quantity: 1 }], shipping: true })));
    expect(h.woo.order(id)?.status).toBe('refunded');
    await writtenBack(h, id, 'credit-note-7402');
    await h.woo.settle();
    expect(Object.keys(await ledgerOf(h, id)).sort()).toEqual(['credit-note-7402', 'invoice']);
    expect(h.woo.notes(id).map((n) => n.note)).toContain('Order status changed from Processing to Refunded.');
  });

  it('setting the status to refunded creates the line-less refund of the rest: its credit note covers the order', async () => {
    const id = await invoiced();
    h.woo.editOrder(id, { status: 'refunded' }, { fire: true });
    const summaries = h.woo.order(id)?.refunds as { id: number; reason: string; total: string }[];
    expect(summaries).toEqual([expect.objectContaining({ reason: 'Order fully refunded.', total: `-${String(h.woo.order(id)?.total)}` })]);
    await writtenBack(h, id, `credit-note-${summaries[0].id}`);
    expect((await h.documentsOf(id)).filter((d) => d.document.Type === 'C')).toHaveLength(1);
    expect((await ledgerOf(h, id))[`credit-note-${summaries[0].id}`]?.total).toBe(String(h.woo.order(id)?.total));
    expect(h.woo.notes(id).map((n) => n.note)).toEqual(
      expect.arrayContaining(['Order status set to refunded. To return funds to the customer you will need to issue a refund through your payment gateway.', 'Order status changed from Processing to Refunded.']),
    );
  });
});

describe("the REST API answers like WooCommerce's (through the connector's shop client)", () => {
  let woo: RunningFakeWoo;
  let shop: WooShop;
  beforeAll(async () => {
    // A clock a second further at every reading: notes and refunds get distinct times, as on a shop
    // used by people. The web server keeps the real time: the official client below signs OAuth with it.
    let tick = Date.parse('2026-07-01T10:00:00Z');
    woo = await startFakeWooCommerce({ timeZone: 'Europe/Lisbon', now: () => new Date((tick += 1000)), serverNow: () => new Date() });
    shop = new WooShop({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, webhookSecret: 'x', timeoutMs: 3_000 });
  });
  afterAll(async () => woo.close());

  async function refusal(call: Promise<unknown>): Promise<string> {
    try {
      await call;
      return 'ok';
    } catch (error) {
      return error instanceof ShopRequestError ? `${error.status} ${error.code}` : String(error);
    }
  }

  it('per_page over 100 and an unknown status are refused with 400 rest_invalid_param; include lists only those orders', async () => {
    const [a, , c] = [portugueseOrder(), portugueseOrder(), portugueseOrder()].map((o) => woo.putOrder(o));
    expect(await refusal(shop.listOrderPage({ per_page: '101' }))).toBe('400 rest_invalid_param');
    expect(await refusal(shop.listOrderPage({ status: 'enviada' }))).toBe('400 rest_invalid_param');
    const listed = await shop.listOrderPage({ include: `${String(a.id)},${String(c.id)}`, per_page: '100' });
    expect(listed.orders.map((o) => (o as { id: number }).id).sort()).toEqual([a.id, c.id].sort());
  });

  it("notes: WooCommerce's own beside ours, an empty note accepted, type=customer, no added_by_user", async () => {
    const id = Number(woo.putOrder(portugueseOrder({ status: 'pending' })).id);
    woo.editOrder(id, { status: 'processing' });
    await shop.addNote(id, 'Fatura FT 1/1', false);
    await shop.addNote(id, '', true);
    const all = await shop.listNotes(id);
    expect(all.map((n) => n.note)).toEqual(['', 'Fatura FT 1/1', 'Order status changed from Pending payment to Processing.']);
    for (const note of all) expect(note).not.toHaveProperty('added_by_user');
    expect((await shop.listNotes(id, 'customer')).map((n) => n.note)).toEqual(['']);
    expect((await shop.listNotes(id, 'internal')).map((n) => n.note)).toEqual(['Fatura FT 1/1', 'Order status changed from Pending payment to Processing.']);
  });

  it('within one second WooCommerce lists by id (notes and refunds); stock is reduced once, with its note before the status change', async () => {
    const still = await startFakeWooCommerce({ now: () => new Date('2026-07-01T10:00:00Z') });
    try {
      const stillShop = new WooShop({ url: still.origin, consumerKey: still.consumerKey, consumerSecret: still.consumerSecret, webhookSecret: 'x', timeoutMs: 3_000 });
      still.putProduct({ id: 11, name: 'Caneca de cerâmica', sku: 'CAN-01', virtual: false, downloadable: false, manage_stock: true, stock_quantity: 1000 });
      const id = Number(still.putOrder(portugueseOrder({ status: 'pending' })).id);
      still.editOrder(id, { status: 'processing' });
      still.editOrder(id, { status: 'on-hold' });
      await stillShop.addNote(id, 'Fatura FT 1/1', false);
      expect((await stillShop.listNotes(id)).map((n) => n.note)).toEqual([
        'Stock levels reduced: Caneca de cerâmica (CAN-01) 1000&rarr;998',
        'Order status changed from Pending payment to Processing.',
        'Order status changed from Processing to On hold.',
        'Fatura FT 1/1',
      ]);
      for (const refundId of [7601, 7602]) still.addRefund(id, { id: refundId, amount: '1.00', reason: String(refundId) });
      expect((still.order(id)?.refunds as { id: number }[]).map((r) => r.id)).toEqual([7601, 7602]);
    } finally {
      await still.close();
    }
  });

  it('GET webhooks has no failure_count; system_status has the sections of a real report', async () => {
    woo.addWebhook({ topic: 'order.created', status: 'active', delivery_url: 'http://127.0.0.1:9/hook', secret: 's' });
    const [hook] = await shop.listWebhooks();
    expect(hook).not.toHaveProperty('failure_count');
    expect(hook).not.toHaveProperty('secret');
    const status = (await shop.systemStatus()) as { environment: Record<string, unknown> };
    expect(Object.keys(status)).toEqual(['environment']);
    expect(status.environment).toMatchObject({ default_timezone: 'UTC', wp_cron: true, version: expect.any(String) });
  });

  it('PUT line_items changes the lines and recalculates the order: the same totals as an order placed with that line', async () => {
    woo.putTaxRate({ id: 100, rate: '23', name: 'IVA 23%', class: 'standard' });
    woo.putProduct({ id: 78, name: 'Tripé', price: '45.00', virtual: false, downloadable: false, tax_class: '' });
    const base = portugueseOrder();
    const id = Number(woo.putOrder(base).id);
    const [caneca, livro] = base.line_items as { id: number }[];
    const rest = new WooCommerceRestApi({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, version: 'wc/v3' });
    await rest.put(`orders/${id}`, { line_items: [{ product_id: 78, quantity: 1 }, { id: livro.id, quantity: 0 }] });
    const placed = portugueseOrder({
      items: [
        { name: 'Caneca de cerâmica', sku: 'CAN-01', productId: 11, price: '12.50', quantity: 2, rate: '23' },
        { name: 'Tripé', productId: 78, price: '45.00', quantity: 1, rate: '23' },
      ],
    });
    const edited = woo.order(id) as JsonObject;
    expect((edited.line_items as { id: number }[]).map((l) => l.id)).toEqual([caneca.id, expect.any(Number)]);
    for (const field of ['total', 'total_tax', 'cart_tax', 'shipping_tax', 'shipping_total']) expect([field, edited[field]]).toEqual([field, placed[field]]);
  });

  it('a shop in Lisbon in summer (UTC+1): an order paid at 23:30 GMT on 30 June is dated 1 July locally; a local-date listing finds it', async () => {
    const order = woo.putOrder(portugueseOrder({ dateCreatedGmt: '2026-06-30T23:30:00', datePaidGmt: '2026-06-30T23:30:00' }));
    expect([order.date_created, order.date_created_gmt, order.date_paid]).toEqual(['2026-07-01T00:30:00', '2026-06-30T23:30:00', '2026-07-01T00:30:00']);
    const local = await shop.listOrderPage({ after: '2026-07-01T00:00:00', before: '2026-07-02T00:00:00', per_page: '100' });
    expect(local.orders.map((o) => (o as { id: number }).id)).toEqual([order.id]);
    const gmt = await shop.listOrderPage({ after: '2026-07-01T00:00:00', before: '2026-07-02T00:00:00', dates_are_gmt: 'true', per_page: '100' });
    expect(gmt.orders).toEqual([]);
  });
});

describe('GET orders?search= and include= answer like a real WooCommerce 10.0.2 with HPOS (docs/real-shop-findings.md)', () => {
  type Key = 'joao' | 'maria' | 'ana' | 'rui' | 'joana' | 'order22';
  let woo: RunningFakeWoo;
  let shop: WooShop;
  const ids = { joao: 20, maria: 21, order22: 22, ana: 23, rui: 24, joana: 25 } as Record<Key, number>;
  const keyOf = new Map(Object.entries(ids).map(([key, id]) => [id, key as Key]));
  const lisboa = { address_1: 'Rua Augusta 10', address_2: '', city: 'Lisboa', state: '', postcode: '1100-053', country: 'PT' };
  const found = async (params: Record<string, string>): Promise<Key[]> => {
    const { orders } = await shop.listOrderPage({ per_page: '100', ...params });
    return (orders as { id: number }[]).map((order) => keyOf.get(order.id) as Key);
  };
  const search = (term: string): Promise<Key[]> => found({ search: term });

  beforeAll(async () => {
    woo = await startFakeWooCommerce();
    shop = new WooShop({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, webhookSecret: 'x', timeoutMs: 3_000 });
    const place = (key: Key, billing: JsonObject, shipping: JsonObject = billing, item = 'T-shirt Lisboa', transaction = ''): void => {
      // Created one after the other, a minute apart: ids and creation dates grow together.
      const created = `2026-11-25T02:${String(ids[key]).padStart(2, '0')}:00`;
      const { email: _email, ...shippingAddress } = shipping;
      woo.putOrder({ id: ids[key], status: 'processing', date_created_gmt: created, date_modified_gmt: created, billing, shipping: shippingAddress, line_items: [{ id: ids[key] * 10, name: item, quantity: 1 }], transaction_id: transaction });
    };
    place('joao', { first_name: 'João', last_name: 'Conceição', company: 'Padaria Lusitana, Lda', ...lisboa, email: 'joao.conceicao@example.pt', phone: '912345678' }, undefined, 'T-shirt Lisboa', 'pi_3QxYz7LkdIwHu7ix0s1');
    place('maria', { first_name: 'Maria', last_name: 'da Silva', company: '', ...lisboa, email: 'maria.silva@example.com', phone: '' });
    place('order22', { first_name: 'Zé', last_name: 'Pinto', company: '', ...lisboa, postcode: '1000-001', email: 'ze@example.com', phone: '' });
    place('ana', { first_name: 'Ana', last_name: 'Costa', company: 'Conceição & Filhos', ...lisboa, email: 'geral@filhos.example', phone: '' });
    place('rui', { first_name: 'Rui', last_name: 'Gomes', company: '', ...lisboa, email: 'rui@example.com', phone: '213220000' }, { first_name: 'Teresa', last_name: 'Gomes', company: '', address_1: 'Rua B 2', address_2: '', city: 'Porto', state: '', postcode: '4000-001', country: 'PT', phone: '' });
    place('joana', { first_name: 'JOANA', last_name: 'conceicao', company: '', ...lisboa, email: 'JOANA@EXAMPLE.COM', phone: '' }, undefined, 'Os Lusíadas');
  });
  afterAll(async () => woo.close());

  it('case and accents are folded like the utf8mb4_unicode_520_ci collation; the term is trimmed, its spaces collapsed and its tags stripped', async () => {
    const cases: [string, Key[]][] = [
      ['João', ['joao']],
      ['JOÃO', ['joao']],
      ['joao conceicao', ['joao']],
      ['João Conceição', ['joao']],
      // The company of one, the last name of another, unaccented and in capitals or not: newest first.
      ['Conceição', ['joana', 'ana', 'joao']],
      ['CONCEICAO', ['joana', 'ana', 'joao']],
      ['Maria   da  Silva', ['maria']],
      ['  joão conceição  ', ['joao']],
      // "Ana" is also in JOANA and in Lusitana: any part of a word.
      ['<b>Ana</b>', ['joana', 'ana', 'joao']],
      ['Padaria Lusitana', ['joao']],
      ['joao.conceicao@', ['joao']],
      ['Teresa Gomes', ['rui']],
      ['lusiadas', ['joana']],
      // Words in another order than the index's, or across an empty field (two spaces): nothing.
      ['Conceição João', []],
      ['Gomes Teresa', []],
      ['Silva Rua', []],
    ];
    const seen: [string, Key[]][] = [];
    for (const [term] of cases) seen.push([term, await search(term)]);
    expect(seen).toEqual(cases);
  });

  it('a number is the order id as PHP reads it (22, 022, 22.0) beside the orders whose address, phone or items hold those digits; "#22" finds nothing; the transaction id finds its order', async () => {
    // Rui's phone 213220000 holds "22"; no other order's index does.
    expect(await search('22')).toEqual(['rui', 'order22']);
    expect(await search('022')).toEqual(['order22']);
    expect(await search('22.0')).toEqual(['order22']);
    expect(await search(' 22')).toEqual(['rui', 'order22']);
    expect(await search('#22')).toEqual([]);
    expect(await search('pi_3QxYz7LkdIwHu7ix0s1')).toEqual(['joao']);
  });

  it('no match: an empty page with X-WP-Total 0 and X-WP-TotalPages 0; a match counts every order and pages them', async () => {
    expect(await shop.listOrderPage({ search: 'ninguém', per_page: '20' })).toEqual({ orders: [], total: 0, totalPages: 0 });
    const first = await shop.listOrderPage({ search: 'Lisboa', per_page: '2' });
    expect({ total: first.total, totalPages: first.totalPages }).toEqual({ total: 6, totalPages: 3 });
  });

  it('include= is newest first whatever order was asked, orderby=include keeps the order asked; "22, 23" works, "abc" finds nothing, an empty include is no filter', async () => {
    expect(await found({ include: `${ids.joana},${ids.joao},${ids.ana}` })).toEqual(['joana', 'ana', 'joao']);
    expect(await found({ include: `${ids.joana},${ids.joao},${ids.ana}`, orderby: 'include' })).toEqual(['joana', 'joao', 'ana']);
    expect(await found({ include: '22, 23' })).toEqual(['ana', 'order22']);
    expect(await found({ include: 'abc' })).toEqual([]);
    expect(await found({ include: '' })).toHaveLength(6);
  });
});
