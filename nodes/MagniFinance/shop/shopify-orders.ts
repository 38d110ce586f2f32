import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { z } from 'zod';

import { MORE_LINES_QUERY, ORDER_QUERY, orderGid, REFUND_QUERY, refundGid, shopifyOrderSchema, shopifyRefundSchema, type ShopifyOrder } from '../../../platforms/shopify/order-query';
import { metafieldKeyOfMeta, metaKeyOfMetafield } from '../../../platforms/shopify/order-summary';
import { shopifyGraphql, type ShopifyGraphql } from './shopify-graphql';
import type { OrderMeta, ShopOrder, ShopOrders } from './woo-rest';

/** The node's own app metafields of an order, a page at a time (claims, records, the connector's keys when it is the same app). */
const RECORD_QUERY = `query NodeOrderRecord($id: ID!, $after: String) {
  order(id: $id) { id metafields(first: 50, namespace: "$app", after: $after) { nodes { id key value createdAt compareDigest } pageInfo { hasNextPage endCursor } } }
}`;
const SET_QUERY = `mutation NodeOrderRecordSet($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { key } userErrors { field message code } }
}`;

const metafieldSchema = z.object({ id: z.string(), key: z.string(), value: z.string(), createdAt: z.string(), compareDigest: z.string() });
const recordAnswer = z.object({
  order: z.object({ id: z.string(), metafields: z.object({ nodes: z.array(metafieldSchema), pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }) }) }).nullable(),
});
const setAnswer = z.object({ metafieldsSet: z.object({ userErrors: z.array(z.object({ message: z.string(), code: z.string().nullable().optional() })) }).nullable() });
/** Shopify's answer to a compareDigest that no longer matches the stored value (MetafieldsSetUserErrorCode, since API 2024-07). */
const STALE_OBJECT = 'STALE_OBJECT';
const moreLines = z.object({ order: z.object({ lineItems: shopifyOrderSchema.shape.lineItems }) });

/** A Shopify id's number ("gid://shopify/Metafield/123" -> 123). */
function numericId(gid: string): number {
  const n = Number(gid.slice(gid.lastIndexOf('/') + 1));
  return Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER;
}

/** A value of the record as a metafield: JSON for an object (a claim, a keyed record), text otherwise, as the connector writes its meta. */
function metafieldOf(ownerId: string, entry: { key: string; value: string | IDataObject }): { ownerId: string; namespace: string; key: string; type: string; value: string } {
  const key = metafieldKeyOfMeta(entry.key);
  if (typeof entry.value === 'object') return { ownerId, namespace: '$app', key, type: 'json', value: JSON.stringify(entry.value) };
  return { ownerId, namespace: '$app', key, type: entry.value.trim().startsWith('{') ? 'json' : 'single_line_text_field', value: entry.value };
}

/**
 * Order Record "In the Shop" for a Shopify order: the same claim, resume and write-back as for
 * WooCommerce (./issue-with-claim.ts), kept in the order's app-owned metafields (namespace `$app`:
 * no other app can change them) under the connector's keys (`magnifinance_document_number`, ...,
 * as platforms/shopify writes them), through the GraphQL Admin API. The claim is one metafield per
 * purpose (`magnifinance_claim_<purpose>_held`) changed only by compare-and-set (`swapMeta`):
 * metafieldsSet with `compareDigest` (Shopify, since API 2024-07; the connector pins a later
 * version): null places it only if it does not exist, a digest read with the metafield changes it
 * only if it is still that value; otherwise Shopify writes nothing and answers the userError
 * STALE_OBJECT. Of two runs that read the order free, exactly one places its claim. (The
 * metafields are listed by (createdAt, id) as the record's rows; only a claim written by the
 * node's first Shopify version, one per run, is still ranked by them.)
 *
 * `readOrder` and `readRefund` read the order and refund as the connector reads them (its own GraphQL
 * documents and schemas, platforms/shopify/order-query.ts), so the document is mapped from the
 * order as the shop has it now, with what a webhook body lacks (the B2B company's tax number, a
 * VAT app's metafield).
 */
export interface ShopifyShop extends ShopOrders {
  readOrder(orderId: number, nifMetafield?: { namespace: string; key: string }): Promise<ShopifyOrder>;
  readRefund(refundId: number): Promise<unknown>;
}

export async function shopifyOrders(context: IExecuteFunctions): Promise<ShopifyShop> {
  const api: ShopifyGraphql = await shopifyGraphql(context);
  const missing = (what: string, id: number): NodeApiError =>
    new NodeApiError(context.getNode(), { message: 'not found' } as JsonObject, { message: `The store has no ${what} ${id}`, httpCode: '404', description: 'Check that the credential\'s store is the order\'s store.' });

  const get = async (orderId: number): Promise<ShopOrder> => {
    const found: z.infer<typeof metafieldSchema>[] = [];
    let after: string | null = null;
    for (;;) {
      const answer: z.infer<typeof recordAnswer> = await api.query(RECORD_QUERY, { id: orderGid(orderId), after }, recordAnswer);
      const { order } = answer;
      if (!order) throw missing('order', orderId);
      found.push(...order.metafields.nodes);
      if (!order.metafields.pageInfo.hasNextPage) break;
      after = order.metafields.pageInfo.endCursor;
    }
    const ranked = found.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || numericId(a.id) - numericId(b.id));
    const meta: OrderMeta[] = ranked.map((m, index) => ({ id: index + 1, key: metaKeyOfMetafield(m.key), value: m.value, digest: m.compareDigest }));
    return { id: orderId, meta_data: meta } as ShopOrder;
  };

  const refused = (orderId: number, errors: { message: string }[]): NodeApiError =>
    new NodeApiError(context.getNode(), { message: errors.map((e) => e.message).join('; ') } as JsonObject, {
      message: `Shopify refused the metafields of order ${orderId}: ${errors.map((e) => e.message).join('; ')}`,
      description: 'The app of the access token needs the scope write_orders.',
    });

  return {
    get,
    async putMeta(orderId, entries) {
      const ownerId = orderGid(orderId);
      const answer = await api.query(SET_QUERY, { metafields: entries.map((entry) => metafieldOf(ownerId, entry)) }, setAnswer);
      const errors = answer.metafieldsSet?.userErrors ?? [];
      if (errors.length > 0) throw refused(orderId, errors);
      return await get(orderId);
    },
    async swapMeta(orderId, key, expected, value) {
      // compareDigest is always sent, null included: left out, Shopify would write whatever is there.
      const metafield = { ...metafieldOf(orderGid(orderId), { key, value }), compareDigest: expected };
      const answer = await api.query(SET_QUERY, { metafields: [metafield] }, setAnswer);
      const errors = answer.metafieldsSet?.userErrors ?? [];
      if (errors.some((e) => e.code === STALE_OBJECT)) return undefined;
      if (errors.length > 0) throw refused(orderId, errors);
      return await get(orderId);
    },
    async readOrder(orderId, nifMetafield) {
      const id = orderGid(orderId);
      const variables = { id, nifNamespace: nifMetafield?.namespace ?? '$app', nifKey: nifMetafield?.key ?? 'nif' };
      const { order } = await api.query(ORDER_QUERY, variables, z.object({ order: shopifyOrderSchema.nullable() }));
      if (!order) throw missing('order', orderId);
      let pageInfo = order.lineItems.pageInfo;
      while (pageInfo.hasNextPage) {
        const more = await api.query(MORE_LINES_QUERY, { id, after: pageInfo.endCursor }, moreLines);
        order.lineItems.nodes.push(...more.order.lineItems.nodes);
        pageInfo = more.order.lineItems.pageInfo;
      }
      return order;
    },
    async readRefund(refundId) {
      const { refund } = await api.query(REFUND_QUERY, { id: refundGid(refundId) }, z.object({ refund: shopifyRefundSchema.nullable() }));
      if (!refund) throw missing('refund', refundId);
      return refund;
    },
  };
}
