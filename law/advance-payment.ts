/**
 * Deposits, partial payments and pre-orders (CIVA art. 36(1)(c)): a payment received before the
 * goods are delivered or the service is performed is invoiced on the day it is received, for the
 * amount received. Shop plugins keep such orders in statuses of their own (a deposit paid, a
 * pre-order charged upfront) until the rest is paid or the goods are released; the connector never
 * invoices them there (an invoice of the whole order as paid would be wrong for a deposit) and must
 * not wait silently either: a person is told what the law asks and what to do. The platforms say
 * which orders these are (platforms/<name>/); this is the rule.
 */

/** An order a deposit or pre-order plugin holds before the supply, as the platform reads it. */
export interface AdvancePayment {
  /** A deposit or partial payment, or a pre-order. */
  kind: 'deposit' | 'pre-order';
  /** The platform's status the plugin put the order in ("partially-paid", "pre-ordered"). */
  status: string;
  /** The plugin, as people know it ("WooCommerce Pre-Orders"). */
  plugin: string;
  /** Whether money was received (a pre-order charged upon release has received none yet). */
  received: boolean;
}

/** What the law asks of such an order: nothing yet, or an invoice of the payment on the day it was received. */
export type AdvancePaymentDuty = { due: false; why: 'nothing-received' } | { due: true; why: 'payment-before-supply'; article: 'CIVA art. 36(1)(c)' };

export function advancePaymentDuty(advance: AdvancePayment): AdvancePaymentDuty {
  // A pre-order charged upon release received nothing: the tax is not due, no invoice yet (art. 7, 8).
  if (!advance.received) return { due: false, why: 'nothing-received' };
  return { due: true, why: 'payment-before-supply', article: 'CIVA art. 36(1)(c)' };
}
