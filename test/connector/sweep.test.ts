import type { LedgerEntry } from '../../connector/core/ledger';
import { META } from '../../connector/shop/order-meta';
import { deliveryUrlFor } from '../../platforms/woocommerce/webhook-delivery';
import type { SweepReport } from '../../connector/core/sweep-report';
import { buildRefund, eventually, portugueseOrder, startHarness, type Harness } from './support/harness';
import { runCli, writeConfigFile } from './support/worker-process';
import { wooRefundJson } from '../support/payloads';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };

async function ledgerOf(h: Harness, orderId: number): Promise<Record<string, LedgerEntry>> {
  return (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
}

async function sweepNow(h: Harness): Promise<SweepReport> {
  const response = await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ tenant: 'shop1' }) });
  expect(response.status).toBe(200);
  return ((await response.json()) as SweepReport[])[0];
}

describe('the reconciliation sweep catches orders whose webhooks never arrived', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('orders on the shop with no delivery are enqueued and invoiced; a second sweep enqueues nothing', async () => {
    const missed = [portugueseOrder(), portugueseOrder(), portugueseOrder({ status: 'completed' })].map((o) => h.woo.putOrder(o));
    const ignored = h.woo.putOrder(portugueseOrder({ status: 'pending' }));
    const report = await sweepNow(h);
    for (const order of missed) expect(report.enqueued).toContain(`invoice.shop1.${String(order.id)}`);
    expect(report.enqueued).not.toContain(`invoice.shop1.${String(ignored.id)}`);
    for (const order of missed) await eventually(`order ${String(order.id)} written back`, async () => (await ledgerOf(h, Number(order.id))).invoice?.state === 'written-back');
    await h.woo.settle();
    const again = await sweepNow(h);
    expect(again.enqueued).toEqual([]);
    for (const order of missed) expect(await h.documentsOf(Number(order.id))).toHaveLength(1);
  });

  it('pages through more than 100 orders', async () => {
    const many = Array.from({ length: 130 }, () => h.woo.putOrder(portugueseOrder()));
    const report = await sweepNow(h);
    expect(report.enqueued.filter((id) => id.startsWith('invoice.'))).toHaveLength(130);
    for (const order of many) await eventually(`order ${String(order.id)}`, async () => (await ledgerOf(h, Number(order.id))).invoice?.state === 'written-back', 60_000);
  }, 90_000);

  /** Where the shop must deliver this tenant's orders (server.publicUrl): the sweep's webhooks are those. */
  const ourUrl = (): string => deliveryUrlFor(h.config.server.publicUrl, 'shop1');

  it("reports this connector's webhooks the shop disabled, in the sweep result, the admin API and the metric", async () => {
    const created = h.woo.addWebhook({ topic: 'order.created', status: 'disabled', delivery_url: ourUrl(), secret: 'x' });
    const updated = h.woo.addWebhook({ topic: 'order.updated', status: 'active', delivery_url: `${ourUrl()}/`, secret: 'x' });
    const report = await sweepNow(h);
    expect(report.inactiveWebhooks).toEqual([{ id: created.id, topic: 'order.created', status: 'disabled', deliveryUrl: ourUrl() }]);
    expect(report.missingTopics).toEqual(['order.created']);
    const view = (await (await fetch(`${h.connector?.origin}/admin/api/webhooks`, { headers: ADMIN })).json()) as { inactiveWebhooks: unknown[] }[];
    expect(view[0].inactiveWebhooks).toHaveLength(1);
    expect(await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_shop_webhooks_disabled')).toContain('tenant="shop1"} 1');
    created.status = 'active';
    expect(await sweepNow(h)).toMatchObject({ inactiveWebhooks: [], missingTopics: [] });
    updated.status = 'paused';
    created.status = 'paused';
  });

  it("judges webhooks by where they deliver, as the doctor does: another integration's webhooks neither stand in for ours nor are reported as ours", async () => {
    // The harness's own webhooks deliver to the test connector's port, not to server.publicUrl: another integration's, for the sweep.
    const othersDisabled = h.woo.addWebhook({ topic: 'order.updated', status: 'disabled', delivery_url: 'https://erp.example.pt/hooks/woo', secret: 'y' });
    const report = await sweepNow(h);
    expect(report.missingTopics).toEqual(['order.created', 'order.updated']);
    expect(report.inactiveWebhooks.map((w) => w.id)).not.toContain(othersDisabled.id);
    expect(report.inactiveWebhooks).toEqual([
      expect.objectContaining({ topic: 'order.created', status: 'paused' }),
      expect.objectContaining({ topic: 'order.updated', status: 'paused' }),
    ]);
  });

  it('WooCommerce disables a webhook after more than 5 failed deliveries; one delivering elsewhere is not reported as ours', async () => {
    const broken = h.woo.addWebhook({ topic: 'order.updated', status: 'active', delivery_url: `${h.connector?.origin}/webhooks/woocommerce/no-such-shop`, secret: 'x' });
    const order = h.woo.putOrder(portugueseOrder({ status: 'pending' }));
    for (let i = 0; i < 6; i++) expect((await h.woo.deliver(broken.id, order)).status).toBe(404);
    expect(broken.status).toBe('disabled');
    const report = await sweepNow(h);
    expect(report.inactiveWebhooks.map((w) => w.id)).not.toContain(broken.id);
  });
});

describe('backfill by date range from the command line', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('enqueues the orders created in the range that have no document; the workers invoice them', async () => {
    const inRange = [portugueseOrder({ dateCreatedGmt: '2024-03-05T10:00:00' }), portugueseOrder({ dateCreatedGmt: '2024-03-20T18:30:00', status: 'completed' })].map((o) => h.woo.putOrder(o));
    const outside = h.woo.putOrder(portugueseOrder({ dateCreatedGmt: '2024-04-02T09:00:00' }));
    const configPath = writeConfigFile(h.rawConfig, 'backfill-test');
    const run = await runCli(['backfill', '--config', configPath, '--tenant', 'shop1', '--from', '2024-03-01', '--to', '2024-04-01']);
    expect(run.status).toBe(0);
    // The progress bar goes to stderr (stdout stays for the summary).
    expect(run.stderr).toMatch(/processing \|.*\| 1\/1 orders/);
    expect(run.stdout).toContain("2 orders scanned; 2 documents queued to be issued. The shop's page: http://connector.test/console/shop1");
    for (const order of inRange) await eventually(`order ${String(order.id)}`, () => h.woo.meta(Number(order.id), META.documentNumber));
    expect(h.woo.meta(Number(outside.id), META.documentNumber)).toBeUndefined();

    const bad = await runCli(['backfill', '--config', configPath, '--tenant', 'shop1', '--from', 'yesterday']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--from must be a date');
    expect(bad.stderr).toContain('--to must be a date');
  }, 90_000);
});

describe('the sweep reconciles refunds and cancellations of invoiced orders whose webhooks were lost', () => {
  let h: Harness;
  beforeAll(async () => {
    // Queued like WooCommerce: the deliveries these changes cause are lost (loseQueue) before WP-Cron runs.
    h = await startHarness({ pipeline: { finalizeDelayMs: 200, minFinalizeDelayMs: 200 }, woo: { delivery: 'queued' } });
  });
  afterAll(async () => h.close());

  async function invoiced(): Promise<number> {
    const order = portugueseOrder();
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);
    await eventually(`order ${id} invoiced`, async () => (await ledgerOf(h, id)).invoice?.state === 'written-back');
    return id;
  }

  it('an order refunded in full (now `refunded`), one cancelled, one partly refunded: credit notes issued; never-invoiced ones left alone', async () => {
    const refundedId = await invoiced();
    const cancelledId = await invoiced();
    const partlyId = await invoiced();
    await h.woo.settle();
    // No webhook reaches the connector for any of these changes.
    // A refund of everything moves the order to refunded by itself (wc_create_refund).
    h.woo.addRefund(refundedId, wooRefundJson(buildRefund(h.woo.order(refundedId), { id: 7001, items: [{ index: 0, quantity: 2 }, { index: 1, quantity: 1 }], shipping: true })));
    expect(h.woo.order(refundedId)?.status).toBe('refunded');
    h.woo.editOrder(cancelledId, { status: 'cancelled' });
    h.woo.addRefund(partlyId, wooRefundJson(buildRefund(h.woo.order(partlyId), { id: 7002, items: [{ index: 0, quantity: 1 }] })));
    h.woo.editOrder(partlyId, { status: 'completed' });
    const neverInvoiced = h.woo.putOrder(portugueseOrder({ status: 'cancelled' }));
    expect(h.woo.loseQueue()).toBeGreaterThan(0);

    const report = await sweepNow(h);
    expect(report.enqueued).toEqual(expect.arrayContaining([`credit-note-7001.shop1.${refundedId}`, `cancellation.shop1.${cancelledId}`, `credit-note-7002.shop1.${partlyId}`]));
    expect(report.enqueued.filter((job) => job.endsWith(`.${String(neverInvoiced.id)}`))).toEqual([]);
    await eventually('credit note of the full refund', async () => (await ledgerOf(h, refundedId))['credit-note-7001']?.state === 'written-back');
    await eventually('cancellation', async () => (await ledgerOf(h, cancelledId)).cancellation?.state === 'written-back');
    await eventually('credit note of the partial refund', async () => (await ledgerOf(h, partlyId))['credit-note-7002']?.state === 'written-back');
    for (const id of [refundedId, cancelledId, partlyId]) {
      const credits = (await h.documentsOf(id)).filter((d) => d.document.Type === 'C');
      expect(credits).toHaveLength(1);
    }
    expect(await h.documentsOf(Number(neverInvoiced.id))).toHaveLength(0);
    await h.woo.settle();
    const again = await sweepNow(h);
    expect(again.enqueued).toEqual([]);
  }, 60_000);
});
