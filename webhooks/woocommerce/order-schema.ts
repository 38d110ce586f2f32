/** @deprecated Moved to platforms/woocommerce/order-schema.ts; this path stays for imports of dist/webhooks/woocommerce/order-schema. */
export * from '../../platforms/woocommerce/order-schema';
