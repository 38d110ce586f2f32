/**
 * A NIF added to an order after its invoice (issue 30, point 5): the invoice stays, the owner is told
 * once (a note on the order in the shop's language, the attention list), nothing is issued. Through
 * the real connector (webhook route, BullMQ, Redis), the sandbox and the fake WooCommerce.
 */
import IORedis from 'ioredis';
import type { LedgerEntry } from '../../connector/core/ledger';
import { buyerRecord, META } from '../../connector/shop/order-meta';
import { wooMeta } from '../support/payloads';
import { sendWooWebhook, type JsonObject, type JsonValue } from '../support/fake-woocommerce';
import { eventually, orderQuiet, portugueseOrder, REDIS_URL, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

async function invoiceOf(h: Harness, orderId: number): Promise<LedgerEntry | undefined> {
  return (await h.connector?.ledger.forOrder('shop1', orderId))?.invoice;
}

async function attention(h: Harness): Promise<{ orderId: number; purpose: string }[]> {
  return (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN })).json()) as { orderId: number; purpose: string }[];
}

/** The shop owner sets the buyer's NIF in the admin (replacing any), and WooCommerce sends order.updated. */
async function setBuyerNif(h: Harness, orderId: number, nif: string): Promise<void> {
  const meta = ((h.woo.order(orderId) as JsonObject).meta_data as unknown as { id: number; key: string; value: unknown }[]).filter((m) => m.key !== '_billing_nif');
  const edited = h.woo.editOrder(orderId, { meta_data: [...meta, { id: 91_000 + (orderId % 1000), key: '_billing_nif', value: nif }] as unknown as JsonValue }, { fire: false });
  expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: edited })).status).toBeLessThan(300);
}

/** The same order.updated again (a redelivery, the echo of a write, another save with nothing changed). */
async function redeliver(h: Harness, orderId: number): Promise<void> {
  expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(orderId) as JsonObject })).status).toBeLessThan(300);
}

const toldNotes = (h: Harness, orderId: number): string[] => h.woo.notes(orderId).map((n) => n.note).filter((note) => note.includes('123456789') && note.includes('credit note'));

async function invoiced(h: Harness, order: JsonObject): Promise<LedgerEntry> {
  expect((await h.deliver(order)).status).toBe(202);
  const entry = await eventually('written back', async () => {
    const invoice = await invoiceOf(h, Number(order.id));
    return invoice?.state === 'written-back' ? invoice : undefined;
  }, 30_000);
  await h.woo.settle();
  return entry;
}

describe('a NIF added to an order after its invoice', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('the invoice keeps its buyer; the owner is told once (note, attention list), whatever is delivered again; nothing is issued', async () => {
    const order = portugueseOrder({ meta: [] });
    const id = Number(order.id);
    const first = await invoiced(h, order);
    // What the invoice carried, from the service's own copy: in the ledger and on the order.
    expect(first.buyerNif).toBe('999999990');
    expect(buyerRecord(wooMeta((h.woo.order(id) as JsonObject).meta_data))).toMatchObject({ nif: '999999990', keys: expect.arrayContaining(['_billing_nif']) });

    await setBuyerNif(h, id, '123456789');
    const told = await eventually('the owner told', async () => ((await attention(h)).some((a) => a.orderId === id) ? true : undefined), 30_000);
    expect(told).toBe(true);
    await eventually('the note on the order', () => toldNotes(h, id).length === 1 || undefined, 10_000);
    const entry = await invoiceOf(h, id);
    expect(entry).toMatchObject({ state: 'written-back', buyerToldNif: '123456789', documentId: first.documentId });
    expect(JSON.parse(entry?.problem ?? '{}')).toMatchObject({ code: 'buyer-changed', number: first.documentNumber, invoiceNif: '999999990', orderNif: '123456789' });
    expect(buyerRecord(wooMeta((h.woo.order(id) as JsonObject).meta_data))).toMatchObject({ nif: '999999990', told: '123456789' });

    // Echoes and redeliveries of the same order: nobody is told again, nothing is issued.
    await orderQuiet(h, id);
    for (let i = 0; i < 3; i++) await redeliver(h, id);
    await orderQuiet(h, id);
    expect(toldNotes(h, id)).toHaveLength(1);
    expect((await attention(h)).filter((a) => a.orderId === id)).toHaveLength(1);
    const documents = (await h.documentsOf(id)).filter((d) => d.status !== 'draft');
    expect(documents).toHaveLength(1);
    expect((documents[0] as unknown as { client: { NIF: string } }).client.NIF).toBe('999999990');
    expect(h.woo.meta(id, META.documentNumber)).toBe(first.documentNumber);
  }, 90_000);

  it('the ledger lost afterwards: the order remembers what the invoice carried, and the owner is still told (once)', async () => {
    const order = portugueseOrder({ meta: [] });
    const id = Number(order.id);
    const first = await invoiced(h, order);
    const redis = new IORedis(REDIS_URL);
    await redis.del(h.connector?.ledger.key({ tenant: 'shop1', orderId: id, purpose: 'invoice' }) ?? '');
    await redis.quit();
    await setBuyerNif(h, id, '123456789');
    await eventually('the owner told', async () => ((await attention(h)).some((a) => a.orderId === id) ? true : undefined), 30_000);
    expect(await invoiceOf(h, id)).toMatchObject({ state: 'written-back', documentNumber: first.documentNumber, buyerToldNif: '123456789' });
    await eventually('the note on the order', () => toldNotes(h, id).length === 1 || undefined, 10_000);
    expect((await h.documentsOf(id)).filter((d) => d.status !== 'draft')).toHaveLength(1);
  }, 90_000);

  it('the same NIF as the invoice\'s (an update that changes something else): nothing is told', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    const first = await invoiced(h, order);
    expect(first.buyerNif).toBe('232013969');
    await setBuyerNif(h, id, '232013969');
    const completed = h.woo.editOrder(id, { status: 'completed' }, { fire: false });
    await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: completed });
    await orderQuiet(h, id);
    expect(await attention(h)).toEqual([]);
    expect((await invoiceOf(h, id))?.buyerToldNif).toBeUndefined();
    expect(h.woo.notes(id).filter((n) => n.note.includes('credit note'))).toEqual([]);
  }, 90_000);
});
