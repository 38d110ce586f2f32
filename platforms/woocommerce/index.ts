/**
 * The WooCommerce adapter as a library (`magnifinance-woocommerce/woocommerce`): read a webhook
 * (signature over the raw body, payload schemas), turn an order or a refund into the law's neutral
 * sale, or straight into the document request.
 */
export { verifyWooSignature, type WooSignatureResult } from './signature';
export { WooOrderSchema, parseWooOrder, type WooOrder } from './order-schema';
export { saleOfWooOrder } from './order-to-sale';
export { saleRefundOfWooRefund } from './refund-to-sale-refund';
export { documentForOrder, creditNoteForRefund, waybillForOrder, checkOrderVatNumber, type WooOrderInput, type WooRefundInput } from './documents';
