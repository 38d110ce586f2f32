/** @deprecated Moved to law/mapping-errors.ts; this path stays for imports of dist/webhooks/woocommerce/mapping-errors. */
export * from '../../law/mapping-errors';
