import { z } from 'zod';
import type { ListedOrder } from '../../connector/shop/order-summary';
import { legacyIdOf, moneyBagSchema } from './order-query';
import { shopifyGidWithExactId, shopifyLegacyId, shopifyNumericId } from './legacy-id';
import { markMeta } from './other-apps';

/**
 * What the connector's ingest plans from (connector/shop/order-summary.ts: status, total, paid and
 * created instants, refunds, our record on the order), built from a Shopify order: from the
 * REST-shaped body of an orders/* webhook, or from the GraphQL listing the sweep and the console
 * read. The statuses are Shopify's words, as the Shopify admin shows them: `paid`,
 * `partially_refunded`, `refunded`, `pending`, `authorized`, `partially_paid`, `voided`, `expired`,
 * and `cancelled` and `test` for a cancelled or a test order (a test order is never invoiced).
 */

/** Every status a Shopify order can have in the connector's words. */
export const SHOPIFY_STATUSES = ['pending', 'authorized', 'partially_paid', 'paid', 'partially_refunded', 'refunded', 'voided', 'expired', 'cancelled', 'test'];

const PAID = new Set(['paid', 'partially_refunded', 'refunded']);

/** Shopify's financial status, a cancellation and the test flag as one status word. */
export function shopifyStatus(financialStatus: string | null | undefined, cancelledAt: string | null | undefined, test: boolean | undefined): string {
  if (cancelledAt) return 'cancelled';
  if (test) return 'test';
  return (financialStatus ?? 'pending').toLowerCase();
}

/** The summary's instants are UTC without a zone (connector/shop/order-summary.ts). */
function gmt(instant: string | null | undefined): string | null {
  if (!instant) return null;
  const ms = Date.parse(instant);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 19) : null;
}

export interface ShopifyOrderHead {
  id: string;
  status: string;
  currency: string;
  total: string;
  createdAt: string;
  /** When the payment was taken (Shopify's processedAt of a paid order). */
  paidAt?: string | null;
  updatedAt: string;
  refunds: { id: string; total?: string }[];
  /** Our app's metafields on the order (key -> value), read back as the connector's meta keys. */
  metafields: { key: string; value: string }[];
  /** Where other invoicing apps may mark the order (./other-apps.ts): its tags, attributes and the metafields the tenant named. */
  marks?: { key: string; value: string }[];
  /** The payment gateway's name, when the read carried it. */
  paymentMethod?: string | null;
  /** What the shop still has to receive (totalOutstandingSet, REST total_outstanding), when the read carried it. */
  outstanding?: string | null;
}

/** The connector's meta key of one of our metafields ("magnifinance_document_number" -> "_magnifinance_document_number"). */
export function metaKeyOfMetafield(key: string): string {
  return key.startsWith('magnifinance_') ? `_${key}` : key;
}

/** The metafield key of one of the connector's meta keys (Shopify keys are 2-64 of [A-Za-z0-9_-]). */
export function metafieldKeyOfMeta(key: string): string {
  return key.replace(/^_+/, '').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

export function summaryOfHead(head: ShopifyOrderHead): ListedOrder {
  return {
    id: Number(head.id),
    status: head.status,
    currency: head.currency,
    total: head.total,
    attributes: [...head.metafields.map((m) => ({ key: metaKeyOfMetafield(m.key), value: m.value })), ...(head.marks ?? [])],
    paidAt: gmt(PAID.has(head.status) || head.status === 'cancelled' ? head.paidAt : null),
    createdAt: gmt(head.createdAt),
    modifiedAt: gmt(head.updatedAt),
    paymentMethod: head.paymentMethod ?? null,
    refunds: head.refunds.map((r) => ({ id: Number(r.id), ...(r.total !== undefined ? { total: r.total } : {}) })),
    ...(head.outstanding ? { outstanding: head.outstanding } : {}),
  };
}

/** The parts of an orders/* webhook body (Shopify's REST Order) the route plans from. */
export const ShopifyOrderWebhookSchema = z.object({
  id: shopifyNumericId,
  financial_status: z.string().nullable().optional(),
  cancelled_at: z.string().nullable().optional(),
  test: z.boolean().optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code'),
  total_price: z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal amount'),
  /** What is not yet paid (REST Order.total_outstanding). */
  total_outstanding: z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal amount').nullish(),
  created_at: z.string(),
  processed_at: z.string().nullable().optional(),
  updated_at: z.string(),
  /** Shopify's REST tags: one comma-separated string. */
  tags: z.string().nullish(),
  /** The order's note (the merchant's, with the connector's block at its end): other apps may write there. */
  note: z.string().nullish(),
  note_attributes: z
    .array(z.object({ name: z.string(), value: z.unknown() }))
    .nullish()
    .transform((list) => list ?? []),
  refunds: z
    .array(z.object({ id: shopifyNumericId }))
    .optional()
    .transform((list) => list ?? []),
  /** A B2B order's company and location, by id (REST's Order.company): their tax registration is not in the body. */
  company: z.object({ id: z.number(), location_id: z.number().nullish() }).nullish(),
});

export function summaryOfWebhookOrder(order: z.output<typeof ShopifyOrderWebhookSchema>): ListedOrder {
  return summaryOfHead({
    id: String(order.id),
    status: shopifyStatus(order.financial_status, order.cancelled_at, order.test),
    currency: order.currency,
    total: order.total_price,
    createdAt: order.created_at,
    paidAt: order.processed_at,
    updatedAt: order.updated_at,
    refunds: order.refunds.map((r) => ({ id: String(r.id) })),
    outstanding: order.total_outstanding,
    // A webhook body carries no metafields: the ledger says what this connector already did.
    metafields: [],
    marks: markMeta({
      note: order.note,
      tags: (order.tags ?? '').split(','),
      attributes: order.note_attributes.map((a) => ({ key: a.name, value: a.value === null || a.value === undefined ? null : String(a.value) })),
    }),
  });
}

/** The refunds/create body's parts the route reads. */
export const ShopifyRefundWebhookSchema = z.object({
  id: shopifyNumericId,
  order_id: shopifyNumericId,
});

/** The GraphQL selection of one order in a listing, and its schema. */
export const ORDER_HEAD_FIELDS = `legacyResourceId name displayFinancialStatus cancelledAt test currencyCode createdAt processedAt updatedAt
  totalPriceSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
  totalOutstandingSet { shopMoney { amount } }
  refunds(first: 20) { id totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } } }
  metafields(first: 20, namespace: "$app") { nodes { key value } }
  tags note customAttributes { key value }
  billingAddress { firstName lastName company }`;

/** The metafields other apps' marks are in, when the tenant named some (./other-apps.ts). */
// `first` as many as the marks named: each node costs a point per listed order.
export const MARKED_METAFIELDS_FIELD = 'marked: metafields(first: $markCount, keys: $markKeys) { nodes { namespace key value } }';

export const orderHeadSchema = z.object({
  legacyResourceId: shopifyLegacyId,
  name: z.string(),
  displayFinancialStatus: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  test: z.boolean(),
  currencyCode: z.string(),
  createdAt: z.string(),
  processedAt: z.string(),
  updatedAt: z.string(),
  totalPriceSet: moneyBagSchema,
  totalOutstandingSet: z.object({ shopMoney: z.object({ amount: z.string() }) }).optional(),
  refunds: z.array(z.object({ id: shopifyGidWithExactId, totalRefundedSet: moneyBagSchema })),
  metafields: z.object({ nodes: z.array(z.object({ key: z.string(), value: z.string() })) }),
  tags: z.array(z.string()),
  note: z.string().nullish(),
  customAttributes: z.array(z.object({ key: z.string(), value: z.string().nullable() })),
  marked: z.object({ nodes: z.array(z.object({ namespace: z.string(), key: z.string(), value: z.string() })) }).optional(),
  billingAddress: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable(), company: z.string().nullable() }).nullable(),
});

export function summaryOfListedOrder(order: z.output<typeof orderHeadSchema>): ListedOrder {
  return {
    ...summaryOfHead({
      id: order.legacyResourceId,
      status: shopifyStatus(order.displayFinancialStatus, order.cancelledAt, order.test),
      currency: order.currencyCode,
      total: order.totalPriceSet.shopMoney.amount,
      createdAt: order.createdAt,
      paidAt: order.processedAt,
      updatedAt: order.updatedAt,
      refunds: order.refunds.map((r) => ({ id: legacyIdOf(r.id), total: r.totalRefundedSet.shopMoney.amount })),
      outstanding: order.totalOutstandingSet?.shopMoney.amount,
      metafields: order.metafields.nodes,
      marks: markMeta({ tags: order.tags, attributes: order.customAttributes, metafields: order.marked?.nodes ?? [], note: order.note }),
    }),
    // The buyer's name, for the console's lists and search (never stored by the connector).
    buyer: { firstName: order.billingAddress?.firstName ?? '', lastName: order.billingAddress?.lastName ?? '', company: order.billingAddress?.company ?? '' },
    number: order.name,
  };
}
