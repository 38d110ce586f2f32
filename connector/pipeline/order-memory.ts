import type { Ledger, LedgerEntry, LedgerFields, LedgerRef } from '../core/ledger';
import { hasWrittenBack, issuingMarker, META, metaKeyForPurpose, metaValue } from '../shop/order-meta';

type MetaList = readonly { key: string; value?: unknown }[];

/**
 * The order's own memory of its documents: the meta this connector wrote back. When the ledger of a
 * purpose is gone (expired after retention.finishedLedgerDays, or Redis lost), the entry is rebuilt
 * from it: a late delivery of an old order then issues nothing, and a late refund still finds the
 * invoice number it must credit. Returns null when the order carries no document for the purpose.
 */
export async function restoreFromOrder(ledger: Ledger, ref: LedgerRef, meta: MetaList, now: number): Promise<LedgerEntry | null> {
  if (!hasWrittenBack(meta, ref.purpose)) return null;
  const fields: LedgerFields = { state: 'written-back', writtenBackAt: now, detail: 'restored from the meta on the order (its ledger had expired or was lost)' };
  const document =
    ref.purpose === 'invoice'
      ? { documentId: metaValue(meta, META.documentId), number: metaValue(meta, META.documentNumber), type: metaValue(meta, META.documentType) }
      : (metaValue(meta, metaKeyForPurpose(ref.purpose)) as { documentId?: unknown; number?: unknown; type?: unknown } | undefined);
  const documentId = Number(document?.documentId);
  if (Number.isInteger(documentId) && documentId > 0) fields.documentId = documentId;
  if (typeof document?.number === 'string' && document.number) fields.documentNumber = document.number;
  if (typeof document?.type === 'string' && document.type) fields.documentType = document.type;
  await ledger.record(ref, fields, now);
  return ledger.get(ref);
}

/**
 * The order's issuing marker, when its ledger is gone: the close of that draft (or the waybill's
 * create) may have happened. The entry is rebuilt at that step, so the run closes the same draft by
 * id (DocumentIsClosed when it was) instead of saving a new one: one document whatever the buyer's
 * data became meanwhile. Returns null when the order carries no marker for the purpose.
 */
export async function restoreIssuingFromOrder(ledger: Ledger, ref: LedgerRef, meta: MetaList, now: number): Promise<LedgerEntry | null> {
  const marker = issuingMarker(meta, ref.purpose);
  if (!marker) return null;
  const detail = 'restored from the issuing marker on the order (its ledger had expired or was lost)';
  const fields: LedgerFields =
    marker.documentId !== undefined
      ? { state: 'draft', documentId: marker.documentId, draftAttempt: marker.attempt ?? 1, closingAt: marker.at, externalId: marker.externalId, documentType: marker.documentType, detail }
      : { state: 'creating', externalId: marker.externalId, documentType: marker.documentType, clientKey: marker.clientKey, creatingAt: marker.at, closingAt: marker.at, detail };
  await ledger.record(ref, fields, now);
  return ledger.get(ref);
}
