import { z } from 'zod';
import type { ShopifyAdminClient } from './admin-client';
import { SHOPIFY_WEBHOOK_TOPICS, type ShopifyWebhookTopic } from './webhook-signature';

/**
 * The store's webhook subscriptions of this app, through the GraphQL Admin API. Shopify deletes a
 * subscription created through the API after its deliveries failed 8 times over 4 hours; the
 * connector's webhook watch (and the doctor) compare what is there with what must be, and create
 * what is missing: the sweep lists the orders changed in the gap.
 */

const TOPIC_ENUM: Record<ShopifyWebhookTopic, string> = {
  'orders/paid': 'ORDERS_PAID',
  'orders/updated': 'ORDERS_UPDATED',
  'orders/cancelled': 'ORDERS_CANCELLED',
  'refunds/create': 'REFUNDS_CREATE',
  'app/uninstalled': 'APP_UNINSTALLED',
};

export interface ShopifySubscription {
  id: string;
  /** In the webhook header's form ("orders/paid"). */
  topic: string;
  uri: string;
  apiVersion: string;
}

const LIST = `query ConnectorSubscriptions($after: String) {
  webhookSubscriptions(first: 50, after: $after) { nodes { id topic uri apiVersion } pageInfo { hasNextPage endCursor } }
}`;
const CREATE = `mutation ConnectorSubscribe($topic: WebhookSubscriptionTopic!, $subscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $subscription) { webhookSubscription { id } userErrors { field message } }
}`;

const listSchema = z.object({
  webhookSubscriptions: z.object({
    nodes: z.array(z.object({ id: z.string(), topic: z.string(), uri: z.string(), apiVersion: z.string() })),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  }),
});

function topicOfEnum(value: string): string {
  return value.toLowerCase().replace('_', '/');
}

export async function listSubscriptions(client: ShopifyAdminClient): Promise<ShopifySubscription[]> {
  const found: ShopifySubscription[] = [];
  let after: string | null = null;
  for (;;) {
    const answer: z.output<typeof listSchema> = await client.query(LIST, { after }, listSchema);
    found.push(...answer.webhookSubscriptions.nodes.map((n) => ({ ...n, topic: topicOfEnum(n.topic) })));
    if (!answer.webhookSubscriptions.pageInfo.hasNextPage) return found;
    after = answer.webhookSubscriptions.pageInfo.endCursor;
  }
}

/** The topics the connector needs at `uri` that the store has no subscription for. */
export function missingTopics(subscriptions: readonly ShopifySubscription[], uri: string): ShopifyWebhookTopic[] {
  return SHOPIFY_WEBHOOK_TOPICS.filter((topic) => !subscriptions.some((s) => s.topic === topic && s.uri === uri));
}

export class SubscriptionRefusedError extends Error {
  override readonly name = 'SubscriptionRefusedError';
}

/** Creates the subscriptions missing at `uri`; returns the topics it created. */
export async function ensureSubscriptions(client: ShopifyAdminClient, uri: string): Promise<ShopifyWebhookTopic[]> {
  const missing = missingTopics(await listSubscriptions(client), uri);
  for (const topic of missing) {
    const answer = await client.query(
      CREATE,
      { topic: TOPIC_ENUM[topic], subscription: { uri, format: 'JSON' } },
      z.object({ webhookSubscriptionCreate: z.object({ userErrors: z.array(z.object({ message: z.string() })) }).nullable() }),
    );
    const errors = answer.webhookSubscriptionCreate?.userErrors ?? [];
    if (errors.length > 0) throw new SubscriptionRefusedError(`Shopify refused the ${topic} subscription at ${uri}: ${errors.map((e) => e.message).join('; ')}`);
  }
  return missing;
}

/** Where a tenant's deliveries arrive: the connector's public URL and the tenant's id. */
export function shopifyDeliveryUrl(publicUrl: string, tenantId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/webhooks/shopify/${encodeURIComponent(tenantId)}`;
}
