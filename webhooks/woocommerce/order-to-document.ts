/** @deprecated Moved to law/order-to-document.ts (over a neutral sale) and platforms/woocommerce/documents.ts (over a WooCommerce order); this path stays for imports of dist/webhooks/woocommerce/order-to-document. */
export * from '../../law/order-to-document';
export { documentForOrder, type WooOrderInput } from '../../platforms/woocommerce/documents';
