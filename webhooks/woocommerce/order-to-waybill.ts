/** @deprecated Moved to law/order-to-waybill.ts (over a neutral sale) and platforms/woocommerce/documents.ts (over a WooCommerce order); this path stays for imports of dist/webhooks/woocommerce/order-to-waybill. */
export * from '../../law/order-to-waybill';
export { waybillForOrder } from '../../platforms/woocommerce/documents';
