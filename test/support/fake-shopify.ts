/**
 * A contract-faithful fake of one Shopify store for the connector's tests: the GraphQL Admin API
 * subset of ./shopify-admin-schema.ts over HTTP and the store's webhook deliveries. Built from
 * Shopify's public docs (shopify.dev: "GraphQL Admin API", "API rate limits", "Webhooks: best
 * practices", "Deliver webhooks through HTTPS", "Ignore duplicates", "Troubleshooting webhooks") and
 * from Shopify/shopify-app-js (lib/webhooks/validate.ts, lib/utils/hmac-validator.ts,
 * api-clients/graphql-client: the headers and answers its clients read). Faithful where the connector
 * depends on it:
 * - POST /admin/api/{version}/graphql.json with `X-Shopify-Access-Token`; no or a wrong token -> 401
 *   `{"errors":"[API] Invalid API key or access token (unrecognized login or wrong password)"}`; an
 *   unknown version is answered by the oldest supported one, named in `X-Shopify-API-Version`;
 * - queries are parsed and validated against the schema (graphql-js): an unknown field is a GraphQL
 *   error, like Shopify; connections need `first` or `last`;
 * - access scopes: orders need `read_orders`, orderUpdate and order metafields `write_orders`, a
 *   B2B order's company and company location `read_customers` or `read_companies`, otherwise an
 *   ACCESS_DENIED error with `requiredAccess`;
 * - the cost-based leaky bucket per app and store: `extensions.cost` with requestedQueryCost,
 *   actualQueryCost and throttleStatus {maximumAvailable, currentlyAvailable, restoreRate}; a query
 *   over the bucket's content answers `THROTTLED` (HTTP 200, data absent, actualQueryCost null); the
 *   bucket pays the requested cost up front and gets back the difference to the actual cost (nodes
 *   really returned); one
 *   over 1,000 points answers MAX_COST_EXCEEDED; `overloadNext()` makes the next answers a 429 with
 *   `Retry-After` (seconds), like Shopify's request-level protection;
 * - `orders(query: "updated_at:>'...'", sortKey: UPDATED_AT)` with Shopify's search syntax (field,
 *   comparator, quoted or bare value, terms joined by AND), opaque cursors;
 * - metafieldsSet (`$app` resolves to the app's reserved namespace `app--{appId}`, at most 25 per
 *   call, type checked, atomic) with compare-and-set (shopify.dev, metafieldsSet, "As of 2024-07"):
 *   an input that carries `compareDigest` is written only if the stored metafield's digest
 *   (`Metafield.compareDigest`, of its value) is that one, or, when it is null, only if the metafield
 *   does not exist yet; otherwise nothing of the call is written and the userError says STALE_OBJECT
 *   (a string that is no digest: INVALID_COMPARE_DIGEST); an input without it is written whatever is
 *   stored. The check and the write are one synchronous step, as atomic as Shopify's. The message
 *   words of those two userErrors are the fake's (Shopify's docs give the codes and their meaning,
 *   not the words); `beforeMetafieldsSet` lets a test hold a metafieldsSet request before it runs,
 *   to order two runs' writes;
 * - orderUpdate (note and tags overwritten as given; it fires orders/updated);
 * - webhook subscriptions created, listed and deleted through GraphQL; deliveries of the REST-shaped
 *   payload signed with the app's client secret (base64 HMAC-SHA256 of the exact body) and the headers
 *   X-Shopify-Topic, -Hmac-Sha256, -Shop-Domain, -API-Version, -Webhook-Id, -Event-Id,
 *   -Triggered-At; an answer other than 2xx within the timeout (5 s) is a failure, retried 8 times
 *   (Shopify spreads them over 4 hours; here `retryDelayMs`), after which the subscription is deleted;
 *   `redeliver()` sends a delivery again with the same ids (delivery is at least once);
 * - what was paid: `capturePart()` a deposit or instalment (PARTIALLY_PAID, totalReceivedSet and
 *   totalOutstandingSet moved, orders/updated only), `markPaid()` the rest (PAID, the payment terms'
 *   schedules completed, orders/paid); `paymentTerms` needs `read_payment_terms`; the REST body carries
 *   `financial_status`, `total_outstanding` and `payment_terms` (shopify.dev: Order,
 *   OrderDisplayFinancialStatus, PaymentTerms, PaymentSchedule).
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Request, type Response } from 'express';
import { GraphQLError, execute, parse, validate, type DocumentNode, type GraphQLFieldResolver } from 'graphql';
import { request } from 'undici';
import { actualQueryCost, requestedQueryCost, shopifyAdminSchema, unsizedConnections } from './shopify-admin-schema';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export const SUPPORTED_API_VERSIONS = ['2025-10', '2026-01', '2026-04', '2026-07', '2026-10'] as const;
export const MAX_QUERY_COST = 1000;
export const DELIVERY_RETRIES = 8;
/** How long the fake's refresh tokens last (Shopify says its own in `refresh_token_expires_in`; the connector keeps what it is told). */
const REFRESH_TOKEN_LIFETIME_S = 90 * 24 * 3600;
const INVALID_TOKEN = '[API] Invalid API key or access token (unrecognized login or wrong password)';

export type WebhookTopic = 'orders/paid' | 'orders/updated' | 'orders/cancelled' | 'orders/create' | 'refunds/create' | 'app/uninstalled';
const TOPIC_ENUM: Record<WebhookTopic, string> = {
  'orders/paid': 'ORDERS_PAID',
  'orders/updated': 'ORDERS_UPDATED',
  'orders/cancelled': 'ORDERS_CANCELLED',
  'orders/create': 'ORDERS_CREATE',
  'refunds/create': 'REFUNDS_CREATE',
  'app/uninstalled': 'APP_UNINSTALLED',
};
const TOPIC_OF_ENUM = Object.fromEntries(Object.entries(TOPIC_ENUM).map(([t, e]) => [e, t as WebhookTopic]));

export interface FakeShopifyOptions {
  /** The store's myshopify domain. Default "loja-exemplo.myshopify.com". */
  shopDomain?: string;
  shopName?: string;
  /** A Shopify Plus store (the only plan with B2B companies); default false. */
  shopifyPlus?: boolean;
  currencyCode?: string;
  taxesIncluded?: boolean;
  ianaTimezone?: string;
  /** The store's address (Settings > General), where the law reads the dispatch region from. */
  billingAddress?: { countryCodeV2: string; zip: string; provinceCode: string | null; city: string; address1: string };
  /** The offline access token the app holds for this store. */
  accessToken?: string;
  /** The app's client secret: it signs every delivery. */
  clientSecret?: string;
  appId?: string;
  /** The app's client id (OAuth's `client_id`). */
  clientId?: string;
  scopes?: string[];
  /** The bucket: Standard and Advanced plans 2,000 points restored at 100/s (shopify.dev limits). */
  maximumAvailable?: number;
  restoreRate?: number;
  /** Delay before retry n (1..8) of a failed delivery; Shopify spreads 8 retries over 4 hours. */
  retryDelayMs?: (retry: number) => number;
  /** How long a delivery waits for the answer before it counts as failed (Shopify: 5 s). */
  deliveryTimeoutMs?: number;
  /** `expires_in` of an expiring offline token (Shopify: 3,600 s). */
  tokenLifetimeS?: number;
  now?: () => Date;
}

export interface FakeSubscription {
  id: string;
  topic: WebhookTopic;
  uri: string;
  apiVersion: string;
  createdAt: string;
}

export interface FakeDelivery {
  webhookId: string;
  eventId: string;
  topic: WebhookTopic;
  subscriptionId: string;
  uri: string;
  body: string;
  triggeredAt: string;
  attempts: number;
  /** HTTP status of each attempt; 0 when no answer came in time. */
  statuses: number[];
  state: 'pending' | 'delivered' | 'failed';
}

interface Bucket {
  available: number;
  at: number;
}

/** A metafield's compare digest: SHA-256 of its stored value, hex (Shopify: "The data stored in the resource, represented as a digest"). */
export function compareDigestOf(metafield: JsonObject): string {
  return createHash('sha256').update(String(metafield.value)).digest('hex');
}

function gid(type: string, id: string | number): string {
  return `gid://shopify/${type}/${id}`;
}

function legacyId(id: string): string {
  return id.slice(id.lastIndexOf('/') + 1);
}

function encodeCursor(value: JsonValue): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeCursor(cursor: string): JsonValue {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as JsonValue;
  } catch {
    throw new GraphQLError('Invalid cursor for current pagination sort.', { extensions: { code: 'BAD_REQUEST' } });
  }
}

/** A page of a list by `first`/`after` with index cursors, shaped like a Relay connection. */
function page<T>(items: readonly T[], args: { first?: number | null; after?: string | null; last?: number | null }): JsonObject {
  const start = args.after ? Number(decodeCursor(args.after)) + 1 : 0;
  const size = args.first ?? args.last ?? items.length;
  const slice = items.slice(start, start + size);
  return connection(slice, (index) => encodeCursor(start + index), start + size < items.length, start > 0);
}

function connection<T>(nodes: readonly T[], cursorOf: (index: number, node: T) => string, hasNextPage: boolean, hasPreviousPage: boolean): JsonObject {
  const edges = nodes.map((node, index) => ({ cursor: cursorOf(index, node), node }));
  return {
    nodes: nodes as unknown as JsonValue[],
    edges: edges as unknown as JsonValue[],
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/** One term of Shopify's search syntax: `updated_at:>'2026-11-27T10:00:00Z'`, `financial_status:paid`, or a bare word. */
interface SearchTerm {
  field: string;
  comparator: '' | '>' | '>=' | '<' | '<=';
  value: string;
}

/**
 * Shopify's search syntax (shopify.dev/docs/api/usage/search-syntax): terms joined by AND (a space
 * or `AND`), alternatives by `OR` (binding tighter here, which is what a `(a OR b) c` query means),
 * parentheses for grouping; a bare word searches the default fields. Returns the AND of OR-groups.
 */
export function parseSearchQuery(query: string): SearchTerm[][] {
  const tokens = query.replace(/[()]/g, ' ').match(/[a-z_]+:(?:>=|<=|>|<)?(?:'[^']*'|"[^"]*"|\S+)|'[^']*'|"[^"]*"|\S+/g) ?? [];
  const groups: SearchTerm[][] = [];
  let joinNext = false;
  for (const token of tokens) {
    if (token === 'AND') continue;
    if (token === 'OR') {
      joinNext = true;
      continue;
    }
    const match = /^([a-z_]+):(>=|<=|>|<)?(?:'([^']*)'|"([^"]*)"|(\S+))$/.exec(token);
    const term: SearchTerm = match
      ? { field: match[1], comparator: (match[2] ?? '') as SearchTerm['comparator'], value: match[3] ?? match[4] ?? match[5] ?? '' }
      : { field: '', comparator: '', value: token.replace(/^['"]|['"]$/g, '') };
    if (joinNext && groups.length > 0) groups[groups.length - 1].push(term);
    else groups.push([term]);
    joinNext = false;
  }
  return groups;
}

function compareTerm(actual: string, term: SearchTerm): boolean {
  const isDate = /^\d{4}-\d{2}-\d{2}/.test(term.value);
  const a = isDate ? Date.parse(actual) : actual.toLowerCase();
  const b = isDate ? Date.parse(term.value) : term.value.toLowerCase();
  switch (term.comparator) {
    case '>': return a > b;
    case '>=': return a >= b;
    case '<': return a < b;
    case '<=': return a <= b;
    default: return a === b;
  }
}

const METAFIELD_TYPES = new Set(['single_line_text_field', 'multi_line_text_field', 'url', 'json', 'number_integer', 'boolean', 'date_time']);

export class FakeShopify {
  readonly shopDomain: string;
  readonly clientSecret: string;
  readonly appId: string;
  readonly clientId: string;
  accessToken: string;
  /**
   * What the merchant grants on the consent screen of the next installs: the scopes asked (undefined)
   * or fewer; `deny` sends the browser back with Shopify's access_denied error.
   */
  consent: { scopes?: string[]; deny?: boolean } = {};
  /**
   * An expiring offline token (asked with `expiring=1` at the code exchange): when it stops working
   * (ms since the epoch), the refresh token that replaces it and until when, and the refresh token it
   * replaced, which Shopify keeps working until the new access token is first used (shopify.dev
   * changelog, August 2026: "More resilient refreshes for expiring offline access tokens").
   */
  expiring?: { expiresAt: number; refreshToken: string; refreshExpiresAt: number; previousRefreshToken?: string };
  /** Every refresh grant asked, in order: the refresh token given and the answer's status. */
  readonly refreshRequests: { refreshToken: string; status: number }[] = [];
  /** Every authorization code handed out, and whether it was exchanged. */
  readonly authorizationCodes = new Map<string, { scopes: string[]; redirectUri: string; issuedAt: number; used: boolean }>();
  scopes: string[];
  readonly orders = new Map<string, JsonObject>();
  readonly subscriptions = new Map<string, FakeSubscription>();
  readonly deliveries: FakeDelivery[] = [];
  /** Every GraphQL answer's cost extension, in order (tests read the pacing from it). */
  readonly costLog: { requested: number; throttled: boolean; available: number }[] = [];
  /** HTTP statuses of every GraphQL request, in order. */
  readonly requestStatuses: number[] = [];
  /** A test's hold on a metafieldsSet request (its inputs as sent), awaited before the request runs. */
  beforeMetafieldsSet?: (metafields: JsonObject[]) => Promise<void>;
  private server?: Server;
  private baseUrl = '';
  private bucket: Bucket;
  private overload = { remaining: 0, retryAfterSeconds: 1 };
  private nextId = 5_000_000_000;
  private readonly options: Required<Omit<FakeShopifyOptions, 'now'>> & { now: () => Date };
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(options: FakeShopifyOptions = {}) {
    this.options = {
      shopDomain: options.shopDomain ?? 'loja-exemplo.myshopify.com',
      shopName: options.shopName ?? 'Loja Exemplo',
      shopifyPlus: options.shopifyPlus ?? false,
      currencyCode: options.currencyCode ?? 'EUR',
      taxesIncluded: options.taxesIncluded ?? true,
      ianaTimezone: options.ianaTimezone ?? 'Europe/Lisbon',
      billingAddress: options.billingAddress ?? { countryCodeV2: 'PT', zip: '1100-148', provinceCode: null, city: 'Lisboa', address1: 'Rua do Ouro 1' },
      accessToken: options.accessToken ?? 'shpat_fake_0123456789abcdef',
      clientSecret: options.clientSecret ?? 'shpss_fake_client_secret',
      appId: options.appId ?? '1234567',
      clientId: options.clientId ?? 'fakeclientid0123456789abcdef',
      scopes: options.scopes ?? ['read_orders', 'write_orders'],
      maximumAvailable: options.maximumAvailable ?? 2000,
      restoreRate: options.restoreRate ?? 100,
      retryDelayMs: options.retryDelayMs ?? ((retry) => 20 * retry),
      deliveryTimeoutMs: options.deliveryTimeoutMs ?? 5000,
      tokenLifetimeS: options.tokenLifetimeS ?? 3600,
      now: options.now ?? (() => new Date()),
    };
    this.shopDomain = this.options.shopDomain;
    this.clientSecret = this.options.clientSecret;
    this.appId = this.options.appId;
    this.clientId = this.options.clientId;
    this.accessToken = this.options.accessToken;
    this.scopes = [...this.options.scopes];
    this.bucket = { available: this.options.maximumAvailable, at: Date.now() };
  }

  private get tokenLifetimeS(): number {
    return this.options.tokenLifetimeS;
  }

  /** The Admin API's base, as the connector's config names it: http://127.0.0.1:PORT. */
  get url(): string {
    return this.baseUrl;
  }

  graphqlUrl(version: string = SUPPORTED_API_VERSIONS[SUPPORTED_API_VERSIONS.length - 1]): string {
    return `${this.baseUrl}/admin/api/${version}/graphql.json`;
  }

  async start(): Promise<void> {
    const app = express();
    app.post('/admin/api/:version/graphql.json', express.text({ type: '*/*', limit: '2mb' }), (req, res) => {
      void this.handleGraphql(req, res);
    });
    app.get('/admin/oauth/authorize', (req, res) => this.authorize(req, res));
    app.post('/admin/oauth/access_token', express.urlencoded({ extended: false }), express.json(), (req, res) => this.exchangeCode(req, res));
    await new Promise<void>((resolve) => {
      this.server = app.listen(0, '127.0.0.1', () => resolve());
    });
    const address = this.server?.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${address.port}`;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next `count` GraphQL requests answer 429 with Retry-After (seconds). */
  overloadNext(count: number, retryAfterSeconds = 1): void {
    this.overload = { remaining: count, retryAfterSeconds };
  }

  /** Empties the bucket (another app of the store spent it). */
  drainBucket(to = 0): void {
    this.bucket = { available: to, at: Date.now() };
  }

  throttleStatus(): { maximumAvailable: number; currentlyAvailable: number; restoreRate: number } {
    this.refill();
    return {
      maximumAvailable: this.options.maximumAvailable,
      currentlyAvailable: Math.floor(this.bucket.available),
      restoreRate: this.options.restoreRate,
    };
  }

  private refill(): void {
    const now = Date.now();
    const restored = ((now - this.bucket.at) / 1000) * this.options.restoreRate;
    this.bucket = { available: Math.min(this.options.maximumAvailable, this.bucket.available + restored), at: now };
  }

  private async handleGraphql(req: Request, res: Response): Promise<void> {
    const requested = String(req.params.version);
    const version = (SUPPORTED_API_VERSIONS as readonly string[]).includes(requested) ? requested : SUPPORTED_API_VERSIONS[0];
    res.setHeader('X-Shopify-API-Version', version);
    res.setHeader('X-Request-Id', randomUUID());
    const send = (status: number, body: JsonValue): void => {
      this.requestStatuses.push(status);
      res.status(status).json(body);
    };
    if (req.get('X-Shopify-Access-Token') !== this.accessToken || this.accessToken === '' || (this.expiring && this.options.now().getTime() >= this.expiring.expiresAt)) {
      send(401, { errors: INVALID_TOKEN });
      return;
    }
    // The new access token is in use: the refresh token it replaced stops working.
    if (this.expiring?.previousRefreshToken) this.expiring = { ...this.expiring, previousRefreshToken: undefined };
    if (this.overload.remaining > 0) {
      this.overload.remaining -= 1;
      res.setHeader('Retry-After', this.overload.retryAfterSeconds.toFixed(1));
      send(429, { errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' });
      return;
    }
    let body: { query?: unknown; variables?: unknown };
    try {
      body = JSON.parse(typeof req.body === 'string' ? req.body : '') as typeof body;
    } catch {
      send(400, { errors: { query: 'Required parameter missing or invalid' } });
      return;
    }
    if (typeof body.query !== 'string') {
      send(400, { errors: { query: 'Required parameter missing or invalid' } });
      return;
    }
    const variables = (body.variables && typeof body.variables === 'object' ? body.variables : {}) as Record<string, unknown>;
    const schema = shopifyAdminSchema();
    let document: DocumentNode;
    try {
      document = parse(body.query);
    } catch (error) {
      send(200, { errors: [{ message: (error as Error).message }] });
      return;
    }
    const problems = validate(schema, document);
    if (problems.length > 0) {
      send(200, { errors: problems.map((p) => ({ message: p.message, locations: p.locations as unknown as JsonValue, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })) });
      return;
    }
    const unsized = unsizedConnections(schema, document);
    if (unsized.length > 0) {
      send(200, { errors: unsized.map((name) => ({ message: `you must provide one of first or last`, path: [name] })) });
      return;
    }
    if (this.beforeMetafieldsSet && /\bmetafieldsSet\s*\(/.test(body.query) && Array.isArray(variables.metafields)) {
      await this.beforeMetafieldsSet(variables.metafields as JsonObject[]);
    }
    const cost = requestedQueryCost(schema, document, variables);
    this.refill();
    if (cost > MAX_QUERY_COST) {
      send(200, {
        errors: [{ message: `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`, extensions: { code: 'MAX_COST_EXCEEDED', cost, maxCost: MAX_QUERY_COST } }],
      });
      return;
    }
    if (cost > this.bucket.available) {
      this.costLog.push({ requested: cost, throttled: true, available: Math.floor(this.bucket.available) });
      send(200, {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
        extensions: { cost: { requestedQueryCost: cost, actualQueryCost: null, throttleStatus: this.throttleStatus() } },
      });
      return;
    }
    this.bucket.available -= cost;
    this.costLog.push({ requested: cost, throttled: false, available: Math.floor(this.bucket.available) });
    const result = await execute({ schema, document, variableValues: variables, rootValue: this.rootValue(version), fieldResolver: this.fieldResolver, contextValue: {} });
    const answer: JsonObject = {};
    if (result.errors) answer.errors = result.errors.map((e) => e.toJSON() as unknown as JsonValue);
    if (result.data) answer.data = result.data as unknown as JsonValue;
    // Shopify charges what the query really cost and gives the rest of the requested points back.
    const actual = Math.min(cost, actualQueryCost(schema, document, result.data));
    this.bucket.available = Math.min(this.options.maximumAvailable, this.bucket.available + (cost - actual));
    answer.extensions = { cost: { requestedQueryCost: cost, actualQueryCost: actual, throttleStatus: this.throttleStatus() } };
    send(200, answer);
  }

  private readonly fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args: Record<string, unknown>, _context, info) => {
    if (typeof source !== 'object' || source === null) return null;
    const record = source as Record<string, unknown>;
    const value = record[info.fieldName];
    if (typeof value === 'function') return (value as (a: Record<string, unknown>) => unknown).call(source, args);
    if (info.parentType.name === 'Metafield' && info.fieldName === 'compareDigest') return compareDigestOf(record as JsonObject);
    if (info.parentType.name === 'Order') {
      if (info.fieldName === 'metafields') {
        const namespace = typeof args.namespace === 'string' ? this.namespace(args.namespace) : undefined;
        const all = (record.metafields as JsonObject[] | undefined) ?? [];
        // `keys`: "namespace.key" each (an app's reserved namespace written as `$app`).
        const keys = Array.isArray(args.keys) ? (args.keys as string[]).map((k) => `${this.namespace(k.slice(0, k.lastIndexOf('.')))}.${k.slice(k.lastIndexOf('.') + 1)}`) : undefined;
        const chosen = all.filter((m) => (!namespace || m.namespace === namespace) && (!keys || keys.includes(`${String(m.namespace)}.${String(m.key)}`)));
        return page(chosen, args);
      }
      // Shopify: "Requires read_payment_terms access scope" (PaymentTerms).
      if (info.fieldName === 'paymentTerms') {
        this.requireScope('read_payment_terms', 'paymentTerms');
        return value ?? null;
      }
      if (info.fieldName === 'metafield') {
        const namespace = this.namespace(typeof args.namespace === 'string' ? args.namespace : '$app');
        return ((record.metafields as JsonObject[] | undefined) ?? []).find((m) => m.namespace === namespace && m.key === args.key) ?? null;
      }
    }
    // Shopify: Company and CompanyLocation "Require read_customers access scope or read_companies access scope".
    if (info.parentType.name === 'PurchasingCompany' && (info.fieldName === 'company' || info.fieldName === 'location')) {
      this.requireAnyScope(['read_customers', 'read_companies'], info.fieldName);
    }
    const typeName = info.returnType.toString().replace(/[![\]]/g, '');
    if (typeName.endsWith('Connection') && Array.isArray(value)) return page(value, args);
    if (Array.isArray(value) && typeof args.first === 'number') return value.slice(0, args.first);
    return value;
  };

  private requireScope(scope: string, field: string): void {
    if (this.scopes.includes(scope)) return;
    throw new GraphQLError(`Access denied for ${field} field. Required access: \`${scope}\` access scope.`, {
      extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess: `\`${scope}\` access scope.` },
    });
  }

  private requireAnyScope(scopes: string[], field: string): void {
    if (scopes.some((scope) => this.scopes.includes(scope))) return;
    const required = scopes.map((scope) => `\`${scope}\` access scope`).join(' or ');
    throw new GraphQLError(`Access denied for ${field} field. Required access: ${required}.`, {
      extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess: `${required}.` },
    });
  }

  private namespace(namespace: string): string {
    return namespace === '$app' || namespace === '' ? `app--${this.appId}` : namespace.replace(/^\$app:/, `app--${this.appId}--`);
  }

  private rootValue(version: string): Record<string, (args: Record<string, unknown>) => unknown> {
    return {
      shop: () => ({
        id: gid('Shop', 1),
        name: this.options.shopName,
        myshopifyDomain: this.shopDomain,
        currencyCode: this.options.currencyCode,
        taxesIncluded: this.options.taxesIncluded,
        ianaTimezone: this.options.ianaTimezone,
        billingAddress: this.options.billingAddress,
        plan: { shopifyPlus: this.options.shopifyPlus, partnerDevelopment: false, publicDisplayName: this.options.shopifyPlus ? 'Plus' : 'Basic' },
      }),
      currentAppInstallation: () => ({ id: gid('AppInstallation', this.appId), accessScopes: this.scopes.map((handle) => ({ handle })) }),
      order: (args) => {
        this.requireScope('read_orders', 'order');
        return this.orders.get(String(args.id)) ?? null;
      },
      refund: (args) => {
        this.requireScope('read_orders', 'refund');
        for (const order of this.orders.values()) {
          const found = ((order.refunds ?? []) as JsonObject[]).find((r) => r.id === String(args.id));
          if (found) return found;
        }
        return null;
      },
      orders: (args) => {
        this.requireScope('read_orders', 'orders');
        return this.listOrders(args);
      },
      ordersCount: (args) => {
        this.requireScope('read_orders', 'ordersCount');
        const terms = typeof args.query === 'string' ? parseSearchQuery(args.query) : [];
        const count = [...this.orders.values()].filter((order) => this.matchesAll(order, terms)).length;
        const limit = typeof args.limit === 'number' ? args.limit : 10_000;
        return { count: Math.min(count, limit), precision: count > limit ? 'AT_LEAST' : 'EXACT' };
      },
      webhookSubscriptions: (args) => {
        const topics = Array.isArray(args.topics) ? (args.topics as string[]) : undefined;
        const list = [...this.subscriptions.values()]
          .filter((s) => !topics || topics.includes(TOPIC_ENUM[s.topic]))
          .filter((s) => typeof args.uri !== 'string' || s.uri === args.uri)
          .map((s) => this.subscriptionNode(s));
        return page(list, args);
      },
      metafieldsSet: (args) => this.metafieldsSet(args.metafields as JsonObject[]),
      orderUpdate: (args) => this.orderUpdate(args.input as JsonObject),
      webhookSubscriptionCreate: (args) => {
        const input = args.webhookSubscription as JsonObject;
        const topic = TOPIC_OF_ENUM[String(args.topic)];
        const uri = typeof input.uri === 'string' ? input.uri : typeof input.callbackUrl === 'string' ? input.callbackUrl : '';
        if (topic.startsWith('orders/') || topic.startsWith('refunds/')) this.requireScope('read_orders', 'webhookSubscriptionCreate');
        if (!/^https?:\/\//.test(uri)) return { webhookSubscription: null, userErrors: [{ field: ['webhookSubscription', 'callbackUrl'], message: 'Address is invalid' }] };
        if ([...this.subscriptions.values()].some((s) => s.topic === topic && s.uri === uri)) {
          return { webhookSubscription: null, userErrors: [{ field: ['webhookSubscription', 'callbackUrl'], message: 'Address for this topic has already been taken' }] };
        }
        const subscription: FakeSubscription = { id: gid('WebhookSubscription', this.nextId++), topic, uri, apiVersion: version, createdAt: this.options.now().toISOString() };
        this.subscriptions.set(subscription.id, subscription);
        return { webhookSubscription: this.subscriptionNode(subscription), userErrors: [] };
      },
      webhookSubscriptionDelete: (args) => {
        const id = String(args.id);
        if (!this.subscriptions.delete(id)) return { deletedWebhookSubscriptionId: null, userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }] };
        return { deletedWebhookSubscriptionId: id, userErrors: [] };
      },
    };
  }

  private subscriptionNode(s: FakeSubscription): JsonObject {
    return {
      id: s.id,
      topic: TOPIC_ENUM[s.topic],
      uri: s.uri,
      format: 'JSON',
      endpoint: { __typename: 'WebhookHttpEndpoint', callbackUrl: s.uri },
      apiVersion: s.apiVersion,
      createdAt: s.createdAt,
      updatedAt: s.createdAt,
    };
  }

  private listOrders(args: Record<string, unknown>): JsonObject {
    const terms = typeof args.query === 'string' ? parseSearchQuery(args.query) : [];
    const sortKey = typeof args.sortKey === 'string' ? args.sortKey : 'ID';
    const field = ({ UPDATED_AT: 'updatedAt', CREATED_AT: 'createdAt', PROCESSED_AT: 'processedAt', ID: 'legacyResourceId' } as Record<string, string>)[sortKey] ?? 'legacyResourceId';
    const keyOf = (o: JsonObject): [string | number, number] => {
      const id = Number(o.legacyResourceId);
      return [field === 'legacyResourceId' ? id : Date.parse(String(o[field])), id];
    };
    let list = [...this.orders.values()].filter((order) => this.matchesAll(order, terms));
    list.sort((a, b) => {
      const [ka, ia] = keyOf(a);
      const [kb, ib] = keyOf(b);
      return ka === kb ? ia - ib : ka < kb ? -1 : 1;
    });
    if (args.reverse === true) list.reverse();
    if (typeof args.after === 'string') {
      const [k, i] = decodeCursor(args.after) as [number, number];
      const index = list.findIndex((o) => keyOf(o)[0] === k && keyOf(o)[1] === i);
      list = list.slice(index + 1);
    }
    const size = typeof args.first === 'number' ? args.first : 50;
    const slice = list.slice(0, size);
    return connection(slice, (_i, node) => encodeCursor(keyOf(node)), list.length > size, typeof args.after === 'string');
  }

  private matchesAll(order: JsonObject, groups: SearchTerm[][]): boolean {
    return groups.every((group) => group.some((term) => this.matches(order, term)));
  }

  private matches(order: JsonObject, term: SearchTerm): boolean {
    switch (term.field) {
      case '': {
        // The default fields: the order's name, the buyer's e-mail and names.
        const billing = (order.billingAddress ?? {}) as JsonObject;
        const haystack = [order.name, order.email, billing.firstName, billing.lastName].map((v) => String(v ?? '').toLowerCase());
        return haystack.some((field) => field.includes(term.value.toLowerCase()));
      }
      case 'updated_at': return compareTerm(String(order.updatedAt), term);
      case 'created_at': return compareTerm(String(order.createdAt), term);
      case 'processed_at': return compareTerm(String(order.processedAt), term);
      case 'financial_status': return String(order.displayFinancialStatus).toLowerCase() === term.value.toLowerCase();
      case 'name': return String(order.name).replace('#', '') === term.value.replace('#', '');
      case 'id': return compareTerm(String(order.legacyResourceId).padStart(20, '0'), { ...term, value: term.value.padStart(20, '0') });
      case 'status':
        if (term.value === 'any') return true;
        if (term.value === 'cancelled') return order.cancelledAt !== null;
        if (term.value === 'closed') return order.closedAt !== null;
        return order.closedAt === null && order.cancelledAt === null;
      default:
        // Shopify ignores a term on a field it does not search (and says so in a warning).
        return true;
    }
  }

  private metafieldsSet(inputs: JsonObject[]): JsonObject {
    if (inputs.length > 25) {
      return { metafields: null, userErrors: [{ field: ['metafields'], message: 'Exceeded the maximum metafields input limit of 25.', code: 'LESS_THAN_OR_EQUAL_TO', elementIndex: null }] };
    }
    const errors: JsonObject[] = [];
    inputs.forEach((input, index) => {
      const ownerId = String(input.ownerId);
      if (!ownerId.startsWith('gid://shopify/Order/')) return;
      this.requireScope('write_orders', 'metafieldsSet');
      if (!this.orders.has(ownerId)) errors.push({ field: ['metafields', String(index), 'ownerId'], message: 'Owner does not exist.', code: 'INVALID', elementIndex: index });
      const type = typeof input.type === 'string' ? input.type : undefined;
      if (type && !METAFIELD_TYPES.has(type)) errors.push({ field: ['metafields', String(index), 'type'], message: `Type '${type}' is not a valid type.`, code: 'INVALID_TYPE', elementIndex: index });
      if (type === 'url' && !/^https?:\/\//.test(String(input.value))) errors.push({ field: ['metafields', String(index), 'value'], message: 'Value must be a valid URL.', code: 'INVALID_VALUE', elementIndex: index });
      // Compare-and-set: only an input that carries compareDigest (null included) is checked.
      if (Object.prototype.hasOwnProperty.call(input, 'compareDigest') && this.orders.has(ownerId)) {
        const expected = input.compareDigest;
        const namespace = this.namespace(typeof input.namespace === 'string' ? input.namespace : '$app');
        const stored = ((this.orders.get(ownerId)?.metafields as JsonObject[] | undefined) ?? []).find((m) => m.namespace === namespace && m.key === input.key);
        const field = ['metafields', String(index), 'compareDigest'];
        if (expected !== null && !/^[0-9a-f]{64}$/.test(String(expected))) errors.push({ field, message: 'The compareDigest is invalid.', code: 'INVALID_COMPARE_DIGEST', elementIndex: index });
        else if (expected === null ? stored !== undefined : stored === undefined || compareDigestOf(stored) !== expected) {
          errors.push({ field, message: 'The metafield has been modified since it was loaded.', code: 'STALE_OBJECT', elementIndex: index });
        }
      }
    });
    // metafieldsSet is atomic: one invalid input and nothing is written.
    if (errors.length > 0) return { metafields: [], userErrors: errors };
    const written: JsonObject[] = inputs.map((input) => {
      const order = this.orders.get(String(input.ownerId)) as JsonObject;
      const namespace = this.namespace(typeof input.namespace === 'string' ? input.namespace : '$app');
      const list = (order.metafields as JsonObject[] | undefined) ?? [];
      order.metafields = list;
      const now = this.options.now().toISOString();
      let existing = list.find((m) => m.namespace === namespace && m.key === input.key);
      if (!existing) {
        if (typeof input.type !== 'string') {
          throw new GraphQLError('type is required when creating a new metafield', { extensions: { code: 'BAD_REQUEST' } });
        }
        existing = { id: gid('Metafield', this.nextId++), namespace, key: String(input.key), type: input.type, value: '', createdAt: now, updatedAt: now };
        list.push(existing);
      }
      existing.value = String(input.value);
      existing.updatedAt = now;
      return existing;
    });
    return { metafields: written, userErrors: [] };
  }

  private orderUpdate(input: JsonObject): JsonObject {
    this.requireScope('write_orders', 'orderUpdate');
    const order = this.orders.get(String(input.id));
    if (!order) return { order: null, userErrors: [{ field: ['id'], message: 'Order does not exist' }] };
    if (typeof input.note === 'string') order.note = input.note;
    if (Array.isArray(input.tags)) order.tags = input.tags;
    this.touch(order);
    this.emit('orders/updated', restOrderPayload(order));
    return { order, userErrors: [] };
  }

  private touch(order: JsonObject): void {
    const now = this.options.now().toISOString();
    // updatedAt moves forward even within one millisecond, so updated_at:> finds every change.
    order.updatedAt = now > String(order.updatedAt) ? now : new Date(Date.parse(String(order.updatedAt)) + 1).toISOString();
  }

  // ---- the store's own actions (what a buyer or the merchant does) ----

  /** Adds an order (GraphQL-shaped, see test/platforms/shopify/fixtures) and fires its webhooks. */
  addOrder(order: JsonObject): JsonObject {
    const copy = structuredClone(order);
    copy.metafields ??= [];
    copy.updatedAt = this.options.now().toISOString();
    // Shopify's totalOutstandingSet: what is not yet transacted (the total less what was received).
    copy.totalOutstandingSet ??= outstandingOf(copy.totalPriceSet, copy.totalReceivedSet);
    this.orders.set(String(copy.id), copy);
    this.emit('orders/create', restOrderPayload(copy));
    if (copy.displayFinancialStatus === 'PAID') this.emit('orders/paid', restOrderPayload(copy));
    return copy;
  }

  /**
   * The merchant sets a B2B company location's tax registration ID (Customers > Companies >
   * location > Tax details; `companyLocationTaxSettingsUpdate` in the API). The order's
   * `purchasingEntity.location` is the company location itself, so every order of that location
   * reads the new ID at once; the orders themselves do not change: no orders/updated fires (Shopify
   * sends `company_locations/update`, a topic the connector does not subscribe to).
   */
  setCompanyTaxRegistration(locationId: string, taxRegistrationId: string | null): void {
    for (const order of this.orders.values()) {
      const entity = order.purchasingEntity as JsonObject | null | undefined;
      const location = entity?.location as JsonObject | undefined;
      if (location?.id === locationId) location.taxSettings = { ...(location.taxSettings as JsonObject), taxRegistrationId };
    }
  }

  /**
   * Another app (a VAT app) writes a metafield of its own namespace on the order, through the API.
   * Shopify documents no orders/updated for a metafield written apart from the order, so none fires
   * here and the order's updatedAt stays: the connector must not count on seeing it until the order's
   * next update.
   */
  setOtherAppMetafield(orderId: string, namespace: string, key: string, value: string): void {
    const order = this.mustGet(orderId);
    const metafields = order.metafields as JsonObject[];
    const existing = metafields.find((m) => m.namespace === namespace && m.key === key);
    if (existing) existing.value = value;
    else metafields.push({ id: gid('Metafield', metafields.length + 9000), namespace, key, type: 'single_line_text_field', value, updatedAt: this.options.now().toISOString() });
  }

  /**
   * The merchant edits the order's attributes in the admin ("Additional details": note_attributes in
   * REST, customAttributes in GraphQL), a NIF added after the sale for one: orders/updated fires.
   */
  setAttributes(orderId: string, attributes: { key: string; value: string }[]): void {
    const order = this.mustGet(orderId);
    order.customAttributes = attributes;
    this.touch(order);
    this.emit('orders/updated', restOrderPayload(order));
  }

  /**
   * Captures the payment of a pending or partially paid order (the merchant's "Mark as paid", or the
   * rest of an order on payment terms): what was outstanding is received, the payment terms' schedules
   * are completed, and Shopify says PAID (orders/paid, orders/updated).
   */
  markPaid(orderId: string, gateway = 'manual'): void {
    const order = this.mustGet(orderId);
    order.displayFinancialStatus = 'PAID';
    const amountSet = (order.totalOutstandingSet ?? order.totalPriceSet) as JsonObject;
    const now = this.options.now().toISOString();
    (order.transactions as JsonObject[]).push({ id: gid('OrderTransaction', this.nextId++), kind: 'SALE', status: 'SUCCESS', gateway, formattedGateway: gateway, amountSet, processedAt: now, test: false });
    order.totalReceivedSet = order.totalPriceSet;
    order.totalOutstandingSet = outstandingOf(order.totalPriceSet, order.totalPriceSet);
    this.settleSchedules(order, now);
    this.touch(order);
    this.emit('orders/paid', restOrderPayload(order));
    this.emit('orders/updated', restOrderPayload(order));
  }

  /**
   * A payment for part of the order is captured (a deposit, the first instalment of an order on
   * payment terms, a manual capture of less than the total): Shopify says PARTIALLY_PAID ("a payment
   * was manually captured for the order with an amount less than the full order value",
   * OrderDisplayFinancialStatus), totalReceivedSet grows and totalOutstandingSet shrinks by it, the
   * payment terms' schedules owe the rest. Fires orders/updated only: orders/paid waits for the whole.
   */
  capturePart(orderId: string, amount: string, gateway = 'manual'): void {
    const order = this.mustGet(orderId);
    const total = order.totalPriceSet as JsonObject;
    const received = addToBag(order.totalReceivedSet ?? zeroBag(total), amount);
    if (Number(money(received)) >= Number(money(total))) throw new Error('fake Shopify: capturePart takes less than the order total (markPaid captures the rest)');
    const now = this.options.now().toISOString();
    (order.transactions as JsonObject[]).push({ id: gid('OrderTransaction', this.nextId++), kind: 'SALE', status: 'SUCCESS', gateway, formattedGateway: gateway, amountSet: addToBag(zeroBag(total), amount), processedAt: now, test: false });
    order.totalReceivedSet = received;
    order.totalOutstandingSet = outstandingOf(total, received);
    order.displayFinancialStatus = 'PARTIALLY_PAID';
    const terms = order.paymentTerms as JsonObject | null | undefined;
    for (const schedule of ((terms?.paymentSchedules ?? []) as JsonObject[])) schedule.balanceDue = (order.totalOutstandingSet as JsonObject).shopMoney;
    this.touch(order);
    this.emit('orders/updated', restOrderPayload(order));
  }

  private settleSchedules(order: JsonObject, at: string): void {
    const terms = order.paymentTerms as JsonObject | null | undefined;
    if (!terms) return;
    for (const schedule of (terms.paymentSchedules ?? []) as JsonObject[]) {
      schedule.completedAt ??= at;
      schedule.due = false;
      schedule.balanceDue = { amount: '0.00', currencyCode: (schedule.balanceDue as JsonObject).currencyCode };
    }
    terms.overdue = false;
  }

  /** Records a refund (GraphQL-shaped Refund) and fires refunds/create and orders/updated. */
  refund(orderId: string, refund: JsonObject): JsonObject {
    const order = this.mustGet(orderId);
    const copy = structuredClone(refund);
    copy.id ??= gid('Refund', this.nextId++);
    copy.legacyResourceId = legacyId(String(copy.id));
    copy.createdAt ??= this.options.now().toISOString();
    copy.updatedAt = this.options.now().toISOString();
    const lines = (order.lineItems ?? []) as JsonObject[];
    const shippingLines = (order.shippingLines ?? []) as JsonObject[];
    for (const item of (copy.refundLineItems ?? []) as JsonObject[]) {
      item.lineItem = lines.find((l) => l.id === (item.lineItem as JsonObject).id) ?? item.lineItem;
    }
    for (const item of (copy.refundShippingLines ?? []) as JsonObject[]) {
      item.shippingLine = shippingLines.find((l) => l.id === (item.shippingLine as JsonObject).id) ?? item.shippingLine;
    }
    (order.refunds as JsonObject[]).push(copy);
    const refunded = (order.refunds as JsonObject[]).reduce((total, r) => total + Number(((r.totalRefundedSet as JsonObject).shopMoney as JsonObject).amount), 0);
    const total = Number(((order.totalPriceSet as JsonObject).shopMoney as JsonObject).amount);
    order.displayFinancialStatus = refunded >= total ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    this.touch(order);
    this.emit('refunds/create', restRefundPayload(order, copy));
    this.emit('orders/updated', restOrderPayload(order));
    return copy;
  }

  cancel(orderId: string, reason = 'CUSTOMER'): void {
    const order = this.mustGet(orderId);
    order.cancelledAt = this.options.now().toISOString();
    order.cancelReason = reason;
    this.touch(order);
    this.emit('orders/cancelled', restOrderPayload(order));
    this.emit('orders/updated', restOrderPayload(order));
  }

  /** The merchant removes the app: app/uninstalled is sent, then the token and subscriptions go. */
  async uninstall(): Promise<void> {
    this.emit('app/uninstalled', { id: 1, name: this.options.shopName, domain: this.shopDomain, myshopify_domain: this.shopDomain, currency: this.options.currencyCode });
    await this.settled();
    this.accessToken = '';
    this.subscriptions.clear();
  }

  // ---- OAuth: the authorization code grant (shopify.dev, "Implement authorization code grant manually") ----

  /** A query signed as Shopify signs what it sends an app: hex HMAC-SHA256 of the other parameters sorted, `k=v` joined by `&`. */
  signQuery(params: Record<string, string>, secret = this.clientSecret): URLSearchParams {
    const message = Object.keys(params)
      .sort()
      .map((key) => `${key}=${params[key]}`)
      .join('&');
    return new URLSearchParams({ ...params, hmac: createHmac('sha256', secret).update(message).digest('hex') });
  }

  /** The request Shopify sends the app URL when the merchant installs from the install link (`shop`, `host`, `timestamp`, `hmac`). */
  installRequestUrl(appUrl: string, at = this.options.now()): string {
    const host = Buffer.from(`admin.shopify.com/store/${this.shopDomain.replace(/\.myshopify\.com$/, '')}`).toString('base64url');
    return `${appUrl}?${this.signQuery({ host, shop: this.shopDomain, timestamp: String(Math.floor(at.getTime() / 1000)) }).toString()}`;
  }

  /**
   * /admin/oauth/authorize: the consent screen. The merchant (logged in: the fake asks nothing) grants
   * `consent.scopes` or what was asked, and the browser goes to `redirect_uri` with a one-use `code`,
   * the `state` as given, `shop`, `host`, `timestamp` and the `hmac` over them.
   */
  private authorize(req: Request, res: Response): void {
    const query = req.query as Record<string, string | undefined>;
    if (query.client_id !== this.clientId) return void res.status(400).type('text').send('Oauth error invalid_request: The client_id is not valid');
    const redirectUri = query.redirect_uri ?? '';
    if (!/^https?:\/\//.test(redirectUri)) return void res.status(400).type('text').send('Oauth error invalid_request: The redirect_uri is missing or not whitelisted');
    const asked = (query.scope ?? '').split(',').filter((scope) => scope !== '');
    const back = new URL(redirectUri);
    if (this.consent.deny) {
      back.searchParams.set('error', 'access_denied');
      if (query.state) back.searchParams.set('state', query.state);
      return void res.redirect(302, back.toString());
    }
    const code = randomUUID().replace(/-/g, '');
    this.authorizationCodes.set(code, { scopes: this.consent.scopes ?? asked, redirectUri, issuedAt: Date.now(), used: false });
    const host = Buffer.from(`admin.shopify.com/store/${this.shopDomain.replace(/\.myshopify\.com$/, '')}`).toString('base64url');
    const signed = this.signQuery({ code, host, shop: this.shopDomain, state: query.state ?? '', timestamp: String(Math.floor(this.options.now().getTime() / 1000)) });
    res.redirect(302, `${redirectUri}?${signed.toString()}`);
  }

  /**
   * POST /admin/oauth/access_token: a code once, with the app's client id and secret, for an offline
   * token; the answer's `scope` lists what was granted, a read scope left out when its write scope
   * is there (write implies read). The store's token becomes the new one.
   */
  private exchangeCode(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.client_id !== this.clientId || body.client_secret !== this.clientSecret) return void res.status(400).json({ error: 'invalid_client', error_description: 'Client authentication failed' });
    if (body.grant_type === 'refresh_token') return this.refreshGrant(body, res);
    const grant = typeof body.code === 'string' ? this.authorizationCodes.get(body.code) : undefined;
    if (!grant || grant.used || Date.now() - grant.issuedAt > 10 * 60_000) return void res.status(400).json({ error: 'invalid_request', error_description: 'The authorization code was not found or was already used' });
    grant.used = true;
    this.scopes = [...new Set(grant.scopes.flatMap((scope) => (scope.startsWith('write_') ? [scope, scope.replace(/^write_/, 'read_')] : [scope])))];
    const answered = grant.scopes.filter((scope) => !(scope.startsWith('read_') && grant.scopes.includes(scope.replace(/^read_/, 'write_'))));
    // `expiring=1` (form or JSON): an access token of an hour and a refresh token; otherwise the long-lived kind.
    if (String(body.expiring) === '1') return void res.json({ ...this.issueExpiring(), scope: answered.join(',') });
    this.expiring = undefined;
    this.accessToken = `shpat_${randomUUID().replace(/-/g, '')}`;
    res.json({ access_token: this.accessToken, scope: answered.join(',') });
  }

  /** A new expiring access token and refresh token; the old access token stops working. */
  private issueExpiring(previousRefreshToken?: string): { access_token: string; expires_in: number; refresh_token: string; refresh_token_expires_in: number } {
    const now = this.options.now().getTime();
    this.accessToken = `shpat_${randomUUID().replace(/-/g, '')}`;
    const refreshToken = `shprt_${randomUUID().replace(/-/g, '')}`;
    this.expiring = { expiresAt: now + this.tokenLifetimeS * 1000, refreshToken, refreshExpiresAt: now + REFRESH_TOKEN_LIFETIME_S * 1000, ...(previousRefreshToken ? { previousRefreshToken } : {}) };
    return { access_token: this.accessToken, expires_in: this.tokenLifetimeS, refresh_token: refreshToken, refresh_token_expires_in: REFRESH_TOKEN_LIFETIME_S };
  }

  /** POST /admin/oauth/access_token with grant_type=refresh_token: the current refresh token (or the one it replaced, until the new access token is used) for a new pair. */
  private refreshGrant(body: Record<string, unknown>, res: Response): void {
    const given = typeof body.refresh_token === 'string' ? body.refresh_token : '';
    const current = this.expiring;
    const valid = current !== undefined && this.options.now().getTime() < current.refreshExpiresAt && (given === current.refreshToken || given === current.previousRefreshToken);
    this.refreshRequests.push({ refreshToken: given, status: valid ? 200 : 400 });
    if (!valid) return void res.status(400).json({ error: 'invalid_grant', error_description: 'The refresh token is invalid, expired or revoked' });
    res.json({ ...this.issueExpiring(given), scope: this.scopes.filter((scope) => !(scope.startsWith('read_') && this.scopes.includes(scope.replace(/^read_/, 'write_')))).join(',') });
  }

  /** The access token expires now (an hour has passed); its refresh token still works. */
  expireAccessToken(): void {
    if (this.expiring) this.expiring = { ...this.expiring, expiresAt: this.options.now().getTime() - 1 };
  }

  /** The refresh token stops working (expired, or revoked): the next refresh is refused with invalid_grant. */
  revokeRefreshToken(): void {
    if (this.expiring) this.expiring = { ...this.expiring, refreshToken: `revoked_${randomUUID()}`, previousRefreshToken: undefined };
  }

  private mustGet(orderId: string): JsonObject {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`fake Shopify: no order ${orderId}`);
    return order;
  }

  // ---- deliveries ----

  /** Sends `topic` to every subscription of it, like Shopify's webhook service. */
  emit(topic: WebhookTopic, payload: JsonObject): void {
    const eventId = randomUUID();
    for (const subscription of this.subscriptions.values()) {
      if (subscription.topic !== topic) continue;
      const delivery: FakeDelivery = {
        webhookId: randomUUID(),
        eventId,
        topic,
        subscriptionId: subscription.id,
        uri: subscription.uri,
        body: JSON.stringify(payload),
        triggeredAt: this.options.now().toISOString(),
        attempts: 0,
        statuses: [],
        state: 'pending',
      };
      this.deliveries.push(delivery);
      this.track(this.attempt(delivery));
    }
  }

  /** Sends a delivery again with the same ids and body (Shopify's at-least-once). */
  redeliver(delivery: FakeDelivery): Promise<number> {
    return this.post(delivery);
  }

  /** Resolves when no delivery is in flight or waiting for a retry. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0 || this.timers.size > 0) {
      await Promise.allSettled([...this.inFlight]);
      if (this.timers.size > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The headers Shopify sends with a delivery, signed with the client secret. */
  deliveryHeaders(delivery: FakeDelivery, secret = this.clientSecret): Record<string, string> {
    return {
      'content-type': 'application/json',
      'x-shopify-topic': delivery.topic,
      'x-shopify-hmac-sha256': createHmac('sha256', secret).update(delivery.body, 'utf8').digest('base64'),
      'x-shopify-shop-domain': this.shopDomain,
      'x-shopify-api-version': this.subscriptions.get(delivery.subscriptionId)?.apiVersion ?? SUPPORTED_API_VERSIONS[SUPPORTED_API_VERSIONS.length - 1],
      'x-shopify-webhook-id': delivery.webhookId,
      'x-shopify-event-id': delivery.eventId,
      'x-shopify-triggered-at': delivery.triggeredAt,
    };
  }

  private track(promise: Promise<void>): void {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise));
  }

  private async post(delivery: FakeDelivery): Promise<number> {
    try {
      const answer = await request(delivery.uri, {
        method: 'POST',
        headers: this.deliveryHeaders(delivery),
        body: delivery.body,
        headersTimeout: this.options.deliveryTimeoutMs,
        bodyTimeout: this.options.deliveryTimeoutMs,
      });
      await answer.body.dump();
      return answer.statusCode;
    } catch {
      return 0;
    }
  }

  private async attempt(delivery: FakeDelivery): Promise<void> {
    delivery.attempts += 1;
    const status = await this.post(delivery);
    delivery.statuses.push(status);
    if (status >= 200 && status < 300) {
      delivery.state = 'delivered';
      return;
    }
    const retry = delivery.attempts;
    if (retry > DELIVERY_RETRIES) {
      delivery.state = 'failed';
      // Shopify deletes a subscription created through the API after its retries all failed.
      this.subscriptions.delete(delivery.subscriptionId);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(this.attempt(delivery));
    }, this.options.retryDelayMs(retry));
    this.timers.add(timer);
  }
}

function money(bag: JsonValue | undefined, side: 'shopMoney' | 'presentmentMoney' = 'shopMoney'): string {
  const m = (bag as JsonObject | undefined)?.[side] as JsonObject | undefined;
  return m ? String(m.amount) : '0.00';
}

const cents = (amount: JsonValue | undefined): number => Math.round(Number(amount) * 100);
const decimal = (value: number): string => (value / 100).toFixed(2);

/** A MoneyBag of zero in the currencies of `like`. */
function zeroBag(like: JsonValue | undefined): JsonObject {
  const b = (like ?? {}) as JsonObject;
  const side = (m: JsonValue | undefined): JsonObject => ({ amount: '0.00', currencyCode: ((m ?? {}) as JsonObject).currencyCode ?? 'EUR' });
  return { shopMoney: side(b.shopMoney), presentmentMoney: side(b.presentmentMoney ?? b.shopMoney) };
}

/** `bag` plus an amount in the shop's currency (the presentment side the same: the fake's deposits are in one currency). */
function addToBag(bag: JsonValue | undefined, amount: string): JsonObject {
  const b = (bag ?? zeroBag(undefined)) as JsonObject;
  const side = (m: JsonValue | undefined): JsonObject => ({ amount: decimal(cents(((m ?? {}) as JsonObject).amount) + cents(amount)), currencyCode: ((m ?? {}) as JsonObject).currencyCode ?? 'EUR' });
  return { shopMoney: side(b.shopMoney), presentmentMoney: side(b.presentmentMoney ?? b.shopMoney) };
}

/** Shopify's totalOutstandingSet: the total less what was received (never below zero). */
function outstandingOf(total: JsonValue | undefined, received: JsonValue | undefined): JsonObject {
  const t = (total ?? zeroBag(undefined)) as JsonObject;
  const r = (received ?? zeroBag(total)) as JsonObject;
  const side = (a: JsonValue | undefined, b: JsonValue | undefined): JsonObject => ({
    amount: decimal(Math.max(0, cents(((a ?? {}) as JsonObject).amount) - cents(((b ?? {}) as JsonObject).amount))),
    currencyCode: ((a ?? {}) as JsonObject).currencyCode ?? 'EUR',
  });
  return { shopMoney: side(t.shopMoney, r.shopMoney), presentmentMoney: side(t.presentmentMoney ?? t.shopMoney, r.presentmentMoney ?? r.shopMoney) };
}

/** The REST Order's payment_terms (snake_case, its schedules' amounts as numbers of the order's currency), or null. */
function restPaymentTerms(order: JsonObject): JsonValue {
  const terms = order.paymentTerms as JsonObject | null | undefined;
  if (!terms) return null;
  const total = ((order.totalPriceSet as JsonObject).shopMoney as JsonObject);
  return {
    id: Number(legacyId(String(terms.id))),
    payment_terms_name: terms.paymentTermsName,
    payment_terms_type: String(terms.paymentTermsType).toLowerCase(),
    due_in_days: terms.dueInDays ?? null,
    amount: Number(total.amount),
    currency: total.currencyCode,
    payment_schedules: ((terms.paymentSchedules ?? []) as JsonObject[]).map((s) => ({
      id: Number(legacyId(String(s.id))),
      amount: Number(((s.totalBalance as JsonObject).amount)),
      currency: (s.totalBalance as JsonObject).currencyCode,
      issued_at: s.issuedAt ?? null,
      due_at: s.dueAt ?? null,
      completed_at: s.completedAt ?? null,
      expected_payment_method: null,
    })),
  };
}

function restMoneySet(bag: JsonValue | undefined): JsonObject {
  const b = (bag ?? {}) as JsonObject;
  const shop = (b.shopMoney ?? { amount: '0.00', currencyCode: 'EUR' }) as JsonObject;
  const presentment = (b.presentmentMoney ?? shop) as JsonObject;
  return { shop_money: { amount: shop.amount, currency_code: shop.currencyCode }, presentment_money: { amount: presentment.amount, currency_code: presentment.currencyCode } };
}

function restTaxLines(lines: JsonValue | undefined): JsonObject[] {
  return ((lines ?? []) as JsonObject[]).map((t) => ({ title: t.title, rate: t.rate, price: money(t.priceSet), price_set: restMoneySet(t.priceSet), channel_liable: t.channelLiable ?? false }));
}

/** The REST-shaped order a webhook carries (the Admin REST API's Order resource, snake_case). */
export function restOrderPayload(order: JsonObject): JsonObject {
  const lines = (order.lineItems ?? []) as JsonObject[];
  return {
    id: Number(order.legacyResourceId),
    admin_graphql_api_id: order.id,
    name: order.name,
    order_number: Number(String(order.name).replace(/\D/g, '')),
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    processed_at: order.processedAt,
    cancelled_at: order.cancelledAt ?? null,
    cancel_reason: order.cancelReason ? String(order.cancelReason).toLowerCase() : null,
    closed_at: order.closedAt ?? null,
    test: order.test,
    financial_status: String(order.displayFinancialStatus ?? 'pending').toLowerCase(),
    currency: order.currencyCode,
    presentment_currency: order.presentmentCurrencyCode,
    taxes_included: order.taxesIncluded,
    email: order.email ?? null,
    note: order.note ?? null,
    tags: ((order.tags ?? []) as string[]).join(', '),
    note_attributes: ((order.customAttributes ?? []) as JsonObject[]).map((a) => ({ name: a.key, value: a.value })),
    // A B2B order names its company and location by id (REST's Order.company); nothing of their tax settings.
    company: companyOfPurchase(order.purchasingEntity),
    total_price: money(order.totalPriceSet),
    total_price_set: restMoneySet(order.totalPriceSet),
    total_tax: money(order.totalTaxSet),
    current_total_price: money(order.currentTotalPriceSet),
    total_outstanding: money(order.totalOutstandingSet),
    payment_terms: restPaymentTerms(order),
    payment_gateway_names: order.paymentGatewayNames ?? [],
    line_items: lines.map((line) => ({
      id: Number(legacyId(String(line.id))),
      admin_graphql_api_id: line.id,
      title: line.title,
      name: line.name,
      sku: line.sku ?? '',
      quantity: line.quantity,
      current_quantity: line.currentQuantity,
      price: money(line.originalUnitPriceSet),
      price_set: restMoneySet(line.originalUnitPriceSet),
      gift_card: line.isGiftCard,
      taxable: line.taxable,
      tax_lines: restTaxLines(line.taxLines),
    })),
    refunds: ((order.refunds ?? []) as JsonObject[]).map((r) => ({ id: Number(r.legacyResourceId), admin_graphql_api_id: r.id, created_at: r.createdAt })),
  };
}

function companyOfPurchase(entity: JsonValue | undefined): JsonObject | null {
  const purchase = entity as JsonObject | null | undefined;
  if (!purchase || purchase.__typename !== 'PurchasingCompany') return null;
  return { id: Number(legacyId(String((purchase.company as JsonObject).id))), location_id: Number(legacyId(String((purchase.location as JsonObject).id))) };
}

/** The REST-shaped refund refunds/create carries. */
export function restRefundPayload(order: JsonObject, refund: JsonObject): JsonObject {
  return {
    id: Number(refund.legacyResourceId),
    admin_graphql_api_id: refund.id,
    order_id: Number(order.legacyResourceId),
    created_at: refund.createdAt,
    processed_at: refund.createdAt,
    note: refund.note ?? null,
    refund_line_items: ((refund.refundLineItems ?? []) as JsonObject[]).map((r) => ({
      line_item_id: Number(legacyId(String((r.lineItem as JsonObject).id))),
      quantity: r.quantity,
      restock_type: String(r.restockType).toLowerCase(),
      subtotal: money(r.subtotalSet),
      total_tax: money(r.totalTaxSet),
    })),
    order_adjustments: ((refund.orderAdjustments ?? []) as JsonObject[]).map((a) => ({ amount: money(a.amountSet), tax_amount: money(a.taxAmountSet), kind: 'refund_discrepancy' })),
    transactions: ((refund.transactions ?? []) as JsonObject[]).map((t) => ({ kind: String(t.kind).toLowerCase(), status: String(t.status).toLowerCase(), amount: money(t.amountSet), gateway: t.gateway })),
  };
}
