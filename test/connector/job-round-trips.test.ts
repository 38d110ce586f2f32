import type { Socket } from 'node:net';
import type { DocumentJobData } from '../../connector/core/jobs';
import { META } from '../../connector/shop/order-meta';
import { eventually, orderQuiet, portugueseOrder, startHarness, type Harness } from './support/harness';

/**
 * What one invoice's job costs the worker in Redis round trips (issue 29): the ledger's connection is
 * auto-pipelined (BullMQ's worker moves its jobs on it too), so what a run sends in one turn leaves
 * in one socket write. The order's story (earlier traces) goes with the first read of the entry, the
 * series' date with the lock, the lock's release with the `created` record, the document's facts for
 * the month pack and its month's sign-off with the `finalized` record, and the delayed Get Document
 * run reads the ledger once (the issue step it resumes at hands its read on).
 */
describe("one invoice's job in Redis round trips", () => {
  let h: Harness;
  beforeAll(async () => {
    // The worker alone, the job added as ingest would: no delivery, echo or console shares the connection.
    h = await startHarness({ role: 'work', registerWebhooks: false });
  });
  afterAll(async () => h.close());

  it('reads the entry 3 times, and sends what goes together in one socket write', async () => {
    const connector = h.connector;
    if (!connector) throw new Error('no connector');
    const order = portugueseOrder();
    const id = Number(order.id);
    h.woo.putOrder(order);
    const socket = (connector.history as unknown as { redis: { stream: Socket } }).redis.stream;
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    const writes: string[] = [];
    (socket as unknown as { write: typeof write }).write = (...args) => {
      writes.push(Buffer.isBuffer(args[0]) ? args[0].toString('latin1') : String(args[0]));
      return write(...args);
    };
    const get = jest.spyOn(connector.ledger, 'get');
    let reads = 0;
    try {
      const data: DocumentJobData = { tenant: 'shop1', orderId: id, kind: 'invoice', step: 'issue', polls: 0, seenAt: Date.now() };
      await connector.queue.add('invoice', data, { jobId: `invoice.shop1.${id}` });
      await eventually('the number on the order', () => h.woo.meta(id, META.documentNumber) as string | undefined);
      await orderQuiet(h, id);
      reads = get.mock.calls.filter(([ref]) => ref.orderId === id).length;
    } finally {
      (socket as unknown as { write: typeof write }).write = write;
      get.mockRestore();
    }
    expect(await h.documentsOf(id)).toHaveLength(1);
    expect((await connector.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.state).toBe('written-back');
    // Issue run: the entry before composing, and again under the lock; Get Document run: once.
    expect(reads).toBe(3);

    const entry = `${h.prefix}:ledger:shop1:${id}:invoice`;
    const story = `${h.prefix}:history:shop1:${id}`;
    const writeWith = (...parts: string[]): string | undefined => writes.find((w) => parts.every((part) => w.includes(part)));
    // The entry and the order's story, in one write.
    expect(writeWith('hgetall', entry, 'lrange', story)).toBeDefined();
    // The series' date, the lock and the entry under it.
    expect(writeWith(`${h.prefix}:series-date:shop1:`, `${entry}:lock`, 'NX', 'hgetall')).toBeDefined();
    // created, the series' date moved on, the run's story, and the lock's release.
    expect(writeWith('created', `${h.prefix}:series-date:shop1:`, story, `${entry}:lock`)).toBeDefined();
    // finalized, the document's facts, and the sign-off of its month.
    expect(writeWith('finalized', `${h.prefix}:month:documents:shop1`, `${h.prefix}:month:closed:shop1`)).toBeDefined();
  });
});
