import { META } from '../../connector/shop/order-meta';
import type { SweepReport } from '../../connector/core/sweep-report';
import { eventually, portugueseOrder, startHarness, type Harness } from './support/harness';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };
const BEHIND_MS = 10 * 60_000;

async function sweepNow(h: Harness): Promise<SweepReport> {
  const response = await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ tenant: 'shop1' }) });
  expect(response.status).toBe(200);
  return ((await response.json()) as SweepReport[])[0];
}

describe("issue 30, point 5: the sweep's start point is the shop's own time", () => {
  let h: Harness;
  beforeAll(async () => {
    // A shop whose clock is 10 minutes behind: its order stamps and its Date header both say so.
    h = await startHarness({ woo: { now: () => new Date(Date.now() - BEHIND_MS) } });
  });
  afterAll(async () => h.close());

  it('a new tenant whose first sweep lists nothing: an order changed after it (its webhook lost) is found by the next sweep', async () => {
    const first = await sweepNow(h);
    expect(first.scanned).toBe(0);
    // A paid order whose webhook never came, stamped by the shop's clock (10 min behind ours).
    const order = portugueseOrder();
    const id = Number(order.id);
    h.woo.putOrder(order);
    h.woo.editOrder(id, { status: 'processing' });
    const second = await sweepNow(h);
    expect(second.enqueued).toContain(`invoice.shop1.${id}`);
    await eventually('invoiced', () => h.woo.meta(id, META.documentNumber), 30_000);
  });
});

describe('issue 30, point 5: OAuth is signed with the shop\'s clock', () => {
  let h: Harness;
  beforeAll(async () => {
    // Over http WooCommerce takes only OAuth 1.0a, and refuses a timestamp 15 minutes off its own clock: this one is 20 minutes ahead of ours.
    h = await startHarness({ woo: { now: () => new Date(Date.now() + 20 * 60_000) } });
  });
  afterAll(async () => h.close());

  it('the first refusal tells the shop\'s time (its Date header); every call after is signed with it, and the order is invoiced', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);
    await eventually('invoiced', () => h.woo.meta(id, META.documentNumber), 30_000);
    const refused = h.woo.requests.filter((r) => r.status === 401);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThanOrEqual(2);
  });
});
