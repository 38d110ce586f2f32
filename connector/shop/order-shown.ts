import type { TenantConfig } from '../config/load-config';
import { platformOf } from '../../platforms/registry';
import type { ListedOrder } from './order-summary';
import type { Shop } from './shop';

/*
 * An order as its shop shows it to people: Shopify's "#1001" for order 5962412736508, a
 * sequential-number plugin's number on WooCommerce, else "#<id>". One rule for every reader (the
 * console's pages and lists, the alerts' e-mail and chat); addresses and data keep the id.
 */

/** The order as people know it: the number the shop shows, else its id. */
export function orderShown(orderId: number, head?: Pick<ListedOrder, 'number'>): string {
  const number = head?.number?.trim();
  if (!number) return `#${orderId}`;
  return number.startsWith('#') ? number : `#${number}`;
}

/** The shop's orders of these ids (at most 100): one call on WooCommerce (`include`); a shop that pages smaller (Shopify, 25) is walked. */
export async function ordersByIds(shop: Pick<Shop, 'listOrders'>, ids: readonly number[]): Promise<Map<number, ListedOrder>> {
  const unique = [...new Set(ids)].slice(0, 100);
  const heads = new Map<number, ListedOrder>();
  if (unique.length === 0) return heads;
  for (let page = 1; ; page += 1) {
    const { orders, totalPages } = await shop.listOrders({ ids: unique, perPage: unique.length, page });
    for (const order of orders) heads.set(order.id, order);
    if (page >= totalPages || orders.length === 0) return heads;
  }
}

/** What naming a tenant's orders needs: its platform (in its config) and its shop. */
export interface TenantShop {
  config: TenantConfig;
  shop: Pick<Shop, 'listOrders'>;
}

/** A call to the shop made by a reader: its answer, or undefined when the shop does not answer in the reader's wait. */
export type ShopAsk = <T>(call: () => Promise<T>) => Promise<T | undefined>;

/**
 * How the shop shows the orders of a list: on a platform that numbers orders apart from their ids
 * (ShopPlatform.numbersOrdersApart), asked to the shop in one call through `ask`; else, or when the
 * shop does not answer, "#<id>".
 */
export async function shownOrders(tenant: TenantShop, ids: readonly number[], ask: ShopAsk): Promise<(orderId: number) => string> {
  if (ids.length === 0 || !platformOf(tenant.config).numbersOrdersApart) return (orderId) => orderShown(orderId);
  const heads = (await ask(() => ordersByIds(tenant.shop, ids))) ?? new Map<number, ListedOrder>();
  return (orderId) => orderShown(orderId, heads.get(orderId));
}
