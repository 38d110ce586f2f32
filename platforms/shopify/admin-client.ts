import { request } from 'undici';
import { z } from 'zod';
import { SHOPIFY_API_VERSION } from './api-version';

/**
 * The connector's client of one store's GraphQL Admin API, paced by Shopify's cost-based limit
 * (shopify.dev/docs/api/usage/limits): every answer carries `extensions.cost.throttleStatus`
 * (bucket size, what is left, restore rate per second); the client keeps that picture, and before a
 * query whose cost it has seen it waits until the bucket holds it, instead of sending and being
 * refused. A `THROTTLED` answer waits exactly as long as the bucket needs to refill the requested
 * cost; a 429 waits its `Retry-After`. Waits are bounded by `maxWaitMs` in all; past it the call fails
 * with kind `throttled` and the job's own retry (BullMQ, the one retry layer) takes over. Nothing
 * else is retried here: a 5xx, a timeout or a refused connection fails at once.
 *
 * `@shopify/shopify-api`'s GraphQL client has retries off by default, retries only 429/503 when on,
 * and does not pace by cost (../../docs/shopify.md), which is why this one exists.
 */

export type ShopifyApiErrorKind = 'authentication' | 'access-denied' | 'throttled' | 'graphql' | 'server' | 'connection' | 'timeout' | 'invalid-answer';

export class ShopifyApiError extends Error {
  override readonly name = 'ShopifyApiError';
  constructor(
    readonly kind: ShopifyApiErrorKind,
    message: string,
    readonly details: { status?: number; requestId?: string; body?: string; requiredAccess?: string } = {},
  ) {
    super(message);
  }
}

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export type PaceEvent = { kind: 'paced' | 'throttled' | 'retry-after'; waitMs: number };

export interface ShopifyAdminOptions {
  /** The store's myshopify domain ("loja.myshopify.com"). */
  shopDomain: string;
  /** Where the Admin API answers; https://{shopDomain} unless a test points it elsewhere. */
  adminUrl?: string;
  /** The store's offline token, or where to read it (the install flow's sealed copy) before each request. */
  accessToken: string | (() => Promise<string>);
  /**
   * Shopify refused `token` (HTTP 401): true when another token is there to try (an expiring token
   * refreshed, a reinstall another process saved); the query is then sent once more, never twice.
   */
  onTokenRefused?: (token: string) => Promise<boolean>;
  apiVersion?: string;
  /** The most the client waits for the bucket and Retry-After within one call. Default 60 s. */
  maxWaitMs?: number;
  /** Per request, from sending to the last byte. Default 15 s. */
  timeoutMs?: number;
  onPace?: (event: PaceEvent) => void;
}

const throttleStatusSchema = z.object({ maximumAvailable: z.number(), currentlyAvailable: z.number(), restoreRate: z.number() });
const answerSchema = z.object({
  data: z.unknown().optional(),
  errors: z
    .union([
      z.string(),
      z.array(z.object({ message: z.string(), extensions: z.record(z.string(), z.unknown()).optional() }).passthrough()),
      z.record(z.string(), z.unknown()),
    ])
    .optional(),
  extensions: z
    .object({ cost: z.object({ requestedQueryCost: z.number(), actualQueryCost: z.number().nullable(), throttleStatus: throttleStatusSchema }).optional() })
    .passthrough()
    .optional(),
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class ShopifyAdminClient {
  readonly endpoint: string;
  private bucket?: ThrottleStatus & { at: number };
  /** The cost Shopify asked last time for each query text: what the next call of it will ask. */
  private readonly costs = new Map<string, number>();
  /** Points promised to requests in flight (the bucket picture does not show them yet). */
  private reserved = 0;
  private gate: Promise<void> = Promise.resolve();

  constructor(private readonly options: ShopifyAdminOptions) {
    const base = (options.adminUrl ?? `https://${options.shopDomain}`).replace(/\/+$/, '');
    this.endpoint = `${base}/admin/api/${options.apiVersion ?? SHOPIFY_API_VERSION}/graphql.json`;
  }

  /** What the last answer said of the bucket, restored to now. */
  throttleStatus(): ThrottleStatus | undefined {
    if (!this.bucket) return undefined;
    return { ...this.bucket, currentlyAvailable: this.availableNow() };
  }

  private availableNow(): number {
    if (!this.bucket) return Infinity;
    const restored = ((Date.now() - this.bucket.at) / 1000) * this.bucket.restoreRate;
    return Math.min(this.bucket.maximumAvailable, this.bucket.currentlyAvailable + restored);
  }

  /** Runs `document` and returns its `data` as `schema` reads it. */
  async query<T>(document: string, variables: Record<string, unknown>, schema: z.ZodType<T>): Promise<T> {
    let waited = 0;
    const budget = this.options.maxWaitMs ?? 60_000;
    const wait = async (event: PaceEvent): Promise<void> => {
      if (waited + event.waitMs > budget) {
        throw new ShopifyApiError('throttled', `Shopify's rate limit would need more than ${budget} ms of waiting for ${this.options.shopDomain}`);
      }
      waited += event.waitMs;
      this.options.onPace?.(event);
      await sleep(event.waitMs);
    };
    let refusedOnce = false;
    for (;;) {
      const cost = this.costs.get(document) ?? 0;
      await this.pace(cost, wait);
      let answer: Awaited<ReturnType<ShopifyAdminClient['send']>>;
      try {
        answer = await this.send(document, variables);
      } finally {
        this.reserved -= cost;
      }
      if (answer.status === 401 && !refusedOnce && this.options.onTokenRefused && (await this.options.onTokenRefused(answer.token))) {
        refusedOnce = true;
        continue;
      }
      if (answer.status === 429) {
        const seconds = Number.parseFloat(answer.retryAfter ?? '');
        await wait({ kind: 'retry-after', waitMs: Math.ceil((Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000) });
        continue;
      }
      const parsed = this.read(answer);
      const costInfo = parsed.extensions?.cost;
      if (costInfo) {
        this.bucket = { ...costInfo.throttleStatus, at: Date.now() };
        this.costs.set(document, costInfo.requestedQueryCost);
      }
      const errors = Array.isArray(parsed.errors) ? parsed.errors : [];
      if (errors.some((e) => e.extensions?.code === 'THROTTLED') && costInfo) {
        const missing = costInfo.requestedQueryCost - costInfo.throttleStatus.currentlyAvailable;
        await wait({ kind: 'throttled', waitMs: Math.ceil((Math.max(missing, 1) / costInfo.throttleStatus.restoreRate) * 1000) });
        continue;
      }
      return this.dataOf(parsed, errors, answer, schema);
    }
  }

  /**
   * Waits, one caller at a time, until the bucket holds `cost` beside what is in flight, and
   * reserves it before the next caller looks (the caller gives it back when its answer came).
   */
  private async pace(cost: number, wait: (event: PaceEvent) => Promise<void>): Promise<void> {
    const turn = this.gate.then(async () => {
      const missing = cost + this.reserved - this.availableNow();
      if (cost > 0 && missing > 0 && this.bucket) await wait({ kind: 'paced', waitMs: Math.ceil((missing / this.bucket.restoreRate) * 1000) });
      this.reserved += cost;
    });
    this.gate = turn.catch(() => undefined);
    await turn;
  }

  private async send(document: string, variables: Record<string, unknown>): Promise<{ status: number; body: string; token: string; retryAfter?: string; requestId?: string }> {
    const timeout = this.options.timeoutMs ?? 15_000;
    const token = typeof this.options.accessToken === 'string' ? this.options.accessToken : await this.options.accessToken();
    try {
      const answer = await request(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-shopify-access-token': token },
        body: JSON.stringify({ query: document, variables }),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      const body = await answer.body.text();
      const one = (name: string): string | undefined => {
        const value = answer.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      return { status: answer.statusCode, body, token, retryAfter: one('retry-after'), requestId: one('x-request-id') };
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      const kind: ShopifyApiErrorKind = code.includes('TIMEOUT') ? 'timeout' : 'connection';
      throw new ShopifyApiError(kind, `Shopify Admin API of ${this.options.shopDomain} did not answer: ${(error as Error).message}`);
    }
  }

  private read(answer: { status: number; body: string; requestId?: string }): z.output<typeof answerSchema> {
    const details = { status: answer.status, requestId: answer.requestId, body: answer.body.slice(0, 2000) };
    if (answer.status === 401 || answer.status === 403) {
      throw new ShopifyApiError('authentication', `Shopify refused the access token of ${this.options.shopDomain} (HTTP ${answer.status})`, details);
    }
    if (answer.status >= 500) throw new ShopifyApiError('server', `Shopify answered HTTP ${answer.status} for ${this.options.shopDomain}`, details);
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      throw new ShopifyApiError('invalid-answer', `Shopify answered HTTP ${answer.status} without JSON for ${this.options.shopDomain}`, details);
    }
    const parsed = answerSchema.safeParse(json);
    if (!parsed.success || answer.status !== 200) {
      throw new ShopifyApiError(answer.status === 200 ? 'invalid-answer' : 'graphql', `Shopify answered HTTP ${answer.status} for ${this.options.shopDomain}`, details);
    }
    return parsed.data;
  }

  private dataOf<T>(
    parsed: z.output<typeof answerSchema>,
    errors: { message: string; extensions?: Record<string, unknown> }[],
    answer: { status: number; body: string; requestId?: string },
    schema: z.ZodType<T>,
  ): T {
    const details = { status: answer.status, requestId: answer.requestId, body: answer.body.slice(0, 2000) };
    const denied = errors.find((e) => e.extensions?.code === 'ACCESS_DENIED');
    if (denied) {
      const requiredAccess = typeof denied.extensions?.requiredAccess === 'string' ? denied.extensions.requiredAccess : undefined;
      throw new ShopifyApiError('access-denied', denied.message, { ...details, requiredAccess });
    }
    if (errors.length > 0 || typeof parsed.errors === 'string' || (parsed.errors && !Array.isArray(parsed.errors))) {
      const message = errors.map((e) => e.message).join('; ') || JSON.stringify(parsed.errors);
      throw new ShopifyApiError('graphql', `Shopify refused a query for ${this.options.shopDomain}: ${message}`, details);
    }
    const data = schema.safeParse(parsed.data);
    if (!data.success) {
      throw new ShopifyApiError('invalid-answer', `Shopify's answer for ${this.options.shopDomain} has an unexpected shape: ${data.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`, details);
    }
    return data.data;
  }
}
