import { parseConfig } from '../../connector/config/load-config';
import { checkTriggerStatuses } from '../../connector/doctor/status-checks';
import { WooShop } from '../../platforms/woocommerce/woo-shop';
import type { SweepReport } from '../../connector/core/sweep-report';
import { startFakeWooCommerce, type RunningFakeWoo } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, rawTestConfig, startHarness } from './support/harness';

/**
 * Issue 21 point 8: WooCommerce answers 400 rest_invalid_param to an order listing with a status it
 * does not have, so a trigger status that is not the shop's fails every sweep of the tenant. The
 * doctor checks the slugs against the shop's statuses; the sweep says so when it is refused.
 */

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };

describe("the doctor checks settings.triggerStatuses against the shop's statuses (GET reports/orders/totals)", () => {
  let woo: RunningFakeWoo;
  beforeAll(async () => {
    // A shop with a plugin's status "enviada" (wc-enviada).
    woo = await startFakeWooCommerce({ extraStatuses: ['enviada'] });
  });
  afterAll(async () => woo.close());

  const tenantWith = (triggerStatuses: string[]) =>
    parseConfig(rawTestConfig({ prefix: 'x', wooOrigin: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, baseUrl: 'http://127.0.0.1:9', settings: { triggerStatuses } }), 'test', {}).tenants[0];

  it.each([
    [['processing', 'completed'], 'ok', 'processing, completed: statuses of the shop'],
    [['processing', 'enviada'], 'ok', 'processing, enviada: statuses of the shop'],
    [['processing', 'shipped'], 'fail', 'the shop has no order status "shipped"'],
  ])('%j -> %s', async (statuses, status, detail) => {
    const tenant = tenantWith(statuses);
    const check = await checkTriggerStatuses(new WooShop(tenant.shop), tenant);
    expect(check.status).toBe(status);
    expect(check.detail).toContain(detail);
    if (status === 'fail') expect(check.fix).toContain('pending, processing, on-hold, completed, cancelled, refunded, failed, checkout-draft, enviada');
  });

  it('a key the shop refuses: "could not check", with the fix', async () => {
    const tenant = tenantWith(['processing']);
    const check = await checkTriggerStatuses(new WooShop({ ...tenant.shop, consumerSecret: 'cs_wrong' }), tenant);
    expect(check).toMatchObject({ status: 'warn', detail: expect.stringContaining('could not check') });
  });
});

describe('the sweep says clearly when the shop refuses its listing, and reconciles the other statuses', () => {
  it('a trigger status the shop does not have: the problem names it and the fix; orders in the valid statuses are still invoiced', async () => {
    const h = await startHarness({ settings: { triggerStatuses: ['processing', 'shipped'] } });
    try {
      const order = h.woo.putOrder(portugueseOrder());
      const response = await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ tenant: 'shop1' }) });
      // Not every order was reconciled: an error status (the shop's refusal), with the report in the body.
      expect(response.status).toBe(502);
      const [report] = (await response.json()) as SweepReport[];
      expect(report.refusedListings).toBe(1);
      expect(report.problems).toEqual([expect.stringContaining('the shop refused the listing of orders in status "shipped" (shop answered 400 rest_invalid_param')]);
      expect(report.problems[0]).toContain('correct settings.triggerStatuses of tenant "shop1"');
      expect(report.enqueued).toContain(`invoice.shop1.${String(order.id)}`);
      await eventually('the order in a valid status invoiced', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: Number(order.id), purpose: 'invoice' }))?.state === 'written-back');
    } finally {
      await h.close();
    }
  });
});
