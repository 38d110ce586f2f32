/**
 * The subset of Shopify's GraphQL Admin API (version 2026-10) that the connector uses, written from
 * the reference at shopify.dev/docs/api/admin-graphql (objects Order, LineItem, ShippingLine,
 * TaxLine, DiscountAllocation, OrderTransaction, Refund, RefundLineItem, RefundShippingLine,
 * OrderAdjustment, Duty, CashRoundingAdjustment, MoneyBag, Metafield, WebhookSubscription, Shop,
 * AppInstallation; mutations metafieldsSet, orderUpdate, webhookSubscriptionCreate/Delete). Names,
 * nullability and argument shapes follow the reference, so a query the fake accepts is one Shopify
 * accepts for these fields; fields outside the subset are refused like Shopify refuses unknown
 * fields ("Field 'x' doesn't exist on type 'Order'").
 *
 * The query cost follows Shopify's documented calculation ("Calculated query costs" in
 * shopify.dev/docs/api/usage/limits): scalars and enums 0, an object 1, a connection 2 plus
 * `first` (or `last`) times the cost of one node, a mutation 10; the actual cost counts the nodes
 * really returned.
 */
import {
  buildSchema,
  getNamedType,
  isObjectType,
  isInterfaceType,
  isUnionType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type GraphQLNamedType,
  type ValueNode,
} from 'graphql';

export const SHOPIFY_ADMIN_SDL = /* GraphQL */ `
scalar DateTime
scalar Decimal
scalar Money
scalar URL
scalar JSON

enum CurrencyCode { EUR USD GBP CHF BRL CAD AUD DKK SEK NOK PLN }
enum CountryCode { PT ES FR DE IT NL BE IE LU AT US GB CH BR CA AU DK SE NO PL }

type MoneyV2 { amount: Decimal! currencyCode: CurrencyCode! }
type MoneyBag { shopMoney: MoneyV2! presentmentMoney: MoneyV2! }

type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }

interface Node { id: ID! }

type TaxLine {
  title: String!
  rate: Float
  ratePercentage: Float
  priceSet: MoneyBag!
  channelLiable: Boolean
  source: String
}

type Attribute { key: String! value: String }

type MailingAddress {
  firstName: String
  lastName: String
  name: String
  company: String
  address1: String
  address2: String
  city: String
  province: String
  provinceCode: String
  zip: String
  country: String
  countryCodeV2: CountryCode
  phone: String
}

enum DiscountApplicationAllocationMethod { ACROSS EACH ONE }
enum DiscountApplicationTargetType { LINE_ITEM SHIPPING_LINE }
enum DiscountApplicationTargetSelection { ALL ENTITLED EXPLICIT }

interface DiscountApplication {
  allocationMethod: DiscountApplicationAllocationMethod!
  index: Int!
  targetSelection: DiscountApplicationTargetSelection!
  targetType: DiscountApplicationTargetType!
}
type DiscountCodeApplication implements DiscountApplication {
  allocationMethod: DiscountApplicationAllocationMethod!
  index: Int!
  targetSelection: DiscountApplicationTargetSelection!
  targetType: DiscountApplicationTargetType!
  code: String!
}
type AutomaticDiscountApplication implements DiscountApplication {
  allocationMethod: DiscountApplicationAllocationMethod!
  index: Int!
  targetSelection: DiscountApplicationTargetSelection!
  targetType: DiscountApplicationTargetType!
  title: String!
}
type ManualDiscountApplication implements DiscountApplication {
  allocationMethod: DiscountApplicationAllocationMethod!
  index: Int!
  targetSelection: DiscountApplicationTargetSelection!
  targetType: DiscountApplicationTargetType!
  title: String!
  description: String
}
type DiscountApplicationEdge { cursor: String! node: DiscountApplication! }
type DiscountApplicationConnection { nodes: [DiscountApplication!]! edges: [DiscountApplicationEdge!]! pageInfo: PageInfo! }

type DiscountAllocation { allocatedAmountSet: MoneyBag! discountApplication: DiscountApplication! }

type Product implements Node { id: ID! title: String! }
type ProductVariant implements Node { id: ID! title: String! sku: String }

type Duty implements Node {
  id: ID!
  countryCodeOfOrigin: CountryCode
  harmonizedSystemCode: String
  price: MoneyBag!
  taxLines: [TaxLine!]!
}

type LineItem implements Node {
  id: ID!
  name: String!
  title: String!
  sku: String
  quantity: Int!
  currentQuantity: Int!
  requiresShipping: Boolean!
  isGiftCard: Boolean!
  taxable: Boolean!
  originalUnitPriceSet: MoneyBag!
  originalTotalSet: MoneyBag!
  discountedTotalSet: MoneyBag!
  totalDiscountSet: MoneyBag!
  taxLines(first: Int): [TaxLine!]!
  discountAllocations: [DiscountAllocation!]!
  duties: [Duty!]!
  customAttributes: [Attribute!]!
  product: Product
  variant: ProductVariant
}
type LineItemEdge { cursor: String! node: LineItem! }
type LineItemConnection { nodes: [LineItem!]! edges: [LineItemEdge!]! pageInfo: PageInfo! }

type ShippingLine {
  id: ID
  title: String!
  code: String
  source: String
  originalPriceSet: MoneyBag!
  discountedPriceSet: MoneyBag!
  taxLines: [TaxLine!]!
  discountAllocations: [DiscountAllocation!]!
  isRemoved: Boolean!
}
type ShippingLineEdge { cursor: String! node: ShippingLine! }
type ShippingLineConnection { nodes: [ShippingLine!]! edges: [ShippingLineEdge!]! pageInfo: PageInfo! }

enum OrderTransactionKind { SALE CAPTURE AUTHORIZATION VOID REFUND CHANGE EMV_AUTHORIZATION SUGGESTED_REFUND }
enum OrderTransactionStatus { SUCCESS FAILURE PENDING ERROR AWAITING_RESPONSE UNKNOWN }

type OrderTransaction implements Node {
  id: ID!
  kind: OrderTransactionKind!
  status: OrderTransactionStatus!
  gateway: String
  formattedGateway: String
  amountSet: MoneyBag!
  processedAt: DateTime
  test: Boolean!
}
type OrderTransactionEdge { cursor: String! node: OrderTransaction! }
type OrderTransactionConnection { nodes: [OrderTransaction!]! edges: [OrderTransactionEdge!]! pageInfo: PageInfo! }

enum RefundLineItemRestockType { NO_RESTOCK CANCEL RETURN LEGACY_RESTOCK }
type RefundLineItem {
  id: ID
  lineItem: LineItem!
  quantity: Int!
  restockType: RefundLineItemRestockType!
  priceSet: MoneyBag!
  subtotalSet: MoneyBag!
  totalTaxSet: MoneyBag!
}
type RefundLineItemEdge { cursor: String! node: RefundLineItem! }
type RefundLineItemConnection { nodes: [RefundLineItem!]! edges: [RefundLineItemEdge!]! pageInfo: PageInfo! }

type RefundShippingLine implements Node {
  id: ID!
  shippingLine: ShippingLine!
  subtotalAmountSet: MoneyBag!
  taxAmountSet: MoneyBag!
}
type RefundShippingLineEdge { cursor: String! node: RefundShippingLine! }
type RefundShippingLineConnection { nodes: [RefundShippingLine!]! edges: [RefundShippingLineEdge!]! pageInfo: PageInfo! }

enum OrderAdjustmentDiscrepancyReason { RESTOCK DAMAGE CUSTOMER PENDING_REFUND_DISCREPANCY FULL_RETURN_BALANCING_ADJUSTMENT REFUND_DISCREPANCY }
type OrderAdjustment implements Node {
  id: ID!
  amountSet: MoneyBag!
  taxAmountSet: MoneyBag!
  reason: OrderAdjustmentDiscrepancyReason
}
type OrderAdjustmentEdge { cursor: String! node: OrderAdjustment! }
type OrderAdjustmentConnection { nodes: [OrderAdjustment!]! edges: [OrderAdjustmentEdge!]! pageInfo: PageInfo! }

type RefundDuty { amountSet: MoneyBag! originalDuty: Duty }

type Refund implements Node {
  id: ID!
  legacyResourceId: ID!
  createdAt: DateTime
  updatedAt: DateTime!
  note: String
  totalRefundedSet: MoneyBag!
  refundLineItems(first: Int, after: String): RefundLineItemConnection!
  refundShippingLines(first: Int, after: String): RefundShippingLineConnection!
  orderAdjustments(first: Int, after: String): OrderAdjustmentConnection!
  transactions(first: Int, after: String): OrderTransactionConnection!
  duties: [RefundDuty!]
}

type CashRoundingAdjustment { paymentSet: MoneyBag! refundSet: MoneyBag! }

type Metafield implements Node {
  id: ID!
  namespace: String!
  key: String!
  value: String!
  type: String!
  compareDigest: String!
  createdAt: DateTime!
  updatedAt: DateTime!
}
type MetafieldEdge { cursor: String! node: Metafield! }
type MetafieldConnection { nodes: [Metafield!]! edges: [MetafieldEdge!]! pageInfo: PageInfo! }

type Company implements Node { id: ID! name: String! }
type CompanyLocation implements Node { id: ID! name: String! taxSettings: CompanyLocationTaxSettings! }
type CompanyLocationTaxSettings { taxRegistrationId: String taxExempt: Boolean! }
type PurchasingCompany { company: Company! location: CompanyLocation! }
type Customer implements Node { id: ID! displayName: String! }
union PurchasingEntity = Customer | PurchasingCompany

enum OrderDisplayFinancialStatus { PENDING AUTHORIZED PARTIALLY_PAID PARTIALLY_REFUNDED VOIDED PAID REFUNDED EXPIRED }
enum OrderCancelReason { CUSTOMER DECLINED FRAUD INVENTORY STAFF OTHER }

type Order implements Node {
  id: ID!
  legacyResourceId: ID!
  name: String!
  createdAt: DateTime!
  updatedAt: DateTime!
  processedAt: DateTime!
  cancelledAt: DateTime
  cancelReason: OrderCancelReason
  closedAt: DateTime
  test: Boolean!
  displayFinancialStatus: OrderDisplayFinancialStatus
  currencyCode: CurrencyCode!
  presentmentCurrencyCode: CurrencyCode!
  taxesIncluded: Boolean!
  taxExempt: Boolean!
  dutiesIncluded: Boolean!
  email: String
  phone: String
  note: String
  tags: [String!]!
  customAttributes: [Attribute!]!
  paymentGatewayNames: [String!]!
  billingAddress: MailingAddress
  shippingAddress: MailingAddress
  purchasingEntity: PurchasingEntity
  subtotalPriceSet: MoneyBag
  totalPriceSet: MoneyBag!
  totalTaxSet: MoneyBag
  totalDiscountsSet: MoneyBag
  totalShippingPriceSet: MoneyBag!
  totalTipReceivedSet: MoneyBag!
  totalReceivedSet: MoneyBag!
  totalOutstandingSet: MoneyBag!
  totalRefundedSet: MoneyBag!
  originalTotalDutiesSet: MoneyBag
  currentTotalPriceSet: MoneyBag!
  currentTotalTaxSet: MoneyBag!
  currentSubtotalPriceSet: MoneyBag!
  totalCashRoundingAdjustment: CashRoundingAdjustment!
  taxLines: [TaxLine!]!
  lineItems(first: Int, after: String): LineItemConnection!
  shippingLines(first: Int, after: String, includeRemovals: Boolean): ShippingLineConnection!
  discountApplications(first: Int, after: String): DiscountApplicationConnection!
  transactions(first: Int): [OrderTransaction!]!
  refunds(first: Int): [Refund!]!
  metafield(namespace: String, key: String!): Metafield
  metafields(first: Int, after: String, namespace: String, keys: [String!]): MetafieldConnection!
  paymentTerms: PaymentTerms
}
enum PaymentTermsType { RECEIPT NET FIXED FULFILLMENT UNKNOWN }
type PaymentSchedule implements Node {
  id: ID!
  issuedAt: DateTime
  dueAt: DateTime
  completedAt: DateTime
  due: Boolean!
  balanceDue: MoneyV2!
  totalBalance: MoneyV2!
}
type PaymentScheduleEdge { cursor: String! node: PaymentSchedule! }
type PaymentScheduleConnection { nodes: [PaymentSchedule!]! edges: [PaymentScheduleEdge!]! pageInfo: PageInfo! }
type PaymentTerms implements Node {
  id: ID!
  paymentTermsName: String!
  paymentTermsType: PaymentTermsType!
  translatedName: String!
  dueInDays: Int
  overdue: Boolean!
  paymentSchedules(first: Int, after: String): PaymentScheduleConnection!
}
type OrderEdge { cursor: String! node: Order! }
type OrderConnection { nodes: [Order!]! edges: [OrderEdge!]! pageInfo: PageInfo! }
enum OrderSortKeys { CREATED_AT ID PROCESSED_AT UPDATED_AT }

type ShopAddress { countryCodeV2: CountryCode zip: String provinceCode: String city: String address1: String }
enum CountPrecision { EXACT AT_LEAST }
type Count { count: Int! precision: CountPrecision! }

# Shopify's plan: B2B (companies, company locations) is for Shopify Plus stores only.
type ShopPlan { shopifyPlus: Boolean! partnerDevelopment: Boolean! publicDisplayName: String! }

type Shop {
  id: ID!
  plan: ShopPlan!
  billingAddress: ShopAddress!
  name: String!
  myshopifyDomain: String!
  currencyCode: CurrencyCode!
  taxesIncluded: Boolean!
  ianaTimezone: String!
}

type AccessScope { handle: String! }
type AppInstallation { id: ID! accessScopes: [AccessScope!]! }

enum WebhookSubscriptionTopic { ORDERS_PAID ORDERS_UPDATED ORDERS_CANCELLED ORDERS_CREATE REFUNDS_CREATE APP_UNINSTALLED }
enum WebhookSubscriptionFormat { JSON XML }
type WebhookHttpEndpoint { callbackUrl: URL! }
union WebhookSubscriptionEndpoint = WebhookHttpEndpoint
type WebhookSubscription implements Node {
  id: ID!
  topic: WebhookSubscriptionTopic!
  uri: String!
  format: WebhookSubscriptionFormat!
  endpoint: WebhookSubscriptionEndpoint!
  apiVersion: String!
  createdAt: DateTime!
  updatedAt: DateTime!
}
type WebhookSubscriptionEdge { cursor: String! node: WebhookSubscription! }
type WebhookSubscriptionConnection { nodes: [WebhookSubscription!]! edges: [WebhookSubscriptionEdge!]! pageInfo: PageInfo! }

type Query {
  shop: Shop!
  currentAppInstallation: AppInstallation!
  order(id: ID!): Order
  refund(id: ID!): Refund
  orders(first: Int, after: String, last: Int, before: String, query: String, sortKey: OrderSortKeys, reverse: Boolean): OrderConnection!
  ordersCount(query: String, limit: Int): Count
  webhookSubscriptions(first: Int, after: String, topics: [WebhookSubscriptionTopic!], uri: String): WebhookSubscriptionConnection!
}

input MetafieldsSetInput { ownerId: ID! namespace: String key: String! value: String! type: String compareDigest: String }
type MetafieldsSetUserError { field: [String!] message: String! code: String elementIndex: Int }
type MetafieldsSetPayload { metafields: [Metafield!] userErrors: [MetafieldsSetUserError!]! }

input OrderInput { id: ID! note: String tags: [String!] email: String customAttributes: [AttributeInput!] }
input AttributeInput { key: String! value: String! }
type UserError { field: [String!] message: String! }
type OrderUpdatePayload { order: Order userErrors: [UserError!]! }

input WebhookSubscriptionInput { uri: String callbackUrl: URL format: WebhookSubscriptionFormat includeFields: [String!] metafieldNamespaces: [String!] }
type WebhookSubscriptionCreatePayload { webhookSubscription: WebhookSubscription userErrors: [UserError!]! }
type WebhookSubscriptionDeletePayload { deletedWebhookSubscriptionId: ID userErrors: [UserError!]! }

type Mutation {
  metafieldsSet(metafields: [MetafieldsSetInput!]!): MetafieldsSetPayload
  orderUpdate(input: OrderInput!): OrderUpdatePayload
  webhookSubscriptionCreate(topic: WebhookSubscriptionTopic!, webhookSubscription: WebhookSubscriptionInput!): WebhookSubscriptionCreatePayload
  webhookSubscriptionDelete(id: ID!): WebhookSubscriptionDeletePayload
}
`;

let built: GraphQLSchema | undefined;

export function shopifyAdminSchema(): GraphQLSchema {
  built ??= buildSchema(SHOPIFY_ADMIN_SDL);
  return built;
}

const MUTATION_COST = 10;

function intArgument(value: ValueNode | undefined, variables: Record<string, unknown>): number | undefined {
  if (!value) return undefined;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const v = variables[value.name.value];
    return typeof v === 'number' ? v : undefined;
  }
  return undefined;
}

/**
 * The requested cost of an operation by Shopify's documented rules. Connections without `first`
 * or `last` are refused by Shopify ("you must provide one of first or last"); the fake does too, so
 * the cost here can assume a size.
 */
export function requestedQueryCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>): number {
  let cost = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (definition.operation === 'mutation') {
      cost += MUTATION_COST * definition.selectionSet.selections.length;
      continue;
    }
    const root = schema.getQueryType();
    if (root) cost += selectionCost(schema, root, definition.selectionSet, variables);
  }
  return cost;
}

function selectionCost(schema: GraphQLSchema, parent: GraphQLNamedType, selectionSet: SelectionSetNode, variables: Record<string, unknown>): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const typeName = selection.typeCondition?.name.value;
      const type = typeName ? schema.getType(typeName) : parent;
      if (type) cost += selectionCost(schema, type, selection.selectionSet, variables);
      continue;
    }
    if (selection.kind !== Kind.FIELD || !selection.selectionSet) continue;
    if (!isObjectType(parent) && !isInterfaceType(parent)) continue;
    const field = parent.getFields()[selection.name.value];
    if (!field) continue;
    const named = getNamedType(field.type);
    if (named.name.endsWith('Connection') && isObjectType(named)) {
      const size = intArgument(selection.arguments?.find((a) => a.name.value === 'first' || a.name.value === 'last')?.value, variables) ?? 0;
      let perNode = 0;
      for (const inner of selection.selectionSet.selections) {
        if (inner.kind !== Kind.FIELD || !inner.selectionSet) continue;
        const innerField = named.getFields()[inner.name.value];
        if (!innerField) continue;
        const innerType = getNamedType(innerField.type);
        if (inner.name.value === 'nodes') perNode = Math.max(perNode, 1 + selectionCost(schema, innerType, inner.selectionSet, variables));
        if (inner.name.value === 'edges') {
          const edgeNode = inner.selectionSet.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'node');
          if (edgeNode?.kind === Kind.FIELD && edgeNode.selectionSet && isObjectType(innerType)) {
            const nodeType = getNamedType(innerType.getFields().node.type);
            perNode = Math.max(perNode, 1 + selectionCost(schema, nodeType, edgeNode.selectionSet, variables));
          }
        }
      }
      cost += 2 + size * perNode;
      continue;
    }
    if (isUnionType(named) || isInterfaceType(named) || isObjectType(named)) {
      cost += 1 + selectionCost(schema, named, selection.selectionSet, variables);
    }
  }
  return cost;
}

/** Connection fields of a document that ask for neither `first` nor `last` (Shopify refuses them). */
export function unsizedConnections(schema: GraphQLSchema, document: DocumentNode): string[] {
  const found: string[] = [];
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const def = typeInfo.getFieldDef();
        if (!def) return;
        const named = getNamedType(def.type);
        if (!named.name.endsWith('Connection')) return;
        const sized = node.arguments?.some((a) => a.name.value === 'first' || a.name.value === 'last');
        if (!sized) found.push(node.name.value);
      },
    }),
  );
  return found;
}

/**
 * The actual cost of an executed query: like the requested cost, but a connection counts the nodes
 * it really returned instead of `first`. Shopify gives the difference back to the bucket.
 */
export function actualQueryCost(schema: GraphQLSchema, document: DocumentNode, data: unknown): number {
  let cost = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (definition.operation === 'mutation') {
      cost += MUTATION_COST * definition.selectionSet.selections.length;
      continue;
    }
    const root = schema.getQueryType();
    if (root) cost += actualCost(schema, root, definition.selectionSet, data);
  }
  return cost;
}

function actualCost(schema: GraphQLSchema, parent: GraphQLNamedType, selectionSet: SelectionSetNode, data: unknown): number {
  if (typeof data !== 'object' || data === null) return 0;
  const record = data as Record<string, unknown>;
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const typeName = selection.typeCondition?.name.value;
      const type = typeName ? schema.getType(typeName) : parent;
      if (type && (!typeName || record.__typename === undefined || record.__typename === typeName || isInterfaceType(type))) cost += actualCost(schema, type, selection.selectionSet, data);
      continue;
    }
    if (selection.kind !== Kind.FIELD || !selection.selectionSet) continue;
    if (!isObjectType(parent) && !isInterfaceType(parent)) continue;
    const field = parent.getFields()[selection.name.value];
    if (!field) continue;
    const named = getNamedType(field.type);
    const value = record[selection.alias?.value ?? selection.name.value];
    if (named.name.endsWith('Connection') && isObjectType(named)) {
      const nodesSelection = selection.selectionSet.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'nodes');
      const nodes = ((value as Record<string, unknown> | null)?.nodes ?? []) as unknown[];
      const nodeType = getNamedType(named.getFields().nodes.type);
      cost += 2;
      for (const node of nodes) cost += 1 + (nodesSelection?.kind === Kind.FIELD && nodesSelection.selectionSet ? actualCost(schema, nodeType, nodesSelection.selectionSet, node) : 0);
      continue;
    }
    if (isUnionType(named) || isInterfaceType(named) || isObjectType(named)) {
      const first = Array.isArray(value) ? value[0] : value;
      cost += 1 + actualCost(schema, named, selection.selectionSet, first);
    }
  }
  return cost;
}
