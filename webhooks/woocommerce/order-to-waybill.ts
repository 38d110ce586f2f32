/** @deprecated Moved to law/order-to-waybill.ts; this path stays for imports of dist/webhooks/woocommerce/order-to-waybill. */
export * from '../../law/order-to-waybill';
