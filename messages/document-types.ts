import type { Lang, PerLang } from './lang';

/**
 * The invoicing service's document types by name, once: the console's labels, the notes, the
 * alerts (the mapping's messages write the Portuguese in lower case inside a sentence).
 */
export const DOCUMENT_TYPE_NAMES: Readonly<Record<string, PerLang>> = {
  T: { pt: 'Fatura-recibo', en: 'Invoice-receipt' },
  I: { pt: 'Fatura', en: 'Invoice' },
  S: { pt: 'Fatura simplificada', en: 'Simplified invoice' },
  C: { pt: 'Nota de crédito', en: 'Credit note' },
  D: { pt: 'Nota de débito', en: 'Debit note' },
  W: { pt: 'Guia de transporte', en: 'Waybill' },
  Y: { pt: 'Guia de remessa', en: 'Delivery note' },
};

const UNKNOWN: PerLang = { pt: 'Documento', en: 'Document' };

/** "Fatura-recibo" / "Invoice-receipt" for T, ...; an unknown type as "Documento" / "Document". */
export function documentTypeLabel(lang: Lang, type: string | undefined): string {
  return (DOCUMENT_TYPE_NAMES[type ?? ''] ?? UNKNOWN)[lang];
}

/** The type inside a sentence: "fatura-recibo", "credit note". */
export function documentTypeWords(lang: Lang, type: string | undefined): string {
  return documentTypeLabel(lang, type).toLowerCase();
}
