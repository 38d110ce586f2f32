/** @deprecated Moved to law/vat-rates.ts; this path stays for imports of dist/webhooks/woocommerce/vat-rates. */
export * from '../../law/vat-rates';
