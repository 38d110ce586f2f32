/** @deprecated Moved to law/line-type.ts; this path stays for imports of dist/webhooks/woocommerce/line-type. */
export * from '../../law/line-type';
