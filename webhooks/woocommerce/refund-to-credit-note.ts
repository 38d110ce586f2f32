/** @deprecated Moved to law/refund-to-credit-note.ts (over a neutral sale) and platforms/woocommerce/documents.ts (over a WooCommerce order); this path stays for imports of dist/webhooks/woocommerce/refund-to-credit-note. */
export * from '../../law/refund-to-credit-note';
export { creditNoteForRefund, type WooRefundInput } from '../../platforms/woocommerce/documents';
