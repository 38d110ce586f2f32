import { moneyWords } from '../../connector/pipeline/problems';
import type { LedgerEntry } from '../../connector/core/ledger';
import { META } from '../../connector/shop/order-meta';
import type { SweepReport } from '../../connector/core/sweep-report';
import { orderFixture } from '../law/support/fixtures';
import { eventually, orderQuiet, portugueseOrder, startHarness, type Harness } from './support/harness';
import { wooOrderJson } from '../support/payloads';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };

interface AttentionItem {
  tenant: string;
  orderId: number;
  purpose: string;
  ledger: LedgerEntry | null;
}

async function invoiceOf(h: Harness, orderId: number): Promise<LedgerEntry | undefined> {
  return (await h.connector?.ledger.forOrder('shop1', orderId))?.invoice;
}

async function attention(h: Harness): Promise<AttentionItem[]> {
  return (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN })).json()) as AttentionItem[];
}

async function sweepNow(h: Harness): Promise<SweepReport> {
  const response = await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ tenant: 'shop1' }) });
  return ((await response.json()) as SweepReport[])[0];
}

async function failedJobs(h: Harness): Promise<string[]> {
  const jobs = (await (await fetch(`${h.connector?.origin}/admin/api/failed`, { headers: ADMIN })).json()) as { id: string }[];
  return jobs.map((job) => job.id);
}

/** An order in US dollars with no exchange rate anywhere: the mapping refuses it. */
function dollarOrder(): ReturnType<typeof portugueseOrder> {
  return portugueseOrder({ currency: 'USD' });
}

describe('an order the mapping refuses is shown to a person on its first attempt (issue 8.3)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('leaves a private note with the reason and the fix, an attention entry, a ledger state and a metric; nothing is issued', async () => {
    const order = dollarOrder();
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);

    const entry = await eventually('the invoice flagged', async () => {
      const invoice = await invoiceOf(h, id);
      return invoice?.state === 'mapping-failed' && invoice.action ? invoice : undefined;
    });
    expect(entry.detail).toContain('no EuroRate is known');
    expect(entry.action).toContain('Correct the order in WooCommerce');
    expect(entry.action).toContain('press "Try again" on the order\'s page');

    // The note follows the ledger record: wait for it rather than race it.
    const notes = await eventually('the note on the order', () => {
      const found = h.woo.notes(id).filter((n) => !n.customer_note);
      return found.length > 0 ? found : undefined;
    });
    expect(notes).toHaveLength(1);
    expect(notes[0].note).toMatch(/needs your attention\.\nWhy: .*no EuroRate is known.*\nWhat to do: Correct the order/);
    expect(notes[0].note).toContain(`Order page: http://connector.test/console/shop1/orders/${id}`);

    const listed = (await attention(h)).find((item) => item.orderId === id);
    expect(listed).toMatchObject({ tenant: 'shop1', purpose: 'invoice', ledger: { state: 'mapping-failed' } });
    expect(await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_alerts_total')).toContain('state="mapping-failed"');
    const scraped = await (await fetch(`${h.connector?.origin}/metrics`)).text();
    expect(Number(/magnifinance_orders_waiting_for_person\{tenant="shop1"\} (\d+)/.exec(scraped)?.[1])).toBeGreaterThanOrEqual(1);
    expect(await h.documentsOf(id)).toHaveLength(0);
  });

  it('a repeated delivery of the same broken order adds no second note', async () => {
    const order = dollarOrder();
    const id = Number(order.id);
    await h.deliver(order);
    // The ledger says mapping-failed a moment before BullMQ moves the job to failed: a delivery in
    // between finds it still active. Wait for both, as a later real delivery would.
    await eventually('flagged and failed', async () => (await invoiceOf(h, id))?.state === 'mapping-failed' && (await failedJobs(h)).includes(`invoice.shop1.${id}`));
    const delivery = await h.deliver(order, 'order.updated');
    expect(JSON.parse(delivery.body)).toEqual({ accepted: [`invoice.shop1.${id}`], resumed: [`invoice.shop1.${id}`] });
    await eventually('the resumed job failed again', async () => (await failedJobs(h)).includes(`invoice.shop1.${id}`) && (await h.connector?.queue.getJob(`invoice.shop1.${id}`))?.attemptsMade === 1);
    await h.woo.settle();
    expect(h.woo.notes(id).filter((n) => !n.customer_note)).toHaveLength(1);
  });
});

describe('a failed order is never blocked by its failed job (issue 8.2)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('the shop owner fixes the order: the next delivery resumes it, the invoice is issued and the order leaves the attention list', async () => {
    const order = dollarOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('failed job', async () => (await failedJobs(h)).includes(`invoice.shop1.${id}`));

    // Fixed on the shop: the order is in euros now; WooCommerce sends order.updated.
    const fixed = { ...order, currency: 'EUR' };
    const delivery = await h.deliver(fixed, 'order.updated');
    expect(delivery.status).toBe(202);
    expect(JSON.parse(delivery.body).resumed).toEqual([`invoice.shop1.${id}`]);

    const entry = await eventually('written back', async () => {
      const invoice = await invoiceOf(h, id);
      return invoice?.state === 'written-back' ? invoice : undefined;
    });
    expect(h.woo.meta(id, META.documentNumber)).toBe(entry.documentNumber);
    expect(await h.documentsOf(id)).toHaveLength(1);
    expect((await attention(h)).map((item) => item.orderId)).not.toContain(id);
    expect(entry.action).toBeUndefined();
  });

  it('the sweep resumes a failed order and says so in its report', async () => {
    const order = dollarOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('failed job', async () => (await failedJobs(h)).includes(`invoice.shop1.${id}`));
    // Fixed on the shop, but the update's webhook never arrived.
    h.woo.editOrder(id, { currency: 'EUR' });

    const report = await sweepNow(h);
    expect(report.resumed).toContain(`invoice.shop1.${id}`);
    expect(report.enqueued).not.toContain(`invoice.shop1.${id}`);
    await eventually('written back', async () => (await invoiceOf(h, id))?.state === 'written-back');
    expect(await h.documentsOf(id)).toHaveLength(1);
  });
});

describe('a transient failure that outlasts every attempt goes to a person, and heals by itself afterwards', () => {
  it('service down for all attempts: flagged with a note and on the attention list; service back: the sweep issues it once', async () => {
    const h = await startHarness({ sandbox: { errorRate: 1 }, pipeline: { attempts: 2, backoffMs: 50 } });
    try {
      const order = portugueseOrder();
      const id = Number(order.id);
      await h.deliver(order);
      const entry = await eventually('flagged after 2 attempts', async () => {
        const invoice = await invoiceOf(h, id);
        return invoice?.action ? invoice : undefined;
      });
      // A 500 may or may not have saved the draft: the ledger keeps "drafting", and the resume saves
      // a fresh draft (an unclosed draft has no legal effect) and closes that one by its id.
      expect(entry.state).toBe('drafting');
      expect(entry.detail).toMatch(/^The connector gave up after 2 attempts\. /);
      await eventually('the note on the order', () => h.woo.notes(id).some((n) => n.note.includes('What to do: Nothing was issued twice.')));
      expect((await attention(h)).map((item) => item.orderId)).toContain(id);

      await fetch(`${h.sandbox.origin}/_sandbox/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ errorRate: 0 }) });
      const report = await sweepNow(h);
      expect(report.resumed).toContain(`invoice.shop1.${id}`);
      await eventually('written back', async () => (await invoiceOf(h, id))?.state === 'written-back');
      expect(await h.documentsOf(id)).toHaveLength(1);
      expect((await attention(h)).map((item) => item.orderId)).not.toContain(id);
    } finally {
      await h.close();
    }
  });
});

describe('CIVA art. 16(1): an order whose total per-rate rounding cannot reach is issued at the nearest total and shown to the shop owner', () => {
  it('written back, the cent difference in the ledger, a note with how to turn on round-at-subtotal, the attention list and a metric', async () => {
    const h = await startHarness();
    try {
      const order: Record<string, unknown> = { ...orderFixture('pt-025-single-rate-unreachable-total'), id: 7025, status: 'processing' };
      await h.deliver(wooOrderJson(order));
      const entry = await eventually('written back and flagged', async () => {
        const invoice = await invoiceOf(h, 7025);
        return invoice?.state === 'written-back' && invoice.action ? invoice : undefined;
      });
      expect(entry.totalDifference).toMatch(/^-?0\.01$/);
      expect(entry.detail).toContain(`differs by ${moneyWords('en', entry.totalDifference as string, 'EUR')}`);
      expect(entry.action).toContain('Round tax at subtotal level');
      const [doc] = await h.documentsOf(7025);
      expect(doc.document.Lines as unknown[]).toHaveLength((order.line_items as unknown[]).length + (order.shipping_lines as unknown[]).length);
      expect((await attention(h)).map((item) => item.orderId)).toContain(7025);
      expect(await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_total_differences_total')).toContain('tenant="shop1"} 1');
      await eventually('the note', () => h.woo.notes(7025).some((n) => n.note.includes('Round tax at subtotal level')));
    } finally {
      await h.close();
    }
  });
});

describe('a person marks an order handled outside the connector (dismiss): it leaves the list and is never issued here', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());
  const dismiss = (orderId: number, body: Record<string, unknown>) =>
    fetch(`${h.connector?.origin}/admin/api/orders/shop1/${orderId}/dismiss`, { method: 'POST', headers: ADMIN, body: JSON.stringify(body) });

  it('a refused order: dismissed with how it was handled, a note says who; updates and sweeps issue nothing', async () => {
    const order = dollarOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('refused, its job in the dead letter', async () => (await invoiceOf(h, id))?.state === 'mapping-failed' && (await failedJobs(h)).includes(`invoice.shop1.${id}`));
    expect((await attention(h)).map((item) => item.orderId)).toContain(id);

    expect((await dismiss(id, { purpose: 'invoice' })).status).toBe(400);
    const response = await dismiss(id, { purpose: 'invoice', reason: 'Fatura FT A/77 emitida à mão em dólares' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ dismissed: 'invoice' });
    const entry = await invoiceOf(h, id);
    expect(entry?.state).toBe('dismissed');
    expect(entry?.detail).toMatch(/^Handled outside the connector, marked by admin on \d{4}-\d\d-\d\d \d\d:\d\d UTC: Fatura FT A\/77 emitida à mão em dólares$/);
    expect((await attention(h)).map((item) => item.orderId)).not.toContain(id);
    expect(await failedJobs(h)).not.toContain(`invoice.shop1.${id}`);
    await eventually('the note', () => h.woo.notes(id).some((n) => n.note.includes('marked as handled outside the connector by admin: Fatura FT A/77')));

    // The shop owner edits the order later, and the sweep runs: still nothing issued, still dismissed.
    h.woo.editOrder(id, { customer_note: 'edited' });
    await h.deliver(wooOrderJson(h.woo.order(id)), 'order.updated');
    const report = await sweepNow(h);
    expect(report.enqueued).not.toContain(`invoice.shop1.${id}`);
    await orderQuiet(h, id);
    expect((await invoiceOf(h, id))?.state).toBe('dismissed');
    expect(await h.documentsOf(id)).toHaveLength(0);
    expect((await dismiss(id, { purpose: 'invoice', reason: 'again' })).status).toBe(409);
  });

  it('an order with a document is never dismissed (409): its fix is attach or retry', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('written back', async () => (await invoiceOf(h, id))?.state === 'written-back');
    const response = await dismiss(id, { purpose: 'invoice', reason: 'by mistake' });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: string }).error).toContain('only an order on hold, refused or failed with nothing issued');
    expect((await invoiceOf(h, id))?.state).toBe('written-back');
  });
});
