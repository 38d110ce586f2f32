import {
  add,
  Decimal,
  divide,
  formatDecimal,
  fromCents,
  multiply,
  parseDecimal,
  round,
  shift,
  subtract,
  sum,
  toCents,
} from '../../../client/money';
import { z } from 'zod';
import type { JsonValue } from '../../support/fake-woocommerce';

/**
 * A small WooCommerce: builds REST v3 order payloads the way WooCommerce computes them, so tests can
 * feed the mapper realistic numbers. Rules reproduced (WC_Cart_Totals / WC_Discounts):
 * - prices entered without tax: line subtotal = price × qty (cents); with tax: the tax-inclusive
 *   gross is price × qty and tax = gross × r / (1 + r) unrounded, net = gross − tax;
 * - coupons: percent = floor(cents × pct) per line, fixed_cart = floor(share) per line, the pennies
 *   left handed out one at a time; with tax-inclusive prices the discount applies to the gross;
 * - taxes[] carry unrounded amounts (printed like PHP's shortest float text, 15 digits);
 * - line subtotal/total and total_tax are rounded to 2 decimals for the REST output;
 * - tax_lines: per-line rounding (WooCommerce's default) or one rounding per rate ("round tax at
 *   subtotal level");
 * - order total = round2(items + shipping + fees + tax_lines totals), where items are the 2-decimal
 *   line totals with per-line rounding and the unrounded nets with per-rate rounding.
 */

export interface CartItem {
  name: string;
  sku?: string;
  productId: number;
  variationId?: number;
  /** Entered price (with or without tax per the order), decimal text. */
  price: string;
  quantity: number;
  /** Tax rate percent; 0 or undefined for untaxed. */
  rate?: string;
  meta?: CartMeta[];
}

/** A meta entry of a line as WooCommerce keeps it (display_* as its admin shows it). */
export type CartMeta = { key: string; value: string; display_key?: string; display_value?: string };

export interface CartCoupon {
  code: string;
  type: 'percent' | 'fixed_cart';
  amount: string;
}

export interface CartShipping {
  title: string;
  methodId?: string;
  /** Cost without tax (WooCommerce shipping costs are entered without tax). */
  cost: string;
  rate?: string;
}

export interface CartFee {
  name: string;
  /** Amount without tax; negative for a discount fee. */
  amount: string;
  /** Rate of a positive taxable fee; negative fees are taxed at the items' rates in proportion. */
  rate?: string;
  taxable?: boolean;
}

export interface Cart {
  id: number;
  currency?: string;
  pricesIncludeTax?: boolean;
  taxRounding?: 'per-line' | 'per-rate';
  items: CartItem[];
  coupons?: CartCoupon[];
  shipping?: CartShipping[];
  fees?: CartFee[];
  billing?: Partial<Record<'first_name' | 'last_name' | 'company' | 'address_1' | 'address_2' | 'city' | 'state' | 'postcode' | 'country' | 'email' | 'phone', string>>;
  shippingAddress?: Partial<Record<'first_name' | 'last_name' | 'company' | 'address_1' | 'address_2' | 'city' | 'state' | 'postcode' | 'country', string>>;
  meta?: { key: string; value: JsonValue }[];
  datePaidGmt?: string | null;
  dateCreatedGmt?: string;
  status?: string;
  /** Rate labels/ids: rate percent -> id; generated when absent. */
  omitRatePercent?: boolean;
  /** WooCommerce's needs_processing (false: only virtual or downloadable items); left out when absent. */
  needsProcessing?: boolean;
}

/**
 * What buildOrder and buildRefund make: WooCommerce's REST v3 order and refund as JSON, typed here
 * where they are built (plain JSON, so the fake shop stores them and the n8n node takes them as
 * they are, without a cast where they are handed on).
 */
export type WooCartTax = { id: number; total: string; subtotal: string };
export type WooCartLineItem = {
  id: number;
  name: string;
  product_id: number;
  variation_id: number;
  quantity: number;
  tax_class: string;
  subtotal: string;
  subtotal_tax: string;
  total: string;
  total_tax: string;
  taxes: WooCartTax[];
  meta_data: ({ id: number } & CartMeta)[];
  sku: string;
  price: number;
  parent_name?: null;
};
export type WooCartShippingLine = { id: number; method_title: string; method_id: string; instance_id?: string; total: string; total_tax: string; taxes: WooCartTax[]; meta_data: { id: number; key: string; value: string }[] };
export type WooCartFeeLine = { id: number; name: string; tax_class?: string; tax_status?: string; amount?: string; total: string; total_tax: string; taxes: WooCartTax[]; meta_data: { id: number; key: string; value: string }[] };
export type WooCartTaxLine = {
  id: number;
  rate_code: string;
  rate_id: number;
  label: string;
  compound: boolean;
  tax_total: string;
  shipping_tax_total: string;
  meta_data: never[];
  rate_percent?: number;
};
type Address = Record<'first_name' | 'last_name' | 'company' | 'address_1' | 'address_2' | 'city' | 'state' | 'postcode' | 'country', string>;
export type WooCartOrder = {
  id: number;
  parent_id: number;
  number: string;
  order_key: string;
  created_via: string;
  version: string;
  status: string;
  currency: string;
  date_created: string;
  date_created_gmt: string;
  date_modified: string;
  date_modified_gmt: string;
  discount_total: string;
  discount_tax: string;
  shipping_total: string;
  shipping_tax: string;
  cart_tax: string;
  total: string;
  total_tax: string;
  prices_include_tax: boolean;
  customer_id: number;
  customer_ip_address: string;
  customer_user_agent: string;
  customer_note: string;
  billing: Address & { email: string; phone: string };
  shipping: Address & { phone: string };
  payment_method: string;
  payment_method_title: string;
  transaction_id: string;
  date_paid: string | null;
  date_paid_gmt: string | null;
  date_completed: null;
  date_completed_gmt: null;
  cart_hash: string;
  meta_data: { id: number; key: string; value: JsonValue }[];
  line_items: WooCartLineItem[];
  tax_lines: WooCartTaxLine[];
  shipping_lines: WooCartShippingLine[];
  fee_lines: WooCartFeeLine[];
  coupon_lines: { id: number; code: string; discount: string; discount_tax: string; meta_data: { id: number; key: string; value: { code: string; amount: string; discount_type: string } }[] }[];
  refunds: never[];
  currency_symbol: string;
  _links: { self: { href: string }[] };
  needs_processing?: boolean;
};
export type WooCartRefund = {
  id: number;
  date_created: string;
  date_created_gmt: string;
  amount: string;
  reason: string;
  refunded_by: number;
  refunded_payment: boolean;
  meta_data: never[];
  line_items: WooCartLineItem[];
  shipping_lines: WooCartShippingLine[];
  tax_lines: never[];
  fee_lines: WooCartFeeLine[];
  _links: { up: { href: string }[] };
};

const ZERO = parseDecimal(0);
const ONE = parseDecimal(1);

/** PHP prints floats with up to 17 significant digits; 15 is what wc_format_decimal leaves in practice. */
export function phpFloatText(value: Decimal): string {
  const digits = (value.units < 0n ? -value.units : value.units).toString().length - value.scale;
  const places = Math.max(0, 15 - Math.max(digits, 1));
  return formatDecimal(round(value, Math.min(places, value.scale)));
}

function money(value: Decimal): string {
  return formatDecimal(round(value, 2), 2);
}

function rateOf(text: string | undefined): Decimal {
  return parseDecimal(text ?? '0');
}

function isTaxed(rate: Decimal): boolean {
  return rate.units !== 0n;
}

/** Splits `totalCents` over weights: floor of each share, then the pennies left one by one in order. */
function spreadCents(totalCents: bigint, weights: bigint[]): bigint[] {
  const weightSum = weights.reduce((a, b) => a + b, 0n);
  if (weightSum === 0n) return weights.map(() => 0n);
  const shares = weights.map((w) => (totalCents * w) / weightSum);
  let left = totalCents - shares.reduce((a, b) => a + b, 0n);
  for (let i = 0; left > 0n; i = (i + 1) % shares.length) {
    if (weights[i] > 0n) {
      shares[i] += 1n;
      left -= 1n;
    }
  }
  return shares;
}

interface RateInfo {
  id: number;
  percent: Decimal;
}

export function buildOrder(cart: Cart): WooCartOrder {
  const inclusive = cart.pricesIncludeTax ?? false;
  const perLine = (cart.taxRounding ?? 'per-line') === 'per-line';
  const rates = new Map<string, RateInfo>();
  const rateFor = (percent: Decimal): RateInfo | undefined => {
    if (!isTaxed(percent)) return undefined;
    const key = formatDecimal(percent);
    if (!rates.has(key)) rates.set(key, { id: 100 + rates.size, percent });
    return rates.get(key);
  };

  // Entered amounts per line in cents: gross with tax when inclusive, else net.
  const entered = cart.items.map((item) => toCents(multiply(parseDecimal(item.price), parseDecimal(item.quantity))));
  const discounts = cart.items.map(() => 0n);
  const couponCents: bigint[] = [];
  for (const coupon of cart.coupons ?? []) {
    const base = entered.map((cents, i) => cents - discounts[i]);
    let lineDiscounts: bigint[];
    if (coupon.type === 'percent') {
      const pct = parseDecimal(coupon.amount);
      const floors = base.map((cents) => round(multiply(fromCents(cents), shift(pct, 2)), 6).units / 10n ** 4n);
      const wanted = toCents(multiply(fromCents(base.reduce((a, b) => a + b, 0n)), shift(pct, 2)));
      let left = wanted - floors.reduce((a, b) => a + b, 0n);
      lineDiscounts = floors.map((f, i) => {
        if (left > 0n && base[i] - f > 0n) {
          left -= 1n;
          return f + 1n;
        }
        return f;
      });
    } else {
      const amount = toCents(coupon.amount);
      const available = base.reduce((a, b) => a + b, 0n);
      lineDiscounts = spreadCents(amount < available ? amount : available, base);
    }
    lineDiscounts.forEach((d, i) => (discounts[i] += d));
    couponCents.push(lineDiscounts.reduce((a, b) => a + b, 0n));
  }

  const itemTaxesUnrounded: { id: number; total: Decimal; subtotal: Decimal }[][] = [];
  const lineItems = cart.items.map((item, i) => {
    const percent = rateOf(item.rate);
    const info = rateFor(percent);
    const r = shift(percent, 2);
    const grossSub = fromCents(entered[i]);
    const grossTot = fromCents(entered[i] - discounts[i]);
    let netSub: Decimal;
    let netTot: Decimal;
    let taxSub: Decimal;
    let taxTot: Decimal;
    if (inclusive && info) {
      taxSub = divide(multiply(grossSub, r), add(ONE, r), 16);
      taxTot = divide(multiply(grossTot, r), add(ONE, r), 16);
      netSub = subtract(grossSub, taxSub);
      netTot = subtract(grossTot, taxTot);
    } else {
      netSub = grossSub;
      netTot = grossTot;
      taxSub = multiply(netSub, r);
      taxTot = multiply(netTot, r);
    }
    itemTaxesUnrounded.push(info ? [{ id: info.id, total: taxTot, subtotal: taxSub }] : []);
    return {
      unroundedNet: netTot,
      json: {
        id: 1000 + i,
        name: item.name,
        product_id: item.productId,
        variation_id: item.variationId ?? 0,
        quantity: item.quantity,
        tax_class: '',
        subtotal: money(netSub),
        subtotal_tax: money(taxSub),
        total: money(netTot),
        total_tax: money(taxTot),
        taxes: info ? [{ id: info.id, total: phpFloatText(taxTot), subtotal: phpFloatText(taxSub) }] : [],
        meta_data: (item.meta ?? []).map((m, k) => ({ id: 5000 + i * 10 + k, ...m })),
        sku: item.sku ?? '',
        price: Number(formatDecimal(round(divide(netTot, parseDecimal(item.quantity), 8), 8))),
        parent_name: null,
      },
    };
  });

  const shippingTaxes: { id: number; total: Decimal }[][] = [];
  const shippingLines = (cart.shipping ?? []).map((s, i) => {
    const percent = rateOf(s.rate);
    const info = rateFor(percent);
    const cost = parseDecimal(s.cost);
    const tax = multiply(cost, shift(percent, 2));
    shippingTaxes.push(info ? [{ id: info.id, total: tax }] : []);
    return {
      id: 2000 + i,
      method_title: s.title,
      method_id: s.methodId ?? 'flat_rate',
      instance_id: '1',
      total: money(cost),
      total_tax: money(tax),
      taxes: info ? [{ id: info.id, total: phpFloatText(tax), subtotal: '' }] : [],
      meta_data: [],
    };
  });

  // Negative fees are taxed at the cart's rates in proportion to the costs per tax class, items and
  // shipping alike (WC_Cart_Totals::get_tax_class_costs, WC 3.2+): shipping at 23 % pulls the split.
  const feeTaxes: { id: number; total: Decimal }[][] = [];
  const itemNetByRate = new Map<number, Decimal>();
  lineItems.forEach((line, i) => {
    for (const t of itemTaxesUnrounded[i]) itemNetByRate.set(t.id, add(itemNetByRate.get(t.id) ?? ZERO, line.unroundedNet));
  });
  (cart.shipping ?? []).forEach((s, i) => {
    for (const t of shippingTaxes[i]) itemNetByRate.set(t.id, add(itemNetByRate.get(t.id) ?? ZERO, parseDecimal(s.cost)));
  });
  const itemNetTotal = sum([...lineItems.map((l) => l.unroundedNet), ...(cart.shipping ?? []).filter((_s, i) => shippingTaxes[i].length > 0).map((s) => parseDecimal(s.cost))]);
  const feeLines = (cart.fees ?? []).map((fee, i) => {
    const amount = parseDecimal(fee.amount);
    const taxes: { id: number; total: Decimal }[] = [];
    if (amount.units < 0n && fee.taxable !== false) {
      for (const [id, net] of itemNetByRate) {
        const info = [...rates.values()].find((r) => r.id === id) as RateInfo;
        const share = divide(multiply(amount, net), itemNetTotal, 16);
        taxes.push({ id, total: multiply(share, shift(info.percent, 2)) });
      }
    } else if (fee.rate && fee.taxable !== false) {
      const info = rateFor(rateOf(fee.rate));
      if (info) taxes.push({ id: info.id, total: multiply(amount, shift(info.percent, 2)) });
    }
    feeTaxes.push(taxes);
    const totalTax = sum(taxes.map((t) => t.total));
    return {
      id: 3000 + i,
      name: fee.name,
      tax_class: '',
      tax_status: taxes.length > 0 ? 'taxable' : 'none',
      amount: money(amount),
      total: money(amount),
      total_tax: money(totalTax),
      taxes: taxes.map((t) => ({ id: t.id, total: phpFloatText(t.total), subtotal: '' })),
      meta_data: [],
    };
  });

  const roundTax = (amounts: Decimal[]): Decimal =>
    perLine ? sum(amounts.map((a) => round(a, 2))) : round(sum(amounts), 2);
  const taxLines = [...rates.values()].map((info, k) => {
    const itemAmounts = [
      ...itemTaxesUnrounded.flatMap((list) => list.filter((t) => t.id === info.id).map((t) => t.total)),
      ...feeTaxes.flatMap((list) => list.filter((t) => t.id === info.id).map((t) => t.total)),
    ];
    const shipAmounts = shippingTaxes.flatMap((list) => list.filter((t) => t.id === info.id).map((t) => t.total));
    const line: WooCartTaxLine = {
      id: 4000 + k,
      rate_code: `PT-IVA ${formatDecimal(info.percent)}%-${k + 1}`,
      rate_id: info.id,
      label: `IVA ${formatDecimal(info.percent)}%`,
      compound: false,
      tax_total: money(roundTax(itemAmounts)),
      shipping_tax_total: money(roundTax(shipAmounts)),
      meta_data: [],
    };
    if (!cart.omitRatePercent) line.rate_percent = Number(formatDecimal(info.percent));
    return { line, tax: add(round(roundTax(itemAmounts), 2), round(roundTax(shipAmounts), 2)), ship: roundTax(shipAmounts) };
  });

  // Rounding per line (the default) also rounds each item total before summing; rounding at
  // subtotal level keeps the unrounded nets of tax-inclusive prices (WC_Cart_Totals::get_rounded_items_total).
  const itemsTotal = perLine ? sum(lineItems.map((l) => parseDecimal(l.json.total))) : sum(lineItems.map((l) => l.unroundedNet));
  const shippingTotal = sum(shippingLines.map((s) => parseDecimal(s.total)));
  const feesTotal = sum(feeLines.map((f) => parseDecimal(f.total)));
  const taxTotal = sum(taxLines.map((t) => t.tax));
  const shippingTax = sum(taxLines.map((t) => t.ship));
  const total = round(add(add(add(itemsTotal, shippingTotal), feesTotal), taxTotal), 2);
  const discountTotal = sum(lineItems.map((l) => subtract(parseDecimal(l.json.subtotal), parseDecimal(l.json.total))));
  const created = cart.dateCreatedGmt ?? '2025-03-14T10:15:00';
  const paid = cart.datePaidGmt === undefined ? created : cart.datePaidGmt;
  const billing = {
    first_name: 'Maria',
    last_name: 'Silva',
    company: '',
    address_1: 'Rua Augusta 100',
    address_2: '',
    city: 'Lisboa',
    state: '',
    postcode: '1100-053',
    country: 'PT',
    email: 'maria.silva@example.pt',
    phone: '+351 912 345 678',
    ...cart.billing,
  };
  return {
    id: cart.id,
    parent_id: 0,
    number: String(cart.id),
    order_key: `wc_order_${cart.id}abc`,
    created_via: 'checkout',
    version: '9.4.2',
    status: cart.status ?? (paid ? 'processing' : 'on-hold'),
    currency: cart.currency ?? 'EUR',
    date_created: created,
    date_created_gmt: created,
    date_modified: created,
    date_modified_gmt: created,
    discount_total: money(discountTotal),
    discount_tax: money(sum(lineItems.map((l) => subtract(parseDecimal(l.json.subtotal_tax), parseDecimal(l.json.total_tax))))),
    shipping_total: money(shippingTotal),
    shipping_tax: money(shippingTax),
    cart_tax: money(subtract(taxTotal, shippingTax)),
    total: money(total),
    total_tax: money(taxTotal),
    prices_include_tax: inclusive,
    customer_id: 0,
    customer_ip_address: '127.0.0.1',
    customer_user_agent: 'Mozilla/5.0',
    customer_note: '',
    billing,
    shipping: { first_name: billing.first_name, last_name: billing.last_name, company: '', address_1: billing.address_1, address_2: '', city: billing.city, state: '', postcode: billing.postcode, country: billing.country, phone: '', ...cart.shippingAddress },
    payment_method: paid ? 'multibanco' : 'bacs',
    payment_method_title: paid ? 'Multibanco' : 'Transferência bancária',
    transaction_id: '',
    date_paid: paid,
    date_paid_gmt: paid,
    date_completed: null,
    date_completed_gmt: null,
    cart_hash: '',
    meta_data: (cart.meta ?? []).map((m, k) => ({ id: 9000 + k, ...m })),
    line_items: lineItems.map((l) => l.json),
    tax_lines: taxLines.map((t) => t.line),
    shipping_lines: shippingLines,
    fee_lines: feeLines,
    coupon_lines: (cart.coupons ?? []).map((c, k) => ({
      id: 6000 + k,
      code: c.code,
      discount: money(fromCents(couponCents[k])),
      discount_tax: '0.00',
      meta_data: [{ id: 7000 + k, key: 'coupon_data', value: { code: c.code, amount: c.amount, discount_type: c.type } }],
    })),
    refunds: [],
    currency_symbol: '€',
    _links: { self: [{ href: `https://loja.example.pt/wp-json/wc/v3/orders/${cart.id}` }] },
    ...(cart.needsProcessing === undefined ? {} : { needs_processing: cart.needsProcessing }),
  };
}

export interface RefundSpec {
  id: number;
  dateGmt?: string;
  reason?: string;
  /** Refunded quantities by line index. */
  items?: { index: number; quantity: number }[];
  /** Refund the shipping lines in full. */
  shipping?: boolean;
  /** Refund the fee lines in full (a negative fee's reversal comes positive). */
  fees?: boolean;
  /** An amount with no lines (the "refund amount" box only). */
  amount?: string;
}

const TaxesSchema = z.array(z.object({ id: z.number(), total: z.string() }));

/** What a refund reads of its order (one this file built, or the fake shop's copy of it). */
const RefundedOrderSchema = z.object({
  id: z.number(),
  line_items: z.array(z.object({ id: z.number(), name: z.string(), product_id: z.number(), variation_id: z.number(), quantity: z.number(), total: z.string(), taxes: TaxesSchema, sku: z.string() })),
  shipping_lines: z.array(z.object({ id: z.number(), method_title: z.string(), method_id: z.string(), total: z.string(), taxes: TaxesSchema })),
  fee_lines: z.array(z.object({ id: z.number(), name: z.string(), total: z.string(), taxes: TaxesSchema })),
});

/** A refund as WooCommerce stores it: quantities and amounts negative, amount positive. `order` is read through its schema. */
export function buildRefund(order: unknown, spec: RefundSpec): WooCartRefund {
  const { id: orderId, line_items: items, shipping_lines: shipping, fee_lines: fees } = RefundedOrderSchema.parse(order);
  const parts: Decimal[] = [];
  const lineItems = (spec.items ?? []).map((r, k) => {
    const line = items[r.index];
    const ratio = divide(parseDecimal(r.quantity), parseDecimal(line.quantity), 12);
    const total = round(multiply(parseDecimal(line.total), ratio), 2);
    const taxes = line.taxes.map((t) => ({ id: t.id, total: round(multiply(parseDecimal(t.total), ratio), 2) }));
    const totalTax = sum(taxes.map((t) => t.total));
    parts.push(total, totalTax);
    return {
      id: 8000 + k,
      name: line.name,
      product_id: line.product_id,
      variation_id: line.variation_id,
      quantity: -r.quantity,
      tax_class: '',
      subtotal: money(subtract(ZERO, total)),
      subtotal_tax: money(subtract(ZERO, totalTax)),
      total: money(subtract(ZERO, total)),
      total_tax: money(subtract(ZERO, totalTax)),
      taxes: taxes.map((t) => ({ id: t.id, total: money(subtract(ZERO, t.total)), subtotal: money(subtract(ZERO, t.total)) })),
      meta_data: [{ id: 8500 + k, key: '_refunded_item_id', value: String(line.id) }],
      sku: line.sku,
      price: -Number(formatDecimal(round(divide(total, parseDecimal(r.quantity), 8), 8))),
    };
  });
  const shippingLines = spec.shipping
    ? shipping.map((s, k) => {
        const taxes = s.taxes.map((t) => ({ id: t.id, total: round(parseDecimal(t.total), 2) }));
        parts.push(parseDecimal(s.total), ...taxes.map((t) => t.total));
        return {
          id: 8800 + k,
          method_title: s.method_title,
          method_id: s.method_id,
          total: money(subtract(ZERO, parseDecimal(s.total))),
          total_tax: money(subtract(ZERO, sum(taxes.map((t) => t.total)))),
          taxes: taxes.map((t) => ({ id: t.id, total: money(subtract(ZERO, t.total)), subtotal: '' })),
          meta_data: [{ id: 8900 + k, key: '_refunded_item_id', value: String(s.id) }],
        };
      })
    : [];
  const feeLines = spec.fees
    ? fees.map((f, k) => {
        const taxes = f.taxes.map((t) => ({ id: t.id, total: round(parseDecimal(t.total), 2) }));
        parts.push(parseDecimal(f.total), ...taxes.map((t) => t.total));
        return {
          id: 8700 + k,
          name: f.name,
          total: money(subtract(ZERO, parseDecimal(f.total))),
          total_tax: money(subtract(ZERO, sum(taxes.map((t) => t.total)))),
          taxes: taxes.map((t) => ({ id: t.id, total: money(subtract(ZERO, t.total)), subtotal: '' })),
          meta_data: [{ id: 8750 + k, key: '_refunded_item_id', value: String(f.id) }],
        };
      })
    : [];
  const amount = spec.amount ?? money(sum(parts));
  const date = spec.dateGmt ?? '2025-03-20T09:00:00';
  return {
    id: spec.id,
    date_created: date,
    date_created_gmt: date,
    amount,
    reason: spec.reason ?? '',
    refunded_by: 1,
    refunded_payment: false,
    meta_data: [],
    line_items: lineItems,
    shipping_lines: shippingLines,
    tax_lines: [],
    fee_lines: feeLines,
    _links: { up: [{ href: `https://loja.example.pt/wp-json/wc/v3/orders/${String(orderId)}` }] },
  };
}
