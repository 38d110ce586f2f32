import type { SweepReport } from '../../connector/core/sweep-report';
import { portugueseOrder, startHarness, type Harness } from './support/harness';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };

describe('POST /admin/api/sweep answers with the status of the sweep, so a script (curl -f, a cron) sees a failure', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  const sweep = (body: unknown) => fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: JSON.stringify(body) });

  it('200 when every order was reconciled', async () => {
    const order = h.woo.putOrder(portugueseOrder());
    const response = await sweep({ tenant: 'shop1' });
    expect(response.status).toBe(200);
    const [report] = (await response.json()) as SweepReport[];
    expect(report.enqueued).toContain(`invoice.shop1.${String(order.id)}`);
  });

  it('502 when the shop refused the listing (wrong key): the report in the body says so', async () => {
    h.woo.failNext(1_000, 401, 'GET');
    try {
      const response = await sweep({});
      expect(response.status).toBe(502);
      const [report] = (await response.json()) as SweepReport[];
      expect(report.refusedListings).toBeGreaterThanOrEqual(1);
      expect(report.problems.join(' ')).toContain('the shop refused the listing');
    } finally {
      h.woo.clearFailures();
    }
  });

  it('500 when the sweep could not run (the shop does not answer), with the error in the body', async () => {
    h.woo.failNext(1_000, 503, 'GET');
    try {
      const response = await sweep({ tenant: 'shop1' });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual([{ tenant: 'shop1', error: expect.any(String) }]);
    } finally {
      h.woo.clearFailures();
    }
  });

  it.each([
    [{ tenant: 5 }, 400],
    [{ tenant: 'shop1', extra: true }, 400],
    [{ tenant: 'nope' }, 404],
  ])('%j -> %i, and nothing swept', async (body, status) => {
    const response = await sweep(body);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});
