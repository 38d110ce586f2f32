import type { AdvancePayment } from '../../law/advance-payment';
import type { OrderSummary } from '../../connector/shop/order-summary';

type Meta = readonly { key: string; value?: unknown }[];

/**
 * The deposit and pre-order plugins' marks on a WooCommerce order (from their public code):
 * - WooCommerce Deposits (woocommerce.com): status `partial-payment` once the deposit is paid.
 * - Deposits & Partial Payments for WooCommerce (Webtomizer): status `partially-paid`; meta
 *   `_wc_deposits_order_has_deposit` = "yes", `_wc_deposits_deposit_paid` = "yes" once the deposit is paid.
 * - WooCommerce Pre-Orders: status `pre-ordered`; meta `_wc_pre_orders_is_pre_order`,
 *   `_wc_pre_orders_when_charged` = "upfront" (paid at checkout) or "upon_release" (a payment token
 *   kept, charged when the product is released: nothing received yet).
 */
export const DEPOSIT_STATUSES: Readonly<Record<string, string>> = {
  'partial-payment': 'WooCommerce Deposits',
  'partially-paid': 'Deposits & Partial Payments for WooCommerce',
};
export const PRE_ORDER_STATUS = 'pre-ordered';

/** Every status the plugins keep an advance payment in (the dry run and the sweep list them; a shop without the plugin refuses the listing). */
export const WOO_ADVANCE_PAYMENT_STATUSES: readonly string[] = [...Object.keys(DEPOSIT_STATUSES), PRE_ORDER_STATUS];

const metaText = (meta: Meta, key: string): string | undefined => {
  const found = meta.find((m) => m.key === key)?.value;
  return typeof found === 'string' || typeof found === 'number' ? String(found).trim() : undefined;
};

/**
 * The advance payment a plugin keeps the order in, when it does: by its status, or a deposit by the
 * plugin's meta (a paid deposit in a status the shop renamed). Orders in other statuses are not
 * asked (a trigger status is invoiced as usual).
 */
export function wooAdvancePayment(order: Pick<OrderSummary, 'status' | 'attributes' | 'paidAt'>): AdvancePayment | undefined {
  const deposit = DEPOSIT_STATUSES[order.status];
  if (deposit) return { kind: 'deposit', status: order.status, plugin: deposit, received: true };
  if (order.status === PRE_ORDER_STATUS) {
    const charged = metaText(order.attributes, '_wc_pre_orders_when_charged');
    const received = charged === 'upfront' ? true : charged === 'upon_release' ? false : Boolean(order.paidAt);
    return { kind: 'pre-order', status: order.status, plugin: 'WooCommerce Pre-Orders', received };
  }
  if (metaText(order.attributes, '_wc_deposits_order_has_deposit') === 'yes' && metaText(order.attributes, '_wc_deposits_deposit_paid') === 'yes' && metaText(order.attributes, '_wc_deposits_second_payment_paid') !== 'yes') {
    return { kind: 'deposit', status: order.status, plugin: 'Deposits & Partial Payments for WooCommerce', received: true };
  }
  return undefined;
}
