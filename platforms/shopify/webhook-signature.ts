import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifies a Shopify webhook delivery the way Shopify documents it ("Verify webhooks",
 * shopify.dev/docs/apps/build/webhooks/subscribe/https#step-5-verify-the-webhook) and as
 * `@shopify/shopify-api`'s `webhooks.validate()` does (lib/webhooks/validate.ts): the base64
 * HMAC-SHA256 of the raw body with the app's client secret must equal `X-Shopify-Hmac-Sha256`
 * (compared in constant time), and the headers that name the delivery must be there. The result is
 * the same union of reasons the library returns, so the route maps each reason to a status.
 *
 * Why not the library itself: it needs one configured `shopifyApi()` instance per client secret
 * (an agency's connector holds one secret per client store), its node adapter converts the request
 * through a global runtime, and its current major (13) requires Node 22 while this package supports
 * Node 20 (docs/shopify.md). The check is a dozen lines; test/platforms/shopify checks it against
 * deliveries signed by the fake store.
 */

export type ShopifyWebhookTopic = 'orders/paid' | 'orders/updated' | 'orders/cancelled' | 'refunds/create' | 'app/uninstalled';

export const SHOPIFY_WEBHOOK_TOPICS: readonly ShopifyWebhookTopic[] = ['orders/paid', 'orders/updated', 'orders/cancelled', 'refunds/create', 'app/uninstalled'];

export interface ShopifyDelivery {
  valid: true;
  topic: string;
  shopDomain: string;
  apiVersion: string;
  webhookId: string;
  /** The same on every delivery of one event (retries and duplicates): the key that saves work. */
  eventId?: string;
  triggeredAt?: string;
}

export type ShopifyWebhookVerdict =
  | ShopifyDelivery
  | { valid: false; reason: 'missing_body' | 'missing_hmac' | 'invalid_hmac' }
  | { valid: false; reason: 'missing_headers'; missingHeaders: string[] };

type HeaderValue = string | string[] | undefined;

function header(headers: Record<string, HeaderValue>, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}

function sameSignature(expected: Buffer, given: string): boolean {
  const received = Buffer.from(given, 'base64');
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/**
 * `secrets` holds the app's client secret, and during a rotation the previous one too (Shopify signs
 * with the secret in force when the delivery is sent).
 */
export function verifyShopifyWebhook(rawBody: Buffer, headers: Record<string, HeaderValue>, secrets: readonly string[]): ShopifyWebhookVerdict {
  if (rawBody.length === 0) return { valid: false, reason: 'missing_body' };
  const hmac = header(headers, 'x-shopify-hmac-sha256');
  if (!hmac) return { valid: false, reason: 'missing_hmac' };
  const matches = secrets.some((secret) => secret !== '' && sameSignature(createHmac('sha256', secret).update(rawBody).digest(), hmac));
  if (!matches) return { valid: false, reason: 'invalid_hmac' };
  const required = { topic: 'x-shopify-topic', shopDomain: 'x-shopify-shop-domain', apiVersion: 'x-shopify-api-version', webhookId: 'x-shopify-webhook-id' } as const;
  const missingHeaders = Object.values(required).filter((name) => !header(headers, name));
  if (missingHeaders.length > 0) return { valid: false, reason: 'missing_headers', missingHeaders };
  return {
    valid: true,
    topic: header(headers, required.topic) as string,
    shopDomain: header(headers, required.shopDomain) as string,
    apiVersion: header(headers, required.apiVersion) as string,
    webhookId: header(headers, required.webhookId) as string,
    eventId: header(headers, 'x-shopify-event-id'),
    triggeredAt: header(headers, 'x-shopify-triggered-at'),
  };
}

/** The HTTP status a refused delivery gets: 401 for a bad or absent signature, 400 for a malformed delivery. */
export function statusOfRefusal(reason: Exclude<ShopifyWebhookVerdict, ShopifyDelivery>['reason']): number {
  return reason === 'invalid_hmac' || reason === 'missing_hmac' ? 401 : 400;
}
