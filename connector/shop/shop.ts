import { z } from 'zod';
import type { DispatchRegion } from '../../law/vat-rates';
import type { ProductFacts } from '../../law/line-type';
import type { ListedOrder } from './order-summary';

/**
 * The shop, as the connector needs it, whatever platform runs it: read an order and its refunds,
 * write our record back on it (meta and notes), list orders changed since a time, say which
 * statuses and webhooks it has, and tell the facts the law asks of it. Each platform implements it
 * under platforms/<name>/; platforms/registry.ts picks the one a tenant's `platform` names.
 *
 * An order read alone and refunds come back as the platform's own JSON (`unknown`): the platform's
 * schemas parse them. A listing answers in the port's words (./order-summary.ts). Order ids are the
 * platform's numeric ids.
 */
export interface Shop {
  /** The platform's name, as in the tenants file ("woocommerce"). */
  readonly platform: string;
  getOrder(orderId: number): Promise<unknown>;
  /** One page of orders; `total` and `totalPages` count every page of the same query. */
  listOrders(query: OrderQuery): Promise<OrderPage>;
  /** Every refund of an order, with its lines. */
  listRefunds(orderId: number): Promise<unknown[]>;
  getRefund(orderId: number, refundId: number): Promise<unknown>;
  /**
   * When a refund was made (epoch ms), whatever the platform calls it; undefined when the shop no
   * longer has it or does not say. Optional while a platform lacks it (the month pack then says no day).
   */
  refundCreatedAt?(orderId: number, refundId: number): Promise<number | undefined>;
  /**
   * The shop's own tax report for a period (its analytics: per tax rate, by the orders' creation
   * date, refunds as negative amounts on their own date), `from` and `to` the shop's local times
   * (yyyy-mm-ddTHH:MM:SS, both included). `available: false` when this shop has none to give (an
   * older version, analytics off, a key not allowed to read reports). Absent: the platform has no
   * such report.
   */
  taxReport?(period: { from: string; to: string }): Promise<ShopTaxReport>;
  /** Sets (or replaces) our keys on the order; other keys are left alone. */
  updateOrderMeta(orderId: number, meta: MetaUpdate[]): Promise<void>;
  addNote(orderId: number, note: string, customerNote: boolean): Promise<ShopNote>;
  listNotes(orderId: number, type?: 'any' | 'customer' | 'internal'): Promise<ShopNote[]>;
  /** Every order status the shop knows (its own and its plugins'). */
  orderStatuses(): Promise<string[]>;
  /** The shop's webhook subscriptions, ours and others'. */
  listWebhooks(): Promise<ShopWebhook[]>;
  /**
   * For a platform whose webhook subscriptions the connector creates itself through the API
   * (Shopify, which deletes one after 8 failed deliveries): create those missing at this
   * connector's delivery URL and say which topics were missing. Absent: a person manages the
   * shop's webhooks (WooCommerce) and the sweep only reports them.
   */
  ensureWebhooks?(publicUrl: string, tenantId: string): Promise<{ missingTopics: string[]; recreated: string[] }>;
  /** True when the shop rounds tax at the subtotal, not per line. */
  taxRoundAtSubtotal(now?: number): Promise<boolean>;
  /** Where the shop dispatches from (its store address), when it says. */
  storeAddressRegion(now?: number): Promise<DispatchRegion | undefined>;
  /** What the shop says of the products of these lines (type, categories), by product or variation id. */
  productFacts(items: readonly { product_id: number; variation_id: number }[], now?: number): Promise<Map<number, ProductFacts>>;
  /**
   * The shop said these products (or variants) changed, went or came back (its product webhooks):
   * what this process keeps of them is dropped, so the next document reads them again instead of
   * trusting its cache until it expires. Absent on a platform that caches nothing.
   */
  forgetProducts?(ids: readonly number[]): void;
  /**
   * The shop's own clock as its last answer told it (the HTTP Date header, whole seconds), with the
   * moment (this process's Date.now()) it came; undefined before any answer or when the shop sends none.
   */
  clock?(): { shopMs: number; localMs: number } | undefined;
}

/** One row of the shop's tax report: one tax rate's amounts over the period, in the shop's currency. */
export interface ShopTaxRow {
  rateId: number;
  /** The rate's name in the shop ("IVA 23%"). */
  name: string;
  /** The rate, decimal text ("23", "5.5"). */
  percent: string;
  /** Where the rate applies (ISO country, and state when the shop names one). */
  country: string;
  state: string;
  /** Decimal text: the tax of the orders' items, of their shipping, and both (refunds already taken off). */
  totalTax: string;
  orderTax: string;
  shippingTax: string;
  /** Orders counted (refunds are not). */
  orders: number;
}

export type ShopTaxReport = { available: true; rows: ShopTaxRow[] } | { available: false; reason: 'no-route' | 'not-allowed' };

/** Which orders to list. Absent fields do not filter. */
export interface OrderQuery {
  /** Only these statuses; absent: every status. */
  statuses?: readonly string[];
  /** Only orders changed after this instant (ISO 8601, UTC). */
  modifiedAfter?: string;
  /** Only orders created in [createdAfter, createdBefore) (ISO 8601, UTC). */
  createdAfter?: string;
  createdBefore?: string;
  /** Only these orders. */
  ids?: readonly number[];
  /** The shop's own search over number, buyer and address. */
  search?: string;
  /** At most 100. */
  perPage: number;
  /** From 1. */
  page?: number;
  /** `id`: oldest id first (stable while orders change under the listing); `newest`: latest created first. */
  orderBy?: 'id' | 'newest';
  /**
   * Only these fields of each listed order (./order-summary.ts), where the platform can leave the
   * others out (WooCommerce's `_fields`): a lighter answer for a long listing. A field left out is
   * empty in the answer (no attributes, no buyer, no source); absent: every field.
   */
  fields?: readonly ListedOrderField[];
}

/** The fields a listing can be narrowed to. */
export type ListedOrderField = 'id' | 'status' | 'currency' | 'total' | 'paidAt' | 'createdAt' | 'refunds';

export interface OrderPage {
  orders: ListedOrder[];
  /** Why an order of the page could not be read as an order (each listed, never dropped silently). */
  unusable: string[];
  totalPages: number;
  total: number;
}

/** A failed call to the shop: status 0 means no answer (network, timeout). */
export class ShopRequestError extends Error {
  override readonly name = 'ShopRequestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
  /** 4xx other than 408/429 will not heal by retrying (bad keys, deleted order). */
  get permanent(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

export const ShopNoteSchema = z.looseObject({ id: z.number(), note: z.string(), customer_note: z.boolean().optional() });
export type ShopNote = z.infer<typeof ShopNoteSchema>;

export const ShopWebhookSchema = z.looseObject({
  id: z.number(),
  name: z.string().optional(),
  status: z.string(),
  topic: z.string(),
  delivery_url: z.string(),
  /** Not in WooCommerce's own answer (the v2/v3 controllers leave it out); a plugin may add it. */
  secret: z.string().optional(),
  /** Same: wp_api_v3 for "WP REST API Integration v3". */
  api_version: z.string().optional(),
});
export type ShopWebhook = z.infer<typeof ShopWebhookSchema>;

export interface MetaUpdate {
  key: string;
  value: string | number | Record<string, string | number>;
}
