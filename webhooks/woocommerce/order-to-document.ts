/** @deprecated Moved to law/order-to-document.ts; this path stays for imports of dist/webhooks/woocommerce/order-to-document. */
export * from '../../law/order-to-document';
