import type { SaleLineTax, SaleRefund, SaleRefundLine } from '../../law/sale';
import type { WooFeeLine, WooRefund, WooRefundLineItem, WooShippingLine } from './order-schema';
import { wooAttributes, wooTime } from './order-to-sale';

/**
 * A WooCommerce refund as the neutral refund (law/sale.ts). WooCommerce writes a refund's
 * quantities and amounts negative (what leaves the order); the neutral refund counts what goes back
 * to the buyer, so every sign turns: a refunded line is positive, the reversal of a discount fee
 * (which WooCommerce writes positive) is negative.
 */

/** "-12.30" -> "12.30", "4.00" -> "-4.00"; a zero keeps its text. */
export function turned(amount: string): string {
  if (amount.startsWith('-')) return amount.slice(1);
  return /^0+(\.0+)?$/.test(amount) ? amount : `-${amount}`;
}

function turnedTaxes(taxes: readonly { id: number; total: string; subtotal?: string }[]): SaleLineTax[] {
  return taxes.map((tax) => ({ rateId: String(tax.id), amount: turned(tax.total), ...(tax.subtotal !== undefined ? { beforeDiscounts: turned(tax.subtotal) } : {}) }));
}

/** The order line a refund line refunds: WooCommerce's `_refunded_item_id` meta. */
function refundedLineId(line: WooRefundLineItem | WooShippingLine | WooFeeLine): string | undefined {
  const id = line.meta_data.find((m) => m.key === '_refunded_item_id')?.value;
  const numeric = typeof id === 'string' || typeof id === 'number' ? Number(id) : NaN;
  return Number.isFinite(numeric) ? String(numeric) : undefined;
}

function itemLine(item: WooRefundLineItem): SaleRefundLine {
  const saleLineId = refundedLineId(item);
  return {
    id: String(item.id),
    kind: 'product',
    name: item.name,
    sku: item.sku,
    ...(saleLineId !== undefined ? { saleLineId } : {}),
    ...(item.product_id > 0 ? { productId: String(item.product_id) } : {}),
    ...(item.variation_id > 0 ? { variantId: String(item.variation_id) } : {}),
    quantity: Math.abs(item.quantity),
    ...(item.subtotal !== undefined ? { subtotal: turned(item.subtotal) } : {}),
    total: turned(item.total),
    totalTax: turned(item.total_tax ?? '0'),
    taxes: turnedTaxes(item.taxes),
    attributes: wooAttributes(item.meta_data),
  };
}

function chargeLine(kind: 'shipping' | 'fee', line: WooShippingLine | WooFeeLine, name: string): SaleRefundLine {
  const saleLineId = refundedLineId(line);
  return {
    id: String(line.id),
    kind,
    name,
    sku: '',
    ...(saleLineId !== undefined ? { saleLineId } : {}),
    quantity: 1,
    total: turned(line.total),
    totalTax: turned(line.total_tax ?? '0'),
    taxes: turnedTaxes(line.taxes),
    attributes: wooAttributes(line.meta_data),
  };
}

export function saleRefundOfWooRefund(refund: WooRefund, orderId: number): SaleRefund {
  const created = wooTime(refund.date_created, refund.date_created_gmt);
  return {
    id: String(refund.id),
    saleId: String(orderId),
    ...(created ? { created } : {}),
    amount: refund.amount,
    reason: refund.reason,
    lines: [
      ...refund.line_items.map(itemLine),
      ...refund.shipping_lines.map((line) => chargeLine('shipping', line, line.method_title)),
      ...refund.fee_lines.map((line) => chargeLine('fee', line, line.name)),
    ],
  };
}
