import type { IExecuteFunctions, IHttpRequestOptions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { z } from 'zod';

import { SHOPIFY_API_VERSION } from '../../../platforms/shopify/api-version';
import { cancellableSleep } from '../helpers/cancellable-sleep';

export const SHOPIFY_SHOP_CREDENTIAL_TYPE = 'magniFinanceShopifyApi';

const ShopifyCredentialsSchema = z.object({ shopUrl: z.string().trim().min(1) });
const FullResponseSchema = z.object({ statusCode: z.number().int(), headers: z.unknown().optional(), body: z.unknown() });
const ThrottleStatusSchema = z.object({ maximumAvailable: z.number(), currentlyAvailable: z.number(), restoreRate: z.number() });
const AnswerSchema = z.object({
  data: z.unknown().optional(),
  errors: z.array(z.looseObject({ message: z.string(), extensions: z.record(z.string(), z.unknown()).optional() })).optional(),
  extensions: z.looseObject({ cost: z.looseObject({ requestedQueryCost: z.number(), throttleStatus: ThrottleStatusSchema }).optional() }).optional(),
});

/** The most one query waits for Shopify's bucket and Retry-After in all, before it fails the item with the reason. */
const MAX_WAIT_MS = 60_000;

/**
 * The node's client of the store's GraphQL Admin API, through n8n's request helper with the
 * MagniFinance: Shopify Shop API credential, at the API version the connector pins. Paced by
 * Shopify's cost-based limit as the connector's client is (platforms/shopify/admin-client.ts,
 * which the node cannot use: it has its own HTTP and timers): every answer's
 * `extensions.cost.throttleStatus` is kept, and a query whose cost was seen waits until the bucket
 * holds it; a THROTTLED answer waits as long as the bucket needs for the requested cost, a 429 its
 * Retry-After, with n8n's own sleep (the execution's Stop ends the wait). Past MAX_WAIT_MS in one
 * query, the item fails saying so. Nothing else is retried: a refused token, missing scopes, a
 * GraphQL error or a 5xx fail the item at once, with the reason.
 */
export interface ShopifyGraphql {
  query<T>(document: string, variables: Record<string, unknown>, schema: z.ZodType<T>): Promise<T>;
}

function headerOf(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() === name && (typeof value === 'string' || typeof value === 'number')) return String(value);
  }
  return undefined;
}

export async function shopifyGraphql(context: IExecuteFunctions): Promise<ShopifyGraphql> {
  const { shopUrl } = ShopifyCredentialsSchema.parse(await context.getCredentials(SHOPIFY_SHOP_CREDENTIAL_TYPE));
  const url = `${shopUrl.replace(/\/+$/, '')}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
  const signal = context.getExecutionCancelSignal();
  let bucket: (z.infer<typeof ThrottleStatusSchema> & { at: number }) | undefined;
  const costs = new Map<string, number>();
  const available = (): number => (bucket ? Math.min(bucket.maximumAvailable, bucket.currentlyAvailable + ((Date.now() - bucket.at) / 1000) * bucket.restoreRate) : Infinity);
  const refillMs = (cost: number): number => (bucket && bucket.restoreRate > 0 ? Math.ceil(((cost - available()) / bucket.restoreRate) * 1000) : 1_000);
  const fail = (message: string, reply: JsonObject, httpCode?: number, description?: string): NodeApiError =>
    new NodeApiError(context.getNode(), reply, { message, ...(httpCode ? { httpCode: String(httpCode) } : {}), ...(description ? { description } : {}) });

  return {
    async query<T>(document: string, variables: Record<string, unknown>, schema: z.ZodType<T>): Promise<T> {
      let waited = 0;
      const wait = async (ms: number, why: string): Promise<void> => {
        if (waited + ms > MAX_WAIT_MS) {
          throw fail(`Shopify's API limit: ${why}, and this query has waited ${Math.round(waited / 1000)} s already`, { message: why }, 429, 'Another app is spending the store\'s API budget, or the store is busy. Run the order again later: nothing was issued by a query that did not run.');
        }
        waited += ms;
        await cancellableSleep(ms, signal);
      };
      for (;;) {
        const known = costs.get(document);
        if (known !== undefined && available() < known) await wait(Math.max(refillMs(known), 50), 'the bucket lacks the points this query costs');
        const options: IHttpRequestOptions = { method: 'POST', url, json: true, body: { query: document, variables }, returnFullResponse: true, ignoreHttpStatusErrors: true };
        const answer = FullResponseSchema.parse(await context.helpers.httpRequestWithAuthentication.call(context, SHOPIFY_SHOP_CREDENTIAL_TYPE, options));
        const reply = (typeof answer.body === 'object' && answer.body !== null ? answer.body : { message: String(answer.body) }) as JsonObject;
        if (answer.statusCode === 429) {
          const seconds = Number(headerOf(answer.headers, 'retry-after'));
          await wait(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1_000, 'HTTP 429 (Retry-After)');
          continue;
        }
        if (answer.statusCode === 401 || answer.statusCode === 403) {
          throw fail(
            `Shopify refused the access token (HTTP ${answer.statusCode})`,
            reply,
            answer.statusCode,
            'Check the Admin API access token of the MagniFinance: Shopify Shop API credential (the app may have been uninstalled) and the Shop URL.',
          );
        }
        if (answer.statusCode < 200 || answer.statusCode > 299) throw fail(`Shopify answered HTTP ${answer.statusCode}`, reply, answer.statusCode);
        const parsed = AnswerSchema.safeParse(answer.body);
        if (!parsed.success) throw fail('Shopify\'s answer is not a GraphQL answer', reply, answer.statusCode);
        const cost = parsed.data.extensions?.cost;
        if (cost) {
          bucket = { ...cost.throttleStatus, at: Date.now() };
          costs.set(document, cost.requestedQueryCost);
        }
        const errors = parsed.data.errors ?? [];
        if (errors.some((error) => error.extensions?.code === 'THROTTLED')) {
          await wait(Math.max(refillMs(cost?.requestedQueryCost ?? 1), 50), 'THROTTLED');
          continue;
        }
        if (errors.length > 0) {
          const denied = errors.some((error) => error.extensions?.code === 'ACCESS_DENIED');
          throw fail(
            `Shopify refused the query: ${errors.map((error) => error.message).join('; ')}`,
            reply,
            answer.statusCode,
            denied ? 'The app of the access token needs the scopes read_orders and write_orders (order metafields).' : undefined,
          );
        }
        const data = schema.safeParse(parsed.data.data);
        if (!data.success) throw fail(`Shopify's answer has not the expected shape: ${data.error.issues.slice(0, 3).map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`, reply, answer.statusCode);
        return data.data;
      }
    },
  };
}
