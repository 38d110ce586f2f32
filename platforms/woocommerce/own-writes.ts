import { OUR_META_PREFIX } from '../../connector/shop/order-meta';

/** What a write of ours changes on a WooCommerce order beside its meta: the modification dates, and the links. */
const CHANGED_BY_OUR_WRITES = new Set(['date_modified', 'date_modified_gmt', '_links']);

/**
 * The order's top level without what our writes change (our meta entries, the modification dates,
 * the links): a shallow copy, so the 6 KB below it is serialized by JSON.stringify's native path (a
 * replacer function is called for every key of every line, and cost more than the hash). The text is
 * the same as a replacer leaving those keys out; markers on real orders carry its digest, so it
 * stays byte for byte (test/platforms/woocommerce/order-digest.test.ts).
 */
export function wooOrderWithoutOurWrites(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (CHANGED_BY_OUR_WRITES.has(key)) continue;
    copy[key] = key === 'meta_data' && Array.isArray(value) ? value.filter((entry: { key?: unknown }) => typeof entry?.key !== 'string' || !entry.key.startsWith(OUR_META_PREFIX)) : value;
  }
  return copy;
}
