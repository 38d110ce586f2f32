import { z } from 'zod';
import { documentForSale, settingsFrom, type OrderDocument } from '../../law/order-to-document';
import { creditNoteForRefund as creditNoteForSaleRefund, type CreditNote } from '../../law/refund-to-credit-note';
import { waybillForSale, type OrderWaybill } from '../../law/order-to-waybill';
import { checkVatNumber as checkSaleVatNumber } from '../../law/buyer-identity';
import type { IssueOptions } from '../../law/issue-date';
import type { MappingSettings, MappingSettingsInput } from '../../law/mapping-settings';
import type { VatNumberRegistry, VatNumberVerdict } from '../../law/vat-number';
import { parseWooOrder, parseWooRefund, WooOrderSchema, WooRefundSchema } from './order-schema';
import { saleOfWooOrder } from './order-to-sale';
import { saleRefundOfWooRefund } from './refund-to-sale-refund';

/**
 * The mapping's entry points over WooCommerce's own payloads, as the library has always offered
 * them: order -> neutral sale (order-to-sale.ts) -> the Portuguese law (law/). New code calls the
 * law with a sale (`documentForSale`, `creditNoteForRefund(sale, refund, ...)`, `waybillForSale`).
 */

export type WooOrderInput = z.input<typeof WooOrderSchema>;
export type WooRefundInput = z.input<typeof WooRefundSchema>;

/**
 * A WooCommerce order as the request that creates its invoice (T / I / S).
 * @deprecated Use `saleOfWooOrder` and `documentForSale` (law/order-to-document).
 */
export function documentForOrder(
  orderInput: WooOrderInput,
  settingsInput?: MappingSettingsInput | MappingSettings,
  issue?: IssueOptions,
  vatNumberVerdict?: VatNumberVerdict,
): OrderDocument {
  const order = parseWooOrder(orderInput);
  const settings = settingsFrom(settingsInput);
  return documentForSale(saleOfWooOrder(order, settings), settings, issue, vatNumberVerdict);
}

/**
 * A WooCommerce refund as the credit note (C) that corrects the order's invoice.
 * @deprecated Use `saleOfWooOrder`, `saleRefundOfWooRefund` and `creditNoteForRefund` of law/refund-to-credit-note.
 */
export function creditNoteForRefund(
  orderInput: WooOrderInput,
  refundInput: WooRefundInput,
  invoiceNumber: string,
  settingsInput?: MappingSettingsInput | MappingSettings,
  issue?: IssueOptions,
  earlierRefunds: readonly WooRefundInput[] = [],
): CreditNote {
  const order = parseWooOrder(orderInput);
  const refund = parseWooRefund(refundInput, order.id);
  const settings = settingsFrom(settingsInput);
  const earlier = earlierRefunds.map((input) => saleRefundOfWooRefund(parseWooRefund(input, order.id), order.id));
  return creditNoteForSaleRefund(saleOfWooOrder(order, settings), saleRefundOfWooRefund(refund, order.id), invoiceNumber, settings, issue, earlier);
}

/**
 * A WooCommerce order's goods as a waybill (W) or delivery note (Y).
 * @deprecated Use `saleOfWooOrder` and `waybillForSale` (law/order-to-waybill).
 */
export function waybillForOrder(orderInput: WooOrderInput, settingsInput: MappingSettingsInput | MappingSettings | undefined, now: Date): OrderWaybill {
  const order = parseWooOrder(orderInput);
  const settings = settingsFrom(settingsInput);
  return waybillForSale(saleOfWooOrder(order, settings), settings, now);
}

/**
 * Asks the registry (VIES) about a WooCommerce order's EU VAT number, if it has one.
 * @deprecated Use `saleOfWooOrder` and `checkVatNumber` (law/buyer-identity).
 */
export async function checkOrderVatNumber(orderInput: WooOrderInput, settingsInput: MappingSettingsInput | MappingSettings | undefined, registry: VatNumberRegistry): Promise<VatNumberVerdict | undefined> {
  const settings = settingsFrom(settingsInput);
  return checkSaleVatNumber(saleOfWooOrder(parseWooOrder(orderInput), settings), settings, registry);
}
