import type { ShopTaxReport } from '../shop/shop';

/**
 * What the month pack asks of a shop, whatever its platform: the orders in the statuses the
 * connector reconciles that changed since the month began (the sweep's listing), each with its
 * dates and its refunds. The adapter over the connector's Shop port is `shop-orders.ts`; nothing
 * here knows a platform.
 */

export interface MonthShopRefund {
  id: number;
  /** The amount refunded, positive decimal text. */
  amount: string;
}

export interface MonthShopOrder {
  id: number;
  /** The platform's status, as the tenant's trigger statuses name it. */
  status: string;
  currency: string;
  /** The order's total, decimal text. */
  total: string;
  /** Epoch ms; undefined when the shop has none (an unpaid order). */
  createdAt?: number;
  paidAt?: number;
  refunds: MonthShopRefund[];
}

export type { ShopTaxReport, ShopTaxRow } from '../shop/shop';

export interface MonthShop {
  /** The platform's name ("woocommerce", "shopify"): the pack names it when it has no tax report. */
  readonly platform: string;
  /**
   * The shop's own tax report of the month (`from`..`to` the shop's local times, both included);
   * absent when the platform has none.
   */
  taxReport?(period: { from: string; to: string }): Promise<ShopTaxReport>;
  /** Orders in `statuses` modified at or after `since` (epoch ms), every page. */
  ordersModifiedSince(since: number, statuses: readonly string[]): Promise<MonthShopOrder[]>;
  /** When a refund was made (epoch ms), or undefined when the shop no longer has it. */
  refundDate(orderId: number, refundId: number): Promise<number | undefined>;
}
