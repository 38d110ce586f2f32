/** @deprecated Moved to law/refund-to-credit-note.ts; this path stays for imports of dist/webhooks/woocommerce/refund-to-credit-note. */
export * from '../../law/refund-to-credit-note';
