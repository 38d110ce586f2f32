/** @deprecated Moved to law/text.ts; this path stays for imports of dist/webhooks/woocommerce/text. */
export * from '../../law/text';
