import { z } from 'zod';
import { OrderSummarySchema } from '../ingest/order-summary';
import { ShopRequestError, type Shop } from '../shop/shop';
import type { MonthShop, MonthShopOrder } from './month-shop';

/**
 * The month pack's shop over the connector's Shop port, listing as the sweep lists: one status at a
 * time, 100 a page, oldest id first, changed since the month began; each order read with the
 * sweep's own summary (connector/ingest/order-summary.ts). A refund's date is read from the shop's
 * refund (`date_created_gmt`): the port has no neutral refund date yet, so this is the one
 * platform-shaped read here, to move into the port when it gains one.
 */
/** Pages of one listing asked at once (a shop answers a page of 100 full orders in about a second). */
const PAGES_AT_ONCE = 4;
const GmtDate = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
const RefundDate = z.looseObject({ date_created_gmt: GmtDate.nullish() });

function gmt(text: string | null | undefined): number | undefined {
  return text ? Date.parse(`${text.slice(0, 19)}Z`) : undefined;
}

export class ShopMonthOrders implements MonthShop {
  constructor(private readonly shop: Pick<Shop, 'listOrders' | 'getRefund'>) {}

  async ordersModifiedSince(since: number, statuses: readonly string[]): Promise<MonthShopOrder[]> {
    const modifiedAfter = new Date(since - 1_000).toISOString().slice(0, 19);
    const pages: unknown[][] = [];
    for (const status of statuses) {
      const query = { statuses: [status], modifiedAfter, orderBy: 'id' as const, perPage: 100 };
      const first = await this.shop.listOrders({ ...query, page: 1 });
      pages.push(first.orders);
      // The other pages a few at a time: by id, so orders changing meanwhile do not move between pages.
      const rest = Array.from({ length: Math.max(0, first.totalPages - 1) }, (_, i) => i + 2);
      let next = 0;
      const found: unknown[][] = [];
      await Promise.all(
        Array.from({ length: Math.min(PAGES_AT_ONCE, rest.length) }, async () => {
          while (next < rest.length) {
            const page = rest[next++];
            found[page] = (await this.shop.listOrders({ ...query, page })).orders;
          }
        }),
      );
      pages.push(...found.filter((orders) => orders !== undefined));
    }
    return pages.flat().map((raw) => {
      const order = OrderSummarySchema.parse(raw);
      return {
        id: order.id,
        status: order.status,
        currency: order.currency.toUpperCase(),
        total: order.total,
        createdAt: gmt(order.date_created_gmt),
        paidAt: gmt(order.date_paid_gmt),
        refunds: order.refunds.map((r) => ({ id: r.id, amount: (r.total ?? '0').replace(/^-/, '') })),
      };
    });
  }

  async refundDate(orderId: number, refundId: number): Promise<number | undefined> {
    try {
      return gmt(RefundDate.parse(await this.shop.getRefund(orderId, refundId)).date_created_gmt);
    } catch (error) {
      if (error instanceof ShopRequestError && error.permanent) return undefined;
      throw error;
    }
  }
}
