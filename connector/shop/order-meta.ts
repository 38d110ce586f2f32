type MetaList = readonly { key: string; value?: unknown }[];

/**
 * Meta keys the connector writes on orders. The leading underscore keeps them out of the order's
 * "Custom fields" box; the order note carries the same facts for people.
 */
export const META = {
  documentId: '_magnifinance_document_id',
  documentNumber: '_magnifinance_document_number',
  /** What the invoice covers in the shop's money (its total plus a recorded rounding difference): an update that differs calls for a review. */
  coveredTotal: '_magnifinance_covered_total',
  documentType: '_magnifinance_document_type',
  documentState: '_magnifinance_document_state',
  pdfUrl: '_magnifinance_pdf_url',
  waybill: '_magnifinance_waybill',
  creditNotePrefix: '_magnifinance_credit_note_',
  cancellation: '_magnifinance_cancellation',
} as const;

export function metaValue(meta: MetaList, key: string): unknown {
  return meta.find((entry) => entry.key === key)?.value;
}

/** The meta key that proves a document of this purpose is already on the order (written back). */
export function metaKeyForPurpose(purpose: string): string {
  if (purpose === 'invoice') return META.documentNumber;
  if (purpose === 'waybill') return META.waybill;
  if (purpose === 'cancellation') return META.cancellation;
  return `${META.creditNotePrefix}${purpose.slice('credit-note-'.length)}`;
}

export function hasWrittenBack(meta: MetaList, purpose: string): boolean {
  const value = metaValue(meta, metaKeyForPurpose(purpose));
  return value !== undefined && value !== '' && value !== null;
}
