import { buyerRecord, metaValue } from '../shop/order-meta';

type MetaList = readonly { key: string; value?: unknown }[];

/*
 * The free half of the buyer check (pipeline/buyer-change.ts reviews): what the webhook route and
 * the sweep read from our meta on the order. No platform here: the route's modules load it.
 */

/** A tax number as compared: without spaces, dots and dashes, upper case, without a country prefix (PT, DE...). */
export function comparableNif(value: string): string {
  const text = value.replace(/[\s.-]/g, '').toUpperCase();
  return /^[A-Z]{2}\d/.test(text) ? text.slice(2) : text;
}

/** The order's NIF under the keys the record names: the first non-empty, as the mapping reads it. */
function nifUnderKeys(meta: MetaList, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = metaValue(meta, key);
    if ((typeof value === 'string' || typeof value === 'number') && String(value).trim() !== '') return String(value).trim();
  }
  return undefined;
}

/**
 * Whether an update of an invoiced order may name another buyer than its invoice, judged from our
 * meta on the order for free (the webhook route and the sweep): its NIF under the recorded keys is
 * neither the invoice's nor the one a person was already told about. The review job decides.
 */
export function buyerCallsForReview(meta: MetaList): boolean {
  const record = buyerRecord(meta);
  if (!record) return false;
  const now = nifUnderKeys(meta, record.keys);
  if (now === undefined) return false;
  const seen = comparableNif(now);
  return seen !== comparableNif(record.nif) && seen !== record.told;
}

