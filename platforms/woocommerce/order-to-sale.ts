import type { MappingSettings } from '../../law/mapping-settings';
import type { Sale, SaleAddress, SaleAttribute, SaleLine, SaleLineTax, SalePaymentState, SaleTaxNumber, SaleTime } from '../../law/sale';
import { add, formatDecimal, parseDecimal } from '../../client/money';
import type { WooAddress, WooFeeLine, WooLineItem, WooLineTax, WooMeta, WooOrder, WooShippingLine } from './order-schema';

/**
 * A WooCommerce order (REST v3, as order webhooks and `GET orders/<id>` give it) as the neutral
 * sale the Portuguese law reads (law/sale.ts). Only WooCommerce's words are translated here; no
 * rule of the law is decided.
 */

/** Block checkout keeps carts as orders in these statuses; their webhooks leak through (WooCommerce #66995). */
const DRAFT_STATUSES = ['checkout-draft', 'draft', 'auto-draft'];
/** No sale yet (or no longer): the law invoices them only when the settings list the status. */
const UNPAID_STATUSES = ['pending', 'on-hold', 'failed'];

/** WooCommerce's cash-on-delivery gateway id (WC_Gateway_COD). */
const COD_METHOD = 'cod';

function paymentState(status: string): SalePaymentState {
  if (DRAFT_STATUSES.includes(status)) return 'draft';
  if (UNPAID_STATUSES.includes(status)) return 'unpaid';
  if (status === 'cancelled') return 'cancelled';
  return 'paid';
}

/** A WooCommerce date pair as a SaleTime: the *_gmt field as an instant, else the site-local text. */
export function wooTime(local: string | null, gmt: string | null): SaleTime | undefined {
  if (gmt) return `${gmt.slice(0, 19)}Z`;
  return local ?? undefined;
}

export function wooAddress(address: WooAddress): SaleAddress {
  return {
    firstName: address.first_name,
    lastName: address.last_name,
    company: address.company,
    line1: address.address_1,
    line2: address.address_2,
    city: address.city,
    region: address.state,
    postcode: address.postcode,
    country: address.country,
    email: address.email,
    phone: address.phone,
  };
}

export function wooAttributes(meta: readonly WooMeta[]): SaleAttribute[] {
  return meta.map((entry) => ({
    key: entry.key,
    value: entry.value,
    ...(entry.display_key !== undefined ? { label: entry.display_key } : {}),
    ...(entry.display_value !== undefined ? { shownValue: entry.display_value } : {}),
  }));
}

export function wooTaxes(taxes: readonly WooLineTax[]): SaleLineTax[] {
  return taxes.map((tax) => ({ rateId: String(tax.id), amount: tax.total, ...(tax.subtotal !== undefined ? { beforeDiscounts: tax.subtotal } : {}) }));
}

const positiveId = (id: number): string | undefined => (id > 0 ? String(id) : undefined);

function productLine(item: WooLineItem): SaleLine {
  const productId = positiveId(item.product_id);
  const variantId = positiveId(item.variation_id);
  return {
    id: String(item.id),
    kind: 'product',
    name: item.name,
    sku: item.sku,
    ...(productId ? { productId } : {}),
    ...(variantId ? { variantId } : {}),
    quantity: item.quantity,
    subtotal: item.subtotal,
    total: item.total,
    // WooCommerce's rounded line tax; a payload without it counted none (as the mapping always read it).
    totalTax: item.total_tax ?? '0',
    taxes: wooTaxes(item.taxes),
    taxClass: item.tax_class,
    attributes: wooAttributes(item.meta_data),
  };
}

export function wooShippingLine(line: WooShippingLine): SaleLine {
  return {
    id: String(line.id),
    kind: 'shipping',
    name: line.method_title,
    sku: '',
    quantity: 1,
    subtotal: line.total,
    total: line.total,
    totalTax: line.total_tax ?? '0',
    taxes: wooTaxes(line.taxes),
    taxClass: '',
    attributes: wooAttributes(line.meta_data),
  };
}

export function wooFeeLine(line: WooFeeLine): SaleLine {
  return {
    id: String(line.id),
    kind: 'fee',
    name: line.name,
    sku: '',
    quantity: 1,
    subtotal: line.total,
    total: line.total,
    totalTax: line.total_tax ?? '0',
    taxes: wooTaxes(line.taxes),
    taxClass: line.tax_class,
    attributes: wooAttributes(line.meta_data),
  };
}

/**
 * The buyer's tax numbers: the order meta named by `nifMetaKeys`, first non-empty first. A key
 * naming a VAT number (`_billing_vat`, `vat_number`) is a business's field.
 */
export function wooTaxNumbers(meta: readonly WooMeta[], nifMetaKeys: readonly string[]): SaleTaxNumber[] {
  const found: SaleTaxNumber[] = [];
  for (const key of nifMetaKeys) {
    const value = meta.find((m) => m.key === key)?.value;
    if ((typeof value === 'string' || typeof value === 'number') && String(value).trim() !== '') {
      found.push({ value: String(value).trim(), source: key, businessField: /vat/i.test(key) });
    }
  }
  return found;
}

/** The order as the neutral sale; `settings.nifMetaKeys` names the meta holding the buyer's NIF or VAT number. */
export function saleOfWooOrder(order: WooOrder, settings: Pick<MappingSettings, 'nifMetaKeys'>): Sale {
  const paid = wooTime(order.date_paid, order.date_paid_gmt);
  const created = wooTime(order.date_created, order.date_created_gmt);
  const completed = wooTime(order.date_completed, order.date_completed_gmt);
  return {
    platform: 'woocommerce',
    platformTitle: 'WooCommerce',
    id: String(order.id),
    ...(order.number !== undefined ? { number: order.number } : {}),
    status: order.status,
    payment: {
      state: paymentState(order.status),
      method: order.payment_method,
      title: typeof order.payment_method_title === 'string' ? order.payment_method_title : '',
      onDelivery: order.payment_method === COD_METHOD,
    },
    currency: order.currency,
    pricesIncludeTax: order.prices_include_tax,
    ...(created ? { created } : {}),
    ...(paid ? { paid } : {}),
    ...(completed ? { completed } : {}),
    total: order.total,
    ...(order.total_tax !== undefined ? { totalTax: order.total_tax } : {}),
    billing: wooAddress(order.billing),
    ...(order.shipping ? { shipping: wooAddress(order.shipping) } : {}),
    lines: [...order.line_items.map(productLine), ...order.shipping_lines.map(wooShippingLine), ...order.fee_lines.map(wooFeeLine)],
    discounts: order.coupon_lines.map((coupon) => ({ code: coupon.code, amount: coupon.discount, tax: coupon.discount_tax ?? '0' })),
    taxRates: order.tax_lines.map((line) => ({
      id: String(line.rate_id),
      label: line.label,
      ...(line.rate_percent !== undefined ? { percent: line.rate_percent } : {}),
      code: line.rate_code,
      compound: line.compound,
      tax: formatDecimal(add(parseDecimal(line.tax_total), parseDecimal(line.shipping_tax_total))),
    })),
    // WooCommerce sets needs_processing false when every item is virtual and downloadable: nothing travels.
    ...(order.needs_processing === false ? { needsShipping: false } : {}),
    customerNote: order.customer_note,
    taxNumbers: wooTaxNumbers(order.meta_data, settings.nifMetaKeys),
    attributes: wooAttributes(order.meta_data),
  };
}
