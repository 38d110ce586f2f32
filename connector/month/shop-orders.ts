import { ShopRequestError, type ListedOrderField, type OrderPage, type OrderQuery, type Shop, type ShopTaxReport } from '../shop/shop';
import type { ListedOrder } from '../shop/order-summary';
import type { MonthShop, MonthShopOrder } from './month-shop';

/**
 * The month pack's shop over the connector's Shop port: the orders in the statuses the sweep
 * reconciles changed since the month began, 100 a page, oldest id first, in one listing of every
 * status (an order whose status changes while it is listed keeps its place, where one listing per
 * status could miss it or see it twice); the first page says how many follow, and those are asked
 * a few at a time. Each order is read in the port's words (connector/shop/order-summary.ts),
 * its fields the month needs only, and only those are asked of the shop (WooCommerce's `_fields`).
 * A page the shop did not answer (a reset connection, a 5xx, a 429) is asked again, up to three times.
 * A refund's date is the Shop port's (refundCreatedAt); a platform that does not say gives no day.
 */
/** Pages asked at once: a shop answers a page of 100 full orders in about a second of PHP; four keep it polite. */
const PAGES_AT_ONCE = 4;
const ATTEMPTS = 3;
/** What the month reads of each listed order: the shop is asked for these fields only. */
const MONTH_FIELDS: readonly ListedOrderField[] = ['id', 'status', 'currency', 'total', 'createdAt', 'paidAt', 'refunds'];

function gmt(text: string | null | undefined): number | undefined {
  return text ? Date.parse(`${text.slice(0, 19)}Z`) : undefined;
}

export class ShopMonthOrders implements MonthShop {
  readonly platform: string;
  readonly taxReport?: (period: { from: string; to: string }) => Promise<ShopTaxReport>;

  constructor(
    private readonly shop: Pick<Shop, 'platform' | 'listOrders' | 'refundCreatedAt' | 'taxReport'>,
    private readonly pause: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.platform = shop.platform;
    const report = shop.taxReport?.bind(shop);
    if (report) this.taxReport = (period) => report(period);
  }

  private async page(query: OrderQuery, page: number): Promise<OrderPage> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const answer = await this.shop.listOrders({ ...query, page });
        // A month is never counted without an order of it: an order the listing cannot read stops the pack.
        if (answer.unusable.length > 0) throw new Error(`an order of the shop's listing is not usable: ${answer.unusable.join('; ')}`);
        return answer;
      } catch (error) {
        if (!(error instanceof ShopRequestError) || error.permanent || attempt >= ATTEMPTS) throw error;
        await this.pause(500 * attempt);
      }
    }
  }

  async ordersModifiedSince(since: number, statuses: readonly string[]): Promise<MonthShopOrder[]> {
    const query: OrderQuery = { statuses, modifiedAfter: new Date(since - 1_000).toISOString().slice(0, 19), orderBy: 'id', perPage: 100, fields: MONTH_FIELDS };
    const first = await this.page(query, 1);
    const pages: ListedOrder[][] = [first.orders];
    const rest = Array.from({ length: Math.max(0, first.totalPages - 1) }, (_, i) => i + 2);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(PAGES_AT_ONCE, rest.length) }, async () => {
        while (next < rest.length) {
          const page = rest[next++];
          pages[page - 1] = (await this.page(query, page)).orders;
        }
      }),
    );
    const seen = new Set<number>();
    const out: MonthShopOrder[] = [];
    for (const order of pages.flat()) {
      // An older order changed while listed enters the listing and pushes the others a place on: read once.
      if (seen.has(order.id)) continue;
      seen.add(order.id);
      out.push({
        id: order.id,
        status: order.status,
        currency: order.currency.toUpperCase(),
        total: order.total,
        createdAt: gmt(order.createdAt),
        paidAt: gmt(order.paidAt),
        refunds: order.refunds.map((r) => ({ id: r.id, amount: (r.total ?? '0').replace(/^-/, '') })),
      });
    }
    return out;
  }

  async refundDate(orderId: number, refundId: number): Promise<number | undefined> {
    return this.shop.refundCreatedAt ? this.shop.refundCreatedAt(orderId, refundId) : undefined;
  }
}
