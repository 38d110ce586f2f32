import type { IDataObject } from 'n8n-workflow';

import { META, metaKeyForPurpose } from '../../../connector/shop/order-meta';
import type { OrderMeta } from './woo-rest';

/** A document as the order records it: its number, and its id when the record names it. */
export interface RecordedDocument {
  documentId: number | null;
  documentNumber: string;
}

/**
 * One kind of document the order record keeps on the order: the claim's purpose (its meta key is
 * `_magnifinance_claim_<claim>_<run>`), where the number is written once known, and how it is read
 * back. The keys are the connector's (connector/shop/order-meta.ts), so either tool sees the other's
 * documents on the same order.
 */
export interface OrderRecordPurpose {
  claim: string;
  /** Where the number is written, as a person reads it in a message. */
  keys: string;
  recorded(meta: readonly OrderMeta[]): RecordedDocument | undefined;
  writeBack(document: { documentId: number; documentNumber: string; type: string | undefined }): { key: string; value: string | IDataObject }[];
}

function metaOf(meta: readonly OrderMeta[], key: string): unknown {
  return meta.find((entry) => entry.key === key)?.value;
}

function positiveId(value: unknown): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export const INVOICE_RECORD: OrderRecordPurpose = {
  claim: 'invoice',
  keys: `${META.documentId} and ${META.documentNumber}`,
  recorded(meta) {
    const number = metaOf(meta, META.documentNumber);
    if (typeof number !== 'string' || number.trim() === '') return undefined;
    return { documentId: positiveId(metaOf(meta, META.documentId)), documentNumber: number };
  },
  writeBack({ documentId, documentNumber, type }) {
    return [
      { key: META.documentId, value: String(documentId) },
      { key: META.documentNumber, value: documentNumber },
      ...(type ? [{ key: META.documentType, value: type }] : []),
      { key: META.documentState, value: 'closed' },
    ];
  },
};

/**
 * A document kept under one meta key as `{ number, documentId, type }` (the connector's waybill and
 * credit-note records). A plain number written there by hand counts too (its id unknown).
 */
function keyedRecord(claim: string, key: string): OrderRecordPurpose {
  return {
    claim,
    keys: key,
    recorded(meta) {
      let value = metaOf(meta, key);
      if (typeof value === 'string' && value.trim().startsWith('{')) {
        try {
          value = JSON.parse(value) as unknown;
        } catch {
          // a number written by hand that happens to start with a brace: kept as text
        }
      }
      if (typeof value === 'string') return value.trim() === '' ? undefined : { documentId: null, documentNumber: value.trim() };
      if (typeof value !== 'object' || value === null) return undefined;
      const record = value as { number?: unknown; documentId?: unknown };
      if (typeof record.number !== 'string' || record.number.trim() === '') return undefined;
      return { documentId: positiveId(record.documentId), documentNumber: record.number };
    },
    writeBack({ documentId, documentNumber, type }) {
      return [{ key, value: { number: documentNumber, documentId: String(documentId), ...(type ? { type } : {}) } }];
    },
  };
}

export const WAYBILL_RECORD: OrderRecordPurpose = keyedRecord('waybill', META.waybill);

/** The credit note of one refund (the connector's purpose `credit-note-<refund id>`). */
export function creditNoteRecord(refundId: number): OrderRecordPurpose {
  return keyedRecord(`creditnote-${refundId}`, metaKeyForPurpose(`credit-note-${refundId}`));
}
