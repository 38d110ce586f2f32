import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { TenantConfig } from '../../connector/config/load-config';
import { MetaUpdate, OrderPage, OrderQuery, Shop, ShopNote, ShopNoteSchema, ShopRequestError, ShopWebhook, ShopWebhookSchema, type ShopTaxReport, type ShopTaxRow } from '../../connector/shop/shop';
import type { ProductFacts } from '../../law/line-type';
import { regionOfAddress, type DispatchRegion } from '../../law/vat-rates';
import { WooHttpError, WooNetworkError, WooRest, type WooRestAnswer } from './woo-rest';
import type { ListedOrder } from '../../connector/shop/order-summary';
import { listedWooOrder, wooFieldsOf } from './order-summary';

/** A refund's creation day in GMT, as WooCommerce writes it (2026-11-05T10:12:00). */
/** A row of wc-analytics/reports/taxes (its DataStore casts each column: ints, floats, strings). */
const TaxReportRowSchema = z.looseObject({
  tax_rate_id: z.number().int(),
  name: z.string(),
  tax_rate: z.number(),
  country: z.string(),
  state: z.string(),
  total_tax: z.number(),
  order_tax: z.number(),
  shipping_tax: z.number(),
  orders_count: z.number().int(),
});
const RefundDateSchema = z.looseObject({ date_created_gmt: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/).nullish() });

const ShopSettingSchema = z.looseObject({ id: z.string(), value: z.union([z.string(), z.number(), z.boolean()]) });
const ShopCategorySchema = z.looseObject({ id: z.number(), slug: z.string() });
const ShopProductSchema = z.looseObject({ id: z.number(), virtual: z.boolean(), downloadable: z.boolean(), categories: z.array(ShopCategorySchema).default([]) });
/** A variation has its own virtual/downloadable flags; its categories are its parent's. */
const ShopVariationSchema = z.looseObject({ id: z.number(), virtual: z.boolean(), downloadable: z.boolean() });
type ShopVariation = z.infer<typeof ShopVariationSchema>;

/**
 * Shop facts change rarely (a setting, a product's type): re-read after this long. A product is
 * forgotten sooner when the shop says it changed (product.updated / product.deleted webhooks:
 * forgetProducts). WooCommerce has no webhook topic for its settings (its topics are coupon,
 * customer, order, product and action hooks), so the tax rounding setting and the store address
 * follow a change only when this time ends.
 */
export const SHOP_FACTS_TTL_MS = 10 * 60_000;
/** Products (and variations) cached per shop before stale ones are dropped. */
const PRODUCT_CACHE_BOUND = 5_000;

/**
 * The shop's REST API (WooCommerce v3) through our own client (woo-rest.ts, undici): Basic auth over
 * https, OAuth 1.0a (HMAC-SHA256) over http, as WooCommerce checks them. Returns unvalidated JSON;
 * callers parse it with the payload schemas.
 */
export class WooShop implements Shop {
  readonly platform = 'woocommerce';
  private readonly api: WooRest;

  constructor(shop: TenantConfig['shop']) {
    // OAuth 1.0a (http shops) is signed with the shop's clock, not this worker's: WooCommerce refuses a
    // timestamp more than 15 minutes off its own. The offset comes from the shop's Date header.
    this.api = new WooRest({
      url: shop.url,
      consumerKey: shop.consumerKey,
      consumerSecret: shop.consumerSecret,
      timeoutMs: shop.timeoutMs,
      ...(shop.tlsCaFile ? { ca: readFileSync(shop.tlsCaFile) } : {}),
      clockOffsetMs: () => this.clockOffsetMs(),
    });
  }

  /** The shop's clock minus ours, from its last answer (0 before any). */
  private clockOffsetMs(): number {
    return this.shopClock ? this.shopClock.shopMs - this.shopClock.localMs : 0;
  }

  private shopClock: { shopMs: number; localMs: number } | undefined;

  private observeClock(date: unknown): void {
    const shopMs = typeof date === 'string' ? Date.parse(date) : Number.NaN;
    if (Number.isFinite(shopMs)) this.shopClock = { shopMs, localMs: Date.now() };
  }

  /** The shop's clock from the Date header of its last answer (Shop.clock). */
  clock(): { shopMs: number; localMs: number } | undefined {
    return this.shopClock;
  }

  private roundAtSubtotal: { value: boolean; at: number } | undefined;
  private storeRegion: { value: DispatchRegion | undefined; at: number } | undefined;
  private readonly productCache = new Map<number, { value: ProductFacts | null; at: number }>();
  private readonly variationCache = new Map<number, { value: ShopVariation | null; at: number }>();

  /**
   * WooCommerce > Settings > Tax > "Round tax at subtotal level" (`woocommerce_tax_round_at_subtotal`):
   * true = the shop rounds tax once per rate, as the invoice does. Cached for SHOP_FACTS_TTL_MS.
   */
  async taxRoundAtSubtotal(now: number = Date.now()): Promise<boolean> {
    if (this.roundAtSubtotal && now - this.roundAtSubtotal.at < SHOP_FACTS_TTL_MS) return this.roundAtSubtotal.value;
    const value = await this.setting('tax', 'woocommerce_tax_round_at_subtotal');
    this.roundAtSubtotal = { value: value === 'yes' || value === true, at: now };
    return this.roundAtSubtotal.value;
  }

  /**
   * The VAT region of the shop's store address (WooCommerce > Settings > General:
   * `woocommerce_default_country`, "PT" or "PT:<state>", and `woocommerce_store_postcode`), where the
   * goods are taken to leave from (CIVA art. 6(1)) unless the mapping setting `dispatchRegion` says
   * otherwise; undefined outside Portugal or without a postcode. Cached for SHOP_FACTS_TTL_MS.
   */
  async storeAddressRegion(now: number = Date.now()): Promise<DispatchRegion | undefined> {
    if (this.storeRegion && now - this.storeRegion.at < SHOP_FACTS_TTL_MS) return this.storeRegion.value;
    const country = String(await this.setting('general', 'woocommerce_default_country')).split(':')[0];
    const postcode = String(await this.setting('general', 'woocommerce_store_postcode'));
    this.storeRegion = { value: regionOfAddress(country, postcode), at: now };
    return this.storeRegion.value;
  }

  /**
   * What the shop says of the products of these order lines, keyed like the lines
   * (`lineProductId`: the variation when there is one): `virtual`, `downloadable` and the
   * categories (a variation's own flags, its parent's categories). One list call per 100
   * uncached products and one per parent for uncached variations (SHOP_FACTS_TTL_MS); a deleted
   * product is absent (unknown), a deleted variation falls back to its parent.
   */
  async productFacts(items: readonly { product_id: number; variation_id: number }[], now: number = Date.now()): Promise<Map<number, ProductFacts>> {
    const fresh = (entry: { at: number } | undefined): boolean => entry !== undefined && now - entry.at < SHOP_FACTS_TTL_MS;
    // A big catalogue must not grow the caches for ever: past the bound, stale entries go.
    for (const cache of [this.productCache, this.variationCache] as Map<number, { at: number }>[]) {
      if (cache.size > PRODUCT_CACHE_BOUND) for (const [id, entry] of cache) if (!fresh(entry)) cache.delete(id);
    }
    const parents = [...new Set(items.map((item) => item.product_id).filter((id) => id > 0))];
    const missing = parents.filter((id) => !fresh(this.productCache.get(id)));
    for (let start = 0; start < missing.length; start += 100) {
      const page = missing.slice(start, start + 100);
      const response = await this.call(() => this.api.send('GET', 'products', { include: page.join(','), per_page: '100' }));
      const found = new Map(z.array(ShopProductSchema).parse(response.data).map((p) => [p.id, p]));
      for (const id of page) {
        const product = found.get(id);
        const value = product ? { id, virtual: product.virtual, downloadable: product.downloadable, categories: product.categories.map(({ id: cid, slug }) => ({ id: cid, slug })) } : null;
        this.productCache.set(id, { value, at: now });
      }
    }
    const variationsByParent = new Map<number, number[]>();
    for (const item of items) {
      if (item.variation_id <= 0 || item.product_id <= 0 || fresh(this.variationCache.get(item.variation_id))) continue;
      const list = variationsByParent.get(item.product_id) ?? [];
      if (!list.includes(item.variation_id)) list.push(item.variation_id);
      variationsByParent.set(item.product_id, list);
    }
    for (const [parent, ids] of variationsByParent) {
      if (!this.productCache.get(parent)?.value) continue;
      const response = await this.call(() => this.api.send('GET', `products/${parent}/variations`, { include: ids.join(','), per_page: '100' }));
      const found = new Map(z.array(ShopVariationSchema).parse(response.data).map((v) => [v.id, v]));
      for (const id of ids) this.variationCache.set(id, { value: found.get(id) ?? null, at: now });
    }
    const facts = new Map<number, ProductFacts>();
    for (const item of items) {
      const parent = this.productCache.get(item.product_id)?.value;
      if (!parent) continue;
      const variation = item.variation_id > 0 ? this.variationCache.get(item.variation_id)?.value : undefined;
      facts.set(item.variation_id || item.product_id, variation ? { ...parent, id: variation.id, virtual: variation.virtual, downloadable: variation.downloadable } : parent);
    }
    return facts;
  }

  /**
   * Drops what is cached of these products and variations (Shop.forgetProducts): a product.updated
   * or product.deleted delivery names one id, a product's or a variation's (WooCommerce fires
   * product.updated for both). A parent's categories are read from its own entry, so a variation
   * never keeps its parent's old ones.
   */
  forgetProducts(ids: readonly number[]): void {
    for (const id of ids) {
      this.productCache.delete(id);
      this.variationCache.delete(id);
    }
  }

  async getOrder(orderId: number): Promise<unknown> {
    return (await this.call(() => this.api.send('GET', `orders/${orderId}`))).data;
  }

  /**
   * meta_data entries are updated by key on the shop (added when absent). `_fields=id`: WordPress
   * answers the update with the whole order (6-50 KB, read only to be dropped) unless told which
   * fields; an error is answered whole (issue 29).
   */
  async updateOrderMeta(orderId: number, meta: MetaUpdate[]): Promise<void> {
    await this.call(() => this.api.send('PUT', `orders/${orderId}`, { _fields: 'id' }, { meta_data: meta }, 'errors'), false);
  }

  async addNote(orderId: number, note: string, customerNote: boolean): Promise<ShopNote> {
    const response = await this.call(() => this.api.send('POST', `orders/${orderId}/notes`, {}, { note, customer_note: customerNote }));
    return ShopNoteSchema.parse(response.data);
  }

  /** The order's notes, newest first: ours and WooCommerce's own (status changes, stock, refunds). */
  async listNotes(orderId: number, type: 'any' | 'customer' | 'internal' = 'any'): Promise<ShopNote[]> {
    const response = await this.call(() => this.api.send('GET', `orders/${orderId}/notes`, { type }));
    return z.array(ShopNoteSchema).parse(response.data);
  }

  async getRefund(orderId: number, refundId: number): Promise<unknown> {
    return (await this.call(() => this.api.send('GET', `orders/${orderId}/refunds/${refundId}`))).data;
  }

  /** The refund's `date_created_gmt` as epoch ms; undefined for a refund the shop no longer has (a permanent 4xx). */
  async refundCreatedAt(orderId: number, refundId: number): Promise<number | undefined> {
    try {
      const text = RefundDateSchema.parse(await this.getRefund(orderId, refundId)).date_created_gmt;
      return text ? Date.parse(`${text.slice(0, 19)}Z`) : undefined;
    } catch (error) {
      if (error instanceof ShopRequestError && error.permanent) return undefined;
      throw error;
    }
  }

  /**
   * WooCommerce's analytics tax report (GET wp-json/wc-analytics/reports/taxes, WooCommerce Admin's
   * Reports\Taxes controller): one row per tax rate over `after`..`before` (the site's local time,
   * both included), 100 a page. No route (an older WooCommerce, or analytics turned off: 404
   * rest_no_route) or a key whose user may not read reports (401/403) is "not available".
   */
  async taxReport(period: { from: string; to: string }): Promise<ShopTaxReport> {
    const rows: ShopTaxRow[] = [];
    for (let page = 1; ; page += 1) {
      let answer: WooRestAnswer;
      try {
        answer = await this.call(() => this.api.get('wc-analytics/reports/taxes', { after: period.from, before: period.to, per_page: '100', page: String(page), orderby: 'tax_rate_id', order: 'asc' }));
      } catch (error) {
        if (error instanceof ShopRequestError && error.status === 404) return { available: false, reason: 'no-route' };
        if (error instanceof ShopRequestError && (error.status === 401 || error.status === 403)) return { available: false, reason: 'not-allowed' };
        throw error;
      }
      for (const row of z.array(TaxReportRowSchema).parse(answer.data)) {
        rows.push({
          rateId: row.tax_rate_id,
          name: row.name,
          percent: String(row.tax_rate),
          country: row.country,
          state: row.state,
          totalTax: row.total_tax.toFixed(2),
          orderTax: row.order_tax.toFixed(2),
          shippingTax: row.shipping_tax.toFixed(2),
          orders: row.orders_count,
        });
      }
      const pages = Number(answer.headers['x-wp-totalpages'] ?? 1);
      if (!Number.isFinite(pages) || page >= pages) return { available: true, rows };
    }
  }

  /** Every refund of an order with its lines (GET orders/<id>/refunds; WooCommerce caps a page at 100). */
  async listRefunds(orderId: number): Promise<unknown[]> {
    return z.array(z.unknown()).parse((await this.call(() => this.api.send('GET', `orders/${orderId}/refunds`, { per_page: '100' }))).data);
  }

  /** One page of orders, the port's query in WooCommerce's list parameters, in the port's words. */
  async listOrders(query: OrderQuery): Promise<OrderPage> {
    const params = wooListParams(query);
    const page = await this.listOrderPage(params);
    const orders: ListedOrder[] = [];
    const unusable: string[] = [];
    for (const raw of page.orders) {
      const order = listedWooOrder(raw, params._fields !== undefined);
      if ('unusable' in order) unusable.push(order.unusable);
      else orders.push(order);
    }
    return { ...page, orders, unusable };
  }

  /** One page of orders as WooCommerce answers it; `params` are WooCommerce list parameters (status, modified_after, ...). */
  async listOrderPage(params: Record<string, string>): Promise<{ orders: unknown[]; totalPages: number; total: number }> {
    const response = await this.call(() => this.api.send('GET', 'orders', params));
    const totalPages = Number(response.headers['x-wp-totalpages'] ?? 1);
    const orders = z.array(z.unknown()).parse(response.data);
    const total = Number(response.headers['x-wp-total'] ?? orders.length);
    return { orders, totalPages: Number.isFinite(totalPages) ? totalPages : 1, total: Number.isFinite(total) ? total : orders.length };
  }

  /**
   * The slugs of every order status the shop has (WooCommerce's and a plugin's), from GET
   * reports/orders/totals: one entry per registered status, with its count.
   */
  async orderStatuses(): Promise<string[]> {
    const response = await this.call(() => this.api.send('GET', 'reports/orders/totals'));
    return z.array(z.looseObject({ slug: z.string() })).parse(response.data).map((status) => status.slug);
  }

  async listWebhooks(): Promise<ShopWebhook[]> {
    const response = await this.call(() => this.api.send('GET', 'webhooks', { per_page: '100' }));
    return z.array(ShopWebhookSchema).parse(response.data);
  }

  /**
   * GET system_status (WooCommerce > Status as JSON): `environment.version` is WooCommerce's version.
   * `_fields=environment` spares the shop the other sections (database sizes, plugins, ...) where
   * WooCommerce honours it; older versions answer everything.
   */
  async systemStatus(): Promise<unknown> {
    return (await this.call(() => this.api.send('GET', 'system_status', { _fields: 'environment' }))).data;
  }

  /** One setting's value (GET settings/<group>/<id>), as WooCommerce answers it ("yes"/"no" for checkboxes). */
  async setting(group: string, id: string): Promise<string | number | boolean> {
    return ShopSettingSchema.parse((await this.call(() => this.api.send('GET', `settings/${group}/${id}`))).data).value;
  }

  /** Every tax rate of the shop (GET taxes, every page of 100). */
  async listTaxRates(): Promise<unknown[]> {
    const rates: unknown[] = [];
    for (let page = 1; ; page += 1) {
      const response = await this.call(() => this.api.send('GET', 'taxes', { per_page: '100', page: String(page) }));
      rates.push(...z.array(z.unknown()).parse(response.data));
      const totalPages = Number(response.headers['x-wp-totalpages'] ?? 1);
      if (!Number.isFinite(totalPages) || page >= totalPages) return rates;
    }
  }

  /**
   * A write that changes nothing: PUT orders/0. WooCommerce checks a key's permissions before routing
   * (WC_REST_Authentication::check_permissions), so a read-only key gets 401 "does not have write
   * permissions" and a read/write key reaches the orders route, which finds no order 0 (400
   * woocommerce_rest_shop_order_invalid_id, WC_REST_CRUD_Controller::update_item). Resolves with
   * the error the shop answered (never a success: there is no order 0).
   */
  async probeWrite(): Promise<ShopRequestError | undefined> {
    try {
      await this.call(() => this.api.send('PUT', 'orders/0', {}, {}, 'errors'), false);
      return undefined;
    } catch (error) {
      if (error instanceof ShopRequestError) return error;
      throw error;
    }
  }

  /**
   * One REST call. A success that is not JSON (a firewall's, a security or caching plugin's or a
   * maintenance page answering 200 in WooCommerce's place) is the shop's trouble, not the order's:
   * ShopRequestError `not_json`, retried like a 5xx. `expectJson` false: the writer's answers are
   * not parsed (their body is dropped).
   */
  private async call(request: () => Promise<WooRestAnswer>, expectJson = true): Promise<WooRestAnswer> {
    let response: WooRestAnswer;
    try {
      response = await request();
    } catch (error) {
      const before = this.clockOffsetMs();
      if (error instanceof WooHttpError) this.observeClock(error.headers.date);
      const shopError = toShopError(error);
      // Refused for a timestamp off the shop's clock, which its answer has just told: signed again once.
      if (shopError.status === 401 && Math.abs(this.clockOffsetMs() - before) > 60_000) return this.call(request, expectJson);
      throw shopError;
    }
    this.observeClock(response.headers.date);
    if (expectJson && (typeof response.data === 'string' || response.data === undefined || response.data === null)) {
      const text = typeof response.data === 'string' ? response.data.replace(/\s+/g, ' ').trim().slice(0, 120) : '';
      throw new ShopRequestError(200, 'not_json', `shop answered 200 with something other than its JSON: ${text || '(empty)'}`);
    }
    return response;
  }
}

const WooErrorBodySchema = z.object({ code: z.string(), message: z.string() });

function toShopError(error: unknown): ShopRequestError {
  if (error instanceof WooNetworkError) return new ShopRequestError(0, error.code, `shop unreachable: ${error.message}`);
  if (!(error instanceof WooHttpError)) return new ShopRequestError(0, 'unknown', String(error));
  const body = WooErrorBodySchema.safeParse(error.data);
  const wooCode = body.success ? body.data.code : 'http_error';
  const wooMessage = body.success ? body.data.message : error.message;
  return new ShopRequestError(error.status, wooCode, `shop answered ${error.status} ${wooCode}: ${wooMessage}`);
}

/** The port's order query as GET /orders parameters (dates in GMT, as the port gives them). */
export function wooListParams(query: OrderQuery): Record<string, string> {
  const params: Record<string, string> = { per_page: String(query.perPage) };
  params.status = query.statuses && query.statuses.length > 0 ? query.statuses.join(',') : 'any';
  if (query.modifiedAfter !== undefined) params.modified_after = query.modifiedAfter;
  if (query.createdAfter !== undefined) params.after = query.createdAfter;
  if (query.createdBefore !== undefined) params.before = query.createdBefore;
  if (query.modifiedAfter !== undefined || query.createdAfter !== undefined || query.createdBefore !== undefined) params.dates_are_gmt = 'true';
  if (query.ids !== undefined) params.include = query.ids.join(',');
  if (query.search !== undefined) params.search = query.search;
  if (query.page !== undefined) params.page = String(query.page);
  if (query.orderBy === 'id') Object.assign(params, { orderby: 'id', order: 'asc' });
  if (query.orderBy === 'newest') Object.assign(params, { orderby: 'date', order: 'desc' });
  // WordPress's rest_filter_response_fields: only the top-level fields asked for.
  if (query.fields !== undefined && query.fields.length > 0) params._fields = wooFieldsOf(query.fields);
  return params;
}
