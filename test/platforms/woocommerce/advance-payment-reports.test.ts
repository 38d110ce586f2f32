/**
 * CIVA art. 36(1)(c) in the doctor's dry run and the sweep's report, for WooCommerce: an order a
 * deposit plugin keeps (WooCommerce Deposits' `partial-payment`) whose delivery never came is found
 * by the sweep (it lists the plugins' statuses beside the trigger statuses), told on the order once,
 * and reported (how many, which, why, in Portuguese and English); the dry run names it too. The
 * plugins the shop does not have (their statuses refused by the shop) are no problem.
 */
import { dryRun } from '../../../connector/doctor/dry-run';
import { renderDoctorReport } from '../../../connector/doctor/render';
import { buildTenantRuntime } from '../../../connector/pipeline/tenant-runtime';
import type { SweepReport } from '../../../connector/core/sweep-report';
import { eventually, portugueseOrder, startHarness, type Harness } from '../../connector/support/harness';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

describe('CIVA art. 36(1)(c): the dry run and the sweep report WooCommerce deposit orders, and why they are not invoiced', () => {
  let h: Harness;
  beforeAll(async () => {
    // The shop has WooCommerce Deposits' status, and no other deposit or pre-order plugin; no webhooks: the deliveries are lost.
    h = await startHarness({ woo: { extraStatuses: ['partial-payment'] }, registerWebhooks: false, settings: { language: 'pt' } });
  });
  afterAll(async () => h.close());

  const sweep = async (): Promise<SweepReport> => {
    const answer = await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'shop1' }) });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { reports: SweepReport[] } | SweepReport[];
    const reports = Array.isArray(body) ? body : body.reports;
    return reports[0];
  };

  it('a deposit paid, its delivery lost: the sweep finds it, tells it on the order once, and reports it; no document; refused statuses are no problem', async () => {
    const order = portugueseOrder({ status: 'partial-payment' });
    const id = Number(order.id);
    h.woo.putOrder(order);
    const report = await sweep();
    expect(report.problems).toEqual([]);
    expect(report.refusedListings ?? 0).toBe(0);
    expect(report.advancePayments).toEqual([
      {
        orderId: id,
        kind: 'deposit',
        status: 'partial-payment',
        plugin: 'WooCommerce Deposits',
        why: { en: expect.stringContaining('CIVA art. 36(1)(c)') as unknown, pt: expect.stringContaining('art. 36.º, n.º 1, alínea c), do CIVA') as unknown },
      },
    ]);
    const note = await eventually('the note on the order', () => h.woo.notes(id).find((n) => n.note.includes('alínea c), do CIVA')));
    expect(note.note).toContain('estado "partial-payment" de "WooCommerce Deposits"');
    // The console's last-sweep line counts it, in the reader's words.
    const page = await (await fetch(`${h.connector?.origin}/console/shop1?lang=en`, { headers: ADMIN })).text();
    expect(page).toContain('1 order paid in part or before the supply, not invoiced by the connector (CIVA art. 36(1)(c): see the not-invoiced list)');
    // The next sweep tells nothing again on the order.
    await sweep();
    expect(h.woo.notes(id).filter((n) => n.note.includes('alínea c), do CIVA'))).toHaveLength(1);
    expect(await h.documentsOf(id)).toHaveLength(0);
  });

  it("the doctor's dry run lists the deposit order as not invoiced, with why, and counts it, in both languages", async () => {
    const runtime = buildTenantRuntime(h.config.tenants[0]);
    const orders = await dryRun(runtime, 5, Date.now(), 0);
    const deposit = orders.find((o) => o.status === 'partial-payment');
    expect(deposit).toMatchObject({ outcome: 'not-invoiced', advancePayment: { kind: 'deposit', status: 'partial-payment', plugin: 'WooCommerce Deposits' }, beyondTriggers: true });
    expect(deposit?.notes[0]).toContain('CIVA art. 36(1)(c)');
    const report = { ready: true, redis: [], tenants: [{ tenant: 'shop1', shop: h.woo.origin, ready: true, checks: [], dryRun: orders }] };
    expect(renderDoctorReport(report, 'tenants.yaml', 'en')).toContain('1 order was paid in part or before the supply');
    const pt = renderDoctorReport(report, 'tenants.yaml', 'pt');
    expect(pt).toContain('1 encomenda foi paga em parte ou antes da entrega');
    expect(pt).toContain('art. 36.º, n.º 1, alínea c), do CIVA');
    expect(pt).toMatch(/Simulação: (a última encomenda|as últimas \d+ encomendas|as últimas 0 encomendas) num estado que fatura/);
  });
});
