/** @deprecated Moved to law/mapping-messages.ts; this path stays for imports of dist/webhooks/woocommerce/mapping-messages. */
export * from '../../law/mapping-messages';
