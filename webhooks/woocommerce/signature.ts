/** @deprecated Moved to platforms/woocommerce/signature.ts; this path stays for imports of dist/webhooks/woocommerce/signature. */
export * from '../../platforms/woocommerce/signature';
