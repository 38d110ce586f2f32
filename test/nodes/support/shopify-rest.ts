import type { IDataObject } from 'n8n-workflow';

/**
 * Shopify orders and refunds as n8n's Shopify Trigger hands them to the next node: the webhook's
 * JSON body as the item (n8n-io/n8n, packages/nodes-base/nodes/Shopify/ShopifyTrigger.node.ts:
 * `workflowData: [this.helpers.returnJsonArray(req.body)]`, after checking X-Shopify-Hmac-Sha256).
 * The bodies of orders/paid and refunds/create are the Admin REST API's Order and Refund resources
 * (snake_case). Shapes from shopify.dev: the webhook reference's sample payloads of orders/paid and
 * refunds/create (shopify.dev/docs/api/webhooks?reference=toml#list-orders/paid), and the REST
 * Admin API's Order and Refund resources (2026-01: "Refund a specific amount of shipping" shows a
 * shipping refund both as a refund shipping line and as an order adjustment of kind
 * shipping_refund; a refund transaction's `amount` is in its `currency`, with no shop-money set).
 *
 * The orders are the GraphQL fixtures of test/platforms/shopify/fixtures/orders.ts, the same sale
 * written as REST writes it: a line's `price_set` is its unit price (GraphQL's originalUnitPriceSet),
 * discounts sit on the line as `discount_allocations` pointing into `discount_applications` by
 * index, dates carry the shop's offset (Lisbon: +00:00 in November), tags are one comma-separated
 * string, and the body carries fields the node does not read (they must not disturb it).
 */

const money = (amount: string, currency = 'EUR') => ({ amount, currency_code: currency });
export const set = (shop: string, presentment: string = shop, shopCurrency = 'EUR', presentmentCurrency = shopCurrency): IDataObject => ({
  shop_money: money(shop, shopCurrency),
  presentment_money: money(presentment, presentmentCurrency),
});
const tax = (rate: number, amount: string): IDataObject => ({ title: 'IVA', price: amount, rate, channel_liable: false, price_set: set(amount) });

const address: IDataObject = {
  first_name: 'Maria',
  address1: 'Rua Augusta 100',
  phone: '+351 912 345 678',
  city: 'Lisboa',
  zip: '1100-053',
  province: 'Lisboa',
  country: 'Portugal',
  last_name: 'Silva',
  address2: '2.º Esq.',
  company: null,
  latitude: null,
  longitude: null,
  name: 'Maria Silva',
  country_code: 'PT',
  province_code: null,
};

const sweater: IDataObject = {
  id: 466157049,
  admin_graphql_api_id: 'gid://shopify/LineItem/466157049',
  attributed_staffs: [],
  current_quantity: 2,
  fulfillable_quantity: 2,
  fulfillment_service: 'manual',
  fulfillment_status: null,
  gift_card: false,
  grams: 400,
  name: 'Camisola de lã - M',
  price: '49.90',
  price_set: set('49.90'),
  product_exists: true,
  product_id: 632910392,
  properties: [],
  quantity: 2,
  requires_shipping: true,
  sku: 'CAM-LA-M',
  taxable: true,
  title: 'Camisola de lã',
  total_discount: '0.00',
  total_discount_set: set('0.00'),
  variant_id: 808950810,
  variant_inventory_management: 'shopify',
  variant_title: 'M',
  vendor: null,
  tax_lines: [tax(0.23, '16.80')],
  duties: [],
  discount_allocations: [{ amount: '9.98', amount_set: set('9.98'), discount_application_index: 0 }],
};

const book: IDataObject = {
  ...sweater,
  id: 518995019,
  admin_graphql_api_id: 'gid://shopify/LineItem/518995019',
  current_quantity: 1,
  fulfillable_quantity: 1,
  grams: 300,
  name: 'Os Lusíadas',
  price: '15.00',
  price_set: set('15.00'),
  product_id: 921728736,
  quantity: 1,
  sku: 'LIV-001',
  title: 'Os Lusíadas',
  variant_id: 457924702,
  variant_title: null,
  tax_lines: [tax(0.06, '0.85')],
  // The code's 10 % is "across" its entitled items: the book is not one.
  discount_allocations: [],
};

const shipping: IDataObject = {
  id: 369256396,
  carrier_identifier: null,
  code: 'CTT Expresso',
  discounted_price: '4.90',
  discounted_price_set: set('4.90'),
  is_removed: false,
  phone: null,
  price: '4.90',
  price_set: set('4.90'),
  requested_fulfillment_service_id: null,
  source: 'shopify',
  title: 'CTT Expresso',
  tax_lines: [tax(0.23, '0.92')],
  discount_allocations: [],
};

/** #1001 (TAXES_INCLUDED): taxes included, a 10 % code on the sweaters, a book at 6 %, shipping at 23 %, the NIF in a cart attribute. */
export function paidOrder1001(): IDataObject {
  return {
    id: 5962412736508,
    admin_graphql_api_id: 'gid://shopify/Order/5962412736508',
    app_id: 580111,
    browser_ip: '192.0.2.10',
    buyer_accepts_marketing: false,
    cancel_reason: null,
    cancelled_at: null,
    cart_token: null,
    checkout_id: 36646099517750,
    checkout_token: '2b9ba639fb81a1fb61a02be4c95459b5',
    client_details: { accept_language: 'pt-PT', browser_height: null, browser_ip: '192.0.2.10', browser_width: null, session_hash: null, user_agent: 'Mozilla/5.0' },
    closed_at: null,
    company: null,
    confirmation_number: 'K9XQ2ZT1A',
    confirmed: true,
    contact_email: 'maria.silva@example.pt',
    created_at: '2026-11-20T10:15:00+00:00',
    currency: 'EUR',
    current_subtotal_price: '104.82',
    current_subtotal_price_set: set('104.82'),
    current_total_discounts: '9.98',
    current_total_discounts_set: set('9.98'),
    current_total_duties_set: null,
    current_total_price: '109.72',
    current_total_price_set: set('109.72'),
    current_total_tax: '18.57',
    current_total_tax_set: set('18.57'),
    customer_locale: 'pt-PT',
    discount_codes: [{ code: 'BEMVINDO10', amount: '9.98', type: 'percentage' }],
    duties_included: false,
    email: 'maria.silva@example.pt',
    estimated_taxes: false,
    financial_status: 'paid',
    fulfillment_status: null,
    landing_site: '/',
    merchant_of_record_app_id: null,
    name: '#1001',
    note: 'Embrulhar para oferta, por favor.',
    note_attributes: [{ name: 'nif', value: '509442013' }],
    number: 1,
    order_number: 1001,
    order_status_url: 'https://loja-demo.myshopify.com/74829910/orders/2b9ba639fb81a1fb61a02be4c95459b5/authenticate?key=abc',
    original_total_duties_set: null,
    payment_gateway_names: ['shopify_payments'],
    phone: null,
    po_number: null,
    presentment_currency: 'EUR',
    processed_at: '2026-11-20T10:15:00+00:00',
    reference: null,
    source_name: 'web',
    subtotal_price: '104.82',
    subtotal_price_set: set('104.82'),
    tags: 'oferta',
    tax_exempt: false,
    tax_lines: [tax(0.23, '17.72'), tax(0.06, '0.85')],
    taxes_included: true,
    test: false,
    token: '2b9ba639fb81a1fb61a02be4c95459b5',
    total_cash_rounding_payment_adjustment_set: set('0.00'),
    total_cash_rounding_refund_adjustment_set: set('0.00'),
    total_discounts: '9.98',
    total_discounts_set: set('9.98'),
    total_line_items_price: '114.80',
    total_line_items_price_set: set('114.80'),
    total_outstanding: '0.00',
    total_price: '109.72',
    total_price_set: set('109.72'),
    total_shipping_price_set: set('4.90'),
    total_tax: '18.57',
    total_tax_set: set('18.57'),
    total_tip_received: '0.00',
    total_weight: 1100,
    updated_at: '2026-11-20T10:15:02+00:00',
    user_id: null,
    billing_address: address,
    customer: { id: 115310627, email: 'maria.silva@example.pt', first_name: 'Maria', last_name: 'Silva', currency: 'EUR', admin_graphql_api_id: 'gid://shopify/Customer/115310627' },
    discount_applications: [{ target_type: 'line_item', type: 'discount_code', value: '10.0', value_type: 'percentage', allocation_method: 'across', target_selection: 'entitled', code: 'BEMVINDO10' }],
    fulfillments: [],
    line_items: [sweater, book],
    payment_terms: null,
    refunds: [],
    shipping_address: address,
    shipping_lines: [shipping],
  };
}

/**
 * refunds/create for #1001 (sweaterAndShippingRefund): one sweater back (subtotal 44.91 with its
 * 8.40 of tax) and the shipping (a refund shipping line of 4.90 with 0.92 of tax, and Shopify's
 * shipping_refund adjustment saying it again): 49.81 to the card; with `goodwill`, a 1.00 refund
 * discrepancy on top (50.81).
 */
export function refund1001(goodwill = false): IDataObject {
  return {
    id: 929361501,
    admin_graphql_api_id: 'gid://shopify/Refund/929361501',
    order_id: 5962412736508,
    created_at: '2026-11-24T09:00:00+00:00',
    note: 'Devolução de uma camisola',
    user_id: 548380009,
    processed_at: '2026-11-24T09:00:00+00:00',
    duties: [],
    total_duties_set: set('0.00'),
    return: null,
    restock: true,
    additional_fees: [],
    total_additional_fees_set: set('0.00'),
    refund_shipping_lines: [
      { id: 623176901, shipping_line_id: 369256396, subtotal_amount_set: set('4.90'), tax_amount_set: set('0.92'), shipping_line: shipping },
    ],
    order_adjustments: [
      { id: 1030976901, order_id: 5962412736508, refund_id: 929361501, amount: '-4.90', tax_amount: '-0.92', kind: 'shipping_refund', reason: 'Shipping refund', amount_set: set('-4.90'), tax_amount_set: set('-0.92') },
      ...(goodwill
        ? [{ id: 1030976902, order_id: 5962412736508, refund_id: 929361501, amount: '-1.00', tax_amount: '0.00', kind: 'refund_discrepancy', reason: 'Refund discrepancy', amount_set: set('-1.00'), tax_amount_set: set('0.00') }]
        : []),
    ],
    refund_line_items: [
      {
        id: 104689539,
        quantity: 1,
        line_item_id: 466157049,
        location_id: 487838322,
        restock_type: 'return',
        subtotal: 44.91,
        total_tax: 8.4,
        subtotal_set: set('44.91'),
        total_tax_set: set('8.40'),
        line_item: sweater,
      },
    ],
    transactions: [
      {
        id: 389404999,
        order_id: 5962412736508,
        kind: 'refund',
        gateway: 'shopify_payments',
        status: 'success',
        message: 'Transaction approved',
        created_at: '2026-11-24T09:00:00+00:00',
        test: false,
        authorization: null,
        location_id: null,
        user_id: null,
        parent_id: 389404469,
        processed_at: '2026-11-24T09:00:00+00:00',
        device_id: null,
        error_code: null,
        source_name: 'web',
        receipt: {},
        currency_exchange_adjustment: null,
        amount: goodwill ? '50.81' : '49.81',
        currency: 'EUR',
        payment_id: 'c901414060.2',
        manual_payment_gateway: false,
        amount_rounding: null,
        admin_graphql_api_id: 'gid://shopify/OrderTransaction/389404999',
      },
    ],
  };
}

/** #1002's buyer as REST gives it (MULTI_CURRENCY_TAXES_EXCLUDED): a Shopify B2B company, named by id only. */
export function b2bOrder(): IDataObject {
  return { ...paidOrder1001(), id: 5962412736602, admin_graphql_api_id: 'gid://shopify/Order/5962412736602', name: '#1002', note_attributes: [], company: { id: 426793626, location_id: 441870790 } };
}
