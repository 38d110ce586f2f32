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
const GmtDate = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
const RefundDate = z.looseObject({ date_created_gmt: GmtDate.nullish() });

function gmt(text: string | null | undefined): number | undefined {
  return text ? Date.parse(`${text.slice(0, 19)}Z`) : undefined;
}

export class ShopMonthOrders implements MonthShop {
  constructor(private readonly shop: Pick<Shop, 'listOrders' | 'getRefund'>) {}

  async ordersModifiedSince(since: number, statuses: readonly string[]): Promise<MonthShopOrder[]> {
    const orders: MonthShopOrder[] = [];
    const modifiedAfter = new Date(since - 1_000).toISOString().slice(0, 19);
    for (const status of statuses) {
      let page = 1;
      let totalPages = 1;
      do {
        const listing = await this.shop.listOrders({ statuses: [status], modifiedAfter, orderBy: 'id', perPage: 100, page });
        totalPages = listing.totalPages;
        for (const raw of listing.orders) {
          const order = OrderSummarySchema.parse(raw);
          orders.push({
            id: order.id,
            status: order.status,
            currency: order.currency.toUpperCase(),
            total: order.total,
            createdAt: gmt(order.date_created_gmt),
            paidAt: gmt(order.date_paid_gmt),
            refunds: order.refunds.map((r) => ({ id: r.id, amount: (r.total ?? '0').replace(/^-/, '') })),
          });
        }
        page += 1;
      } while (page <= totalPages);
    }
    return orders;
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
