import { z } from 'zod';

import { formatDecimal, multiply, parseDecimal, round, sum } from '../../client/money';
import type { MoneyBag, ShopifyOrder, ShopifyRefund, ShopifyTaxLine } from './order-query';
import { shopifyNumericId } from './legacy-id';

/**
 * Shopify's REST shapes renamed to the GraphQL ones, kept here with the platform's other quirks (the
 * n8n node is its caller: nodes/MagniFinance/shopify/shopify-order.ts; the connector reads GraphQL).
 * Shopify's orders and refunds as n8n hands them on: the Shopify Trigger delivers the webhook's body
 * (orders/paid, orders/updated: the Admin REST API's Order resource; refunds/create: its Refund
 * resource, snake_case) and n8n's Shopify node (Order > Get) answers the same REST Order. The
 * connector's Shopify mapping (platforms/shopify/order-to-sale.ts) reads the GraphQL Admin API's
 * order; this module only renames the REST fields to the GraphQL ones, field for field, so both
 * take one road into the law: no amount is computed here except a line's price times its quantity
 * (GraphQL's `originalTotalSet`), and every amount is read from its `*_set` (shop and presentment
 * money), never from the shop-money-only fields beside it.
 *
 * What a REST body does not carry, and what follows (docs/n8n.md, "Shopify orders"):
 * - metafields: none (an order's NIF in a metafield cannot be read here: refused by the caller);
 * - a B2B company's tax registration: REST gives `company: { id, location_id }` only (refused by
 *   the caller when the NIF sources name the company);
 * - the order's transactions: the payment method is the order's first gateway name;
 * - a refund transaction's amount in shop money: REST gives `amount` in the transaction's
 *   `currency`; a refund in a currency other than the sale's is refused by the caller.
 */

const decimalText = z
  .union([z.string(), z.number()])
  .transform((value) => String(value))
  .refine((value) => /^-?\d+(\.\d+)?$/.test(value), 'a decimal amount');
const restMoney = z.object({ amount: decimalText, currency_code: z.string() });
const restMoneySet = z.object({ shop_money: restMoney, presentment_money: restMoney });
type RestMoneySet = z.output<typeof restMoneySet>;
const isoDate = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'a date and time');
const optionalText = z.string().nullish();

const restTaxLine = z.object({
  title: z.string(),
  rate: z.union([z.number(), z.string()]).transform(Number).nullish(),
  price_set: restMoneySet,
  channel_liable: z.boolean().nullish(),
});
const restAllocation = z.object({ amount_set: restMoneySet, discount_application_index: z.number().int() });
const restAddress = z
  .object({
    first_name: optionalText,
    last_name: optionalText,
    company: optionalText,
    address1: optionalText,
    address2: optionalText,
    city: optionalText,
    province: optionalText,
    province_code: optionalText,
    zip: optionalText,
    country_code: optionalText,
    phone: optionalText,
  })
  .nullish();
const restLineItem = z.object({
  id: shopifyNumericId,
  admin_graphql_api_id: z.string().optional(),
  name: z.string(),
  title: z.string(),
  sku: optionalText,
  quantity: z.number().int(),
  requires_shipping: z.boolean(),
  gift_card: z.boolean(),
  taxable: z.boolean(),
  price_set: restMoneySet,
  tax_lines: z.array(restTaxLine),
  discount_allocations: z.array(restAllocation).default([]),
  duties: z
    .array(z.object({ id: z.union([z.string(), z.number()]), admin_graphql_api_id: z.string().optional(), price_set: restMoneySet, tax_lines: z.array(restTaxLine).default([]) }))
    .default([]),
  properties: z.array(z.object({ name: z.string(), value: z.unknown() })).default([]),
  product_id: z.number().nullish(),
  variant_id: z.number().nullish(),
});
const attributeValue = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** The REST Order the Shopify Trigger (orders/*) and the Shopify node (Order > Get) give. */
export const ShopifyRestOrderSchema = z.object({
  id: shopifyNumericId,
  admin_graphql_api_id: z.string().optional(),
  name: z.string(),
  created_at: isoDate,
  updated_at: isoDate,
  processed_at: isoDate.nullish(),
  cancelled_at: isoDate.nullish(),
  closed_at: isoDate.nullish(),
  test: z.boolean().default(false),
  financial_status: z.string().nullish(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'a 3-letter currency code'),
  presentment_currency: z.string().regex(/^[A-Z]{3}$/, 'a 3-letter currency code').optional(),
  taxes_included: z.boolean(),
  email: optionalText,
  contact_email: optionalText,
  phone: optionalText,
  note: optionalText,
  tags: z.string().nullish(),
  payment_gateway_names: z.array(z.string()).default([]),
  note_attributes: z.array(z.object({ name: z.string(), value: z.unknown() })).nullish(),
  billing_address: restAddress,
  shipping_address: restAddress,
  /** Shopify B2B: which company and location bought (their tax registration is not in the body). */
  company: z.object({ id: z.number(), location_id: z.number().nullish() }).nullish(),
  total_price_set: restMoneySet,
  total_tip_received: decimalText.optional(),
  total_cash_rounding_payment_adjustment_set: restMoneySet.nullish(),
  discount_applications: z
    .array(z.object({ type: z.string(), code: z.string().nullish(), title: z.string().nullish() }))
    .default([]),
  line_items: z.array(restLineItem).min(1, 'an order has at least one line'),
  shipping_lines: z
    .array(
      z.object({
        id: shopifyNumericId,
        title: z.string(),
        code: optionalText,
        price_set: restMoneySet,
        discounted_price_set: restMoneySet,
        tax_lines: z.array(restTaxLine).default([]),
        discount_allocations: z.array(restAllocation).default([]),
      }),
    )
    .default([]),
  refunds: z.array(z.object({ id: shopifyNumericId, created_at: isoDate.nullish() })).default([]),
});
export type ShopifyRestOrder = z.output<typeof ShopifyRestOrderSchema>;

/** The REST Refund the Shopify Trigger (refunds/create) gives, with its lines, shipping, adjustments and transactions. */
export const ShopifyRestRefundSchema = z.object({
  id: shopifyNumericId,
  admin_graphql_api_id: z.string().optional(),
  order_id: shopifyNumericId,
  created_at: isoDate.nullish(),
  note: optionalText,
  refund_line_items: z
    .array(
      z.object({
        quantity: z.number().int(),
        line_item_id: shopifyNumericId,
        subtotal_set: restMoneySet,
        total_tax_set: restMoneySet,
        line_item: restLineItem,
      }),
    )
    .default([]),
  refund_shipping_lines: z
    .array(
      z.object({
        id: shopifyNumericId,
        shipping_line_id: shopifyNumericId.nullish(),
        subtotal_amount_set: restMoneySet,
        tax_amount_set: restMoneySet.nullish(),
        shipping_line: z.object({ id: shopifyNumericId.nullish(), title: z.string() }).nullish(),
      }),
    )
    .default([]),
  order_adjustments: z
    .array(z.object({ id: shopifyNumericId, amount_set: restMoneySet, tax_amount_set: restMoneySet, kind: z.string().nullish(), reason: optionalText }))
    .default([]),
  transactions: z
    .array(z.object({ kind: z.string(), status: z.string(), gateway: optionalText, amount: decimalText, currency: z.string().regex(/^[A-Z]{3}$/, 'a 3-letter currency code') }))
    .default([]),
});
export type ShopifyRestRefund = z.output<typeof ShopifyRestRefundSchema>;

/** Is this JSON Shopify's (its global id names a Shopify order), whatever else it holds? */
export function looksLikeShopifyOrder(value: unknown): boolean {
  const gid = typeof value === 'object' && value !== null ? (value as { admin_graphql_api_id?: unknown }).admin_graphql_api_id : undefined;
  return typeof gid === 'string' && gid.startsWith('gid://shopify/Order/');
}

const gid = (type: string, id: number | string, given?: string): string => given ?? `gid://shopify/${type}/${String(id)}`;

function bag(set: RestMoneySet): MoneyBag {
  return {
    shopMoney: { amount: set.shop_money.amount, currencyCode: set.shop_money.currency_code },
    presentmentMoney: { amount: set.presentment_money.amount, currencyCode: set.presentment_money.currency_code },
  };
}

function times(set: RestMoneySet, quantity: number): MoneyBag {
  const product = (amount: string): string => formatDecimal(round(multiply(parseDecimal(amount), parseDecimal(quantity)), 2), 2);
  const money = bag(set);
  return {
    shopMoney: { ...money.shopMoney, amount: product(money.shopMoney.amount) },
    presentmentMoney: { ...money.presentmentMoney, amount: product(money.presentmentMoney.amount) },
  };
}

/** GraphQL's DateTime: UTC with a Z ("2026-11-20T10:15:00Z"); REST writes the shop's offset. */
function utc(value: string): string {
  return new Date(value).toISOString().replace(/\.000Z$/, 'Z');
}

function taxLines(lines: readonly z.output<typeof restTaxLine>[]): ShopifyTaxLine[] {
  return lines.map((line) => ({ title: line.title, rate: line.rate ?? null, ratePercentage: null, priceSet: bag(line.price_set), channelLiable: line.channel_liable ?? null }));
}

function allocations(list: readonly z.output<typeof restAllocation>[]): ShopifyOrder['lineItems']['nodes'][number]['discountAllocations'] {
  return list.map((a) => ({ allocatedAmountSet: bag(a.amount_set), discountApplication: { index: a.discount_application_index } }));
}

function address(source: z.output<typeof restAddress>): ShopifyOrder['billingAddress'] {
  if (!source) return null;
  return {
    firstName: source.first_name ?? null,
    lastName: source.last_name ?? null,
    company: source.company ?? null,
    address1: source.address1 ?? null,
    address2: source.address2 ?? null,
    city: source.city ?? null,
    province: source.province ?? null,
    provinceCode: source.province_code ?? null,
    zip: source.zip ?? null,
    countryCodeV2: source.country_code ?? null,
    phone: source.phone ?? null,
  };
}

function lineItem(item: z.output<typeof restLineItem>): ShopifyOrder['lineItems']['nodes'][number] {
  return {
    id: gid('LineItem', item.id, item.admin_graphql_api_id),
    name: item.name,
    title: item.title,
    sku: item.sku ?? null,
    quantity: item.quantity,
    requiresShipping: item.requires_shipping,
    isGiftCard: item.gift_card,
    taxable: item.taxable,
    // GraphQL's "total price before discounts": the unit price times the quantity ordered.
    originalTotalSet: times(item.price_set, item.quantity),
    taxLines: taxLines(item.tax_lines),
    discountAllocations: allocations(item.discount_allocations),
    duties: item.duties.map((duty) => ({ id: gid('Duty', duty.id, duty.admin_graphql_api_id), price: bag(duty.price_set), taxLines: taxLines(duty.tax_lines) })),
    customAttributes: item.properties.map((p) => ({ key: p.name, value: attributeValue(p.value) })),
    product: item.product_id ? { id: gid('Product', item.product_id) } : null,
    variant: item.variant_id ? { id: gid('ProductVariant', item.variant_id) } : null,
  };
}

const DISCOUNT_TYPENAMES: Record<string, string> = {
  discount_code: 'DiscountCodeApplication',
  automatic: 'AutomaticDiscountApplication',
  manual: 'ManualDiscountApplication',
  script: 'ScriptDiscountApplication',
};

/** A REST order under the GraphQL names the Shopify mapping reads (platforms/shopify/order-query.ts `ShopifyOrder`). */
export function shopifyOrderOfRest(order: ShopifyRestOrder): ShopifyOrder {
  const shopCurrency = order.currency;
  const presentmentCurrency = order.presentment_currency ?? order.total_price_set.presentment_money.currency_code;
  const tip = order.total_tip_received ?? '0.00';
  const zero = { shop_money: { amount: '0.00', currency_code: shopCurrency }, presentment_money: { amount: '0.00', currency_code: presentmentCurrency } };
  return {
    id: gid('Order', order.id, order.admin_graphql_api_id),
    legacyResourceId: String(order.id),
    name: order.name,
    createdAt: utc(order.created_at),
    updatedAt: utc(order.updated_at),
    processedAt: utc(order.processed_at ?? order.created_at),
    cancelledAt: order.cancelled_at ? utc(order.cancelled_at) : null,
    closedAt: order.closed_at ? utc(order.closed_at) : null,
    test: order.test,
    displayFinancialStatus: order.financial_status ? order.financial_status.toUpperCase() : null,
    currencyCode: shopCurrency,
    presentmentCurrencyCode: presentmentCurrency,
    taxesIncluded: order.taxes_included,
    email: order.email ?? order.contact_email ?? null,
    phone: order.phone ?? null,
    note: order.note ?? null,
    tags: (order.tags ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ''),
    paymentGatewayNames: order.payment_gateway_names,
    customAttributes: (order.note_attributes ?? []).map((a) => ({ key: a.name, value: attributeValue(a.value) })),
    billingAddress: address(order.billing_address),
    shippingAddress: address(order.shipping_address),
    // The company's name and tax registration are not in a REST body (the caller refuses a B2B order whose NIF is the company's).
    purchasingEntity: null,
    totalPriceSet: bag(order.total_price_set),
    // REST gives the tip in the shop's currency only; a tip is held for a person whatever its amount (the law: a donation).
    totalTipReceivedSet: bag({ shop_money: { amount: tip, currency_code: shopCurrency }, presentment_money: { amount: tip, currency_code: presentmentCurrency } }),
    totalCashRoundingAdjustment: { paymentSet: bag(order.total_cash_rounding_payment_adjustment_set ?? zero) },
    discountApplications: {
      nodes: order.discount_applications.map((a, index) => ({
        index,
        __typename: DISCOUNT_TYPENAMES[a.type] ?? 'DiscountApplication',
        ...(a.code ? { code: a.code } : {}),
        ...(a.title ? { title: a.title } : {}),
      })),
    },
    lineItems: { nodes: order.line_items.map(lineItem), pageInfo: { hasNextPage: false, endCursor: null } },
    shippingLines: {
      nodes: order.shipping_lines.map((line) => ({
        id: gid('ShippingLine', line.id),
        title: line.title,
        code: line.code ?? null,
        originalPriceSet: bag(line.price_set),
        discountedPriceSet: bag(line.discounted_price_set),
        taxLines: taxLines(line.tax_lines),
        discountAllocations: allocations(line.discount_allocations),
      })),
    },
    transactions: [],
    refunds: order.refunds.map((r) => ({ id: gid('Refund', r.id), createdAt: r.created_at ? utc(r.created_at) : null })),
    metafields: { nodes: [] },
    nifMetafield: null,
  };
}

/**
 * A REST refund under the GraphQL names the Shopify refund mapping reads. Its transactions carry
 * their amount in their own currency only: `amountSet` holds it on the side whose currency it is,
 * and the caller refuses a refund whose money went back in a currency other than the sale's.
 */
export function shopifyRefundOfRest(refund: ShopifyRestRefund, order: ShopifyRestOrder): ShopifyRefund {
  const shopCurrency = order.currency;
  const presentmentCurrency = order.presentment_currency ?? order.total_price_set.presentment_money.currency_code;
  const returned = refund.transactions.filter((t) => t.kind.toLowerCase() === 'refund' && t.status.toLowerCase() === 'success');
  const total = formatDecimal(round(sum(returned.map((t) => parseDecimal(t.amount))), 2), 2);
  // Shopify's REST refund of shipping says it twice: a refund shipping line and an order adjustment
  // of kind `shipping_refund` for the same amount (shopify.dev, REST Refund, "Refund a specific
  // amount of shipping"). The shipping line is the credit; that adjustment is not a second one.
  const adjustments = refund.order_adjustments.filter((a) => !(refund.refund_shipping_lines.length > 0 && a.kind === 'shipping_refund'));
  const money = (amount: string) => ({ shopMoney: { amount, currencyCode: shopCurrency }, presentmentMoney: { amount, currencyCode: presentmentCurrency } });
  return {
    id: gid('Refund', refund.id, refund.admin_graphql_api_id),
    legacyResourceId: String(refund.id),
    createdAt: refund.created_at ? utc(refund.created_at) : null,
    note: refund.note ?? null,
    totalRefundedSet: money(total),
    refundLineItems: {
      nodes: refund.refund_line_items.map((item) => {
        const line = lineItem(item.line_item);
        return {
          lineItem: { id: line.id, name: line.name, sku: line.sku, product: line.product, variant: line.variant },
          quantity: item.quantity,
          priceSet: bag(item.line_item.price_set),
          subtotalSet: bag(item.subtotal_set),
          totalTaxSet: bag(item.total_tax_set),
        };
      }),
    },
    refundShippingLines: {
      nodes: refund.refund_shipping_lines.map((line) => {
        const shippingLineId = line.shipping_line?.id ?? line.shipping_line_id ?? null;
        const noTax = { shop_money: { amount: '0.00', currency_code: shopCurrency }, presentment_money: { amount: '0.00', currency_code: presentmentCurrency } };
        return {
          id: gid('RefundShippingLine', line.id),
          shippingLine: { id: shippingLineId === null ? null : gid('ShippingLine', shippingLineId), title: line.shipping_line?.title ?? '' },
          subtotalAmountSet: bag(line.subtotal_amount_set),
          taxAmountSet: bag(line.tax_amount_set ?? noTax),
        };
      }),
    },
    orderAdjustments: {
      // GraphQL's reason is the kind's enum (REFUND_DISCREPANCY, SHIPPING_REFUND).
      nodes: adjustments.map((a) => ({ id: gid('OrderAdjustment', a.id), amountSet: bag(a.amount_set), taxAmountSet: bag(a.tax_amount_set), reason: a.kind ? a.kind.toUpperCase() : null })),
    },
    transactions: { nodes: returned.map((t) => ({ kind: 'REFUND', status: 'SUCCESS', gateway: t.gateway ?? null, amountSet: money(t.amount) })) },
  };
}
