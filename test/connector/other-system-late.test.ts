import IORedis from 'ioredis';
import { documentJobId } from '../../connector/core/jobs';
import { listNotInvoiced, type NotInvoicedEntry } from '../../connector/ingest/not-invoiced';
import type { JsonObject } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, REDIS_URL, startHarness, type Harness } from './support/harness';

/** The delivery planned (its invoice job queued, no worker yet), then another system's document written on the order. */
async function markedAfterPlanning(h: Harness, delivered: JsonObject, mark: JsonObject): Promise<number> {
  const id = Number(delivered.id);
  const serve = h.connector;
  if (!serve) throw new Error('no connector');
  expect((await h.deliver(delivered)).status).toBe(202);
  await eventually('the invoice job queued', () => serve.queue.getJob(documentJobId('shop1', id, 'invoice')));
  const meta = (h.woo.order(id)?.meta_data ?? []) as JsonObject[];
  h.woo.editOrder(id, { meta_data: [...meta, mark] });
  return id;
}

/** The order's entry on the not-invoiced list once its note is written. */
async function notedListing(redis: IORedis, h: Harness, id: number): Promise<NotInvoicedEntry | undefined> {
  return (await listNotInvoiced(redis, h.prefix, 'shop1')).find((entry) => entry.orderId === id && entry.noted);
}

async function jobFinished(connector: NonNullable<Harness['connector']>, id: number): Promise<void> {
  await eventually('the job finished', async () => (await connector.queue.getJob(documentJobId('shop1', id, 'invoice'))) === undefined);
}

/**
 * Two invoicing plugins answer the same 'paid' (an owner trying the connector beside Moloni's): the
 * delivery is planned with no other system's mark on the order, and Moloni writes its document's meta
 * before the worker creates anything. The worker reads the order again under the order's lock and
 * finds it: no document, the order on the not-invoiced list with the reason and the one note ingest
 * gives, no ledger entry that would make the planner take the order for one invoiced here.
 */
describe("another plugin's document written between the planning and the worker's create", () => {
  let h: Harness;
  const redis = new IORedis(REDIS_URL);
  beforeAll(async () => {
    // Serve only: the delivery's job waits in the queue until the test starts a worker.
    h = await startHarness({ role: 'serve' });
  });
  afterAll(async () => {
    await h.close();
    redis.disconnect();
  });

  it('nothing issued, the order listed as not invoiced with one note, and the story tells it', async () => {
    // Moloni's plugin answered the same 'paid' and wrote its document on the order.
    const id = await markedAfterPlanning(h, portugueseOrder(), { id: 990001, key: '_moloni_sent', value: '512334' });
    // Planned with no mark: ingest listed nothing.
    expect(await listNotInvoiced(redis, h.prefix, 'shop1')).toEqual([]);

    const worker = await h.startConnector('work');
    const listed = await eventually('the order on the not-invoiced list', () => notedListing(redis, h, id));
    expect(listed.reason).toEqual({ code: 'other-system', system: 'Moloni', key: '_moloni_sent', value: '512334' });
    await jobFinished(worker, id);

    expect(await h.documentsOf(id)).toHaveLength(0);
    expect((await h.sandbox.store.documents()).filter((doc) => (doc.document.ExternalId ?? '').startsWith(`wc-${id}`))).toHaveLength(0);
    const notes = h.woo.notes(id).filter((note) => note.note.includes('512334'));
    expect(notes).toHaveLength(1);
    expect(notes[0].note).toContain('Moloni');
    expect(await worker.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' })).toBeNull();
    const story = await worker.history.of('shop1', id);
    expect(story.filter((event) => event.kind === 'note' && event.text.includes('Moloni: _moloni_sent = 512334'))).toHaveLength(1);
    expect(story.some((event) => event.kind === 'document' || (event.kind === 'attempt' && event.step === 'draft'))).toBe(false);

    // The next update of the order is the other system's at ingest too: no job, the note not written again.
    const again = await h.deliver(h.woo.order(id) as JsonObject, 'order.updated');
    expect(JSON.parse(again.body)).toEqual({ ignored: 'other-system' });
    await h.woo.settle();
    expect(await worker.queue.getJob(documentJobId('shop1', id, 'invoice'))).toBeUndefined();
    expect(h.woo.notes(id).filter((note) => note.note.includes('512334'))).toHaveLength(1);
  });
  it('an invoice held for a person (nothing issued), then invoiced by another plugin: the update is planned (the ledger knows the order), the worker issues nothing, the entry and its attention item go', async () => {
    const order = portugueseOrder({ meta: [{ key: 'hd_wc_ie_plus_invoice_receipt_id', value: '88123401' }] });
    const id = Number(order.id);
    const ref = { tenant: 'shop1', orderId: id, purpose: 'invoice' };
    const serve = h.connector;
    if (!serve) throw new Error('no connector');
    await serve.ledger.record(ref, { state: 'held', detail: 'the buyer has no VAT number' });
    await serve.ledger.markAttention(ref);
    expect((await h.deliver(order, 'order.updated')).status).toBe(202);

    const listed = await eventually('the order on the not-invoiced list', () => notedListing(redis, h, id));
    expect(listed.reason).toEqual({ code: 'other-system', system: 'InvoiceXpress', key: 'hd_wc_ie_plus_invoice_receipt_id', value: '88123401' });
    await eventually('the ledger entry gone', async () => (await serve.ledger.get(ref)) === null);
    expect(await serve.ledger.attention()).not.toContain(`shop1:${id}:invoice`);
    expect(await h.documentsOf(id)).toHaveLength(0);
  });
});

describe("another plugin's document on an order the law would hold, written after the planning", () => {
  let h: Harness;
  const redis = new IORedis(REDIS_URL);
  beforeAll(async () => {
    h = await startHarness({ role: 'serve' });
  });
  afterAll(async () => {
    await h.close();
    redis.disconnect();
  });

  it('no person is asked about the hold: the order is listed as not invoiced, nothing held, nothing issued', async () => {
    // A company buyer whose VAT number is not valid: the connector would hold the invoice for a person.
    const order = portugueseOrder({ billing: { company: 'Empresa Exemplo, Lda.', first_name: 'Rui', last_name: 'Costa', address_1: 'Av. da Liberdade 1', city: 'Lisboa', postcode: '1250-096', country: 'PT', email: 'rui@empresa.pt' }, meta: [{ key: '_billing_nif', value: '123456788' }] });
    const id = await markedAfterPlanning(h, order, { id: 990003, key: '_molonion_sent', value: '77120' });
    const ref = { tenant: 'shop1', orderId: id, purpose: 'invoice' };

    const worker = await h.startConnector('work');
    const listed = await eventually('the order on the not-invoiced list', () => notedListing(redis, h, id));
    expect(listed.reason).toMatchObject({ code: 'other-system', key: '_molonion_sent', value: '77120' });
    await jobFinished(worker, id);
    expect(await worker.ledger.get(ref)).toBeNull();
    expect(await worker.ledger.attention()).not.toContain(`shop1:${id}:invoice`);
    expect(await h.documentsOf(id)).toHaveLength(0);
  });
});

describe("another plugin's document on an order the law refuses, written after the planning", () => {
  let h: Harness;
  const redis = new IORedis(REDIS_URL);
  beforeAll(async () => {
    h = await startHarness({ role: 'serve' });
  });
  afterAll(async () => {
    await h.close();
    redis.disconnect();
  });

  it('not refused to a person (mapping-failed): the order is listed as not invoiced, nothing on the attention list, nothing issued', async () => {
    // A line of -1: the law cannot read the order as a sale, the compose refuses it.
    const order = portugueseOrder();
    const broken = { ...order, line_items: (order.line_items as JsonObject[]).map((item, i) => (i === 0 ? { ...item, quantity: -1 } : item)) as unknown as JsonObject[] };
    const id = await markedAfterPlanning(h, broken, { id: 990004, key: '_moloni_sent', value: '88001' });
    const ref = { tenant: 'shop1', orderId: id, purpose: 'invoice' };

    const worker = await h.startConnector('work');
    // Decided either way: listed as not invoiced, or refused to a person (what happened before).
    const decided = await eventually('the order listed or refused', async () => {
      const listed = await notedListing(redis, h, id);
      if (listed) return { listed: listed.reason };
      const state = (await worker.ledger.get(ref))?.state;
      return state === 'mapping-failed' ? { refused: state } : undefined;
    });
    expect(decided).toEqual({ listed: { code: 'other-system', system: 'Moloni', key: '_moloni_sent', value: '88001' } });
    await jobFinished(worker, id);
    expect(await worker.ledger.get(ref)).toBeNull();
    expect(await worker.ledger.attention()).not.toContain(`shop1:${id}:invoice`);
    await h.woo.settle();
    expect(h.woo.notes(id).filter((note) => note.note.includes('is not a sale the invoicing law can read'))).toHaveLength(0);
    expect(await h.documentsOf(id)).toHaveLength(0);
  });
});
