import { hash } from 'node:crypto';
import { z } from 'zod';

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
  /** `_magnifinance_issuing_<purpose>`: the document being closed (see IssuingMarker). */
  issuingPrefix: '_magnifinance_issuing_',
  /** The invoice's buyer as issued, and where the order holds the buyer's NIF (see BuyerRecord). */
  buyer: '_magnifinance_buyer',
} as const;

/**
 * What the order keeps of its invoice's buyer (written with the invoice's number): the tax number the
 * invoice carries, the meta keys the order's NIF is read from (the tenant's nifMetaKeys at the time),
 * and the order's buyer a person was last told differs (`told`). An update whose NIF under those keys
 * differs from both calls for a review, for free (pipeline/buyer-change.ts); the ledger may be gone.
 */
export const BuyerRecordSchema = z.object({
  nif: z.string(),
  keys: z.array(z.string()).default([]),
  told: z.string().optional(),
});
export type BuyerRecord = z.infer<typeof BuyerRecordSchema>;

/** The record as written on the order: JSON text (a meta value holds no list). */
export function buyerRecordFor(nif: string, keys: readonly string[], told?: string): string {
  const record: BuyerRecord = { nif, keys: [...keys], ...(told ? { told } : {}) };
  return JSON.stringify(record);
}

export function buyerRecord(meta: MetaList): BuyerRecord | null {
  const value = metaValue(meta, META.buyer);
  // Absent on every order invoiced without a NIF: answered without zod's refusal, which cost more than the read (every write-back echo asks).
  if (value === undefined) return null;
  const parsed = BuyerRecordSchema.safeParse(typeof value === 'string' ? safeJson(value) : value);
  return parsed.success ? parsed.data : null;
}

/**
 * What the connector puts on the order BEFORE it closes a document (or creates a waybill): the
 * draft's id and ExternalId. The shop's database outlives Redis, so when the ledger is lost (a wipe,
 * a failover to a lagging replica, an expired entry) the next run finds the draft it may already
 * have closed and closes it by id (refused as DocumentIsClosed if it was), instead of issuing again.
 * It stays on the order after the write-back: it is the order's own record of the document.
 */
export const IssuingMarkerSchema = z.object({
  /** The draft's id (absent for a waybill: it has no draft step). */
  documentId: z.coerce.number().int().positive().optional(),
  externalId: z.string(),
  /** The draft attempt whose id this is (`<ExternalId>.d<attempt>`). */
  attempt: z.coerce.number().int().positive().optional(),
  documentType: z.string().optional(),
  /** Digest of the Client block (waybills: a changed buyer is not retried blindly). */
  clientKey: z.string().optional(),
  /** When the close (or waybill create) was first about to be sent, ms. */
  at: z.coerce.number(),
  /**
   * orderDigest() of the order the document was composed from: a delivery whose order still has
   * this digest (our own meta aside) is our marker's echo, which the route answers without a job.
   */
  orderDigest: z.string().optional(),
});
export type IssuingMarker = z.infer<typeof IssuingMarkerSchema>;

/**
 * A digest of an order as the shop's API gives it, leaving out what our own writes change: which
 * fields those are is the platform's (ShopPlatform.withoutOurWrites: WooCommerce's our meta entries,
 * modification dates and links); a platform that names none is digested whole. Two copies with the
 * same digest differ only by what this connector wrote: the worker stamps it on its issuing marker,
 * the webhook route compares it to tell our own echo from a real change (ingest/own-echo.ts). Key
 * order is the shop's (its REST answer and its webhook payload come from the same serializer); a copy
 * in another order only misses the shortcut, it never passes for the echo.
 */
export function orderDigest(raw: unknown, withoutOurWrites?: (order: unknown) => unknown): string {
  // crypto.hash: one call, no Hash object (Node 20.12+; every order is digested three times).
  return hash('sha256', JSON.stringify(withoutOurWrites ? withoutOurWrites(raw) : raw) ?? '', 'base64url').slice(0, 22);
}

/** Every meta key this connector writes starts so. */
export const OUR_META_PREFIX = '_magnifinance_';

export function issuingKeyForPurpose(purpose: string): string {
  return `${META.issuingPrefix}${purpose}`;
}

/** The order's issuing marker for a purpose, or null (absent, or not one of ours). */
export function issuingMarker(meta: MetaList, purpose: string): IssuingMarker | null {
  const value = metaValue(meta, issuingKeyForPurpose(purpose));
  // The common case (no marker) without zod's refusal: building its error cost more than the lookup.
  if (value === undefined) return null;
  const parsed = IssuingMarkerSchema.safeParse(typeof value === 'string' ? safeJson(value) : value);
  return parsed.success ? parsed.data : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

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
