/**
 * The Portuguese invoicing law as a library (`magnifinance-woocommerce/law`): a neutral sale (and
 * refund) in, the service's document request out, with the holds and notes a person reads. Pure: no
 * I/O. A shop platform turns its orders into a `Sale` (the WooCommerce one: `magnifinance-woocommerce/woocommerce`).
 */
export { documentForSale, type OrderDocument } from './order-to-document';
export { creditNoteForRefund, type CreditNote } from './refund-to-credit-note';
export { waybillForSale, type OrderWaybill } from './order-to-waybill';
export { MappingSettingsSchema, parseMappingSettings, type MappingSettings, type MappingSettingsInput } from './mapping-settings';
export { OrderMappingError, type MappingNote } from './mapping-errors';
export { mappingText, MappingMessageSchema, type MappingMessage, type MappingCode, type Lang } from './mapping-messages';
export type * from './sale';
