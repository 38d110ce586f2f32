import { z } from 'zod';
import { mappingError } from '../../law/mapping-errors';
import type { ShopifyAdminClient } from './admin-client';
import { shopifyGidWithExactId, shopifyLegacyId } from './legacy-id';

/**
 * The GraphQL documents that read a Shopify order and its refunds, and the zod schemas of their
 * answers (the boundary: nothing past here sees an unchecked Shopify value). Every amount is read
 * as a MoneyBag (shop and presentment money) so the tenant's currency policy picks one side later.
 *
 * Cost (Shopify's calculation, ../../test/support/shopify-admin-schema.ts): one order with 25 lines
 * a page asks about 850 of the 1,000 points a single query may cost; an order of more lines reads
 * the rest a page at a time (`lineItems(after:)`).
 */

export const LINE_PAGE = 25;

const MONEY = 'shopMoney { amount currencyCode } presentmentMoney { amount currencyCode }';
const TAX_LINES = `taxLines { title rate ratePercentage priceSet { ${MONEY} } channelLiable }`;
const ALLOCATIONS = `discountAllocations { allocatedAmountSet { ${MONEY} } discountApplication { index } }`;
const LINE_FIELDS = `id name title sku quantity requiresShipping isGiftCard taxable
  originalTotalSet { ${MONEY} }
  ${TAX_LINES}
  ${ALLOCATIONS}
  duties { id price { ${MONEY} } ${TAX_LINES} }
  customAttributes { key value }
  product { id }
  variant { id }`;
const ADDRESS = 'firstName lastName company address1 address2 city province provinceCode zip countryCodeV2 phone';

export const ORDER_QUERY = `query ConnectorOrder($id: ID!, $nifNamespace: String, $nifKey: String!) {
  order(id: $id) {
    id legacyResourceId name createdAt updatedAt processedAt cancelledAt closedAt test
    displayFinancialStatus currencyCode presentmentCurrencyCode taxesIncluded
    email phone note tags paymentGatewayNames
    customAttributes { key value }
    billingAddress { ${ADDRESS} }
    shippingAddress { ${ADDRESS} }
    purchasingEntity { ... on PurchasingCompany { company { name } location { taxSettings { taxRegistrationId } } } }
    totalPriceSet { ${MONEY} }
    totalOutstandingSet { shopMoney { amount } }
    totalTipReceivedSet { ${MONEY} }
    totalCashRoundingAdjustment { paymentSet { ${MONEY} } }
    discountApplications(first: 10) { nodes { index __typename ... on DiscountCodeApplication { code } ... on AutomaticDiscountApplication { title } ... on ManualDiscountApplication { title } } }
    lineItems(first: ${LINE_PAGE}) { nodes { ${LINE_FIELDS} } pageInfo { hasNextPage endCursor } }
    shippingLines(first: 10) { nodes { id title code originalPriceSet { ${MONEY} } discountedPriceSet { ${MONEY} } ${TAX_LINES} ${ALLOCATIONS} } }
    transactions(first: 20) { kind status gateway formattedGateway processedAt amountSet { ${MONEY} } }
    refunds(first: 50) { id createdAt }
    metafields(first: 40, namespace: "$app") { nodes { key value } }
    nifMetafield: metafield(namespace: $nifNamespace, key: $nifKey) { value }
  }
}`;

export const MORE_LINES_QUERY = `query ConnectorOrderLines($id: ID!, $after: String) {
  order(id: $id) { lineItems(first: ${LINE_PAGE}, after: $after) { nodes { ${LINE_FIELDS} } pageInfo { hasNextPage endCursor } } }
}`;

export const REFUND_QUERY = `query ConnectorRefund($id: ID!) {
  refund(id: $id) {
    id legacyResourceId createdAt note
    totalRefundedSet { ${MONEY} }
    refundLineItems(first: 25) { nodes { lineItem { id name sku product { id } variant { id } } quantity priceSet { ${MONEY} } subtotalSet { ${MONEY} } totalTaxSet { ${MONEY} } } }
    refundShippingLines(first: 5) { nodes { id shippingLine { id title } subtotalAmountSet { ${MONEY} } taxAmountSet { ${MONEY} } } }
    orderAdjustments(first: 10) { nodes { id amountSet { ${MONEY} } taxAmountSet { ${MONEY} } reason } }
    transactions(first: 10) { nodes { kind status gateway amountSet { ${MONEY} } } }
  }
}`;

const decimalText = z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal amount');
const moneyV2 = z.object({ amount: decimalText, currencyCode: z.string() });
export const moneyBagSchema = z.object({ shopMoney: moneyV2, presentmentMoney: moneyV2 });
export type MoneyBag = z.output<typeof moneyBagSchema>;

const taxLineSchema = z.object({ title: z.string(), rate: z.number().nullable(), ratePercentage: z.number().nullable(), priceSet: moneyBagSchema, channelLiable: z.boolean().nullable().optional() });
export type ShopifyTaxLine = z.output<typeof taxLineSchema>;
const allocationSchema = z.object({ allocatedAmountSet: moneyBagSchema, discountApplication: z.object({ index: z.number() }) });
const attributeSchema = z.object({ key: z.string(), value: z.string().nullable() });
const addressSchema = z
  .object({
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    company: z.string().nullable(),
    address1: z.string().nullable(),
    address2: z.string().nullable(),
    city: z.string().nullable(),
    province: z.string().nullable(),
    provinceCode: z.string().nullable(),
    zip: z.string().nullable(),
    countryCodeV2: z.string().nullable(),
    phone: z.string().nullable(),
  })
  .nullable();
export type ShopifyAddress = z.output<typeof addressSchema>;

const lineItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  sku: z.string().nullable(),
  quantity: z.number().int(),
  requiresShipping: z.boolean(),
  isGiftCard: z.boolean(),
  taxable: z.boolean(),
  originalTotalSet: moneyBagSchema,
  taxLines: z.array(taxLineSchema),
  discountAllocations: z.array(allocationSchema),
  duties: z.array(z.object({ id: z.string(), price: moneyBagSchema, taxLines: z.array(taxLineSchema) })),
  customAttributes: z.array(attributeSchema),
  product: z.object({ id: z.string() }).nullable(),
  variant: z.object({ id: z.string() }).nullable(),
});
export type ShopifyLineItem = z.output<typeof lineItemSchema>;

const pageInfoSchema = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

export const shopifyOrderSchema = z.object({
  id: z.string(),
  legacyResourceId: shopifyLegacyId,
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  processedAt: z.string(),
  cancelledAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  test: z.boolean(),
  displayFinancialStatus: z.string().nullable(),
  currencyCode: z.string(),
  presentmentCurrencyCode: z.string(),
  taxesIncluded: z.boolean(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  note: z.string().nullable(),
  tags: z.array(z.string()),
  paymentGatewayNames: z.array(z.string()),
  customAttributes: z.array(attributeSchema),
  billingAddress: addressSchema,
  shippingAddress: addressSchema,
  purchasingEntity: z
    .object({ company: z.object({ name: z.string() }).optional(), location: z.object({ taxSettings: z.object({ taxRegistrationId: z.string().nullable() }) }).optional() })
    .nullable(),
  totalPriceSet: moneyBagSchema,
  /** What the shop still has to receive (absent in older stored copies). */
  totalOutstandingSet: z.object({ shopMoney: z.object({ amount: z.string() }) }).optional(),
  totalTipReceivedSet: moneyBagSchema,
  totalCashRoundingAdjustment: z.object({ paymentSet: moneyBagSchema }),
  discountApplications: z.object({ nodes: z.array(z.object({ index: z.number(), __typename: z.string(), code: z.string().optional(), title: z.string().optional() })) }),
  lineItems: z.object({ nodes: z.array(lineItemSchema), pageInfo: pageInfoSchema }),
  shippingLines: z.object({
    nodes: z.array(
      z.object({ id: z.string().nullable(), title: z.string(), code: z.string().nullable(), originalPriceSet: moneyBagSchema, discountedPriceSet: moneyBagSchema, taxLines: z.array(taxLineSchema), discountAllocations: z.array(allocationSchema) }),
    ),
  }),
  transactions: z.array(z.object({ kind: z.string(), status: z.string(), gateway: z.string().nullable(), formattedGateway: z.string().nullable(), processedAt: z.string().nullable(), amountSet: moneyBagSchema })),
  refunds: z.array(z.object({ id: shopifyGidWithExactId, createdAt: z.string().nullable() })),
  metafields: z.object({ nodes: z.array(z.object({ key: z.string(), value: z.string() })) }),
  nifMetafield: z.object({ value: z.string() }).nullable(),
  /** Other apps' metafields the tenant names as their marks (./other-apps.ts), when the Shop read them beside the order. */
  marked: z.object({ nodes: z.array(z.object({ namespace: z.string(), key: z.string(), value: z.string() })) }).optional(),
});
export type ShopifyOrder = z.output<typeof shopifyOrderSchema>;

export const shopifyRefundSchema = z.object({
  id: z.string(),
  legacyResourceId: shopifyLegacyId,
  createdAt: z.string().nullable(),
  note: z.string().nullable(),
  totalRefundedSet: moneyBagSchema,
  refundLineItems: z.object({
    nodes: z.array(
      z.object({
        lineItem: z.object({ id: z.string(), name: z.string(), sku: z.string().nullable(), product: z.object({ id: z.string() }).nullable(), variant: z.object({ id: z.string() }).nullable() }),
        quantity: z.number().int(),
        priceSet: moneyBagSchema,
        subtotalSet: moneyBagSchema,
        totalTaxSet: moneyBagSchema,
      }),
    ),
  }),
  refundShippingLines: z.object({ nodes: z.array(z.object({ id: z.string(), shippingLine: z.object({ id: z.string().nullable(), title: z.string() }), subtotalAmountSet: moneyBagSchema, taxAmountSet: moneyBagSchema })) }),
  orderAdjustments: z.object({ nodes: z.array(z.object({ id: z.string(), amountSet: moneyBagSchema, taxAmountSet: moneyBagSchema, reason: z.string().nullable() })) }),
  transactions: z.object({ nodes: z.array(z.object({ kind: z.string(), status: z.string(), gateway: z.string().nullable(), amountSet: moneyBagSchema })) }),
});
export type ShopifyRefund = z.output<typeof shopifyRefundSchema>;

/** Shopify's global id of an order from the number a webhook or a person gives ("820982911946154508"). */
export function orderGid(id: string | number): string {
  const text = String(id);
  return text.startsWith('gid://') ? text : `gid://shopify/Order/${text}`;
}

export function refundGid(id: string | number): string {
  const text = String(id);
  return text.startsWith('gid://') ? text : `gid://shopify/Refund/${text}`;
}

/** The number at the end of a global id ("gid://shopify/Order/42" -> "42"). */
export function legacyIdOf(gid: string): string {
  return gid.slice(gid.lastIndexOf('/') + 1);
}

/**
 * Reads one order whole (every page of its lines); undefined when the store has no such order.
 * `nifMetafield` names the metafield a VAT app keeps the buyer's NIF in, when the tenant has one.
 */
export async function readShopifyOrder(client: ShopifyAdminClient, id: string | number, nifMetafield?: { namespace: string; key: string }): Promise<ShopifyOrder | undefined> {
  const gid = orderGid(id);
  const variables = { id: gid, nifNamespace: nifMetafield?.namespace ?? '$app', nifKey: nifMetafield?.key ?? 'nif' };
  const { order } = await client.query(ORDER_QUERY, variables, z.object({ order: shopifyOrderSchema.nullable() }));
  if (!order) return undefined;
  let pageInfo = order.lineItems.pageInfo;
  while (pageInfo.hasNextPage) {
    const more = await client.query(
      MORE_LINES_QUERY,
      { id: gid, after: pageInfo.endCursor },
      z.object({ order: z.object({ lineItems: z.object({ nodes: z.array(lineItemSchema), pageInfo: pageInfoSchema }) }) }),
    );
    order.lineItems.nodes.push(...more.order.lineItems.nodes);
    pageInfo = more.order.lineItems.pageInfo;
  }
  return order;
}

export async function readShopifyRefund(client: ShopifyAdminClient, id: string | number): Promise<ShopifyRefund | undefined> {
  const { refund } = await client.query(REFUND_QUERY, { id: refundGid(id) }, z.object({ refund: shopifyRefundSchema.nullable() }));
  return refund ?? undefined;
}

/** The first problems of an answer that does not have the expected shape, in the mapping catalogue's params. */
function describeIssues(error: z.ZodError): { fields: string; issues: string } {
  const shown = error.issues.slice(0, 5).map((issue) => ({ path: issue.path.map(String).join('.') || '(payload)', message: issue.message }));
  return { fields: [...new Set(shown.map((issue) => issue.path))].join(', '), issues: shown.map((issue) => `${issue.path} ${issue.message}`).join('; ') };
}

function idOf(input: unknown): string | undefined {
  const id = typeof input === 'object' && input !== null ? (input as { legacyResourceId?: unknown; id?: unknown }).legacyResourceId ?? (input as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? legacyIdOf(id) : undefined;
}

/** An order as the Shop read it (./order-query.ts), checked; a mapping error naming the fields otherwise. */
export function parseShopifyOrder(input: unknown): ShopifyOrder {
  const result = shopifyOrderSchema.safeParse(input);
  if (!result.success) throw mappingError(idOf(input), 'order-payload-invalid', describeIssues(result.error));
  return result.data;
}

export function parseShopifyRefund(input: unknown, orderId: string): ShopifyRefund {
  const result = shopifyRefundSchema.safeParse(input);
  if (!result.success) throw mappingError(orderId, 'refund-payload-invalid', { refund: idOf(input) ?? '?', ...describeIssues(result.error) });
  return result.data;
}
