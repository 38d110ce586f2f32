import type { LedgerEntry } from '../../connector/core/ledger';
import { isOrderGone } from '../../connector/pipeline/needs-person';
import { parseProblem, problemWords } from '../../connector/pipeline/problems';
import { META } from '../../connector/shop/order-meta';
import { ShopRequestError } from '../../connector/shop/shop';
import { eventually, portugueseOrder, startHarness, type Harness } from './support/harness';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };
const FIREWALL_PAGE = '<!DOCTYPE html><html><head><title>Access denied</title></head><body><h1>Sucuri WebSite Firewall - Access Denied</h1></body></html>';

async function invoiceOf(h: Harness, orderId: number): Promise<LedgerEntry | undefined> {
  return ((await h.connector?.ledger.forOrder('shop1', orderId)) ?? {}).invoice;
}

async function retry(h: Harness, orderId: number): Promise<void> {
  const answer = await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${orderId}/retry`, { method: 'POST', headers: ADMIN });
  expect(answer.status).toBe(202);
}

describe("issue 30, point 5: the shop's answers mean what they say", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());
  afterEach(() => h.woo.clearFailures());

  it('a 200 that is not the shop\'s JSON (a firewall page) is retried, and invoiced once the shop answers again', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    h.woo.putOrder(order);
    h.woo.failNext(3, 200, 'GET', { path: new RegExp(`^/orders/${id}$`), page: FIREWALL_PAGE });
    expect((await h.deliver(order)).status).toBe(202);
    await eventually('invoiced after the firewall let it through', () => h.woo.meta(id, META.documentNumber), 30_000);
    expect((await h.documentsOf(id)).filter((d) => d.status !== 'draft')).toHaveLength(1);
  });

  it("when it never answers JSON, the person is told it is the shop's trouble (not the order's), and a retry invoices it", async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    h.woo.putOrder(order);
    h.woo.failNext(1_000, 200, 'GET', { path: new RegExp(`^/orders/${id}$`), page: FIREWALL_PAGE });
    await h.deliver(order);
    const failed = await eventually('failed for good', async () => {
      const entry = await invoiceOf(h, id);
      return entry?.state === 'failed' ? entry : undefined;
    }, 30_000);
    const problem = parseProblem(failed.problem);
    expect(problem?.code).toBe('gave-up');
    const words = problem ? problemWords('en', problem, { tenant: 'shop1', orderId: id, purpose: 'invoice' }) : undefined;
    expect(words?.reason).toContain("a page that is not WooCommerce's JSON: a firewall, a security or caching plugin");
    expect(words?.action).not.toContain('Correct the order');
    h.woo.clearFailures();
    await retry(h, id);
    await eventually('invoiced after the retry', () => h.woo.meta(id, META.documentNumber), 30_000);
  });

  it('a 404 from a route a security plugin blocks is no deleted order: told as the shop refusing, and a retry invoices it', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    h.woo.putOrder(order);
    // A new invoice reads the order's notes first (pipeline/earlier-traces.ts); a plugin hides that route (WordPress's rest_no_route).
    h.woo.failNext(1_000, 404, 'GET', { path: /\/notes$/, code: 'rest_no_route' });
    await h.deliver(order);
    const failed = await eventually('failed', async () => {
      const entry = await invoiceOf(h, id);
      return entry?.state === 'failed' ? entry : undefined;
    }, 30_000);
    expect(parseProblem(failed.problem)?.code).toBe('shop-refused');
    h.woo.clearFailures();
    await retry(h, id);
    await eventually('invoiced after the retry', () => h.woo.meta(id, META.documentNumber), 30_000);
  });

  it('only WooCommerce\'s own "invalid order id" means the order is gone', () => {
    expect(isOrderGone(new ShopRequestError(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.'))).toBe(true);
    expect(isOrderGone(new ShopRequestError(400, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.'))).toBe(true);
    expect(isOrderGone(new ShopRequestError(404, 'rest_no_route', 'No route was found matching the URL and request method.'))).toBe(false);
    expect(isOrderGone(new ShopRequestError(404, 'http_error', 'Not Found'))).toBe(false);
  });
});
