import type { CreateDocumentRequest } from '../../client/schemas/document';
import type { CreateWaybillRequest } from '../../client/schemas/waybill';
import { creditNoteForRefund } from '../../webhooks/woocommerce/refund-to-credit-note';
import { documentForOrder } from '../../webhooks/woocommerce/order-to-document';
import { waybillForOrder } from '../../webhooks/woocommerce/order-to-waybill';
import type { MappingNote } from '../../webhooks/woocommerce/mapping-errors';
import type { WooOrder, WooRefund } from '../../webhooks/woocommerce/order-schema';
import type { MappingSettings } from '../../webhooks/woocommerce/mapping-settings';

/** What the issue step sends to the service for one purpose, built by the pure mapping. */
export type IssueRequest =
  | { kind: 'document'; request: CreateDocumentRequest; notes: MappingNote[]; hold: boolean }
  | { kind: 'waybill'; request: CreateWaybillRequest; notes: MappingNote[]; hold: false };

/** `issueDate`: the shop's day the document is issued (its legal date); the caller decides it. */
export function invoiceRequest(order: WooOrder, settings: MappingSettings, issueDate: string): IssueRequest {
  const mapped = documentForOrder(order, settings, issueDate);
  return { kind: 'document', request: mapped.request, notes: mapped.notes, hold: mapped.hold };
}

export function waybillRequest(order: WooOrder, settings: MappingSettings, now: Date): IssueRequest {
  const mapped = waybillForOrder(order, settings, now);
  return { kind: 'waybill', request: mapped.request, notes: mapped.notes, hold: false };
}

export function creditNoteRequest(order: WooOrder, refund: WooRefund, invoiceNumber: string, settings: MappingSettings, issueDate: string): IssueRequest {
  const mapped = creditNoteForRefund(order, refund, invoiceNumber, settings, issueDate);
  return { kind: 'document', request: mapped.request, notes: mapped.notes, hold: false };
}

/**
 * A cancelled order credited in full: a refund of every line, shipping and fee, as WooCommerce
 * would record it if the shop owner refunded everything (amounts and quantities negative).
 * Its id is the order's own id: refunds and orders share WooCommerce's post ids, so no real refund
 * of this order can have it and the ExternalId (wc-<order>-R<order>) cannot collide.
 */
export function fullRefundOf(order: WooOrder, now: Date): WooRefund {
  const date = now.toISOString().slice(0, 19);
  const negative = (text: string): string => (text.startsWith('-') ? text.slice(1) : text === '0' || /^0(\.0+)?$/.test(text) ? text : `-${text}`);
  const negTaxes = (taxes: WooOrder['line_items'][number]['taxes']) => taxes.map((tax) => ({ ...tax, total: negative(tax.total), subtotal: tax.subtotal === undefined ? undefined : negative(tax.subtotal) }));
  return {
    id: order.id,
    date_created: date,
    date_created_gmt: date,
    amount: order.total,
    reason: 'Order cancelled',
    line_items: order.line_items.map((line) => ({
      ...line,
      quantity: -line.quantity,
      subtotal: negative(line.subtotal),
      total: negative(line.total),
      total_tax: line.total_tax === undefined ? undefined : negative(line.total_tax),
      taxes: negTaxes(line.taxes),
    })),
    shipping_lines: order.shipping_lines.map((line) => ({ ...line, total: negative(line.total), total_tax: line.total_tax === undefined ? undefined : negative(line.total_tax), taxes: negTaxes(line.taxes) })),
    fee_lines: order.fee_lines.map((line) => ({ ...line, total: negative(line.total), total_tax: line.total_tax === undefined ? undefined : negative(line.total_tax), taxes: negTaxes(line.taxes) })),
  } as WooRefund;
}
