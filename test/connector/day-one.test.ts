import IORedis from 'ioredis';
import { goLiveKey } from '../../connector/ingest/go-live';
import { listNotInvoiced } from '../../connector/ingest/not-invoiced';
import { buildTenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { META } from '../../connector/shop/order-meta';
import { enqueueMissing } from '../../connector/sweep/sweep';
import { type SweepReport } from '../../connector/core/sweep-report';
import { parseConfig } from '../../connector/config/load-config';
import { runCli, writeConfigFile } from './support/worker-process';
import { eventually, portugueseOrder, quietLogger, rawTestConfig, REDIS_URL, startHarness, type Harness } from './support/harness';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };

async function sweepNow(h: Harness): Promise<SweepReport> {
  const response = await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ tenant: 'shop1' }) });
  expect(response.status).toBe(200);
  return ((await response.json()) as SweepReport[])[0];
}

async function attentionOrders(h: Harness): Promise<number[]> {
  const items = (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN })).json()) as { orderId: number }[];
  return items.map((item) => item.orderId);
}

/** WooCommerce's GMT date form, `ms` from now. */
function wooDate(offsetMs: number): string {
  return new Date(Date.now() + offsetMs).toISOString().slice(0, 19);
}

const DAY = 86_400_000;

describe('day one on a live shop: the go-live cut-off (no goLiveAt: the first start)', () => {
  let h: Harness;
  let redis: IORedis;
  let firstStart: number;
  beforeAll(async () => {
    // No goLiveAt: the tenant's first start is the cut-off, as on a real first install.
    firstStart = Date.now();
    h = await startHarness({ settings: { goLiveAt: undefined } });
    redis = new IORedis(REDIS_URL);
  });
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

  it('an order paid yesterday is not invoiced by order.created, by order.updated (completed, delivered), nor by the first sweep; a new order is', async () => {
    const old = portugueseOrder({ datePaidGmt: wooDate(-DAY), dateCreatedGmt: wooDate(-DAY) });
    const created = await h.deliver(old);
    expect(JSON.parse(created.body)).toEqual({ ignored: 'before-go-live' });
    // The cut-off is now fixed in Redis: the first start (the first moment it was needed).
    const stored = Number(await redis.get(goLiveKey(h.prefix, 'shop1')));
    // Between this test's first start and now, however long a loaded machine took (no bound on the time).
    expect(stored).toBeGreaterThanOrEqual(firstStart);
    expect(stored).toBeLessThanOrEqual(Date.now());
    // A shipping plugin marks it completed a month later: still nothing (issue 17, second bullet).
    const updated = await h.deliver({ ...old, status: 'completed' }, 'order.updated');
    expect(JSON.parse(updated.body)).toEqual({ ignored: 'before-go-live' });

    const fresh = portugueseOrder();
    expect((await h.deliver(fresh)).status).toBe(202);
    await eventually('the new order invoiced', () => h.woo.meta(Number(fresh.id), META.documentNumber));

    const report = await sweepNow(h);
    // The first sweep starts at the cut-off, not 48 hours back.
    expect(Date.parse(report.since)).toBe(stored);
    expect(report.enqueued).not.toContain(`invoice.shop1.${String(old.id)}`);
    await h.woo.settle();
    expect(await h.documentsOf(Number(old.id))).toHaveLength(0);
    // Listed as not invoiced, with the reason; no note on the order, nothing for a person to fix.
    const listed = (await listNotInvoiced(redis, h.prefix, 'shop1')).find((entry) => entry.orderId === Number(old.id));
    expect(listed?.reason).toMatchObject({ code: 'before-go-live', goLiveAt: new Date(stored).toISOString() });
    expect(h.woo.notes(Number(old.id))).toHaveLength(0);
    expect(await attentionOrders(h)).not.toContain(Number(old.id));
    // Its page says why it was not invoiced and offers the way to issue it (the preview first).
    const page = await (await fetch(`${h.connector?.origin}/console/shop1/orders/${String(old.id)}?lang=en`, { headers: ADMIN })).text();
    expect(page).toMatch(/<section id="not-invoiced"><h2>Orders not invoiced<\/h2><p>[^<]*go-live/);
    expect(page).toContain(`<form method="get" action="/console/shop1/not-invoiced/preview"><input type="hidden" name="order" value="${String(old.id)}">`);
  });

  it('an order created before the cut-off and paid after it is invoiced (paid is what counts)', async () => {
    const order = portugueseOrder({ dateCreatedGmt: wooDate(-DAY), datePaidGmt: wooDate(0) });
    expect((await h.deliver(order)).status).toBe(202);
    await eventually('invoiced', () => h.woo.meta(Number(order.id), META.documentNumber));
  });

  it('cash on delivery placed before the cut-off and completed after it (WooCommerce sets date_paid then) is never invoiced; placed after, it is', async () => {
    const placed = wooDate(-DAY);
    const order = portugueseOrder({ dateCreatedGmt: placed, datePaidGmt: null });
    order.payment_method = 'cod';
    expect(JSON.parse((await h.deliver(order)).body)).toEqual({ ignored: 'before-go-live' });
    // The courier collected: WooCommerce's COD gateway records the payment on completion, now.
    const completed = { ...order, status: 'completed', date_paid: wooDate(0), date_paid_gmt: wooDate(0) };
    expect(JSON.parse((await h.deliver(completed, 'order.updated')).body)).toEqual({ ignored: 'before-go-live' });
    h.woo.putOrder(completed);
    await sweepNow(h);
    await h.woo.settle();
    expect(await h.documentsOf(Number(order.id))).toHaveLength(0);
    const listed = (await listNotInvoiced(redis, h.prefix, 'shop1')).find((entry) => entry.orderId === Number(order.id));
    expect(listed?.reason).toMatchObject({ code: 'before-go-live', soldAt: new Date(`${placed}Z`).toISOString() });

    const fresh = portugueseOrder({ datePaidGmt: null });
    fresh.payment_method = 'cod';
    expect((await h.deliver(fresh)).status).toBe(202);
    await eventually('the new COD order invoiced', () => h.woo.meta(Number(fresh.id), META.documentNumber));
  });

  it('only an explicit backfill issues an order sold before the cut-off, and it leaves the not-invoiced list', async () => {
    const old = portugueseOrder({ datePaidGmt: wooDate(-2 * DAY), dateCreatedGmt: wooDate(-2 * DAY) });
    await h.deliver(old);
    await h.woo.settle();
    expect((await listNotInvoiced(redis, h.prefix, 'shop1')).map((e) => e.orderId)).toContain(Number(old.id));
    const runtime = buildTenantRuntime(h.config.tenants[0]);
    const report = { scanned: 0, enqueued: [] as string[], resumed: [] as string[], waitingForPerson: [] as string[], problems: [] as string[] };
    const connector = h.connector;
    if (!connector) throw new Error('no connector');
    await enqueueMissing(runtime, { redis, prefix: h.prefix, queue: connector.queue, ledger: connector.ledger, metrics: connector.metrics, logger: quietLogger() }, { ids: [Number(old.id)] }, report, 'backfill');
    expect(report.enqueued).toContain(`invoice.shop1.${String(old.id)}`);
    await eventually('the backfilled order invoiced', () => h.woo.meta(Number(old.id), META.documentNumber));
    expect((await listNotInvoiced(redis, h.prefix, 'shop1')).map((e) => e.orderId)).not.toContain(Number(old.id));
  });
});

describe('a shop switching from another invoicing plugin: orders with its document are never invoiced', () => {
  let h: Harness;
  let redis: IORedis;
  beforeAll(async () => {
    h = await startHarness({ settings: { otherSystemMetaKeys: ['_my_erp_invoice'] } });
    redis = new IORedis(REDIS_URL);
  });
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

  it.each([
    ['InvoiceXpress', 'hd_wc_ie_plus_invoice_receipt_id', '88123401'],
    ['Moloni', '_moloni_sent', '512334'],
    ['Moloni', '_moloni_sent', '-1'],
    ['Moloni On', '_molonion_sent', '88213'],
    ['Vendus', '_vendus_plugin_invoices_data', 'a:2:{s:2:"id";i:7781;s:6:"number";s:8:"FR 1/123";}'],
    ['Vendus', '_vp_invoices_data', 'a:2:{s:2:"id";i:7781;s:6:"number";s:8:"FR 1/123";}'],
    ['_my_erp_invoice', '_my_erp_invoice', 'FT 2026/77'],
  ])('%s (%s = %s): no document, one private note naming it, listed in the console; a second delivery adds nothing', async (system, key, value) => {
    const order = portugueseOrder({ meta: [{ key: '_billing_nif', value: '232013969' }, { key, value }] });
    const first = await h.deliver(order);
    expect(JSON.parse(first.body)).toEqual({ ignored: 'other-system' });
    const note = await eventually('the note', () => h.woo.notes(Number(order.id))[0]);
    expect(note.customer_note).toBe(false);
    // A serialized record is shown by its number, never as raw PHP.
    expect(note.note).toContain(`already has a document from another system (${system}: ${key} = ${value.startsWith('a:') ? 'FR 1/123' : value})`);
    await h.deliver({ ...order, status: 'completed' }, 'order.updated');
    await sweepNow(h);
    await h.woo.settle();
    expect(h.woo.notes(Number(order.id))).toHaveLength(1);
    expect(await h.documentsOf(Number(order.id))).toHaveLength(0);
    const listed = (await listNotInvoiced(redis, h.prefix, 'shop1')).find((entry) => entry.orderId === Number(order.id));
    expect(listed).toMatchObject({ noted: true, reason: { code: 'other-system', system, key } });
  });

  it('Moloni\'s "not sent" value (0) is no document: the order is invoiced', async () => {
    const order = portugueseOrder({ meta: [{ key: '_billing_nif', value: '232013969' }, { key: '_moloni_sent', value: '0' }] });
    expect((await h.deliver(order)).status).toBe(202);
    await eventually('invoiced', () => h.woo.meta(Number(order.id), META.documentNumber));
  });

  it('even a backfill leaves such an order alone', async () => {
    const order = h.woo.putOrder(portugueseOrder({ meta: [{ key: 'hd_wc_ie_plus_invoice_id', value: '9911' }] }));
    const runtime = buildTenantRuntime(h.config.tenants[0]);
    const report = { scanned: 0, enqueued: [] as string[], resumed: [] as string[], waitingForPerson: [] as string[], problems: [] as string[] };
    const connector = h.connector;
    if (!connector) throw new Error('no connector');
    await enqueueMissing(runtime, { redis, prefix: h.prefix, queue: connector.queue, ledger: connector.ledger, metrics: connector.metrics, logger: quietLogger() }, { ids: [Number(order.id)] }, report, 'backfill');
    expect(report.scanned).toBeGreaterThan(0);
    expect(report.enqueued).toEqual([]);
  });
});

describe('issue 21, point 1: an unpaid order WooCommerce cancels is left alone by the webhook path, as by the sweep', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('pending (bank transfer never paid) -> cancelled: nothing planned, no note, no attention entry', async () => {
    const order = portugueseOrder({ status: 'pending', datePaidGmt: null });
    expect(JSON.parse((await h.deliver(order)).body)).toEqual({ ignored: 'nothing-to-issue' });
    const cancelled = await h.deliver({ ...order, status: 'cancelled' }, 'order.updated');
    expect(JSON.parse(cancelled.body)).toEqual({ ignored: 'nothing-to-issue' });
    await sweepNow(h);
    await h.woo.settle();
    expect(h.woo.notes(Number(order.id))).toHaveLength(0);
    expect(await attentionOrders(h)).not.toContain(Number(order.id));
    expect(await h.connector?.ledger.forOrder('shop1', Number(order.id))).toEqual({});
  });

  it('an invoiced order that is cancelled still gets its credit note', async () => {
    const order = portugueseOrder();
    await h.deliver(order);
    await eventually('invoiced', () => h.woo.meta(Number(order.id), META.documentNumber));
    const stored = h.woo.order(Number(order.id));
    const cancelled = await h.deliver({ ...stored, status: 'cancelled' }, 'order.updated');
    expect(cancelled.status).toBe(202);
    await eventually('the cancellation written back', () => h.woo.meta(Number(order.id), META.cancellation));
  });
});

describe('issue 21, point 7: cash on delivery reaches processing with no date_paid', () => {
  let processing: Harness;
  let completed: Harness;
  beforeAll(async () => {
    processing = await startHarness();
    completed = await startHarness({ settings: { invoiceUnpaidProcessingAt: 'completed' } });
  });
  afterAll(async () => {
    await processing.close();
    await completed.close();
  });

  it('default (processing): invoiced at once as an invoice (FT, type I), not a receipt', async () => {
    const order = portugueseOrder({ status: 'processing', datePaidGmt: null });
    expect((await processing.deliver(order)).status).toBe(202);
    await eventually('invoiced', () => processing.woo.meta(Number(order.id), META.documentNumber));
    const [document] = await processing.documentsOf(Number(order.id));
    expect(document.document.Type).toBe('I');
  });

  it('invoiceUnpaidProcessingAt: completed waits; when the courier collected and the order is completed (paid), an invoice-receipt', async () => {
    const order = portugueseOrder({ status: 'processing', datePaidGmt: null });
    expect(JSON.parse((await completed.deliver(order)).body)).toEqual({ ignored: 'nothing-to-issue' });
    await completed.woo.settle();
    expect(await completed.documentsOf(Number(order.id))).toHaveLength(0);
    const done = await completed.deliver({ ...order, status: 'completed', date_paid: wooDate(0), date_paid_gmt: wooDate(0) }, 'order.updated');
    expect(done.status).toBe(202);
    await eventually('invoiced', () => completed.woo.meta(Number(order.id), META.documentNumber));
    const [document] = await completed.documentsOf(Number(order.id));
    expect(document.document.Type).toBe('T');
  });

  it('the setting without completed among the trigger statuses is refused at load', () => {
    const raw = rawTestConfig({ prefix: 'unused', wooOrigin: 'http://shop.test', consumerKey: 'ck', consumerSecret: 'cs', baseUrl: 'http://sandbox.test/api/v1.1', settings: { invoiceUnpaidProcessingAt: 'completed', triggerStatuses: ['processing'] } });
    expect(() => parseConfig(raw, 'tenants.yaml', {})).toThrow(/tenants\.0\.settings\.invoiceUnpaidProcessingAt: invoiceUnpaidProcessingAt: completed needs completed in triggerStatuses/);
  });
});

describe('backfill --from/--to are the shop\'s days (a Lisbon shop in summer, UTC+1)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ woo: { timeZone: 'Europe/Lisbon' } });
  });
  afterAll(async () => h.close());

  it('2 July in Lisbon runs from 1 July 23:00 to 2 July 23:00 UTC: the order of 00:30 local is in, the one of the next 00:30 is not', async () => {
    const at = (gmt: string) => h.woo.putOrder(portugueseOrder({ dateCreatedGmt: gmt, datePaidGmt: gmt }));
    const firstMinute = at('2024-07-01T23:00:00');
    const early = at('2024-07-01T23:30:00');
    const dayBefore = at('2024-07-01T22:59:59');
    const nextDay = at('2024-07-02T23:30:00');
    const configPath = writeConfigFile(h.rawConfig, 'backfill-zone');
    const run = await runCli(['backfill', '--config', configPath, '--tenant', 'shop1', '--from', '2024-07-02', '--to', '2024-07-03', '--quiet']);
    expect(run.stdout).toContain('2 orders scanned; 2 documents queued to be issued');
    for (const order of [firstMinute, early]) await eventually(`order ${String(order.id)} invoiced`, () => h.woo.meta(Number(order.id), META.documentNumber));
    await h.woo.settle();
    for (const order of [dayBefore, nextDay]) expect(h.woo.meta(Number(order.id), META.documentNumber)).toBeUndefined();
  }, 90_000);
});
