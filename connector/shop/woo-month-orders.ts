import { z } from 'zod';
import type { MonthShop, MonthShopOrder } from '../month/month-shop';
import { ShopRequestError, type WooShop } from './woo-shop';

/**
 * The month pack's shop port over WooCommerce: the sweep's listing (one status at a time, 100 a
 * page, by id, `modified_after` in GMT) with only the fields the pack reads (`_fields`), and a
 * refund's date from GET orders/<id>/refunds/<rid>.
 */
const GmtDate = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/).nullish();
const Money = z.union([z.string(), z.number()]).transform(String);
const ListedOrder = z.object({
  id: z.number().int().positive(),
  status: z.string(),
  currency: z.string(),
  total: Money,
  date_created_gmt: GmtDate,
  date_paid_gmt: GmtDate,
  refunds: z
    .array(z.object({ id: z.number().int().positive(), total: Money }))
    .nullish()
    .transform((list) => list ?? []),
});
const RefundDate = z.object({ date_created_gmt: GmtDate });

const FIELDS = 'id,status,currency,total,date_created_gmt,date_paid_gmt,refunds,date_modified_gmt';

function gmt(text: string | null | undefined): number | undefined {
  return text ? Date.parse(`${text}Z`) : undefined;
}

export class WooMonthOrders implements MonthShop {
  constructor(private readonly shop: Pick<WooShop, 'listOrders' | 'getRefund'>) {}

  async ordersModifiedSince(since: number, statuses: readonly string[]): Promise<MonthShopOrder[]> {
    const orders: MonthShopOrder[] = [];
    const modifiedAfter = new Date(since - 1_000).toISOString().slice(0, 19);
    for (const status of statuses) {
      let page = 1;
      let totalPages = 1;
      do {
        const listing = await this.shop.listOrders({ status, modified_after: modifiedAfter, dates_are_gmt: 'true', orderby: 'id', order: 'asc', per_page: '100', page: String(page), _fields: FIELDS });
        totalPages = listing.totalPages;
        for (const raw of listing.orders) {
          const order = ListedOrder.parse(raw);
          orders.push({
            id: order.id,
            status: order.status,
            currency: order.currency.toUpperCase(),
            total: order.total,
            createdAt: gmt(order.date_created_gmt),
            paidAt: gmt(order.date_paid_gmt),
            refunds: order.refunds.map((r) => ({ id: r.id, amount: r.total.replace(/^-/, '') })),
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
