import { OUR_META_PREFIX } from '../../connector/shop/order-meta';

/**
 * The order's top level without what our writes change (our meta entries, the modification dates
 * `date_modified` and `date_modified_gmt`, the links `_links`): a shallow copy, so the 6 KB below it
 * is serialized by JSON.stringify's native path (a replacer function is called for every key of
 * every line, and cost more than the hash). The text is the same as a replacer leaving those keys
 * out; markers on real orders carry its digest, so it stays byte for byte
 * (test/platforms/woocommerce/order-digest.test.ts). The copy is made by object rest (the order's
 * keys in its order, one fast object of ~2 KB); adding each key in turn made a dictionary of ~6 KB
 * and a list of entries, on each of an order's three digests (issue 29).
 */
export function wooOrderWithoutOurWrites(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const { date_modified: _modified, date_modified_gmt: _modifiedGmt, _links: _links, ...copy } = raw as Record<string, unknown>;
  const meta = copy.meta_data;
  if (Array.isArray(meta)) copy.meta_data = meta.filter((entry: { key?: unknown }) => typeof entry?.key !== 'string' || !entry.key.startsWith(OUR_META_PREFIX));
  return copy;
}
