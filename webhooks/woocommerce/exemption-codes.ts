/** @deprecated Moved to law/exemption-codes.ts; this path stays for imports of dist/webhooks/woocommerce/exemption-codes. */
export * from '../../law/exemption-codes';
