/**
 * Documents issued by other invoicing systems. A shop that switches to this connector (or runs two
 * plugins by mistake) has orders that already carry a certified document: issuing a second one for
 * the same sale is the one mistake that cannot be undone quietly. Each plugin below marks such an
 * order with meta of its own; the keys come from each plugin's public source (docs/connector.md,
 * "Documents from other systems", names the sources).
 */

type MetaList = readonly { key: string; value?: unknown }[];

export interface OtherSystemKey {
  /** Who writes it, in the words a shop owner knows. */
  system: string;
  key: string;
}

/** Built in; a tenant adds its own with settings.otherSystemMetaKeys. */
export const OTHER_SYSTEM_META_KEYS: readonly OtherSystemKey[] = [
  // InvoiceXpress ("Invoicing with InvoiceXpress for WooCommerce"): the document id, per document type.
  { system: 'InvoiceXpress', key: 'hd_wc_ie_plus_invoice_id' },
  { system: 'InvoiceXpress', key: 'hd_wc_ie_plus_invoice_receipt_id' },
  { system: 'InvoiceXpress', key: 'hd_wc_ie_plus_simplified_invoice_id' },
  { system: 'InvoiceXpress', key: 'hd_wc_ie_plus_vat_moss_invoice_id' },
  // Moloni: the document id, or -1 when the owner marked the order "generated" by hand in the plugin.
  { system: 'Moloni', key: '_moloni_sent' },
  // Vendus: the issued invoice (id, number) as one serialized value.
  { system: 'Vendus', key: '_vp_invoices_data' },
];

/** A document another system has on the order: which system, the meta key and (shortened) value. */
export interface OtherSystemDocument {
  system: string;
  key: string;
  value: string;
}

/** Values that mean "no document" for these keys: empty, zero (Moloni's "not sent"), false. */
function meaningful(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '' && value.trim() !== '0';
  if (typeof value === 'number') return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function shortValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The first other system's document on the order, looking at the built-in keys and the tenant's own. */
export function otherSystemDocument(meta: MetaList, extraKeys: readonly string[]): OtherSystemDocument | undefined {
  const keys: OtherSystemKey[] = [...OTHER_SYSTEM_META_KEYS, ...extraKeys.map((key) => ({ system: key, key }))];
  for (const { system, key } of keys) {
    const entry = meta.find((m) => m.key === key && meaningful(m.value));
    if (entry) return { system, key, value: shortValue(entry.value) };
  }
  return undefined;
}
