/** @deprecated Moved to law/mapping-settings.ts; this path stays for imports of dist/webhooks/woocommerce/mapping-settings. */
export * from '../../law/mapping-settings';
