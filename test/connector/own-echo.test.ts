import pino from 'pino';
import { META, issuingKeyForPurpose, orderDigest as digestOf } from '../../connector/shop/order-meta';
import { woocommerce } from '../../platforms/woocommerce/adapter';
import { sendWooWebhook, type JsonObject } from '../support/fake-woocommerce';
import { buildRefund, eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';

const MARKER = issuingKeyForPurpose('invoice');
const metaOf = (order: JsonObject) => order.meta_data as { key: string; value: unknown }[];
/** A WooCommerce order's digest: what our writes change there left out by its platform. */
const orderDigest = (order: unknown): string => digestOf(order, woocommerce.withoutOurWrites);
const copy = (order: JsonObject): JsonObject => JSON.parse(JSON.stringify(order)) as JsonObject;

describe('orderDigest: the order without what our own writes change', () => {
  const order = portugueseOrder();

  it('is the same after our meta, a new modification date and links are added', () => {
    const echoed = copy(order);
    metaOf(echoed).push({ key: MARKER, value: { documentId: 7, externalId: 'wc-1', at: 1 } }, { key: META.documentNumber, value: 'FT A/1' });
    echoed.date_modified = '2030-01-01T00:00:00';
    echoed.date_modified_gmt = '2030-01-01T00:00:00';
    echoed._links = { self: [{ href: 'http://shop/wp-json/wc/v3/orders/1' }] };
    expect(orderDigest(echoed)).toBe(orderDigest(order));
  });

  it.each([
    ['the buyer', (o: JsonObject) => void ((o.billing as JsonObject).first_name = 'Outra')],
    ['the status', (o: JsonObject) => void (o.status = 'cancelled')],
    ['the total', (o: JsonObject) => void (o.total = '1.00')],
    ['a refund', (o: JsonObject) => void (o.refunds = [{ id: 9, reason: '', total: '-1.00' }])],
    ["another plugin's meta", (o: JsonObject) => void metaOf(o).push({ key: '_other_plugin_invoice', value: 'X' })],
  ])('changes with %s', (_what, change) => {
    const changed = copy(order);
    change(changed);
    expect(orderDigest(changed)).not.toBe(orderDigest(order));
  });
});

describe('the echo of our issuing marker is answered 200 without a job; a real change in the same delivery is planned', () => {
  let h: Harness;
  /** The order as the shop had it right after our marker's PUT: what WooCommerce sends back as order.updated. */
  const markerEchoes = new Map<number, JsonObject>();
  beforeAll(async () => {
    h = await startHarness({
      woo: {
        onUpdate: (order) => {
          const id = Number(order.id);
          const meta = metaOf(order);
          if (!markerEchoes.has(id) && meta.some((m) => m.key === MARKER) && !meta.some((m) => m.key === META.documentNumber)) markerEchoes.set(id, copy(order));
        },
      },
    });
  });
  afterAll(async () => h.close());

  const ownEchoes = async (): Promise<number> => (await h.connector?.metrics.webhooksIgnored.get())?.values.find((v) => v.labels.reason === 'own-echo')?.value ?? 0;
  const resend = (payload: JsonObject) => sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload, source: `${h.woo.origin}/` });

  async function invoiced(): Promise<{ id: number; echo: JsonObject }> {
    const order = portugueseOrder();
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);
    await eventually('written back', () => h.woo.meta(id, META.documentNumber));
    await eventually('the note', () => h.woo.notes(id).length > 0);
    await eventually('the job done', async () => (await h.connector?.queue.getJob(`invoice.shop1.${id}`)) === undefined);
    await h.woo.settle();
    const echo = markerEchoes.get(id);
    if (!echo) throw new Error('the marker PUT was not seen');
    return { id, echo };
  }

  it('the live echo of the marker and a replay of it: 200 own-echo, no job; one document, one note', async () => {
    const before = await ownEchoes();
    const { id, echo } = await invoiced();
    // The shop sent the marker's echo while the worker was closing the document: recognised.
    expect(await ownEchoes()).toBe(before + 1);
    expect(metaOf(echo).find((m) => m.key === MARKER)?.value).toEqual(expect.objectContaining({ orderDigest: orderDigest(echo) }));
    const replay = await resend(echo);
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body)).toEqual({ ignored: 'own-echo' });
    expect(await h.connector?.queue.getJob(`invoice.shop1.${id}`)).toBeUndefined();
    expect(await h.documentsOf(id)).toHaveLength(1);
    expect(h.woo.notes(id)).toHaveLength(1);
  });

  it('the same delivery with the buyer changed (as after a Redis loss): planned, the invoice job queued', async () => {
    const { id, echo } = await invoiced();
    const changed = copy(echo);
    (changed.billing as JsonObject).first_name = 'Joana';
    const delivery = await resend(changed);
    expect(delivery.status).toBe(202);
    expect(JSON.parse(delivery.body)).toEqual({ accepted: [`invoice.shop1.${id}`], resumed: [] });
    // The job starts from the ledger: the invoice is written back already, nothing is issued again.
    await eventually('the job done', async () => (await h.connector?.queue.getJob(`invoice.shop1.${id}`)) === undefined);
    expect(await h.documentsOf(id)).toHaveLength(1);
  });

  it('the same delivery carrying a refund made meanwhile (folded into one by the shop): the credit note is planned', async () => {
    const { id, echo } = await invoiced();
    const refund = h.woo.addRefund(id, buildRefund(h.woo.order(id), { id: 931, items: [{ index: 0, quantity: 1 }] }));
    const folded = copy(echo);
    folded.refunds = (h.woo.order(id) as JsonObject).refunds as JsonObject[];
    const delivery = await resend(folded);
    expect(delivery.status).toBe(202);
    expect((JSON.parse(delivery.body) as { accepted: string[] }).accepted).toContain(`credit-note-${refund.id}.shop1.${id}`);
    await eventually('the credit note', async () => (await h.documentsOf(id)).length === 2);
  });
});

describe('our own echoes are logged at debug, not at info (two lines per order), and counted as ignored all the same', () => {
  let h: Harness;
  const lines: { msg?: string; reason?: string }[] = [];
  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { msg?: string; reason?: string }) });
    h = await startHarness({ role: 'serve', logger });
  });
  afterAll(async () => h.close());

  const send = (payload: JsonObject) => sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload, source: `${h.woo.origin}/` });

  it('the marker echo (own-echo) and the write-back echo (nothing-to-issue) write no info line; a checkout draft still writes one', async () => {
    const order = portugueseOrder();
    const marker = copy(order);
    metaOf(marker).push({ key: MARKER, value: { documentId: 7, externalId: `wc-${String(order.id)}.d1`, at: 1, orderDigest: orderDigest(order) } });
    expect(JSON.parse((await send(marker)).body)).toEqual({ ignored: 'own-echo' });
    const writtenBack = copy(marker);
    metaOf(writtenBack).push({ key: META.documentNumber, value: 'FR A/7' });
    expect(JSON.parse((await send(writtenBack)).body)).toEqual({ ignored: 'nothing-to-issue' });
    expect(JSON.parse((await send({ ...portugueseOrder(), status: 'checkout-draft' })).body)).toEqual({ ignored: 'checkout-draft' });
    expect(lines.filter((line) => line.msg === 'webhook ignored').map((line) => line.reason)).toEqual(['checkout-draft']);
    const ignored = (await h.connector?.metrics.webhooksIgnored.get())?.values ?? [];
    expect(Object.fromEntries(ignored.map((v) => [v.labels.reason, v.value]))).toMatchObject({ 'own-echo': 1, 'nothing-to-issue': 1, 'checkout-draft': 1 });
  });
});
