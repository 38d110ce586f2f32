/**
 * Documents issued by other invoicing systems. A shop that switches to this connector (or runs two
 * plugins by mistake) has orders that already carry a certified document: issuing a second one for
 * the same sale is the one mistake that cannot be undone quietly. Each plugin below marks such an
 * order with meta of its own; the keys come from each plugin's current public source (docs/connector.md,
 * "Documents from other systems", names the file and what each plugin writes there).
 */

type MetaList = readonly { key: string; value?: unknown }[];

export interface OtherSystemKey {
  /** Who writes it, in the words a shop owner knows. */
  system: string;
  key: string;
  /** Another meta key of the same plugin holding the document's number, when it keeps one apart. */
  numberKey?: string;
}

/** Built in; a tenant adds its own with settings.otherSystemMetaKeys. */
export const OTHER_SYSTEM_META_KEYS: readonly OtherSystemKey[] = [
  // InvoiceXpress ("Invoicing with InvoiceXpress for WooCommerce", woo-billing-with-invoicexpress):
  // hd_wc_ie_plus_<type>_id is the document id, per invoicing type; its number is in <type>_sequence_number.
  ...['invoice', 'invoice_receipt', 'simplified_invoice', 'vat_moss_invoice'].map((type) => ({
    system: 'InvoiceXpress',
    key: `hd_wc_ie_plus_${type}_id`,
    numberKey: `hd_wc_ie_plus_${type}_sequence_number`,
  })),
  // Moloni On (Moloni-ORG/woocommerce-on, the current plugin) and Moloni (moloni-pt/woocommerce):
  // the document id, or -1 when the owner discarded the order in the plugin.
  { system: 'Moloni On', key: '_molonion_sent' },
  { system: 'Moloni', key: '_moloni_sent' },
  // Vendus (vendus/plugin-woocommerce): the issued invoice (id, number, its credit note) as one value;
  // _vp_invoices_data is the same record as the plugin wrote it until May 2022.
  { system: 'Vendus', key: '_vendus_plugin_invoices_data' },
  { system: 'Vendus', key: '_vp_invoices_data' },
];

/** A document another system has on the order: which system, the meta key and the document as a person reads it. */
export interface OtherSystemDocument {
  system: string;
  key: string;
  /** The document's number when the plugin keeps it, else its id, else the value shortened. */
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

function shortened(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * A meta value as a person reads it. WooCommerce's REST API answers a stored PHP array as JSON; a value
 * serialized twice (or read raw) is still PHP-serialized text. Either way a record's `number` (Vendus's
 * "FT 01P2026/12") is shown, else its `id`; anything else is shortened.
 */
export function readableValue(value: unknown): string {
  const record = typeof value === 'string' ? (unserializePhp(value.trim()) ?? value) : value;
  if (record !== null && typeof record === 'object' && !Array.isArray(record)) {
    const fields = record as Record<string, unknown>;
    for (const name of ['number', 'full_number', 'document_number', 'id']) {
      const field = fields[name];
      if ((typeof field === 'string' && field.trim() !== '') || typeof field === 'number') return shortened(String(field).trim());
    }
  }
  return shortened(typeof record === 'string' ? record : JSON.stringify(record));
}

/** The first other system's document on the order, looking at the built-in keys and the tenant's own. */
export function otherSystemDocument(meta: MetaList, extraKeys: readonly string[]): OtherSystemDocument | undefined {
  const keys: OtherSystemKey[] = [...OTHER_SYSTEM_META_KEYS, ...extraKeys.map((key) => ({ system: key, key }))];
  for (const { system, key, numberKey } of keys) {
    const entry = meta.find((m) => m.key === key && meaningful(m.value));
    if (!entry) continue;
    const number = numberKey ? meta.find((m) => m.key === numberKey && meaningful(m.value)) : undefined;
    return { system, key, value: readableValue(number?.value ?? entry.value) };
  }
  return undefined;
}

type PhpValue = string | number | boolean | null | { [key: string]: PhpValue };

/**
 * PHP's serialize() format, read without executing anything: scalars, arrays (as records keyed by
 * their keys); objects are read as their properties. Lengths of strings are in UTF-8 bytes, as PHP
 * counts them. Undefined when the text is not a whole serialized value.
 */
export function unserializePhp(text: string): PhpValue | undefined {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  const expect = (char: string): void => {
    if (bytes[at] !== char.charCodeAt(0)) throw new Error('not serialized');
    at += 1;
  };
  const until = (char: string): string => {
    const end = bytes.indexOf(char.charCodeAt(0), at);
    if (end < 0) throw new Error('not serialized');
    const part = bytes.subarray(at, end).toString('utf8');
    at = end + 1;
    return part;
  };
  const read = (depth: number): PhpValue => {
    if (depth > 32) throw new Error('too deep');
    const type = String.fromCharCode(bytes[at] ?? 0);
    at += 1;
    if (type === 'N') {
      expect(';');
      return null;
    }
    expect(':');
    if (type === 'b') return until(';') === '1';
    if (type === 'i' || type === 'd') {
      const number = Number(until(';'));
      if (!Number.isFinite(number)) throw new Error('not a number');
      return number;
    }
    if (type === 's') {
      const length = Number(until(':'));
      if (!Number.isInteger(length) || length < 0 || at + length + 1 > bytes.length) throw new Error('bad string');
      expect('"');
      const value = bytes.subarray(at, at + length).toString('utf8');
      at += length;
      expect('"');
      expect(';');
      return value;
    }
    if (type === 'a' || type === 'O') {
      if (type === 'O') {
        until(':');
        until(':');
      }
      const count = Number(until(':'));
      if (!Number.isInteger(count) || count < 0) throw new Error('bad count');
      expect('{');
      const record: { [key: string]: PhpValue } = {};
      for (let i = 0; i < count; i += 1) {
        const key = read(depth + 1);
        if (typeof key !== 'string' && typeof key !== 'number') throw new Error('bad key');
        record[String(key)] = read(depth + 1);
      }
      expect('}');
      return record;
    }
    throw new Error('unknown type');
  };
  if (!/^[abdiNOs][:;]/.test(text)) return undefined;
  try {
    const value = read(0);
    return at === bytes.length ? value : undefined;
  } catch {
    return undefined;
  }
}
