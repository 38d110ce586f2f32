import { add, parseDecimal, round, type Decimal } from '../client/money';

/**
 * The neutral sale: what the Portuguese invoicing law needs to know of an order, whatever shop
 * platform took it. Each platform's adapter (platforms/<name>/) builds one from its own order; the
 * law (this folder) turns it into a document request, holds and notes, and never sees a platform's
 * payload. Amounts are decimal text in the sale's currency, exactly as the shop charged them
 * (never recomputed from a rate); times are `SaleTime`s.
 */

/**
 * ISO 8601: with `Z` or an offset, an instant ("2024-05-01T22:30:00Z"); without a zone, the
 * shop's own local time ("2024-05-01T23:30:00"), as older payloads give it: its date is the shop's day.
 */
export type SaleTime = string;

/** Decimal text in the sale's currency: "12.30", "-9.00". */
export type Amount = string;

/**
 * What is supplied, as far as the shop tells (the accountant's settings can say more). It decides
 * the place of supply (CIVA art. 6), the exemption code and the simplified-invoice limit.
 * `undefined` on a line means unknown: the settings' default applies.
 */
export type SupplyNature =
  /** Tangible goods that are shipped or handed over. */
  | 'goods'
  /** A service in general (CIVA art. 6(6)). */
  | 'service'
  /** Electronically supplied (downloads, software, streaming): CIVA art. 6(8)(l) and 6-A, OSS. */
  | 'electronic-service'
  /** Admission to an event: taxed where it takes place, even for businesses (CIVA art. 6(7)(a)). */
  | 'event-admission'
  /** Connected with immovable property: taxed where the property lies (CIVA art. 6(7)(a)). */
  | 'property-service'
  /** A voucher: single- or multi-purpose decides when VAT is due (CIVA art. 7(13)-(14)). */
  | 'voucher'
  /** A donation: outside the scope of VAT, never on the invoice. */
  | 'donation';

export interface SaleAddress {
  firstName: string;
  lastName: string;
  company: string;
  line1: string;
  line2: string;
  city: string;
  /** The state or region code as the platform gives it ("PT-30", "30", "Madeira"). */
  region: string;
  postcode: string;
  /** ISO 3166-1 alpha-2, upper case; "" when the shop has none. */
  country: string;
  email: string;
  phone: string;
}

/** A key and value the platform keeps on an order or a line (WooCommerce meta, Shopify attributes and metafields). */
export interface SaleAttribute {
  key: string;
  value: unknown;
  /** The label the shop shows, when it differs from the key. */
  label?: string;
  /** The value as the shop shows it to people, when it differs from `value` (a term's name for its slug). */
  shownValue?: unknown;
}

/** Tax charged on one line at one rate, as the shop charged it. */
export interface SaleLineTax {
  /** The shop's id of the rate; it points into `Sale.taxRates`. */
  rateId: string;
  amount: Amount;
  /** The tax before discounts (unrounded, like `amount`), when the platform gives it apart. */
  beforeDiscounts?: Amount;
}

/** A tax rate the shop applied on this sale. */
export interface SaleTaxRate {
  id: string;
  label: string;
  /** The rate in percent (23, 6); absent when the platform does not say and it must be derived. */
  percent?: number;
  /** The platform's code of the rate ("PT-IVA-23-1"), or "". */
  code: string;
  compound: boolean;
  /** The tax the shop charged at this rate on the whole sale (products, shipping, fees), when it says. */
  tax?: Amount;
}

export type SaleLineKind = 'product' | 'shipping' | 'fee';

export interface SaleLine {
  /** The platform's id of the line, unique in the sale. */
  id: string;
  kind: SaleLineKind;
  name: string;
  sku: string;
  /** The product and variant the line sells (product lines only). */
  productId?: string;
  variantId?: string;
  quantity: number;
  /** Before discounts, without tax. */
  subtotal: Amount;
  /** After discounts, without tax. */
  total: Amount;
  /** The line's tax as the shop rounded it; absent: the sum of `taxes`, rounded to cents. */
  totalTax?: Amount;
  taxes: SaleLineTax[];
  /** The shop's tax class of the line ("", "reduced-rate"). */
  taxClass: string;
  nature?: SupplyNature;
  attributes: SaleAttribute[];
}

export interface SaleDiscount {
  code: string;
  amount: Amount;
  tax: Amount;
}

/** Where the sale stands in the shop, in the law's words; the platform's own status is kept beside it. */
export type SalePaymentState = 'paid' | 'unpaid' | 'draft' | 'cancelled';

export interface SalePayment {
  state: SalePaymentState;
  /** The platform's id of the payment method ("cod", "bacs", "stripe", "manual"). */
  method: string;
  /** What the buyer saw ("Cash on delivery"). */
  title: string;
  /** Cash on delivery: paid when the parcel is handed over, not when the order is placed. */
  onDelivery: boolean;
}

export interface Sale {
  /** The platform that took the sale ("woocommerce", "shopify"). */
  platform: string;
  /**
   * The platform's name as shop owners know it ("WooCommerce", "Shopify"), for the notes that send a
   * person there ("as Shopify spread them"); absent, they say "the shop".
   */
  platformTitle?: string;
  /**
   * The platform's id of the order, as text: short and stable, for it makes the documents'
   * ExternalId (at most 50 characters with the prefix and a refund's id; letters, digits, `_ . : -`):
   * Shopify's numeric id ("5500001123"), not its GraphQL gid.
   */
  id: string;
  /** The number the shop shows to people ("1042", without the "#" the documents add), when it differs from the id. */
  number?: string;
  /** The platform's own status ("processing", "paid"), for messages. */
  status: string;
  payment: SalePayment;
  /** ISO 4217 of what the buyer was charged in. */
  currency: string;
  pricesIncludeTax: boolean;
  created?: SaleTime;
  paid?: SaleTime;
  completed?: SaleTime;
  total: Amount;
  totalTax?: Amount;
  billing: SaleAddress;
  shipping?: SaleAddress;
  lines: SaleLine[];
  discounts: SaleDiscount[];
  taxRates: SaleTaxRate[];
  /** False when nothing in it travels (all virtual or downloadable); undefined when unknown. */
  needsShipping?: boolean;
  customerNote: string;
  /**
   * The tax numbers the buyer gave (NIF, VAT number), in the order the platform's settings rank
   * them; the first is the buyer's. Empty when none was given.
   */
  taxNumbers: SaleTaxNumber[];
  attributes: SaleAttribute[];
}

/** A tax number the buyer typed, and where. */
export interface SaleTaxNumber {
  value: string;
  /** Where it was read ("_billing_nif", "company.vatNumber"), for messages. */
  source: string;
  /** Typed in a field for a business's VAT number (not a personal NIF): the buyer is a business. */
  businessField: boolean;
}

/**
 * A refund of a sale, in the law's words. Amounts are positive: what goes back to the buyer (the
 * reversal of a discount fee, which the buyer gives back, is negative).
 */
export interface SaleRefundLine {
  id: string;
  kind: SaleLineKind;
  name: string;
  sku: string;
  /** The sale's line it refunds, when the platform says. */
  saleLineId?: string;
  productId?: string;
  variantId?: string;
  /** Positive; 0 when an amount was refunded on the line without returning any quantity. */
  quantity: number;
  /** Before discounts, without tax, when the platform says. */
  subtotal?: Amount;
  total: Amount;
  /** The line's tax as the shop rounded it; absent: the sum of `taxes`, rounded to cents. */
  totalTax?: Amount;
  /** Positive like the amounts (a fee line that undoes a discount fee comes negative). */
  taxes: SaleLineTax[];
  attributes: SaleAttribute[];
}

export interface SaleRefund {
  /** Short and stable like the sale's id (it ends the credit note's ExternalId). */
  id: string;
  saleId: string;
  created?: SaleTime;
  amount: Amount;
  reason: string;
  lines: SaleRefundLine[];
  /**
   * Part of `amount` the platform itself records apart from the lines, with no VAT rate of its own
   * (Shopify's order adjustment: a goodwill amount, a refund discrepancy); the law credits it by
   * `refundWithoutLines`. Absent when the platform says nothing of the sort (WooCommerce's refund
   * box: an amount beyond the items, credited across the invoice's rates).
   */
  withoutLines?: { amount: Amount };
}

/**
 * A platform's id as the law's messages and errors carry it: a numeric id as the number it is
 * (WooCommerce's ids were always numbers in `OrderMappingError.orderId`), any other id as its text.
 */
export function platformId(id: string): number | string {
  return /^[1-9]\d{0,15}$/.test(id) ? Number(id) : id;
}

/** The sale's reference in messages and errors. */
export function saleRef(sale: Pick<Sale, 'id'>): number | string {
  return platformId(sale.id);
}

/** The number people know the sale by ("1042"): the shop's number, else its id. */
export function saleNumber(sale: Pick<Sale, 'id' | 'number'>): string {
  return sale.number ?? sale.id;
}

export const productLinesOf = (sale: Pick<Sale, 'lines'>): SaleLine[] => sale.lines.filter((line) => line.kind === 'product');
export const shippingLinesOf = (sale: Pick<Sale, 'lines'>): SaleLine[] => sale.lines.filter((line) => line.kind === 'shipping');
export const feeLinesOf = (sale: Pick<Sale, 'lines'>): SaleLine[] => sale.lines.filter((line) => line.kind === 'fee');

/** A line's tax: the shop's rounded figure, else the sum of its taxes rounded to cents. */
export function lineTax(line: { totalTax?: Amount; taxes: readonly SaleLineTax[] }): Decimal {
  if (line.totalTax !== undefined) return parseDecimal(line.totalTax);
  return round(line.taxes.reduce<Decimal>((sum, tax) => add(sum, parseDecimal(tax.amount)), parseDecimal(0)), 2);
}
