/** @deprecated Moved to law/credit-limits.ts; this path stays for imports of dist/webhooks/woocommerce/credit-limits. */
export * from '../../law/credit-limits';
