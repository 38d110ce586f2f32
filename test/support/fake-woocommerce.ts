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
 * - deliveries signed over the exact body bytes, which are wp_json_encode'd ("/" escaped, non-ASCII \uXXXX).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import express, { type NextFunction, type Request, type Response } from 'express';
import { request } from 'undici';

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
  added_by_user: boolean;
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
  /** Deliver order.updated to active webhooks after a REST update (the echo). Default true. */
  echoUpdates?: boolean;
  now?: () => Date;
  /** Serve https with this key and certificate: then, like WooCommerce over SSL, Basic auth (or
   * consumer_key/consumer_secret query parameters) is checked instead of OAuth 1.0a. */
  tls?: { key: string; cert: string };
  /** Called after every REST update of an order (benchmarks time the write-back with it). */
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
  /** Adds or replaces a product (GET products, products/<id>): at least id, name, virtual, downloadable. */
  putProduct(product: JsonObject): void;
  /** Adds or replaces a variation of a variable product (GET products/<parent>/variations): id, virtual, downloadable. */
  putVariation(parentId: number, variation: JsonObject): void;
  /** Sets a setting's value, e.g. ('tax', 'woocommerce_tax_round_at_subtotal', 'yes'). */
  setSetting(group: string, id: string, value: string): void;
  /** Adds or replaces a tax rate (GET taxes/<id>, GET taxes): WooCommerce answers its rate as a string ("23.0000"). */
  putTaxRate(rate: { id: number; rate: string; name: string; country?: string; class?: string; state?: string; postcodes?: string[] }): void;
  /** Another REST key of the shop with these permissions (the first key is consumerKey/consumerSecret). */
  addKey(permissions: FakeKeyPermissions): { consumerKey: string; consumerSecret: string };
  order(id: number): JsonObject | undefined;
  /** Deletes an order for good (WooCommerce's "Delete permanently"): its REST calls then answer invalid_id. */
  deleteOrder(id: number): void;
  /** Updates an order the way the shop admin would (status, fields); bumps date_modified; no echo. */
  editOrder(id: number, changes: JsonObject): JsonObject;
  notes(orderId: number): FakeNote[];
  meta(orderId: number, key: string): JsonValue | undefined;
  /** Creates a refund on an order like WooCommerce: stored under refunds, summarised in order.refunds. */
  addRefund(orderId: number, refund: JsonObject): JsonObject;
  addWebhook(webhook: Omit<FakeWebhook, 'id' | 'resource' | 'event' | 'failure_count' | 'name' | 'api_version'> & { name?: string; api_version?: string }): FakeWebhook;
  webhooks(): FakeWebhook[];
  /** Requests seen by the REST API: method, path (no query), status. */
  requests: { method: string; path: string; status: number }[];
  /** The next `count` REST requests matching the method answer `status` (e.g. 500, 503). */
  failNext(count: number, status: number, method?: string): void;
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
  ]);
  const keys = new Map<string, { secret: string; permissions: FakeKeyPermissions }>([[consumerKey, { secret: consumerSecret, permissions: options.permissions ?? 'read_write' }]]);
  const seenNonces = new Set<string>();
  const requests: RunningFakeWoo['requests'] = [];
  const failures: { count: number; status: number; method?: string }[] = [];
  const pending = new Set<Promise<unknown>>();
  let nextId = 10_000;
  let origin = '';

  const app = express();
  app.disable('x-powered-by');
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    res.on('finish', () => requests.push({ method: req.method, path: req.path, status: res.statusCode }));
    if (options.latencyMs) await delay(options.latencyMs);
    next();
  });
  app.use(express.json({ limit: '5mb' }));

  const api = express.Router();
  api.use((req: Request, res: Response, next: NextFunction) => {
    const auth = checkAuth(req);
    if (auth !== 'ok') {
      const code = auth === 'missing' ? 'woocommerce_rest_cannot_view' : 'woocommerce_rest_authentication_error';
      const message = auth === 'missing' ? 'Sorry, you cannot list resources.' : `Invalid signature - ${auth}.`;
      res.status(401).json({ code, message, data: { status: 401 } });
      return;
    }
    // WC_REST_Authentication::check_permissions, on rest_pre_dispatch: before any route is matched.
    const permissions = keys.get(consumerKeyOf(req) ?? '')?.permissions;
    const needs = req.method === 'GET' || req.method === 'HEAD' ? 'read' : req.method === 'OPTIONS' ? undefined : 'write';
    if (needs && permissions !== needs && permissions !== 'read_write') {
      res.status(401).json({ code: 'woocommerce_rest_authentication_error', message: `The API key provided does not have ${needs} permissions.`, data: { status: 401 } });
      return;
    }
    const failure = failures.find((f) => f.count > 0 && (f.method === undefined || f.method === req.method));
    if (failure) {
      failure.count -= 1;
      res.status(failure.status).json({ code: 'internal_server_error', message: 'Injected failure', data: { status: failure.status } });
      return;
    }
    next();
  });

  api.get('/orders', (req: Request, res: Response) => {
    const q = lastValues(req);
    const statuses = (q.status ?? 'any').split(',').filter(Boolean);
    const gmt = q.dates_are_gmt === 'true' || q.dates_are_gmt === '1';
    let list = [...orders.values()].filter((o) => statuses.includes('any') ? o.status !== 'checkout-draft' && o.status !== 'trash' : statuses.includes(String(o.status)));
    const cmp = (field: string, bound: string | undefined, after: boolean): void => {
      if (!bound) return;
      const limit = parseWooDate(bound, gmt);
      list = list.filter((o) => {
        const value = parseWooDate(String(o[gmt ? `${field}_gmt` : field]), gmt);
        return after ? value > limit : value < limit;
      });
    };
    cmp('date_created', q.after, true);
    cmp('date_created', q.before, false);
    cmp('date_modified', q.modified_after, true);
    cmp('date_modified', q.modified_before, false);
    const ascending = (q.order ?? 'desc') === 'asc';
    const sortField = q.orderby === 'modified' ? 'date_modified_gmt' : q.orderby === 'id' ? 'id' : 'date_created_gmt';
    list.sort((a, b) => (String(a[sortField]).localeCompare(String(b[sortField]), 'en', { numeric: true }) || Number(a.id) - Number(b.id)) * (ascending ? 1 : -1));
    sendPage(res, q, list, withLinks);
  });

  api.get('/orders/:id', (req: Request, res: Response) => {
    const order = orders.get(Number(req.params.id));
    if (!order) return invalidId(res);
    res.json(withLinks(order));
  });

  const updateOrder = (req: Request, res: Response): void => {
    const id = Number(req.params.id);
    const order = orders.get(id);
    // WC_REST_CRUD_Controller::update_item answers a missing object 400 (a GET answers it 404).
    if (!order) return invalidId(res, 400);
    const body = (req.body ?? {}) as JsonObject;
    for (const [key, value] of Object.entries(body)) {
      if (key === 'meta_data' && Array.isArray(value)) mergeMeta(order, value);
      else if (key !== 'id' && key !== 'refunds' && key !== 'line_items') order[key] = value;
    }
    touch(order);
    res.json(withLinks(order));
    options.onUpdate?.(order);
    if (options.echoUpdates !== false) fire('order.updated', order);
  };
  api.put('/orders/:id', updateOrder);
  api.post('/orders/:id', updateOrder);

  api.get('/orders/:id/notes', (req: Request, res: Response) => {
    const id = Number(req.params.id);
    if (!orders.has(id)) return invalidId(res);
    res.json([...(notes.get(id) ?? [])].reverse());
  });
  api.post('/orders/:id/notes', (req: Request, res: Response) => {
    const id = Number(req.params.id);
    if (!orders.has(id)) return invalidId(res);
    const body = (req.body ?? {}) as JsonObject;
    if (typeof body.note !== 'string' || body.note === '') {
      res.status(400).json({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): note', data: { status: 400, params: ['note'] } });
      return;
    }
    const stamp = now();
    const note: FakeNote = {
      id: nextId++,
      author: 'WooCommerce',
      date_created: wooDate(stamp),
      date_created_gmt: wooDate(stamp),
      note: body.note,
      customer_note: body.customer_note === true || body.customer_note === 'true',
      added_by_user: false,
    };
    notes.set(id, [...(notes.get(id) ?? []), note]);
    res.status(201).json(note);
  });

  api.get('/orders/:id/refunds', (req: Request, res: Response) => {
    const id = Number(req.params.id);
    if (!orders.has(id)) return invalidId(res);
    res.json(refunds.get(id) ?? []);
  });
  api.get('/orders/:id/refunds/:refundId', (req: Request, res: Response) => {
    const refund = (refunds.get(Number(req.params.id)) ?? []).find((r) => r.id === Number(req.params.refundId));
    if (!refund) {
      res.status(404).json({ code: 'woocommerce_rest_shop_order_refund_invalid_id', message: 'Invalid ID.', data: { status: 404 } });
      return;
    }
    res.json(refund);
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
    const q = lastValues(req);
    const include = (q.include ?? '').split(',').filter(Boolean).map(Number);
    const list = [...products.values()].filter((p) => include.length === 0 || include.includes(Number(p.id)));
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
    const q = lastValues(req);
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
    const q = lastValues(req);
    const list = [...taxRates.values()].filter((r) => q.class === undefined || r.class === q.class).sort((a, b) => Number(a.order) - Number(b.order) || Number(a.id) - Number(b.id));
    sendPage(res, q, list);
  });

  // WC_REST_System_Status_Controller: the report behind WooCommerce > Status (the parts read here).
  // WordPress's rest_filter_response_fields keeps only the top-level `_fields` asked for.
  api.get('/system_status', (req: Request, res: Response) => {
    const fields = (lastValues(req)._fields ?? '').split(',').filter(Boolean);
    const report: JsonObject = {
      environment: { home_url: origin, site_url: origin, version: options.version ?? '9.4.2', wp_version: '6.7.1', php_version: '8.2.0', default_timezone: 'UTC' },
      database: { wc_database_version: options.version ?? '9.4.2' },
      active_plugins: [],
      settings: { api_enabled: true, currency: 'EUR', currency_symbol: '&euro;' },
      security: { secure_connection: origin.startsWith('https'), hide_errors: true },
    };
    res.json(fields.length === 0 ? report : Object.fromEntries(Object.entries(report).filter(([key]) => fields.includes(key))));
  });

  // Webhooks like WC_REST_Webhooks_V2_Controller::prepare_item_for_response (v3 inherits it): no
  // secret and no api_version in the answer.
  api.get('/webhooks', (_req: Request, res: Response) => {
    res.setHeader('X-WP-Total', String(hooks.length));
    res.setHeader('X-WP-TotalPages', '1');
    res.json(
      hooks.map((h) => ({
        ...h,
        secret: options.webhookExtras ? h.secret : undefined,
        api_version: options.webhookExtras ? h.api_version : undefined,
        delivery_url: h.delivery_url,
        date_created: '2024-01-01T00:00:00',
      })),
    );
  });

  app.use('/wp-json/wc/v3', api);
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
  });

  function consumerKeyOf(req: Request): string | undefined {
    const q = lastValues(req);
    const header = req.get('authorization') ?? '';
    if (req.secure && header.startsWith('Basic ')) {
      const basic = Buffer.from(header.slice(6), 'base64').toString('utf8');
      return basic.slice(0, basic.indexOf(':'));
    }
    return req.secure ? q.consumer_key : q.oauth_consumer_key;
  }

  /** A list answered like WordPress's REST collections: per_page (1..100, default 10), page, X-WP-Total(Pages). */
  function sendPage(res: Response, q: Record<string, string | undefined>, list: JsonObject[], shape: (item: JsonObject) => JsonObject = (item) => item): void {
    const perPage = Math.min(Math.max(Number(q.per_page ?? 10), 1), 100);
    const page = Math.max(Number(q.page ?? 1), 1);
    res.setHeader('X-WP-Total', String(list.length));
    res.setHeader('X-WP-TotalPages', String(Math.max(1, Math.ceil(list.length / perPage))));
    res.json(list.slice((page - 1) * perPage, page * perPage).map(shape));
  }

  function checkAuth(req: Request): 'ok' | 'missing' | string {
    const q = lastValues(req);
    if (req.secure) {
      // WC_REST_Authentication::perform_basic_authentication: only over SSL; header first, then query.
      const header = req.get('authorization') ?? '';
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
    if (!Number.isFinite(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 15 * 60) return 'timestamp is expired';
    // WooCommerce's check_oauth_signature: decoded params, sorted by key, each key and value
    // rawurlencoded, joined with '=', rawurlencoded again and glued with %26.
    const params = Object.entries(q).filter(([key]) => key !== 'oauth_signature');
    params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const query = params.map(([k, v]) => rfc3986(`${rfc3986(k)}=${rfc3986(v)}`)).join('%26');
    const baseUri = `${req.protocol}://${req.get('host') ?? ''}${req.baseUrl}${req.path}`;
    const toSign = `${req.method.toUpperCase()}&${rfc3986(baseUri)}&${query}`;
    const algorithm = q.oauth_signature_method === 'HMAC-SHA1' ? 'sha1' : 'sha256';
    const expected = createHmac(algorithm, `${known.secret}&`).update(toSign).digest('base64');
    const given = q.oauth_signature.replace(/ /g, '+');
    if (!constantTimeEqual(expected, given)) return 'provided signature does not match';
    const nonceKey = `${q.oauth_nonce}:${q.oauth_timestamp}`;
    if (seenNonces.has(nonceKey)) return 'nonce has already been used';
    seenNonces.add(nonceKey);
    return 'ok';
  }

  function invalidId(res: Response, status = 404): void {
    res.status(status).json({ code: 'woocommerce_rest_shop_order_invalid_id', message: 'Invalid ID.', data: { status } });
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
    order.date_modified = wooDate(stamp);
    order.date_modified_gmt = wooDate(stamp);
  }

  function fire(topic: string, order: JsonObject): void {
    for (const hook of hooks) {
      if (hook.status !== 'active' || hook.topic !== topic) continue;
      const delivery = deliver(hook.id, order).catch(() => undefined);
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
    }
  }

  async function deliver(webhookId: number, order: JsonObject): Promise<DeliveryResult> {
    const hook = hooks.find((h) => h.id === webhookId);
    if (!hook) throw new Error(`no webhook ${webhookId}`);
    const result = await sendWooWebhook({
      url: hook.delivery_url,
      secret: hook.secret,
      topic: hook.topic,
      payload: withLinks(order),
      webhookId: hook.id,
      source: `${origin}/`,
    });
    // WooCommerce: 200..302 is success; more than 5 consecutive failures disable the webhook.
    if (result.status >= 200 && result.status <= 302) hook.failure_count = 0;
    else if (++hook.failure_count > 5) hook.status = 'disabled';
    return result;
  }

  const server: Server = await new Promise((resolve) => {
    if (options.tls) {
      const s = createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, app);
      s.listen(0, '127.0.0.1', () => resolve(s));
    } else {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    }
  });
  origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    consumerKey,
    consumerSecret,
    requests,
    async close() {
      await Promise.allSettled([...pending]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    putProduct(product) {
      products.set(Number(product.id), { type: 'simple', status: 'publish', sku: '', virtual: false, downloadable: false, tax_class: '', categories: [{ id: 15, name: 'Uncategorized', slug: 'uncategorized' }], ...structuredClone(product) });
    },
    putVariation(parentId, variation) {
      const list = variations.get(parentId) ?? new Map<number, JsonObject>();
      list.set(Number(variation.id), { status: 'publish', sku: '', virtual: false, downloadable: false, tax_class: '', ...structuredClone(variation) });
      variations.set(parentId, list);
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
      const copy = structuredClone(order);
      if (!Array.isArray(copy.meta_data)) copy.meta_data = [];
      if (!Array.isArray(copy.refunds)) copy.refunds = [];
      delete copy._links;
      orders.set(Number(copy.id), copy);
      return copy;
    },
    order: (id) => orders.get(id),
    deleteOrder(id) {
      orders.delete(id);
      notes.delete(id);
    },
    editOrder(id, changes) {
      const order = orders.get(id);
      if (!order) throw new Error(`no order ${id}`);
      Object.assign(order, structuredClone(changes));
      touch(order);
      return order;
    },
    notes: (orderId) => notes.get(orderId) ?? [],
    meta(orderId, key) {
      const meta = (orders.get(orderId)?.meta_data ?? []) as unknown as FakeMeta[];
      return meta.find((m) => m.key === key)?.value;
    },
    addRefund(orderId, refund) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      const stamp = now();
      const stored: JsonObject = { date_created: wooDate(stamp), date_created_gmt: wooDate(stamp), reason: '', refunded_by: 1, refunded_payment: false, meta_data: [], line_items: [], ...structuredClone(refund) };
      if (stored.id === undefined) stored.id = nextId++;
      refunds.set(orderId, [stored, ...(refunds.get(orderId) ?? [])]);
      const summary = { id: stored.id, reason: stored.reason, total: `-${String(stored.amount)}` };
      order.refunds = [summary, ...((order.refunds ?? []) as JsonValue[])];
      touch(order);
      return stored;
    },
    addWebhook(webhook) {
      const [resource, event] = webhook.topic.split('.');
      const stored: FakeWebhook = { id: nextId++, name: webhook.name ?? `Order ${event}`, resource, event, failure_count: 0, api_version: 'wp_api_v3', ...webhook };
      hooks.push(stored);
      return stored;
    },
    webhooks: () => hooks,
    failNext(count, status, method) {
      failures.push({ count, status, method });
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
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function signWooBody(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

export interface SendWebhookOptions {
  url: string;
  secret: string;
  topic: string;
  payload: unknown;
  webhookId?: number;
  source?: string;
  /** Overrides for tests of bad input. */
  signature?: string | null;
  rawBody?: string;
}

/** Posts one delivery exactly as WooCommerce's WC_Webhook::deliver() builds it. */
export async function sendWooWebhook(options: SendWebhookOptions): Promise<DeliveryResult> {
  const body = options.rawBody ?? wpJsonEncode(options.payload).trim();
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
    'x-wc-webhook-delivery-id': randomBytes(16).toString('hex'),
  };
  const signature = options.signature === undefined ? signWooBody(body, options.secret) : options.signature;
  if (signature !== null) headers['x-wc-webhook-signature'] = signature;
  // undici's request rather than fetch: the same POST (no redirect followed, 60 s like WooCommerce),
  // without fetch's web-stream machinery, which cost this process more than the connector's route
  // spent on the delivery in the end-to-end benchmark.
  const response = await request(options.url, { method: 'POST', headers, body, headersTimeout: 60_000, bodyTimeout: 60_000 });
  return { status: response.statusCode, body: await response.body.text() };
}

/** The creation ping: form-encoded `webhook_id=N`, unsigned. */
export async function sendWooPing(url: string, webhookId: number): Promise<DeliveryResult> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-wc-webhook-source': 'https://shop.example.pt/' },
    body: `webhook_id=${webhookId}`,
  });
  return { status: response.status, body: await response.text() };
}

/** WooCommerce's date format: site-local wall time without offset; the fake's site runs on UTC. */
export function wooDate(date: Date): string {
  return date.toISOString().slice(0, 19);
}

function parseWooDate(text: string, _gmt: boolean): number {
  return Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(text) ? text : `${text}Z`);
}

function lastValues(req: Request): Record<string, string> {
  // PHP keeps the last value of a repeated key; URLSearchParams gives them all in order.
  const params = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
  const out: Record<string, string> = {};
  for (const [key, value] of params) out[key] = value;
  return out;
}

function rfc3986(text: string): string {
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
