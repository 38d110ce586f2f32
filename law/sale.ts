/**
 * The neutral sale: what the Portuguese invoicing law needs to know of an order, whatever shop
 * platform took it. Each platform's adapter (platforms/<name>/) builds one from its own order; the
 * law (this folder) turns it into a document request, holds and notes, and never sees a platform's
 * payload. Amounts are decimal text in the sale's currency, exactly as the shop charged them
 * (never recomputed from a rate); instants are ISO 8601 in UTC.
 */

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
}

/** Tax charged on one line at one rate, as the shop charged it. */
export interface SaleLineTax {
  /** The shop's id of the rate; it points into `Sale.taxRates`. */
  rateId: string;
  amount: Amount;
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
  /** The platform's id of the order, as text. */
  id: string;
  /** The number the shop shows to people ("1042", "#1042"), when it differs from the id. */
  number?: string;
  /** The platform's own status ("processing", "paid"), for messages. */
  status: string;
  payment: SalePayment;
  /** ISO 4217 of what the buyer was charged in. */
  currency: string;
  pricesIncludeTax: boolean;
  created?: string;
  paid?: string;
  completed?: string;
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
  attributes: SaleAttribute[];
}

/** A refund of a sale, in the law's words. Amounts are positive: what goes back to the buyer. */
export interface SaleRefundLine {
  id: string;
  kind: SaleLineKind;
  name: string;
  sku: string;
  /** The sale's line it refunds, when the platform says. */
  saleLineId?: string;
  productId?: string;
  variantId?: string;
  quantity: number;
  total: Amount;
  taxes: SaleLineTax[];
  attributes: SaleAttribute[];
}

export interface SaleRefund {
  id: string;
  saleId: string;
  created?: string;
  amount: Amount;
  reason: string;
  lines: SaleRefundLine[];
}
