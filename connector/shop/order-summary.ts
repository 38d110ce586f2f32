/**
 * An order as the connector plans, sweeps, lists, reviews and counts it, whatever platform took it:
 * the Shop port's words. Each platform builds it from its own JSON (platforms/<name>/), from a
 * webhook's body, a listing or one order read; the whole order (lines, buyer, addresses) is read
 * only by the worker, as the platform's neutral sale (law/sale.ts).
 */

/** What the shop keeps on the order under a key: our record, another system's mark. */
export interface OrderAttribute {
  key: string;
  value?: unknown;
}

export interface OrderSummary {
  id: number;
  /** The platform's own status word ("processing", "paid"). */
  status: string;
  /** ISO 4217, as the shop sends it. */
  currency: string;
  /** Decimal text in the order's currency. */
  total: string;
  /** What the shop keeps on the order: our record (connector/shop/order-meta.ts) and other systems' marks. */
  attributes: readonly OrderAttribute[];
  /**
   * When it was paid and created, UTC without a zone ("2025-03-01T10:00:00"); null when the shop
   * has none (an order not paid yet, cash on delivery before completion).
   */
  paidAt: string | null;
  createdAt: string | null;
  /** The payment method's id as the shop names it ("cod"); null when it has none. */
  paymentMethod: string | null;
  /**
   * What the shop still has to receive, decimal text in the order's currency ("70.00"), when the
   * platform says (Shopify's totalOutstandingSet): above zero on an order paid or refunded in part
   * before the rest was paid, which the advance-payment rule holds (law/advance-payment.ts).
   */
  outstanding?: string;
  /** Its refunds; `total` ("-5.00") absent when the platform's order does not carry it (the review then leaves the coverage unjudged). */
  refunds: readonly { id: number; total?: string }[];
}

/** The buyer's name as the shop has it, for the console's lists and search (never stored by the connector). */
export interface BuyerName {
  firstName: string;
  lastName: string;
  company: string;
}

/** An order of a listing: its summary, when it last changed, and what the console shows of it. */
export interface ListedOrder extends OrderSummary {
  /** When the order last changed on the shop, UTC without a zone, on the shop's clock: where the next sweep starts. */
  modifiedAt: string | null;
  /** The order's number as the platform shows it ("#1001"), when it differs from its id. */
  number?: string;
  buyer?: BuyerName;
  /** The platform's JSON of the whole order, when the listing carried it (WooCommerce's does): what the dry run composes from. */
  source?: unknown;
}

/** The buyer's name as the shop has it: first and last name, else the company, else empty. */
export function buyerNameText(buyer: BuyerName | undefined): string {
  if (!buyer) return '';
  const name = [buyer.firstName, buyer.lastName].filter(Boolean).join(' ').trim();
  const company = buyer.company.trim();
  if (name && company) return `${name} (${company})`;
  return name || company;
}
