import type { Lang } from '../words';
import { localeOf } from '../../messages/lang';
import { CONSOLE } from './console-messages';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import type { ConsoleDeps } from './console-deps';
import { customerName, type ShopOrderHead } from './order-page';
import { orderShown, ordersByIds } from '../shop/order-shown';

/*
 * The console's search (an order number, a document number, or the customer's details asked to the
 * shop) and the shop's order heads by id: the customer names of the lists, never stored here.
 */

/** The shop answers at most this many orders to a customer search (newest first). */
const SHOP_SEARCH_LIMIT = 20;

/** The search's results; `shopMore` when the shop matched more orders than it answered. */
export interface FoundOrders {
  results: SearchResult[];
  shopDown?: string;
  shopMore?: { shown: number; total: number };
}

/** "The 20 most recent of 134": the shop's search was cut, say how to narrow it. */
export function shopMoreWords(lang: Lang, more: { shown: number; total: number }): string {
  return CONSOLE.say(lang, 'search-more', { shown: more.shown, total: new Intl.NumberFormat(localeOf(lang)).format(more.total) });
}

interface SearchResult {
  orderId: number;
  /** The number the shop shows, when it is not the id. */
  number?: string;
  by: 'number' | 'document' | 'customer';
  name?: string;
  total?: string;
  currency?: string;
  status?: string;
  createdAt?: number;
}

/**
 * Orders matching a search: an order number, a document number (the history's index, then the
 * recent documents), or the customer's details (asked to the shop: WooCommerce's `search`, at most
 * the 20 most recent; the connector keeps no personal data). `#22` is asked to the shop as `22`
 * (WooCommerce finds nothing for `#22`). Never `search` with `include` in one call: a shop with
 * orders stored as posts drops `include` when the search found ids (docs/real-shop-findings.md).
 */
export async function searchOrders(deps: ConsoleDeps, tenant: TenantRuntime, query: string): Promise<FoundOrders> {
  const id = tenant.config.id;
  const results = new Map<number, SearchResult>();
  const add = (result: SearchResult): void => {
    if (!results.has(result.orderId)) results.set(result.orderId, result);
  };
  const number = /^#?\s*(\d{1,15})$/.exec(query)?.[1];
  if (number !== undefined) {
    const orderId = Number(number);
    if (Object.keys(await deps.ledger.forOrder(id, orderId)).length > 0 || (await deps.history.of(id, orderId)).length > 0) add({ orderId, by: 'number' });
  }
  if (/[a-z]/i.test(query) && /\d/.test(query)) {
    const byNumber = (await deps.history.orderOfNumber(id, query)) ?? (await recentOrderOfNumber(deps, id, query));
    if (byNumber !== null) add({ orderId: byNumber, by: 'document' });
  }
  let shopDown: string | undefined;
  let shopMore: FoundOrders['shopMore'];
  try {
    const { orders, total } = await tenant.shop.listOrders({ search: number ?? query, perPage: SHOP_SEARCH_LIMIT });
    if (total > orders.length) shopMore = { shown: orders.length, total };
    for (const order of orders) {
      const known = results.get(order.id);
      const facts = shopFacts(order);
      if (known) Object.assign(known, facts);
      else add({ orderId: order.id, by: number !== undefined && (order.id === Number(number) || orderShown(order.id, order) === `#${number}`) ? 'number' : 'customer', ...facts });
    }
  } catch (error) {
    shopDown = (error as Error).message;
  }
  // Orders found by number or document but not (or not yet) by the shop's search: their names by include.
  const unnamed = [...results.values()].filter((result) => result.name === undefined).map((result) => result.orderId);
  if (unnamed.length > 0 && !shopDown) {
    const heads = await ordersByIds(tenant.shop, unnamed).catch(() => new Map<number, ShopOrderHead>());
    for (const [orderId, head] of heads) Object.assign(results.get(orderId) as SearchResult, shopFacts(head));
  }
  return { results: [...results.values()], ...(shopDown !== undefined ? { shopDown } : {}), ...(shopMore ? { shopMore } : {}) };
}

function shopFacts(order: ShopOrderHead): Partial<SearchResult> {
  const created = order.createdAt ? Date.parse(`${order.createdAt}Z`) : NaN;
  return { name: customerName(order), ...(order.number !== undefined ? { number: order.number } : {}), total: order.total, currency: order.currency?.toUpperCase(), status: order.status, ...(Number.isFinite(created) ? { createdAt: created } : {}) };
}

/** A document number among the last recent documents (before the history index knew numbers). */
async function recentOrderOfNumber(deps: ConsoleDeps, tenant: string, number: string): Promise<number | null> {
  const wanted = number.trim().toUpperCase();
  for (const item of await deps.ledger.recent(tenant, 500)) {
    const entry = await deps.ledger.get({ tenant, orderId: item.orderId, purpose: item.purpose });
    if (entry?.documentNumber?.toUpperCase() === wanted) return item.orderId;
  }
  return null;
}
