import type { AdvancePayment } from '../../law/advance-payment';
import type { OrderSummary } from '../../connector/shop/order-summary';

/**
 * Shopify's own advance payments (CIVA art. 36(1)(c)), in the law's words (law/advance-payment.ts).
 *
 * Shopify needs no plugin for them: a deposit taken on a draft order, an order on payment terms whose
 * first payment was captured, or an order the merchant captured only in part are all held by Shopify
 * itself in the financial status PARTIALLY_PAID, which its GraphQL Admin API defines as "a payment
 * was manually captured for the order with an amount less than the full order value"
 * (OrderDisplayFinancialStatus; the REST body's `financial_status` "partially_paid", the connector's
 * status word `partially_paid`, platforms/shopify/order-summary.ts). The status is the amount test:
 * money received (`totalReceivedSet`) and still owed (`totalOutstandingSet`, the payment terms'
 * schedules) both above zero. Once the rest is captured Shopify says PAID and the order is invoiced
 * as usual.
 *
 * A deposit refunded in part before the rest was paid: Shopify says PARTIALLY_REFUNDED (a trigger
 * status, as for a paid order refunded in part) while it still has money to receive
 * (`totalOutstandingSet` above zero, the summary's `outstanding`): still an advance payment, never
 * invoiced as the whole order. A paid order refunded in part owes nothing (outstanding 0.00).
 *
 * Not advance payments: PENDING and AUTHORIZED (nothing captured: nothing received, no tax due on a
 * payment yet), and a payment-terms order with nothing paid (PENDING).
 */
export const SHOPIFY_PARTIALLY_PAID = 'partially_paid';

/** The name a person knows the keeper of the status by (the note and the list say "Shopify's status ..."). */
export const SHOPIFY_ADVANCE_KEEPER = 'Shopify';

const SHOPIFY_PARTIALLY_REFUNDED = 'partially_refunded';

export function shopifyAdvancePayment(order: Pick<OrderSummary, 'status' | 'attributes' | 'paidAt' | 'outstanding'>): AdvancePayment | undefined {
  const owed = order.status === SHOPIFY_PARTIALLY_REFUNDED && stillToReceive(order.outstanding);
  if (order.status !== SHOPIFY_PARTIALLY_PAID && !owed) return undefined;
  return { kind: 'deposit', status: order.status, plugin: SHOPIFY_ADVANCE_KEEPER, received: true };
}

/** Shopify's outstanding amount above zero (a negative one is owed to the buyer; absent: not said). */
function stillToReceive(outstanding: string | undefined): boolean {
  return outstanding !== undefined && /^\d+(\.\d+)?$/.test(outstanding.trim()) && Number(outstanding) > 0;
}
