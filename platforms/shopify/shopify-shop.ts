import { z } from 'zod';
import type { ShopifyTenantConfig } from '../../connector/config/shopify-tenant';
import { ShopRequestError, type MetaUpdate, type OrderPage, type OrderQuery, type Shop, type ShopNote, type ShopWebhook } from '../../connector/shop/shop';
import type { ProductFacts } from '../../law/line-type';
import { regionOfAddress, type DispatchRegion } from '../../law/vat-rates';
import { ShopifyAdminClient, ShopifyApiError, type PaceEvent } from './admin-client';
import { mergeNote, NOTE_LOG_KEY, noteLogSchema, type NoteLogEntry } from './order-note';
import { nifMetafieldOf } from './buyer-nif';
import type { InstalledTokenSource } from './installed-token';
import { legacyIdOf, orderGid, readShopifyOrder, readShopifyRefund, refundGid } from './order-query';
import { MARKED_METAFIELDS_FIELD, metafieldKeyOfMeta, ORDER_HEAD_FIELDS, orderHeadSchema, SHOPIFY_STATUSES, summaryOfListedOrder } from './order-summary';
import { ensureSubscriptions, listSubscriptions, missingTopics, shopifyDeliveryUrl } from './webhook-subscriptions';

/**
 * A Shopify store behind the connector's Shop port (connector/shop/shop.ts), through the GraphQL
 * Admin API at the pinned version, paced by the store's cost bucket:
 * - getOrder / getRefund / listRefunds: the order as ./order-query.ts reads it (the Shopify
 *   platform's own JSON, which its adapter turns into the law's sale);
 * - listOrders: the ingest's order summaries (./order-summary.ts) from an `orders(query:)` search,
 *   numbered pages over Shopify's cursors;
 * - updateOrderMeta: app-owned metafields (`$app` namespace: no other app can change them);
 * - addNote / listNotes: Shopify orders have one note and no note history, so the connector keeps
 *   its notes in an app metafield and shows them in a block of its own at the end of the order's
 *   note, read-merge-written so the merchant's own text is never lost (./order-note.ts);
 * - listWebhooks: the app's webhook subscriptions.
 */

/**
 * Orders per listed page, whatever the caller asks: Shopify refuses a query that may cost more than
 * 1,000 points, and one order of the listing's selection asks about 31 (34 with other apps' marks):
 * 25 a page ask about 780-850. The caller walks `totalPages` of this size (the sweep asks for 100).
 */
const LIST_PAGE_MAX = 25;

/** Shop facts change rarely: re-read after this long. */
const SHOP_FACTS_TTL_MS = 10 * 60_000;

function toShopError(error: unknown): never {
  if (error instanceof ShopifyApiError) {
    const status =
      error.kind === 'authentication' ? 401 : error.kind === 'access-denied' ? 403 : error.kind === 'throttled' ? 429 : error.kind === 'server' ? (error.details.status ?? 502) : error.kind === 'connection' || error.kind === 'timeout' ? 0 : 502;
    throw new ShopRequestError(status, `shopify_${error.kind.replace(/-/g, '_')}`, error.message);
  }
  throw error;
}

const METAFIELDS_SET = `mutation ConnectorMeta($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { key } userErrors { field message code } }
}`;
const NOTE_READ = `query ConnectorNote($id: ID!) { order(id: $id) { note notes: metafield(namespace: "$app", key: "${NOTE_LOG_KEY}") { value } } }`;
const NOTE_WRITE = `mutation ConnectorNoteWrite($input: OrderInput!, $metafields: [MetafieldsSetInput!]!) {
  orderUpdate(input: $input) { order { id } userErrors { field message } }
  metafieldsSet(metafields: $metafields) { metafields { key } userErrors { field message code } }
}`;
const SHOP_FACTS = `{ shop { billingAddress { countryCodeV2 zip } } }`;
const ORDERS_PAGE = `query ConnectorOrders($first: Int!, $after: String, $query: String, $sortKey: OrderSortKeys, $reverse: Boolean) {
  orders(first: $first, after: $after, query: $query, sortKey: $sortKey, reverse: $reverse) { nodes { ${ORDER_HEAD_FIELDS} } pageInfo { hasNextPage endCursor } }
  ordersCount(query: $query, limit: 10000) { count }
}`;
/** One order's metafields the tenant's other-app marks name. */
const ORDER_MARKS = `query ConnectorOrderMarks($id: ID!, $markKeys: [String!], $markCount: Int!) { order(id: $id) { ${MARKED_METAFIELDS_FIELD} } }`;
/** The same page with the metafields the tenant's other-app marks name. */
const ORDERS_PAGE_WITH_MARKS = `query ConnectorOrdersMarked($first: Int!, $after: String, $query: String, $sortKey: OrderSortKeys, $reverse: Boolean, $markKeys: [String!], $markCount: Int!) {
  orders(first: $first, after: $after, query: $query, sortKey: $sortKey, reverse: $reverse) { nodes { ${ORDER_HEAD_FIELDS} ${MARKED_METAFIELDS_FIELD} } pageInfo { hasNextPage endCursor } }
  ordersCount(query: $query, limit: 10000) { count }
}`;

const userErrorsSchema = z.array(z.object({ field: z.array(z.string()).nullable().optional(), message: z.string() }));

/** A metafield's type for a value of the connector's meta. */
function metafieldOf(ownerId: string, meta: MetaUpdate): { ownerId: string; namespace: string; key: string; type: string; value: string } {
  const key = metafieldKeyOfMeta(meta.key);
  if (typeof meta.value === 'object') return { ownerId, namespace: '$app', key, type: 'json', value: JSON.stringify(meta.value) };
  const value = String(meta.value);
  const type = /^https?:\/\//.test(value) && key.endsWith('url') ? 'url' : 'single_line_text_field';
  return { ownerId, namespace: '$app', key, type, value };
}

/** Shopify's search query for a listing: the port's neutral filter in Shopify's search syntax. */
export function searchQueryOf(query: OrderQuery): string {
  const terms: string[] = [];
  const instant = (text: string): string => (/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  // `>=`: Shopify's instants are to the second, and the sweep's cursor is the last change it saw.
  if (query.modifiedAfter) terms.push(`updated_at:>='${instant(query.modifiedAfter)}'`);
  if (query.createdAfter) terms.push(`created_at:>='${instant(query.createdAfter)}'`);
  if (query.createdBefore) terms.push(`created_at:<'${instant(query.createdBefore)}'`);
  if (query.statuses && query.statuses.length > 0) {
    const clauses = query.statuses.map((status) =>
      status === 'cancelled' ? 'status:cancelled' : status === 'test' ? 'test:true' : `financial_status:${status}`,
    );
    terms.push(clauses.length === 1 ? clauses[0] : `(${clauses.join(' OR ')})`);
  }
  if (query.ids && query.ids.length > 0) terms.push(`(${query.ids.map((id) => `id:${id}`).join(' OR ')})`);
  if (query.search) terms.push(query.search.replace(/[()'"]/g, ' ').trim());
  return terms.join(' ');
}

export class ShopifyShop implements Shop {
  readonly platform = 'shopify';
  readonly client: ShopifyAdminClient;
  /** Cursors of the pages already walked, per search: Shopify pages by cursor, the port by number. */
  private readonly cursors = new Map<string, (string | null)[]>();
  private storeRegion: { value: DispatchRegion | undefined; at: number } | undefined;

  /**
   * `installedToken`: where the token is read when the tenants file gives none (the install flow's
   * sealed copy, ./installed-token.ts); a token in the tenants file wins. `markedMetafields`: the
   * metafields (`namespace.key`) where the tenant said another invoicing app marks its orders.
   */
  constructor(
    private readonly store: ShopifyTenantConfig,
    onPace?: (event: PaceEvent) => void,
    private readonly options: { installedToken?: InstalledTokenSource; markedMetafields?: string[] } = {},
  ) {
    const installed = store.accessToken === undefined ? options.installedToken : undefined;
    this.client = new ShopifyAdminClient({
      shopDomain: store.shopDomain,
      adminUrl: store.adminUrl,
      accessToken: store.accessToken ?? (installed ? () => installed.token() : () => Promise.reject(new ShopifyApiError('authentication', `${store.shopDomain} has no access token`))),
      ...(installed ? { onTokenRefused: (token: string) => installed.refused(token) } : {}),
      apiVersion: store.apiVersion,
      timeoutMs: store.timeoutMs,
      onPace,
    });
  }

  /** Whether the tenant named metafields where other invoicing apps mark their orders (./other-apps.ts). */
  get marksMetafields(): boolean {
    return (this.options.markedMetafields ?? []).length > 0;
  }

  /**
   * The metafields the tenant named as other apps' marks, on one order: what an orders/* webhook body
   * cannot carry (it has no metafields), read before its delivery is planned.
   */
  async markedMetafieldsOf(orderId: number): Promise<{ namespace: string; key: string; value: string }[]> {
    const marks = this.options.markedMetafields ?? [];
    if (marks.length === 0) return [];
    const answer = await this.client
      .query(ORDER_MARKS, { id: orderGid(orderId), markKeys: marks, markCount: marks.length }, z.object({ order: z.object({ marked: z.object({ nodes: z.array(z.object({ namespace: z.string(), key: z.string(), value: z.string() })) }) }).nullable() }))
      .catch(toShopError);
    return answer.order?.marked.nodes ?? [];
  }

  async getOrder(orderId: number): Promise<unknown> {
    const order = await readShopifyOrder(this.client, orderId, nifMetafieldOf(this.store.sale.nifSources)).catch(toShopError);
    if (!order) throw new ShopRequestError(404, 'shopify_not_found', `Order ${orderId} is not in the Shopify store ${this.store.shopDomain}`);
    // Other apps' metafield marks, when the tenant names some: a person's "issue" is gated on them as the route and the listing are.
    return this.marksMetafields ? { ...order, marked: { nodes: await this.markedMetafieldsOf(orderId) } } : order;
  }

  async listOrders(query: OrderQuery): Promise<OrderPage> {
    const search = searchQueryOf(query);
    const sortKey = query.orderBy === 'newest' ? 'CREATED_AT' : query.modifiedAfter ? 'UPDATED_AT' : 'ID';
    const reverse = query.orderBy === 'newest';
    const first = Math.min(Math.max(query.perPage, 1), LIST_PAGE_MAX);
    const key = JSON.stringify([search, sortKey, reverse, first]);
    const page = query.page ?? 1;
    const known = this.cursors.get(key) ?? [null];
    this.cursors.set(key, known);
    const schema = z.object({
      orders: z.object({ nodes: z.array(orderHeadSchema), pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }) }),
      ordersCount: z.object({ count: z.number() }).nullable(),
    });
    // Walk forward from the last page whose cursor is known (the sweep asks pages in order: one call each).
    let at = Math.min(page, known.length);
    for (;;) {
      const after = known[at - 1] ?? null;
      const marks = this.options.markedMetafields ?? [];
      const answer = await (marks.length > 0
        ? this.client.query(ORDERS_PAGE_WITH_MARKS, { first, after, query: search || null, sortKey, reverse, markKeys: marks, markCount: marks.length }, schema)
        : this.client.query(ORDERS_PAGE, { first, after, query: search || null, sortKey, reverse }, schema)
      ).catch(toShopError);
      if (answer.orders.pageInfo.hasNextPage) known[at] = answer.orders.pageInfo.endCursor;
      const total = answer.ordersCount?.count ?? answer.orders.nodes.length;
      if (at === page || !answer.orders.pageInfo.hasNextPage) {
        return {
          orders: at === page ? answer.orders.nodes.map(summaryOfListedOrder) : [],
          // The page's schema reads every order of it, or refuses the page.
          unusable: [],
          total,
          totalPages: Math.max(1, Math.ceil(total / first)),
        };
      }
      at += 1;
    }
  }

  async listRefunds(orderId: number): Promise<unknown[]> {
    const order = (await this.getOrder(orderId)) as { refunds: { id: string }[] };
    const refunds = [];
    for (const refund of order.refunds) refunds.push(await this.getRefund(orderId, Number(legacyIdOf(refund.id))));
    return refunds;
  }

  async getRefund(orderId: number, refundId: number): Promise<unknown> {
    const refund = await readShopifyRefund(this.client, refundGid(refundId)).catch(toShopError);
    if (!refund) throw new ShopRequestError(404, 'shopify_not_found', `Refund ${refundId} of order ${orderId} is not in the Shopify store ${this.store.shopDomain}`);
    return refund;
  }

  /** When the refund was made (Shopify's `createdAt`, epoch ms); undefined for a refund the store no longer has. */
  async refundCreatedAt(_orderId: number, refundId: number): Promise<number | undefined> {
    const refund = await readShopifyRefund(this.client, refundGid(refundId)).catch(toShopError);
    const at = refund?.createdAt ? Date.parse(refund.createdAt) : Number.NaN;
    return Number.isFinite(at) ? at : undefined;
  }

  async updateOrderMeta(orderId: number, meta: MetaUpdate[]): Promise<void> {
    const ownerId = orderGid(orderId);
    // metafieldsSet takes 25 at a time and is atomic within a call.
    for (let start = 0; start < meta.length; start += 25) {
      const metafields = meta.slice(start, start + 25).map((m) => metafieldOf(ownerId, m));
      const answer = await this.client
        .query(METAFIELDS_SET, { metafields }, z.object({ metafieldsSet: z.object({ userErrors: userErrorsSchema }).nullable() }))
        .catch(toShopError);
      const errors = answer.metafieldsSet?.userErrors ?? [];
      if (errors.length > 0) throw new ShopRequestError(422, 'shopify_user_errors', `Shopify refused the metafields of order ${orderId}: ${errors.map((e) => e.message).join('; ')}`);
    }
  }

  private async readNotes(orderId: number): Promise<{ note: string; log: NoteLogEntry[] }> {
    const answer = await this.client
      .query(NOTE_READ, { id: orderGid(orderId) }, z.object({ order: z.object({ note: z.string().nullable(), notes: z.object({ value: z.string() }).nullable() }).nullable() }))
      .catch(toShopError);
    if (!answer.order) throw new ShopRequestError(404, 'shopify_not_found', `Order ${orderId} is not in the Shopify store ${this.store.shopDomain}`);
    let log: NoteLogEntry[] = [];
    if (answer.order.notes) {
      const parsed = noteLogSchema.safeParse(JSON.parse(answer.order.notes.value));
      if (parsed.success) log = parsed.data;
    }
    return { note: answer.order.note ?? '', log };
  }

  async addNote(orderId: number, note: string, customerNote: boolean): Promise<ShopNote> {
    const { note: current, log } = await this.readNotes(orderId);
    const entry: NoteLogEntry = { id: (log[log.length - 1]?.id ?? 0) + 1, note, customer_note: customerNote, at: new Date().toISOString() };
    const next = [...log, entry];
    const answer = await this.client
      .query(
        NOTE_WRITE,
        {
          input: { id: orderGid(orderId), note: mergeNote(current, next) },
          metafields: [{ ownerId: orderGid(orderId), namespace: '$app', key: NOTE_LOG_KEY, type: 'json', value: JSON.stringify(next) }],
        },
        z.object({ orderUpdate: z.object({ userErrors: userErrorsSchema }).nullable(), metafieldsSet: z.object({ userErrors: userErrorsSchema }).nullable() }),
      )
      .catch(toShopError);
    const errors = [...(answer.orderUpdate?.userErrors ?? []), ...(answer.metafieldsSet?.userErrors ?? [])];
    if (errors.length > 0) throw new ShopRequestError(422, 'shopify_user_errors', `Shopify refused the note of order ${orderId}: ${errors.map((e) => e.message).join('; ')}`);
    return { id: entry.id, note: entry.note, customer_note: entry.customer_note };
  }

  async listNotes(orderId: number, type: 'any' | 'customer' | 'internal' = 'any'): Promise<ShopNote[]> {
    const { log } = await this.readNotes(orderId);
    return log
      .filter((entry) => type === 'any' || entry.customer_note === (type === 'customer'))
      .reverse()
      .map((entry) => ({ id: entry.id, note: entry.note, customer_note: entry.customer_note }));
  }

  async orderStatuses(): Promise<string[]> {
    return [...SHOPIFY_STATUSES];
  }

  async listWebhooks(): Promise<ShopWebhook[]> {
    const subscriptions = await listSubscriptions(this.client).catch(toShopError);
    return subscriptions.map((s) => ({ id: Number(legacyIdOf(s.id)), name: s.topic, status: 'active', topic: s.topic, delivery_url: s.uri, api_version: s.apiVersion }));
  }

  /** Creates the subscriptions missing at this connector (Shopify removes one after 8 failed deliveries). */
  async ensureWebhooks(publicUrl: string, tenantId: string): Promise<{ missingTopics: string[]; recreated: string[] }> {
    const uri = shopifyDeliveryUrl(publicUrl, tenantId);
    const missing = missingTopics(await listSubscriptions(this.client).catch(toShopError), uri);
    if (missing.length === 0) return { missingTopics: [], recreated: [] };
    const recreated = await ensureSubscriptions(this.client, uri).catch(toShopError);
    return { missingTopics: missing, recreated };
  }

  /** Shopify computes tax per line (each line's tax lines are rounded on their own). */
  async taxRoundAtSubtotal(): Promise<boolean> {
    return false;
  }

  /** From the store's address (Settings > General): mainland, Azores or Madeira by its postcode. */
  async storeAddressRegion(now: number = Date.now()): Promise<DispatchRegion | undefined> {
    if (this.storeRegion && now - this.storeRegion.at < SHOP_FACTS_TTL_MS) return this.storeRegion.value;
    const answer = await this.client
      .query(SHOP_FACTS, {}, z.object({ shop: z.object({ billingAddress: z.object({ countryCodeV2: z.string().nullable(), zip: z.string().nullable() }) }) }))
      .catch(toShopError);
    const address = answer.shop.billingAddress;
    this.storeRegion = { value: regionOfAddress(address.countryCodeV2 ?? '', address.zip ?? ''), at: now };
    return this.storeRegion.value;
  }

  /**
   * Shopify says on the order itself whether each line travels (`requiresShipping`) and whether it is
   * a gift card; the sale carries both (./order-to-sale.ts), so there is nothing more to ask here.
   */
  async productFacts(): Promise<Map<number, ProductFacts>> {
    return new Map();
  }
}
