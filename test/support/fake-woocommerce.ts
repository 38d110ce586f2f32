/**
 * A contract-faithful fake of the WooCommerce REST API v3 (the parts the connector uses) and of
 * WooCommerce's webhook deliveries. Faithful where it matters to the connector:
 * - auth like WooCommerce: over http only OAuth 1.0a (HMAC-SHA256, query parameters, as
 *   `@woocommerce/woocommerce-rest-api` 1.0.2 sends them; timestamp window and nonce reuse checked);
 *   Basic is ignored over http; no credentials -> 401 woocommerce_rest_cannot_view;
 * - PUT orders/{id} meta_data updates by key (or by id), adds otherwise; an update fires the
 *   order.updated webhook, so the connector sees its own write-back echo like on a real shop;
 * - notes (customer_note), refunds, a webhooks list with active/disabled status;
 * - REST keys with permissions read / write / read_write, checked before routing like
 *   WC_REST_Authentication::check_permissions (GET needs read, PUT/POST/DELETE write: 401 otherwise);
 * - GET system_status (environment.version), GET taxes (paged, class filter) with postcodes, and
 *   webhooks answered like the v3 controller: no `secret` and no `api_version` (WooCommerce never
 *   shows them) unless `webhookExtras` stands for a shop whose plugin adds them;
 * - deliveries signed over the exact body bytes, which are wp_json_encode'd ("/" escaped, non-ASCII \uXXXX);
 * - like WooCommerce 10 (seen on a real 10.0.2 shop, ../shared/FACTS.md), with `delivery: 'queued'`:
 *   deliveries wait in Action Scheduler's queue until a test runs it ("WP-Cron runs now":
 *   runQueue), pending deliveries of one webhook for one order are folded into one, and the payload
 *   is built when it is sent (order.created can already show processing and our meta; a refund
 *   deleted before the queue ran is not in it); a REST create fires created then updated, a
 *   checkout updated then created; `delivery: 'immediate'` (the default) sends each at once;
 * - refunds like wc_create_refund: each fires order.updated, one that refunds the rest sets the
 *   order refunded; setting the status refunded creates the line-less refund of the rest
 *   (wc_order_fully_refunded); refunds can be deleted (DELETE, force or not), which fires no
 *   webhook and leaves date_modified as it was; summaries newest first (ties by id);
 * - listings like WordPress's REST collections: per_page over 100 and an unknown status answer 400;
 *   `include` and `search` on orders (searchMatcher: names, addresses, e-mail, phone, item names,
 *   the transaction id and the id, case and accents folded; `orderby=include`; X-WP-TotalPages 0 when
 *   nothing matches);
 * - notes: WooCommerce's own (status changes, stock reduced, full refund) beside ours, `type`
 *   any/customer/internal, an empty note accepted, no added_by_user in answers, newest first;
 * All of the above was compared request by request with a real WordPress 6.8.8 + WooCommerce
 * 10.0.2 (../shared/woocommerce-lab) on 2026-11-25.
 * - PUT line_items changes the lines and recalculates the order (WC_Order::calculate_totals);
 * - a shop time zone (`timeZone`, e.g. Europe/Lisbon): local dates and _gmt dates differ.
 */
import { createHmac, createSecretKey, randomBytes, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import express, { type NextFunction, type Request, type Response } from 'express';
import { request } from 'undici';
import { add, formatDecimal, multiply, parseDecimal, round, shift, subtract, sum, type Decimal } from '../../client/money';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface FakeMeta {
  id: number;
  key: string;
  value: JsonValue;
}

export interface FakeNote {
  id: number;
  author: string;
  date_created: string;
  date_created_gmt: string;
  note: string;
  customer_note: boolean;
}

export interface FakeWebhook {
  id: number;
  name: string;
  status: 'active' | 'paused' | 'disabled';
  topic: string;
  resource: string;
  event: string;
  delivery_url: string;
  secret: string;
  failure_count: number;
  /** WC_Webhook's api_version: wp_api_v3 (the REST API's default), wp_api_v2, wp_api_v1 or legacy_v3. */
  api_version: string;
}

export type FakeKeyPermissions = 'read' | 'write' | 'read_write';

export interface FakeWooOptions {
  consumerKey?: string;
  consumerSecret?: string;
  /** Added to every REST answer. */
  latencyMs?: number;
  /** Deliver order.updated to active webhooks after a REST update (the echo) and after a refund. Default true. */
  echoUpdates?: boolean;
  now?: () => Date;
  /**
   * The web server's clock (its Date header, OAuth's 15-minute window), when a test gives the shop's
   * data a clock of its own (a synthetic one that ticks per reading); default: `now`, as on a real shop.
   */
  serverNow?: () => Date;
  /** Serve https with this key and certificate: then, like WooCommerce over SSL, Basic auth (or
   * consumer_key/consumer_secret query parameters) is checked instead of OAuth 1.0a. */
  tls?: { key: string; cert: string };
  /** Called after every REST update of an order, which it only reads (benchmarks time the write-back with it). */
  onUpdate?: (order: JsonObject) => void;
  /** Permissions of the consumerKey above (WooCommerce > Settings > Advanced > REST API). Default read_write. */
  permissions?: FakeKeyPermissions;
  /** WooCommerce's version in GET system_status (environment.version). Default 9.4.2. */
  version?: string;
  /**
   * Real WooCommerce never shows a webhook's secret or api_version in GET webhooks; true stands for
   * a shop where a plugin adds both (the woocommerce_rest_prepare_shop_webhook filter).
   */
  webhookExtras?: boolean;
  /**
   * WooCommerce Admin's analytics REST namespace (wp-json/wc-analytics): on by default, as in every
   * WooCommerce since 4.0; false stands for a shop without it (analytics turned off: 404 rest_no_route).
   */
  analytics?: boolean;
  /**
   * 'immediate' (default): each change is delivered at once with the order as it is then.
   * 'queued': like WooCommerce 10 with Action Scheduler: deliveries wait until runQueue(), folded
   * per webhook and order, payload built when sent.
   */
  delivery?: 'immediate' | 'queued';
  /** The shop's time zone (WordPress > Settings > General); local dates follow it. Default UTC. */
  timeZone?: string;
  /** Order statuses a plugin added (wc-<slug>), beside WooCommerce's own. */
  extraStatuses?: string[];
  /** false: every request through Express, none through the lean dispatch (tests compare both). Default true. */
  lean?: boolean;
}

/** WooCommerce's own order statuses (wc_get_order_statuses) and their labels, for notes. */
const ORDER_STATUSES: Record<string, string> = {
  pending: 'Pending payment',
  processing: 'Processing',
  'on-hold': 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  failed: 'Failed',
  'checkout-draft': 'Draft',
};

/** The WordPress actions behind a topic (WC_Webhook::get_hooks), as GET webhooks lists them. */
const WEBHOOK_ACTIONS: Record<string, string[]> = {
  'order.created': ['woocommerce_new_order'],
  'order.updated': ['woocommerce_update_order', 'woocommerce_order_refunded'],
  'order.deleted': ['wp_trash_post', 'woocommerce_trash_order'],
  'order.restored': ['untrashed_post', 'woocommerce_untrash_order'],
  'product.created': ['woocommerce_process_product_meta', 'woocommerce_new_product', 'woocommerce_new_product_variation'],
  'product.updated': ['woocommerce_process_product_meta', 'woocommerce_update_product', 'woocommerce_update_product_variation'],
  'product.deleted': ['wp_trash_post'],
  'product.restored': ['untrashed_post'],
};

/** One delivery waiting in the fake's Action Scheduler queue. */
export interface QueuedDelivery {
  webhookId: number;
  topic: string;
  orderId: number;
}

export interface DeliveryResult {
  status: number;
  body: string;
}

export interface RunningFakeWoo {
  origin: string;
  consumerKey: string;
  consumerSecret: string;
  close(): Promise<void>;
  /** Adds or replaces an order (a deep copy is stored); returns the stored order. */
  putOrder(order: JsonObject): JsonObject;
  /**
   * Adds or replaces a product (GET products, products/<id>): at least id, name, virtual, downloadable.
   * Like WooCommerce, a new one fires product.created and a replaced one product.updated, with the
   * product as GET products/<id> answers it (sent at once, whatever `delivery` says).
   */
  putProduct(product: JsonObject): void;
  /**
   * Adds or replaces a variation of a variable product (GET products/<parent>/variations): id, virtual,
   * downloadable. Fires product.created / product.updated like a product (woocommerce_new_product_variation,
   * woocommerce_update_product_variation), the payload being the variation as GET products/<id> answers
   * it: type "variation", its parent_id.
   */
  putVariation(parentId: number, variation: JsonObject): void;
  /**
   * Moves a product (or a variation) to the trash, as the admin's "Move to Trash" does: GET products
   * lists it no more (status "any" leaves the trash out), GET products/<id> still answers it with status
   * trash, and product.deleted fires with only `{"id": N}` (WC_Webhook::build_payload for a deleted resource).
   */
  trashProduct(id: number): void;
  /** Sets a setting's value, e.g. ('tax', 'woocommerce_tax_round_at_subtotal', 'yes'). */
  setSetting(group: string, id: string, value: string): void;
  /** Adds or replaces a tax rate (GET taxes/<id>, GET taxes): WooCommerce answers its rate as a string ("23.0000"). */
  putTaxRate(rate: { id: number; rate: string; name: string; country?: string; class?: string; state?: string; postcodes?: string[] }): void;
  /** Another REST key of the shop with these permissions (the first key is consumerKey/consumerSecret). */
  addKey(permissions: FakeKeyPermissions): { consumerKey: string; consumerSecret: string };
  order(id: number): JsonObject | undefined;
  /** Deletes an order for good (WooCommerce's "Delete permanently"): its REST calls then answer invalid_id. */
  deleteOrder(id: number): void;
  /**
   * Updates an order the way the shop admin would (status, fields); bumps date_modified; a status
   * change adds WooCommerce's note, status refunded the line-less refund of the rest. No webhook
   * unless `fire` (a lost delivery otherwise).
   */
  editOrder(id: number, changes: JsonObject, options?: { fire?: boolean }): JsonObject;
  /**
   * Creates an order like WooCommerce: through REST (order.created then order.updated) or a
   * shopper's checkout (order.updated first, then order.created, as seen on 10.0.2).
   */
  createOrder(order: JsonObject, via?: 'rest' | 'checkout'): JsonObject;
  notes(orderId: number): FakeNote[];
  meta(orderId: number, key: string): JsonValue | undefined;
  /**
   * Removes meta from an order the way only an admin or a plugin can: the order screen's Custom
   * Fields box ("Delete") or a plugin's delete_meta_data(). WooCommerce's REST API v3 cannot (a PUT of
   * meta_data only adds or updates: WC_REST_Orders_V2_Controller::prepare_object_for_database calls
   * update_meta_data). date_modified and webhooks are left as they are (the box saves by AJAX).
   * Returns how many entries went.
   */
  deleteMeta(orderId: number, keys: (key: string) => boolean): number;
  /**
   * Creates a refund like wc_create_refund: stored under refunds, summarised in order.refunds
   * (newest first), fires order.updated; one that leaves nothing to refund sets the order refunded.
   */
  addRefund(orderId: number, refund: JsonObject): JsonObject;
  /** Deletes a refund (DELETE orders/<id>/refunds/<rid>): no webhook, date_modified unchanged, as on 10.0.2. */
  deleteRefund(orderId: number, refundId: number): void;
  /** Deliveries waiting for the queue to run (delivery: 'queued'). */
  queued(): QueuedDelivery[];
  /** "WP-Cron runs now": sends every waiting delivery, each payload built from the order as it is now. */
  runQueue(): Promise<(DeliveryResult & QueuedDelivery)[]>;
  /** Drops every waiting delivery (the shop never ran them, or they failed): returns how many. */
  loseQueue(): number;
  addWebhook(webhook: Omit<FakeWebhook, 'id' | 'resource' | 'event' | 'failure_count' | 'name' | 'api_version'> & { name?: string; api_version?: string }): FakeWebhook;
  webhooks(): FakeWebhook[];
  /** Requests seen by the REST API: method, path (no query), status. */
  requests: { method: string; path: string; status: number }[];
  /** The parameters of every GET orders (the list), as PHP reads them (the last value of a repeated key). */
  orderListings: Record<string, string>[];
  /** The next `count` REST requests matching the method answer `status` (e.g. 500, 503). */
  /**
   * The next `count` REST requests matching the method (and `answer.path`, tested on the path after
   * /wp-json/wc/v3) answer `status`: WooCommerce's error JSON (`answer.code`, default
   * internal_server_error), or with `answer.page` an HTML page in the shop's place, as a firewall,
   * a security or caching plugin or a maintenance mode answers (often with 200). With
   * `answer.carriedOut` the shop does the work and only the answer is lost: a gateway in front of
   * PHP timing out (nginx's 504) while WooCommerce finishes the request.
   */
  failNext(count: number, status: number, method?: string, answer?: { path?: RegExp; code?: string; page?: string; carriedOut?: boolean }): void;
  clearFailures(): void;
  /** Delivers an order webhook like WooCommerce does (signed, wp_json_encode'd); tracks failures like WooCommerce. */
  deliver(webhookId: number, order: JsonObject): Promise<DeliveryResult>;
  /** Waits until pending echo deliveries are done. */
  settle(): Promise<void>;
}

export async function startFakeWooCommerce(options: FakeWooOptions = {}): Promise<RunningFakeWoo> {
  const consumerKey = options.consumerKey ?? `ck_${randomBytes(20).toString('hex')}`;
  const consumerSecret = options.consumerSecret ?? `cs_${randomBytes(20).toString('hex')}`;
  const now = options.now ?? (() => new Date());
  const serverNow = options.serverNow ?? now;
  const orders = new Map<number, JsonObject>();
  const notes = new Map<number, FakeNote[]>();
  const refunds = new Map<number, JsonObject[]>();
  const hooks: FakeWebhook[] = [];
  const products = new Map<number, JsonObject>();
  const variations = new Map<number, Map<number, JsonObject>>();
  const taxRates = new Map<number, JsonObject>();
  // WooCommerce's defaults for the tax group (WC_Settings_Tax): rounding per line, prices without tax.
  const settings = new Map<string, Map<string, string>>([
    ['tax', new Map([['woocommerce_prices_include_tax', 'no'], ['woocommerce_tax_round_at_subtotal', 'no'], ['woocommerce_tax_display_shop', 'excl']])],
    // The store address (WC_Settings_General): a Lisbon shop; "PT" or "PT:<state>" as WooCommerce stores it.
    ['general', new Map([['woocommerce_store_address', 'Rua Augusta 100'], ['woocommerce_store_city', 'Lisboa'], ['woocommerce_store_postcode', '1100-053'], ['woocommerce_default_country', 'PT']])],
  ]);
  const keys = new Map<string, { secret: string; permissions: FakeKeyPermissions }>([[consumerKey, { secret: consumerSecret, permissions: options.permissions ?? 'read_write' }]]);
  const seenNonces = new Set<string>();
  const requests: RunningFakeWoo['requests'] = [];
  const orderListings: Record<string, string>[] = [];
  const failures: { count: number; status: number; method?: string; path?: RegExp; code?: string; page?: string; carriedOut?: boolean }[] = [];
  const pending = new Set<Promise<unknown>>();
  const queue: QueuedDelivery[] = [];
  const stockReduced = new Set<number>();
  const zone = options.timeZone ?? 'UTC';
  const knownStatuses = new Set([...Object.keys(ORDER_STATUSES), ...(options.extraStatuses ?? [])]);
  let nextId = 10_000;
  let origin = '';

  const app = express();
  app.disable('x-powered-by');
  // WordPress's REST answers carry no ETag (Express's is a hash of every answer's body).
  app.disable('etag');
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    res.on('finish', () => requests.push({ method: req.method, path: req.path, status: res.statusCode }));
    // The shop's web server stamps its answers with its own clock (`now`), as a real one does.
    res.setHeader('Date', serverNow().toUTCString());
    if (options.latencyMs) await delay(options.latencyMs);
    next();
  });
  app.use(express.json({ limit: '5mb' }));
  // What a route of the lean dispatch threw, for Express's error handler to answer (leanRoute).
  const thrown = new WeakMap<IncomingMessage, unknown>();
  app.use((req: Request, _res: Response, next: NextFunction) => next(thrown.get(req)));

  const api = express.Router();
  /** WooCommerce's authentication, then WC_REST_Authentication::check_permissions (on rest_pre_dispatch: before any route is matched); undefined lets the call through. */
  const refusal = (call: RestCall): Answer | undefined => {
    const auth = checkAuth(call);
    if (auth !== 'ok') {
      const code = auth === 'missing' ? 'woocommerce_rest_cannot_view' : 'woocommerce_rest_authentication_error';
      const message = auth === 'missing' ? 'Sorry, you cannot list resources.' : `Invalid signature - ${auth}.`;
      return { status: 401, body: { code, message, data: { status: 401 } } };
    }
    const permissions = keys.get(consumerKeyOf(call) ?? '')?.permissions;
    const needs = call.method === 'GET' || call.method === 'HEAD' ? 'read' : call.method === 'OPTIONS' ? undefined : 'write';
    if (needs && permissions !== needs && permissions !== 'read_write') {
      return { status: 401, body: { code: 'woocommerce_rest_authentication_error', message: `The API key provided does not have ${needs} permissions.`, data: { status: 401 } } };
    }
    return undefined;
  };
  const restGate = (req: Request, res: Response, next: NextFunction): void => {
    const refused = refusal(restCallOf(req));
    if (refused) {
      res.status(refused.status).json(refused.body);
      return;
    }
    const failure = failures.find((f) => f.count > 0 && (f.method === undefined || f.method === req.method) && (f.path === undefined || f.path.test(req.path)));
    if (failure) {
      failure.count -= 1;
      if (failure.carriedOut) {
        // The route runs; what it answers never reaches the client.
        res.json = () => res.status(failure.status).type('html').send(failure.page ?? '<html><body><h1>504 Gateway Time-out</h1></body></html>');
        next();
        return;
      }
      if (failure.page !== undefined) res.status(failure.status).type('html').send(failure.page);
      else res.status(failure.status).json({ code: failure.code ?? 'internal_server_error', message: 'Injected failure', data: { status: failure.status } });
      return;
    }
    next();
  };
  api.use(restGate);

  api.get('/orders', (req: Request, res: Response) => {
    const q = queryOf(req);
    orderListings.push(q);
    const statuses = (q.status ?? 'any').split(',').filter(Boolean);
    // The status argument's enum (any, trash and every registered status): anything else is 400.
    const listable = ['any', 'trash', 'auto-draft', ...knownStatuses];
    const unknown = statuses.filter((status) => !listable.includes(status));
    if (unknown.length > 0) return invalidParam(res, 'status', `status[${statuses.indexOf(unknown[0])}] is not one of ${listable.slice(0, -1).join(', ')}, and ${listable[listable.length - 1]}.`, 'rest_not_in_enum');
    const gmt = q.dates_are_gmt === 'true' || q.dates_are_gmt === '1';
    // wp_parse_id_list: "22, 23" works; "abc" or "0" is no id at all (then nothing is found).
    const includeText = (q.include ?? '').trim();
    const include = includeText.split(/[\s,]+/).filter(Boolean).map((id) => Math.abs(Math.trunc(Number.parseInt(id, 10) || 0)));
    let list = [...orders.values()].filter((o) => statuses.includes('any') ? o.status !== 'checkout-draft' && o.status !== 'trash' : statuses.includes(String(o.status)));
    if (includeText !== '') list = list.filter((o) => include.includes(Number(o.id)));
    if (q.search) list = list.filter(searchMatcher(q.search));
    const cmp = (field: string, bound: string | undefined, after: boolean): void => {
      if (!bound) return;
      const limit = parseWooDate(bound, gmt ? 'UTC' : zone);
      list = list.filter((o) => {
        const value = parseWooDate(String(o[`${field}_gmt`]), 'UTC');
        return after ? value > limit : value < limit;
      });
    };
    cmp('date_created', q.after, true);
    cmp('date_created', q.before, false);
    cmp('date_modified', q.modified_after, true);
    cmp('date_modified', q.modified_before, false);
    const ascending = (q.order ?? 'desc') === 'asc';
    if (q.orderby === 'include' && include.length > 0) {
      // orderby=include: the order the ids were asked in (MySQL's FIELD(ID, ...)), whatever `order` says.
      list.sort((a, b) => include.indexOf(Number(a.id)) - include.indexOf(Number(b.id)));
    } else {
      const sortField = q.orderby === 'modified' ? 'date_modified_gmt' : q.orderby === 'id' ? 'id' : 'date_created_gmt';
      const byField = sortField === 'id' ? (a: JsonObject, b: JsonObject) => Number(a.id) - Number(b.id) : (a: JsonObject, b: JsonObject) => NUMERIC_ORDER.compare(String(a[sortField]), String(b[sortField])) || Number(a.id) - Number(b.id);
      list.sort((a, b) => byField(a, b) * (ascending ? 1 : -1));
    }
    // No match: X-WP-TotalPages 0 (ceil(0 / per_page)), as a real 10.0.2 answers. `_fields`: WordPress's
    // rest_filter_response_fields keeps only the top-level fields asked for (_links only if asked).
    const fields = (q._fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
    const shape = fields.length === 0 ? withLinks : (order: JsonObject): JsonObject => Object.fromEntries(Object.entries(withLinks(order)).filter(([key]) => fields.includes(key)));
    sendPage(res, q, list, shape, 0);
  });

  // The order routes every order's write-back goes through: answered here and by the lean dispatch (leanRoute).
  const orderAnswer = (id: number): Answer => {
    const order = orders.get(id);
    return order ? { status: 200, body: withLinks(order) } : invalidIdAnswer(404);
  };
  /** The change of a PUT (or POST) orders/<id>; `changed` is the order when it changed, for afterUpdate once the answer is sent. */
  const updateOrder = (id: number, body: JsonObject): Answer & { changed?: JsonObject } => {
    const order = orders.get(id);
    // WC_REST_CRUD_Controller::update_item answers a missing object 400 (a GET answers it 404).
    if (!order) return invalidIdAnswer(400);
    if (typeof body.status === 'string' && body.status !== order.status && !knownStatuses.has(body.status)) return invalidParamAnswer('status', `status is not one of ${[...knownStatuses].join(', ')}.`);
    for (const [key, value] of Object.entries(body)) {
      if (key === 'meta_data' && Array.isArray(value)) mergeMeta(order, value);
      else if (key === 'line_items' && Array.isArray(value)) changeLines(order, value);
      else if (key !== 'id' && key !== 'refunds' && key !== 'line_items' && key !== 'status') order[key] = value;
    }
    if (typeof body.status === 'string') changeStatus(order, body.status);
    touch(order);
    return { status: 200, body: withLinks(order), changed: order };
  };
  /**
   * WordPress's rest_filter_response_fields on an update's answer: only the top-level `_fields` asked
   * for, and the links (the real lab answers `PUT orders/<id>?_fields=id` with `{id, _links}`; an error
   * is answered whole); the echo still carries the whole order.
   */
  const onlyFieldsAsked = (updated: Answer & { changed?: JsonObject }, query: Record<string, string>): Answer & { changed?: JsonObject; partial?: boolean } => {
    const fields = (query._fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
    if (fields.length === 0 || !updated.changed) return updated;
    return { ...updated, body: Object.fromEntries(Object.entries(updated.body as JsonObject).filter(([key]) => key === '_links' || fields.includes(key))), partial: true };
  };
  /** After an update's answer: the bench's hook, then the echo; `json` is the answer's text when already made (the same order, the same links). */
  const afterUpdate = (order: JsonObject, json?: string): void => {
    options.onUpdate?.(order);
    if (options.echoUpdates !== false) fire('order.updated', order, json);
  };
  // WC_REST_Order_Notes_Controller: type any (default), customer or internal; newest first.
  const notesAnswer = (id: number, type = 'any'): Answer => {
    if (!orders.has(id)) return invalidIdAnswer(404);
    const list = (notes.get(id) ?? []).filter((n) => type === 'any' || (type === 'customer') === n.customer_note);
    return { status: 200, body: newestFirst(list as unknown as JsonObject[]) };
  };
  const noteAnswer = (id: number, body: JsonObject): Answer => {
    if (!orders.has(id)) return invalidIdAnswer(404);
    // `note` is required but may be empty: WooCommerce saves an empty note.
    if (typeof body.note !== 'string') return { status: 400, body: { code: 'rest_missing_callback_param', message: 'Missing parameter(s): note', data: { status: 400, params: ['note'] } } };
    return { status: 201, body: addNote(id, body.note, body.customer_note === true || body.customer_note === 'true') as unknown as JsonObject };
  };
  const answer = (res: Response, { status, body }: Answer): void => {
    res.status(status).json(body);
  };

  api.get('/orders/:id', (req: Request, res: Response) => answer(res, orderAnswer(Number(req.params.id))));
  const updateRoute = (req: Request, res: Response): void => {
    const updated = onlyFieldsAsked(updateOrder(Number(req.params.id), (req.body ?? {}) as JsonObject), queryOf(req));
    answer(res, updated);
    if (updated.changed) afterUpdate(updated.changed);
  };
  api.put('/orders/:id', updateRoute);
  api.post('/orders/:id', updateRoute);
  api.get('/orders/:id/notes', (req: Request, res: Response) => answer(res, notesAnswer(Number(req.params.id), queryOf(req).type)));
  api.post('/orders/:id/notes', (req: Request, res: Response) => answer(res, noteAnswer(Number(req.params.id), (req.body ?? {}) as JsonObject)));

  api.get('/orders/:id/refunds', (req: Request, res: Response) => {
    const id = Number(req.params.id);
    if (!orders.has(id)) return invalidId(res);
    res.json(newestFirst(refunds.get(id) ?? []));
  });
  // WC_REST_Order_Refunds_Controller::create_item: amount (the rest when absent is not WooCommerce's
  // way: amount is required), reason, line_items; api_refund false = a manual refund.
  api.post('/orders/:id/refunds', (req: Request, res: Response) => {
    const id = Number(req.params.id);
    if (!orders.has(id)) return invalidId(res);
    const body = (req.body ?? {}) as JsonObject;
    if (body.amount === undefined || Number(body.amount) <= 0) {
      res.status(400).json({ code: 'woocommerce_rest_invalid_order_refund', message: 'Refund amount must be greater than zero.', data: { status: 400 } });
      return;
    }
    res.status(201).json(createRefund(id, { amount: String(body.amount), reason: typeof body.reason === 'string' ? body.reason : '', line_items: Array.isArray(body.line_items) ? body.line_items : [] }));
  });
  // A refund is deleted at once, with or without force=true (seen on 10.0.2: 200, then 404).
  api.delete('/orders/:id/refunds/:refundId', (req: Request, res: Response) => {
    const id = Number(req.params.id);
    const refund = (refunds.get(id) ?? []).find((r) => r.id === Number(req.params.refundId));
    if (!refund) {
      res.status(404).json({ code: 'woocommerce_rest_shop_order_refund_invalid_id', message: 'Invalid ID.', data: { status: 404 } });
      return;
    }
    removeRefund(id, Number(refund.id));
    res.json(refund);
  });
  api.get('/orders/:id/refunds/:refundId', (req: Request, res: Response) => {
    const refund = (refunds.get(Number(req.params.id)) ?? []).find((r) => r.id === Number(req.params.refundId));
    if (!refund) {
      res.status(404).json({ code: 'woocommerce_rest_shop_order_refund_invalid_id', message: 'Invalid ID.', data: { status: 404 } });
      return;
    }
    res.json(refund);
  });

  // WC_REST_Report_Orders_Totals_Controller: every registered order status (slug without wc-), its label and count.
  api.get('/reports/orders/totals', (_req: Request, res: Response) => {
    const counts = [...knownStatuses].map((slug) => ({ slug, name: ORDER_STATUSES[slug] ?? slug, total: [...orders.values()].filter((o) => o.status === slug).length }));
    res.json(counts);
  });

  // Settings like WC_REST_Setting_Options_Controller: GET settings/<group>/<id> answers the option
  // with its value as a string ("yes"/"no" for checkboxes); unknown group or id: 404.
  api.get('/settings/:group/:id', (req: Request, res: Response) => {
    const group = settings.get(String(req.params.group));
    if (!group) {
      res.status(404).json({ code: 'rest_setting_setting_group_invalid', message: 'Invalid setting group.', data: { status: 404 } });
      return;
    }
    const value = group.get(String(req.params.id));
    if (value === undefined) {
      res.status(404).json({ code: 'rest_setting_setting_invalid', message: 'Invalid setting.', data: { status: 404 } });
      return;
    }
    const checkbox = value === 'yes' || value === 'no';
    res.json({ id: req.params.id, label: req.params.id, description: '', type: checkbox ? 'checkbox' : 'text', default: checkbox ? 'no' : '', value, group_id: req.params.group });
  });

  // Products like WC_REST_Products_Controller: a list filtered by include (comma list), paged.
  api.get('/products', (req: Request, res: Response) => {
    const q = queryOf(req);
    const include = (q.include ?? '').split(',').filter(Boolean).map(Number);
    // status defaults to "any", which (like WP_Query's) leaves trashed products out.
    const list = [...products.values()].filter((p) => p.status !== 'trash' && (include.length === 0 || include.includes(Number(p.id))));
    sendPage(res, q, list);
  });
  api.get('/products/:id', (req: Request, res: Response) => {
    const product = products.get(Number(req.params.id));
    if (!product) {
      res.status(404).json({ code: 'woocommerce_rest_product_invalid_id', message: 'Invalid ID.', data: { status: 404 } });
      return;
    }
    res.json(product);
  });

  // Variations like WC_REST_Product_Variations_Controller: a variable product's variations,
  // filtered by include, paged; no categories (those are the parent's).
  api.get('/products/:id/variations', (req: Request, res: Response) => {
    const parent = Number(req.params.id);
    if (!products.has(parent)) {
      res.status(404).json({ code: 'woocommerce_rest_product_invalid_id', message: 'Invalid ID.', data: { status: 404 } });
      return;
    }
    const q = queryOf(req);
    const include = (q.include ?? '').split(',').filter(Boolean).map(Number);
    const list = [...(variations.get(parent)?.values() ?? [])].filter((v) => include.length === 0 || include.includes(Number(v.id)));
    sendPage(res, q, list, (v) => ({ ...v, parent_id: parent }));
  });

  api.get('/taxes/:id', (req: Request, res: Response) => {
    const rate = taxRates.get(Number(req.params.id));
    if (!rate) {
      res.status(404).json({ code: 'woocommerce_rest_invalid_id', message: 'Invalid resource ID.', data: { status: 404 } });
      return;
    }
    res.json(rate);
  });

  // Taxes like WC_REST_Taxes_Controller: every rate, filtered by class, ordered by tax_rate_order, paged.
  api.get('/taxes', (req: Request, res: Response) => {
    const q = queryOf(req);
    const list = [...taxRates.values()].filter((r) => q.class === undefined || r.class === q.class).sort((a, b) => Number(a.order) - Number(b.order) || Number(a.id) - Number(b.id));
    sendPage(res, q, list);
  });

  // WC_REST_System_Status_Controller: the report behind WooCommerce > Status (the parts read here).
  // WordPress's rest_filter_response_fields keeps only the top-level `_fields` asked for.
  api.get('/system_status', (req: Request, res: Response) => {
    const fields = (queryOf(req)._fields ?? '').split(',').filter(Boolean);
    // The sections and fields of a real 10.0.2 answer (values of a small shop); default_timezone is
    // PHP's, which WordPress always sets to UTC whatever the shop's zone.
    const version = options.version ?? '9.4.2';
    const report: JsonObject = {
      environment: {
        home_url: origin, site_url: origin, store_id: '', version, log_directory: '/var/www/html/wp-content/uploads/wc-logs/', log_directory_writable: true,
        wp_version: '6.8.8', wp_multisite: false, wp_memory_limit: 268435456, wp_debug_mode: false, wp_cron: true, language: 'pt_PT', external_object_cache: null,
        server_info: 'nginx/1.22.1', server_architecture: 'Linux 6.1.0 x86_64', php_version: '8.2.29', php_post_max_size: 8388608, php_max_execution_time: 30, php_max_input_vars: 1000, curl_version: '7.88.1, OpenSSL/3.0.17',
        suhosin_installed: false, max_upload_size: 2097152, mysql_version: '10.11.14', mysql_version_string: '10.11.14-MariaDB-0+deb12u2', default_timezone: 'UTC',
        fsockopen_or_curl_enabled: true, soapclient_enabled: false, domdocument_enabled: true, gzip_enabled: true, mbstring_enabled: true,
        remote_post_successful: true, remote_post_response: 200, remote_get_successful: true, remote_get_response: 200,
      },
      database: { wc_database_version: version, database_prefix: 'wp_', maxmind_geoip_database: '', database_tables: { woocommerce: {}, other: {} }, database_size: { data: 2.6, index: 1.9 } },
      active_plugins: [{ plugin: 'woocommerce/woocommerce.php', name: 'WooCommerce', version, version_latest: version, url: 'https://woocommerce.com/', author_name: 'Automattic', author_url: 'https://woocommerce.com', network_activated: false }],
      inactive_plugins: [],
      dropins_mu_plugins: { dropins: [], mu_plugins: [] },
      theme: { name: 'Twenty Twenty-Five', version: '1.2', version_latest: '1.2', author_url: 'https://wordpress.org/', is_child_theme: false, is_block_theme: true, has_woocommerce_support: true, has_woocommerce_file: false, has_outdated_templates: false, overrides: [], parent_name: '', parent_version: '', parent_version_latest: '', parent_author_url: '' },
      settings: {
        api_enabled: true, force_ssl: false, currency: 'EUR', currency_symbol: '&euro;', currency_position: 'right_space', thousand_separator: '.', decimal_separator: ',', number_of_decimals: 2,
        geolocation_enabled: false, taxonomies: { external: 'external', grouped: 'grouped', simple: 'simple', variable: 'variable' }, product_visibility_terms: {}, woocommerce_com_connected: 'no',
        enforce_approved_download_dirs: true, order_datastore: 'Automattic\\WooCommerce\\Internal\\DataStores\\Orders\\OrdersTableDataStore', HPOS_enabled: true, HPOS_sync_enabled: false, enabled_features: [],
      },
      security: { secure_connection: origin.startsWith('https'), hide_errors: true },
      pages: [],
      post_type_counts: [{ type: 'product', count: products.size }],
      logging: { logging_enabled: true, default_handler: 'Automattic\\WooCommerce\\Internal\\Admin\\Logging\\LogHandlerFileV2', retention_period_days: 30, level_threshold: 'none', log_directory_size: '0 B' },
    };
    res.json(fields.length === 0 ? report : Object.fromEntries(Object.entries(report).filter(([key]) => fields.includes(key))));
  });

  // Webhooks like WC_REST_Webhooks_V2_Controller::prepare_item_for_response (v3 inherits it): no
  // secret and no api_version in the answer.
  // Nor failure_count (kept in the webhook's data, never answered); `hooks` lists the WordPress actions.
  api.get('/webhooks', (_req: Request, res: Response) => {
    res.setHeader('X-WP-Total', String(hooks.length));
    res.setHeader('X-WP-TotalPages', '1');
    res.json(
      hooks.map((h) => ({
        id: h.id,
        name: h.name,
        status: h.status,
        topic: h.topic,
        resource: h.resource,
        event: h.event,
        hooks: WEBHOOK_ACTIONS[h.topic] ?? [],
        delivery_url: h.delivery_url,
        ...(options.webhookExtras ? { secret: h.secret, api_version: h.api_version } : {}),
        date_created: '2024-01-01T00:00:00',
        date_created_gmt: '2024-01-01T00:00:00',
        date_modified: null,
        date_modified_gmt: null,
      })),
    );
  });

  app.use(API_ROOT, api);
  if (options.analytics !== false) app.use('/wp-json/wc-analytics', analyticsRoutes(restGate));
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
  });

  /**
   * wc-analytics/reports/taxes as WooCommerce Admin answers it (Reports\Taxes\Controller and
   * DataStore over wc_order_tax_lookup): one row per tax rate; an order counts on its creation date
   * (the site's local time, `after` and `before` both included), each of its tax lines as
   * order_tax/shipping_tax; a refund is a row of its own on its own date, its taxes negative, not
   * counted in orders_count (`total_tax >= 0` only); orders in the statuses analytics excludes by
   * default (pending, failed, cancelled, and drafts) count nothing. No taxable base. Paged (10 by
   * default, 100 at most), ordered by tax_rate_id (desc by default), X-WP-Total(Pages) headers.
   */
  function analyticsRoutes(gate: (req: Request, res: Response, next: NextFunction) => void): express.Router {
    const router = express.Router();
    router.use(gate);
    router.get('/reports/taxes', (req: Request, res: Response) => {
      const q = queryOf(req);
      const excluded = new Set(['pending', 'failed', 'cancelled', 'checkout-draft', 'auto-draft', 'trash']);
      const within = (local: unknown): boolean => {
        const day = String(local ?? '').slice(0, 19);
        return (q.after === undefined || day >= q.after.slice(0, 19)) && (q.before === undefined || day <= q.before.slice(0, 19));
      };
      const rows = new Map<number, { order: Decimal; shipping: Decimal; orders: Set<number> }>();
      const row = (rateId: number) => {
        let found = rows.get(rateId);
        if (!found) rows.set(rateId, (found = { order: parseDecimal('0'), shipping: parseDecimal('0'), orders: new Set<number>() }));
        return found;
      };
      for (const order of orders.values()) {
        if (excluded.has(String(order.status))) continue;
        if (within(order.date_created)) {
          for (const line of (order.tax_lines ?? []) as JsonObject[]) {
            const r = row(Number(line.rate_id));
            r.order = add(r.order, parseDecimal(String(line.tax_total ?? '0')));
            r.shipping = add(r.shipping, parseDecimal(String(line.shipping_tax_total ?? '0')));
            r.orders.add(Number(order.id));
          }
        }
        for (const refund of refunds.get(Number(order.id)) ?? []) {
          if (!within(refund.date_created)) continue;
          // The refund's own tax items: its lines' taxes per rate (negative), rounded per rate as WooCommerce stores them.
          const perRate = (lines: unknown): Map<number, Decimal> => {
            const out = new Map<number, Decimal>();
            for (const line of (lines ?? []) as JsonObject[]) for (const t of (line.taxes ?? []) as JsonObject[]) out.set(Number(t.id), add(out.get(Number(t.id)) ?? parseDecimal('0'), parseDecimal(String(t.total || '0'))));
            return out;
          };
          for (const [rateId, amount] of perRate([...((refund.line_items ?? []) as JsonObject[]), ...((refund.fee_lines ?? []) as JsonObject[])])) row(rateId).order = add(row(rateId).order, round(amount, 2));
          for (const [rateId, amount] of perRate(refund.shipping_lines)) row(rateId).shipping = add(row(rateId).shipping, round(amount, 2));
        }
      }
      const order = (q.order ?? 'desc') === 'asc' ? 1 : -1;
      const all = [...rows].sort(([a], [b]) => (a - b) * order).map(([rateId, r]) => {
        const rate = taxRates.get(rateId);
        // A rate the fake's tax table does not hold (orders built with their own rate ids) is named
        // from an order's tax line; WooCommerce joins its tax-rates table, which holds every rate used.
        const lineOf = [...orders.values()].flatMap((o) => (o.tax_lines ?? []) as JsonObject[]).find((t) => Number(t.rate_id) === rateId);
        return {
          tax_rate_id: rateId,
          name: String(rate?.name ?? lineOf?.label ?? ''),
          tax_rate: Number(rate?.rate ?? lineOf?.rate_percent ?? 0),
          country: String(rate?.country ?? ''),
          state: String(rate?.state ?? ''),
          priority: Number(rate?.priority ?? 1),
          total_tax: Number(formatDecimal(round(add(r.order, r.shipping), 2), 2)),
          order_tax: Number(formatDecimal(round(r.order, 2), 2)),
          shipping_tax: Number(formatDecimal(round(r.shipping, 2), 2)),
          orders_count: r.orders.size,
          _links: { tax: [{ href: `${origin}/wp-json/wc-analytics/taxes/${rateId}` }] },
        };
      });
      const perPage = Math.min(100, Math.max(1, Number(q.per_page ?? 10) || 10));
      const page = Math.max(1, Number(q.page ?? 1) || 1);
      res.setHeader('X-WP-Total', String(all.length));
      res.setHeader('X-WP-TotalPages', String(Math.ceil(all.length / perPage)));
      res.json(all.slice((page - 1) * perPage, page * perPage));
    });
    return router;
  }

  function consumerKeyOf(call: RestCall): string | undefined {
    const q = call.query;
    const header = call.authorization;
    if (call.secure && header.startsWith('Basic ')) {
      const basic = Buffer.from(header.slice(6), 'base64').toString('utf8');
      return basic.slice(0, basic.indexOf(':'));
    }
    return call.secure ? q.consumer_key : q.oauth_consumer_key;
  }

  /** A list answered like WordPress's REST collections: per_page (1..100, default 10), page, X-WP-Total(Pages). */
  function sendPage(res: Response, q: Record<string, string | undefined>, list: JsonObject[], shape: (item: JsonObject) => JsonObject = (item) => item, emptyPages = 1): void {
    // WP_REST_Controller::get_collection_params: per_page minimum 1, maximum 100; outside is 400, not clamped.
    const perPage = Number(q.per_page ?? 10);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) return invalidParam(res, 'per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)', 'rest_out_of_bounds');
    const page = Math.max(Number(q.page ?? 1), 1);
    res.setHeader('X-WP-Total', String(list.length));
    res.setHeader('X-WP-TotalPages', String(list.length === 0 ? emptyPages : Math.ceil(list.length / perPage)));
    res.json(list.slice((page - 1) * perPage, page * perPage).map(shape));
  }

  function checkAuth(call: RestCall): 'ok' | 'missing' | string {
    const q = call.query;
    if (call.secure) {
      // WC_REST_Authentication::perform_basic_authentication: only over SSL; header first, then query.
      const header = call.authorization;
      const basic = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : undefined;
      const [key, secret] = basic !== undefined ? [basic.slice(0, basic.indexOf(':')), basic.slice(basic.indexOf(':') + 1)] : [q.consumer_key, q.consumer_secret];
      if (key === undefined || secret === undefined) return 'missing';
      const known = keys.get(key);
      if (!known) return 'consumer key is invalid';
      return constantTimeEqual(secret, known.secret) ? 'ok' : 'consumer secret is invalid';
    }
    if (q.oauth_signature === undefined && q.oauth_consumer_key === undefined) {
      // Basic auth is only honoured over https by WooCommerce; this fake serves http.
      return 'missing';
    }
    for (const required of ['oauth_consumer_key', 'oauth_timestamp', 'oauth_nonce', 'oauth_signature', 'oauth_signature_method']) {
      if (q[required] === undefined) return `missing OAuth parameter ${required}`;
    }
    const known = keys.get(q.oauth_consumer_key);
    if (!known) return 'consumer key is invalid';
    if (q.oauth_signature_method !== 'HMAC-SHA256' && q.oauth_signature_method !== 'HMAC-SHA1') return 'invalid signature method';
    const timestamp = Number(q.oauth_timestamp);
    // WC_REST_Authentication::check_oauth_timestamp_and_nonce: 15 minutes either way of the SHOP's clock.
    if (!Number.isFinite(timestamp) || Math.abs(serverNow().getTime() / 1000 - timestamp) > 15 * 60) return 'timestamp is expired';
    // WooCommerce's check_oauth_signature: decoded params, sorted by key, each key and value
    // rawurlencoded, joined with '=', rawurlencoded again and glued with %26.
    const params = Object.entries(q).filter(([key]) => key !== 'oauth_signature');
    params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const query = params.map(([k, v]) => rfc3986(`${rfc3986(k)}=${rfc3986(v)}`)).join('%26');
    const baseUri = `${call.secure ? 'https' : 'http'}://${call.host}${call.path}`;
    const toSign = `${call.method.toUpperCase()}&${rfc3986(baseUri)}&${query}`;
    const algorithm = q.oauth_signature_method === 'HMAC-SHA1' ? 'sha1' : 'sha256';
    const expected = createHmac(algorithm, hmacKey(`${known.secret}&`)).update(toSign).digest('base64');
    const given = q.oauth_signature.replace(/ /g, '+');
    if (!constantTimeEqual(expected, given)) return 'provided signature does not match';
    const nonceKey = `${q.oauth_nonce}:${q.oauth_timestamp}`;
    if (seenNonces.has(nonceKey)) return 'nonce has already been used';
    seenNonces.add(nonceKey);
    return 'ok';
  }

  function invalidParam(res: Response, param: string, detail: string, reason = 'rest_invalid_param'): void {
    answer(res, invalidParamAnswer(param, detail, reason));
  }

  function invalidParamAnswer(param: string, detail: string, reason = 'rest_invalid_param'): Answer {
    return { status: 400, body: { code: 'rest_invalid_param', message: `Invalid parameter(s): ${param}`, data: { status: 400, params: { [param]: detail }, details: { [param]: { code: reason, message: detail, data: null } } } } };
  }

  function invalidId(res: Response, status = 404): void {
    answer(res, invalidIdAnswer(status));
  }

  function invalidIdAnswer(status: number): Answer {
    return { status, body: { code: 'woocommerce_rest_shop_order_invalid_id', message: 'Invalid ID.', data: { status } } };
  }

  function withLinks(order: JsonObject): JsonObject {
    return {
      ...order,
      _links: {
        self: [{ href: `${origin}/wp-json/wc/v3/orders/${String(order.id)}` }],
        collection: [{ href: `${origin}/wp-json/wc/v3/orders` }],
      },
    };
  }

  function mergeMeta(order: JsonObject, updates: JsonValue[]): void {
    const meta = (Array.isArray(order.meta_data) ? order.meta_data : []) as unknown as FakeMeta[];
    for (const update of updates) {
      if (update === null || typeof update !== 'object' || Array.isArray(update)) continue;
      const byId = typeof update.id === 'number' ? meta.find((m) => m.id === update.id) : undefined;
      const byKey = typeof update.key === 'string' ? meta.find((m) => m.key === update.key) : undefined;
      const target = byId ?? byKey;
      if (target) target.value = update.value ?? '';
      else if (typeof update.key === 'string') meta.push({ id: nextId++, key: update.key, value: update.value ?? '' });
    }
    order.meta_data = meta as unknown as JsonValue;
  }

  function touch(order: JsonObject): void {
    const stamp = now();
    order.date_modified = localWooDate(stamp, zone);
    order.date_modified_gmt = wooDate(stamp);
  }

  /** A note as WooCommerce stores it; `author` is the shop user for ours, WooCommerce for its own. */
  function addNote(orderId: number, text: string, customer: boolean, author = 'WooCommerce'): FakeNote {
    const stamp = now();
    const note: FakeNote = { id: nextId++, author, date_created: localWooDate(stamp, zone), date_created_gmt: wooDate(stamp), note: text, customer_note: customer };
    notes.set(orderId, [...(notes.get(orderId) ?? []), note]);
    return note;
  }

  /**
   * WC_Order::update_status: what hangs on the new status (wc_order_fully_refunded, stock reduced
   * once when the order is paid or on hold), then WooCommerce's note of the change, in the order a
   * real 10.0.2 wrote them.
   */
  function changeStatus(order: JsonObject, status: string): void {
    const from = String(order.status);
    if (status === from) return;
    order.status = status;
    const id = Number(order.id);
    if (status === 'refunded') {
      const rest = subtract(parseDecimal(String(order.total)), refundedOf(id));
      if (rest.units > 0n) {
        createRefund(id, { amount: formatDecimal(round(rest, 2), 2), reason: 'Order fully refunded.', line_items: [] }, { fire: false, statusFollows: false });
        addNote(id, 'Order status set to refunded. To return funds to the customer you will need to issue a refund through your payment gateway.', false);
      }
    }
    if (['processing', 'completed', 'on-hold'].includes(status)) reduceStock(order);
    addNote(id, `Order status changed from ${ORDER_STATUSES[from] ?? from} to ${ORDER_STATUSES[status] ?? status}.`, false);
  }

  /** wc_reduce_stock_levels: once per order, for products that manage stock, with its note. */
  function reduceStock(order: JsonObject): void {
    const id = Number(order.id);
    if (stockReduced.has(id)) return;
    stockReduced.add(id);
    const changes: string[] = [];
    for (const line of (order.line_items ?? []) as JsonObject[]) {
      const product = products.get(Number(line.product_id));
      if (!product || product.manage_stock !== true || typeof product.stock_quantity !== 'number') continue;
      const before = product.stock_quantity;
      product.stock_quantity = before - Number(line.quantity);
      changes.push(`${String(line.name)} (${String(product.sku ?? '')}) ${before}&rarr;${product.stock_quantity}`);
    }
    if (changes.length > 0) addNote(id, `Stock levels reduced: ${changes.join(', ')}`, false);
  }

  /** Lists as WooCommerce orders them: newest first by date; within one second, by id (seen on 10.0.2). */
  function newestFirst<T extends JsonObject>(list: readonly T[]): T[] {
    return [...list].sort((a, b) => String(b.date_created_gmt).localeCompare(String(a.date_created_gmt)) || Number(a.id) - Number(b.id));
  }

  /** order.refunds: a summary per refund, newest first. */
  function summariseRefunds(order: JsonObject): void {
    order.refunds = newestFirst(refunds.get(Number(order.id)) ?? []).map((r) => ({ id: r.id, reason: r.reason, total: `-${String(r.amount)}` }));
  }

  function refundedOf(orderId: number): Decimal {
    return sum((refunds.get(orderId) ?? []).map((r) => parseDecimal(String(r.amount))));
  }

  /**
   * wc_create_refund: stored, summarised on the order (newest first), order.updated fired; a
   * refund that leaves nothing to refund moves the order to refunded.
   */
  function createRefund(orderId: number, refund: JsonObject, how: { fire?: boolean; statusFollows?: boolean } = {}): JsonObject {
    const order = orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    const stamp = now();
    const stored: JsonObject = { date_created: localWooDate(stamp, zone), date_created_gmt: wooDate(stamp), reason: '', refunded_by: 1, refunded_payment: false, meta_data: [], line_items: [], shipping_lines: [], fee_lines: [], ...structuredClone(refund) };
    if (stored.id === undefined) stored.id = nextId++;
    refunds.set(orderId, [...(refunds.get(orderId) ?? []), stored]);
    summariseRefunds(order);
    if (how.statusFollows !== false && subtract(parseDecimal(String(order.total)), refundedOf(orderId)).units <= 0n) changeStatus(order, 'refunded');
    touch(order);
    if (how.fire !== false && options.echoUpdates !== false) fire('order.updated', order);
    return stored;
  }

  /**
   * Deleting a refund, as a real 10.0.2 did it: gone from the order, but no webhook is queued and
   * the order's date_modified does not move (so a modified_after listing does not show it).
   */
  function removeRefund(orderId: number, refundId: number): void {
    const order = orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    refunds.set(orderId, (refunds.get(orderId) ?? []).filter((r) => r.id !== refundId));
    order.refunds = ((order.refunds ?? []) as JsonObject[]).filter((r) => r.id !== refundId);
  }

  /**
   * PUT line_items like WC_REST_Orders_V2_Controller: an entry with an id changes that line
   * (quantity 0 removes it; a new quantity without totals keeps the old totals, as WooCommerce
   * does), one without adds a line at the product's price; then WC_Order::calculate_totals.
   */
  function changeLines(order: JsonObject, changes: JsonValue[]): void {
    let lines = [...((order.line_items ?? []) as JsonObject[])];
    for (const change of changes) {
      if (change === null || typeof change !== 'object' || Array.isArray(change)) continue;
      const existing = typeof change.id === 'number' ? lines.find((l) => l.id === change.id) : undefined;
      if (existing) {
        if (change.quantity === 0 || change.product_id === null) lines = lines.filter((l) => l !== existing);
        else Object.assign(existing, structuredClone(change));
        continue;
      }
      const product = products.get(Number(change.product_id)) ?? {};
      const quantity = Number(change.quantity ?? 1);
      const total = typeof change.total === 'string' ? change.total : formatDecimal(round(multiply(parseDecimal(String(product.price ?? '0')), parseDecimal(quantity)), 2), 2);
      const rate = [...taxRates.values()].find((r) => r.class === (product.tax_class === '' || product.tax_class === undefined ? 'standard' : product.tax_class));
      lines.push({
        id: nextId++, name: String(change.name ?? product.name ?? ''), product_id: Number(change.product_id ?? 0), variation_id: Number(change.variation_id ?? 0), quantity,
        tax_class: String(product.tax_class ?? ''), subtotal: String(change.subtotal ?? total), subtotal_tax: '0.00', total, total_tax: '0.00',
        taxes: rate ? [{ id: Number(rate.id), total: '0', subtotal: '0' }] : [], meta_data: [], sku: String(product.sku ?? ''), price: Number(total) / quantity, parent_name: null,
      });
      if (rate && !((order.tax_lines ?? []) as JsonObject[]).some((t) => t.rate_id === rate.id)) {
        order.tax_lines = [...((order.tax_lines ?? []) as JsonObject[]), { id: nextId++, rate_code: `PT-${String(rate.name)}-1`, rate_id: rate.id, label: rate.name, compound: false, tax_total: '0.00', shipping_tax_total: '0.00', rate_percent: Number(rate.rate), meta_data: [] }];
      }
    }
    order.line_items = lines as unknown as JsonValue;
    calculateTotals(order);
  }

  /** WC_Order::calculate_totals: taxes per line from the rates, per-line or per-rate rounding, totals. */
  function calculateTotals(order: JsonObject): void {
    const perRate = settings.get('tax')?.get('woocommerce_tax_round_at_subtotal') === 'yes';
    const taxLines = (order.tax_lines ?? []) as JsonObject[];
    const percentOf = (rateId: number): Decimal => {
      const known = taxRates.get(rateId)?.rate ?? taxLines.find((t) => t.rate_id === rateId)?.rate_percent;
      return shift(parseDecimal(String(known ?? 0)), 2);
    };
    const itemTax = new Map<number, Decimal[]>();
    const shipTax = new Map<number, Decimal[]>();
    const retax = (lines: JsonObject[], into: Map<number, Decimal[]>, withSubtotal: boolean): void => {
      for (const line of lines) {
        const taxes = ((line.taxes ?? []) as JsonObject[]).map((t) => {
          const amount = multiply(parseDecimal(String(line.total)), percentOf(Number(t.id)));
          into.set(Number(t.id), [...(into.get(Number(t.id)) ?? []), amount]);
          const subtotal = withSubtotal ? multiply(parseDecimal(String(line.subtotal ?? line.total)), percentOf(Number(t.id))) : undefined;
          return { id: t.id, total: formatDecimal(amount), subtotal: subtotal ? formatDecimal(subtotal) : '' };
        });
        line.taxes = taxes;
        line.total_tax = formatDecimal(round(sum(taxes.map((t) => parseDecimal(t.total))), 2), 2);
        if (withSubtotal) line.subtotal_tax = formatDecimal(round(sum(taxes.map((t) => parseDecimal(t.subtotal || '0'))), 2), 2);
      }
    };
    const items = (order.line_items ?? []) as JsonObject[];
    const shipping = (order.shipping_lines ?? []) as JsonObject[];
    const fees = (order.fee_lines ?? []) as JsonObject[];
    retax(items, itemTax, true);
    retax(shipping, shipTax, false);
    for (const fee of fees) for (const t of (fee.taxes ?? []) as JsonObject[]) itemTax.set(Number(t.id), [...(itemTax.get(Number(t.id)) ?? []), parseDecimal(String(t.total))]);
    const rounded = (amounts: Decimal[] = []): Decimal => (perRate ? round(sum(amounts), 2) : sum(amounts.map((a) => round(a, 2))));
    let cartTax = parseDecimal(0);
    let shippingTax = parseDecimal(0);
    for (const line of taxLines) {
      const tax = rounded(itemTax.get(Number(line.rate_id)));
      const ship = rounded(shipTax.get(Number(line.rate_id)));
      line.tax_total = formatDecimal(tax, 2);
      line.shipping_tax_total = formatDecimal(ship, 2);
      cartTax = add(cartTax, tax);
      shippingTax = add(shippingTax, ship);
    }
    const money = (values: JsonObject[], field: string): Decimal => sum(values.map((v) => parseDecimal(String(v[field] ?? '0'))));
    const itemsTotal = money(items, 'total');
    order.discount_total = formatDecimal(subtract(money(items, 'subtotal'), itemsTotal), 2);
    order.shipping_total = formatDecimal(money(shipping, 'total'), 2);
    order.cart_tax = formatDecimal(cartTax, 2);
    order.shipping_tax = formatDecimal(shippingTax, 2);
    order.total_tax = formatDecimal(add(cartTax, shippingTax), 2);
    order.total = formatDecimal(round(add(add(add(itemsTotal, money(shipping, 'total')), money(fees, 'total')), add(cartTax, shippingTax)), 2), 2);
  }

  /**
   * A change of an order for every active webhook of the topic: sent now ('immediate'), or queued
   * like Action Scheduler, where a delivery already waiting for the same webhook and order absorbs
   * it (WC_Webhook::enqueue checks as_has_scheduled_action with the same arguments).
   */
  function fire(topic: string, order: JsonObject, json?: string): void {
    for (const hook of hooks) {
      if (hook.status !== 'active' || hook.topic !== topic) continue;
      if (options.delivery === 'queued') {
        const orderId = Number(order.id);
        if (!queue.some((q) => q.webhookId === hook.id && q.orderId === orderId)) queue.push({ webhookId: hook.id, topic, orderId });
        continue;
      }
      const delivery = deliver(hook.id, order, json).catch(() => undefined);
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
    }
  }

  /** A product change for every active webhook of the topic, sent at once (the payload as built when it fires). */
  function fireProduct(topic: string, payload: JsonObject): void {
    for (const hook of hooks) {
      if (hook.status !== 'active' || hook.topic !== topic) continue;
      const delivery = sendWooWebhook({ url: hook.delivery_url, secret: hook.secret, topic, payload, webhookId: hook.id, source: `${origin}/` })
        .then((result) => countDelivery(hook, result))
        .catch(() => undefined);
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
    }
  }

  /** WooCommerce: 200..302 is success; more than 5 consecutive failures disable the webhook. */
  function countDelivery(hook: FakeWebhook, result: DeliveryResult): DeliveryResult {
    if (result.status >= 200 && result.status <= 302) hook.failure_count = 0;
    else if (++hook.failure_count > 5) hook.status = 'disabled';
    return result;
  }

  /** `json`: JSON.stringify of withLinks(order) when the caller has made it already (a PUT's answer). */
  async function deliver(webhookId: number, order: JsonObject, json?: string): Promise<DeliveryResult> {
    const hook = hooks.find((h) => h.id === webhookId);
    if (!hook) throw new Error(`no webhook ${webhookId}`);
    const result = await sendWooWebhook({
      url: hook.delivery_url,
      secret: hook.secret,
      topic: hook.topic,
      ...(json === undefined ? { payload: withLinks(order) } : { payload: undefined, json }),
      webhookId: hook.id,
      source: `${origin}/`,
    });
    return countDelivery(hook, result);
  }

  /** An order as the shop stores it: meta and refunds lists present; local dates from the GMT ones in the shop's zone. */
  function storeOrder(order: JsonObject): JsonObject {
    const copy = structuredClone(order);
    if (!Array.isArray(copy.meta_data)) copy.meta_data = [];
    if (!Array.isArray(copy.refunds)) copy.refunds = [];
    delete copy._links;
    for (const field of ['date_created', 'date_modified', 'date_paid', 'date_completed']) {
      const gmt = copy[`${field}_gmt`];
      if (typeof gmt === 'string' && gmt !== '') copy[field] = localWooDate(new Date(`${gmt}Z`), zone);
    }
    orders.set(Number(copy.id), copy);
    return copy;
  }

  /**
   * The lean dispatch: the order routes of every write-back (GET, PUT and POST orders/<id>, GET and
   * POST orders/<id>/notes) answered from node:http before Express, with the same auth, handlers
   * and answers, without Express's router, body-parser and res.json (in the end-to-end bench they
   * cost this process more than the handlers). Everything else goes to Express: https, latency, an
   * armed failure, any other path or method, a body not plainly JSON; a body that does not parse
   * goes to Express unread (replayed), so body-parser refuses it as before.
   */
  function leanRoute(req: IncomingMessage, res: ServerResponse): boolean {
    if (options.lean === false || options.latencyMs || failures.some((f) => f.count > 0)) return false;
    const url = req.url ?? '';
    const match = LEAN_PATH.exec(url);
    const method = req.method ?? '';
    if (!match || (method !== 'GET' && method !== 'PUT' && method !== 'POST') || (method === 'PUT' && match[2] !== undefined)) return false;
    const path = match[0];
    const route = (body: JsonObject): Answer & { changed?: JsonObject; partial?: boolean } => {
      const query = lastValues(url.length > path.length ? url.slice(path.length + 1) : '');
      const refused = refusal({ method, secure: false, host: req.headers.host ?? '', path, query, authorization: req.headers.authorization ?? '' });
      if (refused) return refused;
      const id = Number(match[1]);
      if (match[2] !== undefined) return method === 'GET' ? notesAnswer(id, query.type) : noteAnswer(id, body);
      return method === 'GET' ? orderAnswer(id) : onlyFieldsAsked(updateOrder(id, body), query);
    };
    const serve = (body: JsonObject, raw: Buffer): void => {
      // Logged as Express logs a call its api router answered: the path under the router's mount.
      const log = (): void => void requests.push({ method, path: path.slice(API_ROOT.length), status: res.statusCode });
      res.on('finish', log);
      res.setHeader('Date', serverNow().toUTCString());
      let answered: Answer & { changed?: JsonObject; partial?: boolean };
      try {
        answered = route(body);
      } catch (error) {
        // A handler that throws: Express's error handler answers it, as when its route threw.
        res.removeListener('finish', log);
        const again = replayed(req, raw);
        thrown.set(again, error);
        void app(again, res);
        return;
      }
      const json = sendJson(res, answered);
      if (!answered.changed) return;
      try {
        afterUpdate(answered.changed, answered.partial ? undefined : json);
      } catch {
        // After the answer, as Express's error handler does then: the connection is dropped.
        req.socket.destroy();
      }
    };
    if (method === 'GET') {
      // A GET with a body: body-parser would read it (and refuse bad JSON) before the route; Express's.
      if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return false;
      serve({}, Buffer.alloc(0));
      return true;
    }
    if (!plainJson(req)) return false;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      const body = jsonBody(raw.toString('utf8'));
      if (body === undefined) void app(replayed(req, raw), res);
      else serve(body, raw);
    });
    return true;
  }

  const server: Server = await new Promise((resolve) => {
    if (options.tls) {
      const s = createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, app);
      s.listen(0, '127.0.0.1', () => resolve(s));
    } else {
      const s = createServer((req, res) => {
        if (!leanRoute(req, res)) void app(req, res);
      });
      s.listen(0, '127.0.0.1', () => resolve(s));
    }
  });
  origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    consumerKey,
    consumerSecret,
    requests,
    orderListings,
    async close() {
      await Promise.allSettled([...pending]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    putProduct(product) {
      const id = Number(product.id);
      const known = products.has(id);
      const stored: JsonObject = { type: 'simple', status: 'publish', sku: '', virtual: false, downloadable: false, tax_class: '', categories: [{ id: 15, name: 'Uncategorized', slug: 'uncategorized' }], ...structuredClone(product) };
      products.set(id, stored);
      fireProduct(known ? 'product.updated' : 'product.created', { ...stored, parent_id: 0 });
    },
    putVariation(parentId, variation) {
      const list = variations.get(parentId) ?? new Map<number, JsonObject>();
      const id = Number(variation.id);
      const known = list.has(id);
      const stored: JsonObject = { status: 'publish', sku: '', virtual: false, downloadable: false, tax_class: '', ...structuredClone(variation) };
      list.set(id, stored);
      variations.set(parentId, list);
      fireProduct(known ? 'product.updated' : 'product.created', { ...stored, type: 'variation', parent_id: parentId, categories: [] });
    },
    trashProduct(id) {
      const product = products.get(id);
      if (product) product.status = 'trash';
      else for (const list of variations.values()) list.delete(id);
      fireProduct('product.deleted', { id });
    },
    setSetting(group, id, value) {
      const known = settings.get(group) ?? new Map<string, string>();
      known.set(id, value);
      settings.set(group, known);
    },
    putTaxRate(rate) {
      const percent = Number(rate.rate).toFixed(4);
      const postcodes = rate.postcodes ?? [];
      taxRates.set(rate.id, { id: rate.id, country: rate.country ?? 'PT', state: rate.state ?? '', postcode: postcodes[0] ?? '', city: '', postcodes, cities: [], rate: percent, name: rate.name, priority: 1, compound: false, shipping: true, order: 0, class: rate.class ?? 'standard' });
    },
    addKey(permissions) {
      const key = { consumerKey: `ck_${randomBytes(20).toString('hex')}`, consumerSecret: `cs_${randomBytes(20).toString('hex')}` };
      keys.set(key.consumerKey, { secret: key.consumerSecret, permissions });
      return key;
    },
    putOrder(order) {
      return storeOrder(order);
    },
    createOrder(order, via = 'rest') {
      const stored = storeOrder(order);
      for (const topic of via === 'rest' ? ['order.created', 'order.updated'] : ['order.updated', 'order.created']) fire(topic, stored);
      return stored;
    },
    order: (id) => orders.get(id),
    deleteOrder(id) {
      orders.delete(id);
      notes.delete(id);
    },
    editOrder(id, changes, how = {}) {
      const order = orders.get(id);
      if (!order) throw new Error(`no order ${id}`);
      const { status, ...rest } = structuredClone(changes);
      Object.assign(order, rest);
      if (typeof status === 'string') changeStatus(order, status);
      touch(order);
      if (how.fire) fire('order.updated', order);
      return order;
    },
    notes: (orderId) => notes.get(orderId) ?? [],
    deleteMeta(orderId, keys) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      const meta = (Array.isArray(order.meta_data) ? order.meta_data : []) as unknown as FakeMeta[];
      const kept = meta.filter((m) => !keys(m.key));
      order.meta_data = kept as unknown as JsonValue;
      return meta.length - kept.length;
    },
    meta(orderId, key) {
      const meta = (orders.get(orderId)?.meta_data ?? []) as unknown as FakeMeta[];
      return meta.find((m) => m.key === key)?.value;
    },
    addRefund(orderId, refund) {
      return createRefund(orderId, refund);
    },
    deleteRefund(orderId, refundId) {
      removeRefund(orderId, refundId);
    },
    queued: () => queue.map((q) => ({ ...q })),
    async runQueue() {
      const due = queue.splice(0, queue.length);
      const results: (DeliveryResult & QueuedDelivery)[] = [];
      for (const item of due) {
        const order = orders.get(item.orderId);
        const hook = hooks.find((h) => h.id === item.webhookId);
        // An order deleted, or a webhook paused, before the queue ran: WooCommerce skips the delivery.
        if (!order || hook?.status !== 'active') continue;
        results.push({ ...item, ...(await deliver(item.webhookId, order)) });
      }
      return results;
    },
    loseQueue() {
      return queue.splice(0, queue.length).length;
    },
    addWebhook(webhook) {
      const [resource, event] = webhook.topic.split('.');
      const stored: FakeWebhook = { id: nextId++, name: webhook.name ?? `${resource.charAt(0).toUpperCase()}${resource.slice(1)} ${event}`, resource, event, failure_count: 0, api_version: 'wp_api_v3', ...webhook };
      hooks.push(stored);
      return stored;
    },
    webhooks: () => hooks,
    failNext(count, status, method, answer = {}) {
      failures.push({ count, status, method, ...answer });
    },
    clearFailures() {
      failures.length = 0;
    },
    deliver,
    async settle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

/** wp_json_encode: PHP's json_encode escapes "/" and writes every non-ASCII UTF-16 unit as \uXXXX. */
export function wpJsonEncode(value: unknown): string {
  return wpEscape(JSON.stringify(value));
}

/** wp_json_encode's escapes applied to JSON.stringify's text, in one pass. */
function wpEscape(json: string): string {
  return json.replace(/[/\u0080-\uffff]/g, (ch) => (ch === '/' ? '\\/' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** HMAC keys made once per secret: a string key is set up again on every HMAC. */
const HMAC_KEYS = new Map<string, KeyObject>();
function hmacKey(secret: string): KeyObject {
  let key = HMAC_KEYS.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    HMAC_KEYS.set(secret, key);
  }
  return key;
}

export function signWooBody(body: string, secret: string): string {
  return createHmac('sha256', hmacKey(secret)).update(body, 'utf8').digest('base64');
}

export interface SendWebhookOptions {
  url: string;
  secret: string;
  topic: string;
  payload: unknown;
  /** JSON.stringify(payload), when the caller has it already: sent wp_json_encode'd like the payload. */
  json?: string;
  webhookId?: number;
  source?: string;
  /** Overrides for tests of bad input. */
  signature?: string | null;
  rawBody?: string;
}

/** Posts one delivery exactly as WooCommerce's WC_Webhook::deliver() builds it. */
export async function sendWooWebhook(options: SendWebhookOptions): Promise<DeliveryResult> {
  const body = options.rawBody ?? (options.json === undefined ? wpJsonEncode(options.payload) : wpEscape(options.json)).trim();
  const [resource, event] = options.topic.split('.');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'WooCommerce/9.4.2 Hookshot (WordPress/6.7.1)',
    'x-wc-webhook-source': options.source ?? 'https://shop.example.pt/',
    'x-wc-webhook-topic': options.topic,
    'x-wc-webhook-resource': resource ?? '',
    'x-wc-webhook-event': event ?? '',
    'x-wc-webhook-id': String(options.webhookId ?? 1),
    // wp_hash( id . strtotime('now') ): changes every delivery, so it cannot dedupe anything.
    'x-wc-webhook-delivery-id': randomUUID().replace(/-/g, ''),
  };
  const signature = options.signature === undefined ? signWooBody(body, options.secret) : options.signature;
  if (signature !== null) headers['x-wc-webhook-signature'] = signature;
  // undici's request rather than fetch: the same POST (no redirect followed, 60 s like WooCommerce),
  // without fetch's web-stream machinery, which cost this process more than the connector's route
  // spent on the delivery in the end-to-end benchmark.
  const response = await request(options.url, { method: 'POST', headers, body, headersTimeout: 60_000, bodyTimeout: 60_000 });
  return { status: response.statusCode, body: await response.body.text() };
}

/** The creation ping: form-encoded `webhook_id=N`, unsigned, and without any X-WC-Webhook-* header (WC_Webhook::deliver_ping). */
export async function sendWooPing(url: string, webhookId: number): Promise<DeliveryResult> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'WooCommerce/10.0.2 Hookshot (WordPress/6.8.8)' },
    body: `webhook_id=${webhookId}`,
  });
  return { status: response.status, body: await response.text() };
}

/** WooCommerce's date format, in GMT (the *_gmt fields). */
export function wooDate(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** WooCommerce's date format in the shop's time zone (the fields without _gmt): wall time, no offset. */
export function localWooDate(date: Date, timeZone: string): string {
  // In UTC the wall time is the GMT one (for the years 1000-9999 both write alike).
  if (timeZone === 'UTC') return wooDate(date);
  // sv-SE writes "2026-07-01 00:30:00": ISO order, 24 h.
  return wallClock(timeZone).format(date).replace(' ', 'T');
}

/** localeCompare(b, 'en', { numeric: true }), its collator made once. */
const NUMERIC_ORDER = new Intl.Collator('en', { numeric: true });

/** One formatter per zone: making one per call cost most of a 10,000-order listing's time. */
const WALL_CLOCKS = new Map<string, Intl.DateTimeFormat>();
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let format = WALL_CLOCKS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    WALL_CLOCKS.set(timeZone, format);
  }
  return format;
}

/** A WooCommerce date as ms: with an offset as given, else wall time in `timeZone` (dates_are_gmt false means the shop's zone). */
function parseWooDate(text: string, timeZone: string): number {
  if (/[zZ]|[+-]\d\d:\d\d$/.test(text)) return Date.parse(text);
  if (timeZone === 'UTC') return Date.parse(`${text}Z`);
  const asUtc = Date.parse(`${text}Z`);
  const offset = Date.parse(`${localWooDate(new Date(asUtc), timeZone)}Z`) - asUtc;
  return asUtc - offset;
}

/** What the REST API's auth and routes read of a request, from Express's or from node:http's (the lean dispatch). */
interface RestCall {
  method: string;
  secure: boolean;
  host: string;
  /** The whole path, without the query: what OAuth signs. */
  path: string;
  /** The query's parameters, the last value of each (lastValues). */
  query: Record<string, string>;
  authorization: string;
}

/** An answer of the REST API: status and JSON body. */
interface Answer {
  status: number;
  body: JsonValue;
}

const API_ROOT = '/wp-json/wc/v3';

/** The lean dispatch's paths: orders/<id> and orders/<id>/notes, as written (Express matches the rest: case, trailing slash). */
const LEAN_PATH = /^\/wp-json\/wc\/v3\/orders\/(\d+)(\/notes)?(?=\?|$)/;

/** What body-parser's json() reads as it is: JSON in UTF-8, not compressed, its length given, within the 5 MB limit. */
function plainJson(req: IncomingMessage): boolean {
  const { headers } = req;
  return /^application\/json(;\s*charset=utf-8)?$/i.test(headers['content-type'] ?? '') && headers['content-encoding'] === undefined && headers['transfer-encoding'] === undefined && headers['content-length'] !== undefined && Number(headers['content-length']) <= 5 * 1024 * 1024;
}

/** The body as body-parser's json() (strict) gives it: empty is {}, else an object or an array; undefined where it refuses or decodes otherwise (a BOM). */
function jsonBody(text: string): JsonObject | undefined {
  if (text === '') return {};
  try {
    const value = JSON.parse(text) as JsonValue;
    return value !== null && typeof value === 'object' ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The request with its body to read again, for Express: its body-parser answers what the lean dispatch does not read. */
function replayed(req: IncomingMessage, raw: Buffer): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  Object.assign(copy, { method: req.method, url: req.url, headers: req.headers, rawHeaders: req.rawHeaders, httpVersion: req.httpVersion, httpVersionMajor: req.httpVersionMajor, httpVersionMinor: req.httpVersionMinor });
  copy.push(raw);
  copy.push(null);
  copy.complete = true;
  return copy;
}

/** res.json's answer (Express's headers, in its order), written at once; returns the JSON text. */
function sendJson(res: ServerResponse, { status, body }: Answer): string {
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
  return json;
}

function restCallOf(req: Request): RestCall {
  return { method: req.method, secure: req.secure, host: req.get('host') ?? '', path: `${req.baseUrl}${req.path}`, query: queryOf(req), authorization: req.get('authorization') ?? '' };
}

function queryOf(req: Request): Record<string, string> {
  return lastValues(req.originalUrl.split('?')[1] ?? '');
}

/** The query's parameters as PHP reads them: the last value of a repeated key. */
function lastValues(search: string): Record<string, string> {
  // PHP keeps the last value of a repeated key; URLSearchParams gives them all in order.
  const params = new URLSearchParams(search);
  const out: Record<string, string> = {};
  for (const [key, value] of params) out[key] = value;
  return out;
}

function rfc3986(text: string): string {
  // Most of what is signed (the oauth_* names and values, ids) has nothing to encode.
  if (/^[A-Za-z0-9\-._~]*$/.test(text)) return text;
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * WooCommerce's order search (`search=` on GET orders), as HPOS's OrdersTableSearchQuery does it on
 * a real 10.0.2 (docs/real-shop-findings.md): the term is sanitize_text_field'ed (tags stripped, runs
 * of white space made one space, ends trimmed); a numeric term (PHP's is_numeric: `22.0`, `022`) is
 * also the order id absint() gives; otherwise, and besides, the term is matched anywhere in the
 * billing and the shipping address index (each on its own: `first_name last_name company address_1
 * address_2 city state postcode country email phone`, empty fields kept, so "da Silva  Rua" holds
 * two spaces), the transaction id and the order's item names, ignoring case and accents like the
 * tables' utf8mb4_unicode_520_ci collation ("joao" finds "João"). With `include` both apply (HPOS;
 * a posts-storage shop drops `include`: the console never sends both).
 */
function searchMatcher(term: string): (order: JsonObject) => boolean {
  const wanted = fold(sanitizeTextField(term));
  // is_numeric: optional sign, digits with an optional fraction, an optional exponent (the ends are already trimmed).
  const numeric = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(wanted) ? Math.abs(Math.trunc(Number(wanted))) : undefined;
  const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));
  const index = (block: unknown, fields: readonly string[]): string => fields.map((field) => text((block as Record<string, unknown> | undefined)?.[field])).join(' ');
  return (order) => {
    if (wanted === '') return true;
    if (numeric !== undefined && Number(order.id) === numeric) return true;
    const haystacks = [
      index(order.billing, ['first_name', 'last_name', 'company', 'address_1', 'address_2', 'city', 'state', 'postcode', 'country', 'email', 'phone']),
      index(order.shipping, ['first_name', 'last_name', 'company', 'address_1', 'address_2', 'city', 'state', 'postcode', 'country', 'phone']),
      text(order.transaction_id),
      ...((order.line_items ?? []) as JsonObject[]).map((item) => text(item.name)),
    ];
    return haystacks.some((haystack) => fold(haystack).includes(wanted));
  };
}

/** WordPress's sanitize_text_field, the parts a search term meets: tags out, %XX octets out, white space runs one space, trimmed. */
function sanitizeTextField(text: string): string {
  return text
    .replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, '')
    .replace(/<[^>]*>/g, '')
    .replace(/%[a-f0-9]{2}/gi, '')
    .replace(/[\r\n\t ]+/g, ' ')
    .trim();
}

/** Case and accents folded, as a utf8mb4_unicode_520_ci comparison sees letters ("Conceição" = "conceicao"). */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
