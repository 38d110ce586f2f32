import { Redis } from 'ioredis';
import type { SweepReport } from '../../connector/core/sweep-report';
import { RefusedStatuses } from '../../connector/sweep/sweep';
import { WOO_ADVANCE_PAYMENT_STATUSES } from '../../platforms/woocommerce/advance-payments';
import { portugueseOrder, REDIS_URL, startHarness, type Harness } from './support/harness';

/**
 * Issue 26 (item 4): the sweep lists the deposit and pre-order plugins' statuses beside the trigger
 * statuses (CIVA art. 36(1)(c)); a shop without those plugins answers each with 400
 * rest_invalid_param. The refusal is remembered per tenant for a day (one Redis hash), so the next
 * sweeps do not ask again; once the day is over they ask once more. Counted on the fake WooCommerce's
 * own request log.
 */

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

describe("the sweep remembers the plugins' statuses the shop refuses, for a day", () => {
  let h: Harness;
  let redis: Redis;
  beforeAll(async () => {
    // WooCommerce alone: no deposit or pre-order plugin, so their statuses are refused.
    h = await startHarness({ registerWebhooks: false });
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await redis.quit();
    await h.close();
  });

  const sweep = async (): Promise<SweepReport> => {
    const answer = await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'shop1' }) });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { reports: SweepReport[] } | SweepReport[];
    return (Array.isArray(body) ? body : body.reports)[0];
  };
  const refusedListings = () => h.woo.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/orders') && r.status === 400).length;
  const listings = () => h.woo.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/orders')).length;

  it('first sweep: each plugin status asked once and refused (no problem reported); the next sweeps ask none of them; a day later asked again', async () => {
    h.woo.putOrder(portugueseOrder());
    const first = await sweep();
    expect(first.problems).toEqual([]);
    expect(first.enqueued.length).toBe(1);
    expect(refusedListings()).toBe(WOO_ADVANCE_PAYMENT_STATUSES.length);
    const remembered = await redis.hgetall(RefusedStatuses.key(h.prefix, 'shop1'));
    expect(Object.keys(remembered).sort()).toEqual([...WOO_ADVANCE_PAYMENT_STATUSES].sort());

    const before = listings();
    const second = await sweep();
    expect(second.problems).toEqual([]);
    expect(refusedListings()).toBe(WOO_ADVANCE_PAYMENT_STATUSES.length);
    // The trigger statuses (and refunded, cancelled: the reversals) are still listed each sweep; only the refused ones are left out.
    expect(listings() - before).toBe(h.config.tenants[0].settings.triggerStatuses.length + 2);
    await sweep();
    expect(refusedListings()).toBe(WOO_ADVANCE_PAYMENT_STATUSES.length);

    // The day is over (each remembered refusal's end moved to the past): asked once more.
    for (const status of Object.keys(remembered)) await redis.hset(RefusedStatuses.key(h.prefix, 'shop1'), status, String(Date.now() - 1));
    await sweep();
    expect(refusedListings()).toBe(2 * WOO_ADVANCE_PAYMENT_STATUSES.length);
  });
});
