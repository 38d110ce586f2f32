import * as carriedOrders from '../../connector/ingest/carried-orders';
import { CarriedOrders, ownCopy } from '../../connector/ingest/carried-orders';
import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook, type JsonObject } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';

describe('CarriedOrders: the copies the last deliveries carried', () => {
  const body = (id: number): Buffer => Buffer.from(JSON.stringify({ id }));

  it('hands a copy out once, within its TTL', () => {
    const carried = new CarriedOrders(1_000, 10);
    carried.put(1, body(1), 5_000);
    expect(carried.take(1, 5_500)).toEqual({ id: 1 });
    expect(carried.take(1, 5_500)).toBeUndefined();
    carried.put(2, body(2), 5_000);
    expect(carried.take(2, 6_001)).toBeUndefined();
  });

  it('keeps the newest copies within its bound, and its own copy of a view on a larger buffer', () => {
    const carried = new CarriedOrders(60_000, 3);
    for (let id = 1; id <= 5; id++) carried.put(id, body(id), 0);
    expect(carried.size).toBe(3);
    expect([1, 2, 3, 4, 5].map((id) => carried.take(id, 0))).toEqual([undefined, undefined, { id: 3 }, { id: 4 }, { id: 5 }]);
    const large = Buffer.alloc(65_536, 0x20);
    const view = large.subarray(100, 100 + body(9).length);
    body(9).copy(view);
    carried.put(9, view, 0);
    large.fill(0x20);
    expect(carried.take(9, 0)).toEqual({ id: 9 });
  });

  it('keeps copies within a bound in bytes too, the oldest going first, and drops the expired ones when the next comes', () => {
    const carried = new CarriedOrders(1_000, 100, 3 * body(1).length);
    for (let id = 1; id <= 5; id++) carried.put(id, body(id), 0);
    expect(carried.size).toBe(3);
    expect(carried.heldBytes).toBe(3 * body(1).length);
    expect(carried.take(2, 0)).toBeUndefined();
    expect(carried.take(3, 0)).toEqual({ id: 3 });
    carried.put(6, body(6), 2_000);
    // 4 and 5 came at 0: past their TTL at 2,000, nobody will take them.
    expect(carried.size).toBe(1);
    expect(carried.heldBytes).toBe(body(6).length);
    // A copy larger than the whole bound is not kept.
    carried.put(7, Buffer.from(JSON.stringify({ id: 7, pad: ' '.repeat(4 * body(1).length) })), 2_000);
    expect(carried.size).toBe(1);
    expect(carried.take(7, 2_000)).toBeUndefined();
  });

  it("keeps a copy it is given (owned) as it is, without a second copy", () => {
    const carried = new CarriedOrders(1_000, 10);
    const copy = ownCopy(body(1));
    const alloc = jest.spyOn(Buffer, 'allocUnsafeSlow');
    try {
      carried.put(1, copy, 0, true);
      expect(alloc).not.toHaveBeenCalled();
    } finally {
      alloc.mockRestore();
    }
    expect(carried.take(1, 0)).toEqual({ id: 1 });
    expect(copy.buffer.byteLength).toBe(0);
  });

  it('hands the bytes of a copy back as soon as it is taken, evicted or found expired (not at the next full collection)', () => {
    const alloc = jest.spyOn(Buffer, 'allocUnsafeSlow');
    try {
      const carried = new CarriedOrders(1_000, 1);
      carried.put(1, body(1), 0);
      carried.put(2, body(2), 0);
      carried.put(3, body(3), 0);
      const [first, second, third] = alloc.mock.results.map((result) => result.value as Buffer);
      // 1 evicted by 2; 2 by 3.
      expect([first?.buffer.byteLength, second?.buffer.byteLength]).toEqual([0, 0]);
      expect(third?.buffer.byteLength).toBe(body(3).length);
      expect(carried.take(3, 0)).toEqual({ id: 3 });
      expect(third?.buffer.byteLength).toBe(0);
      carried.put(4, body(4), 0);
      const fourth = alloc.mock.results[3]?.value as Buffer;
      expect(carried.take(4, 5_000)).toBeUndefined();
      expect(fourth.buffer.byteLength).toBe(0);
      expect(carried.heldBytes).toBe(0);
    } finally {
      alloc.mockRestore();
    }
  });
});

describe("the document is composed from the delivery's copy, proven by the one read of the order under the lock", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  const orderReads = (id: number): number => h.woo.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/orders/${id}`)).length;

  it("a delivery that queues nothing: the copy taken for the worker is handed back with the answer", async () => {
    const copies = jest.spyOn(carriedOrders, 'ownCopy');
    try {
      const order = { ...portugueseOrder(), status: 'pending' };
      const answer = await h.deliver(order);
      expect(answer.body).toContain('ignored');
      const made = copies.mock.results.map((result) => result.value as Buffer);
      expect(made.length).toBeGreaterThan(0);
      expect(made.map((copy) => copy.buffer.byteLength)).toEqual(made.map(() => 0));
    } finally {
      copies.mockRestore();
    }
  });

  it('an order delivered and nothing changed since: the shop is asked for the order once', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);
    await eventually('written back', () => h.woo.meta(id, META.documentNumber), 30_000);
    await h.woo.settle();
    expect(orderReads(id)).toBe(1);
    expect(await h.documentsOf(id)).toHaveLength(1);
  });

  it("a delivery whose copy is no longer the shop's (changed since): the document is the shop's order, read again", async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    h.woo.putOrder(order);
    // What the shop sent before the buyer's name was corrected (same modification date: the proof is the content too).
    const stale = JSON.parse(JSON.stringify(h.woo.order(id))) as JsonObject;
    (stale.billing as JsonObject).first_name = 'Outra';
    expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.created', payload: stale, source: `${h.woo.origin}/` })).status).toBe(202);
    await eventually('written back', () => h.woo.meta(id, META.documentNumber), 30_000);
    const documents = await h.documentsOf(id);
    expect(documents).toHaveLength(1);
    expect(JSON.stringify(documents[0])).toContain('Maria Silva');
    expect(JSON.stringify(documents[0])).not.toContain('Outra');
    expect(orderReads(id)).toBeGreaterThanOrEqual(2);
  });

  it('a delivery whose copy the law would refuse, fixed in the shop since: nothing is refused on the old copy', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    h.woo.putOrder(order);
    // The copy sent while the order was still in dollars (no EuroRate known: a refusal), the shop's now in euros.
    const stale = { ...(JSON.parse(JSON.stringify(h.woo.order(id))) as JsonObject), currency: 'USD' };
    expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.created', payload: stale, source: `${h.woo.origin}/` })).status).toBe(202);
    await eventually('written back', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.state === 'written-back', 30_000);
    const documents = await h.documentsOf(id);
    expect(documents).toHaveLength(1);
    expect(JSON.stringify(documents[0])).not.toContain('USD');
  });
});
