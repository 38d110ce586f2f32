import type { Shop, ShopNote } from '../shop/shop';
import type { HistoryEvent } from '../history/order-history';

/**
 * Traces of a document issued for an order before, found when neither the ledger nor the order's
 * meta remembers one (the ledger expired or Redis was lost, and our `_magnifinance*` meta was removed
 * by an admin or a plugin). Issuing then would make a second certified document for the same sale;
 * the pipeline holds the invoice for a person instead (pipeline/document-job.ts).
 *
 * Where the shop (and the connector) keep traces:
 * - the order's notes: ours ("MagniFinance: Fatura-recibo FR A/1 emitida (documento 4711).") and any
 *   other note naming a Portuguese invoicing document by its number (another plugin's "Download
 *   Fatura FT 2026/12", a person's own note);
 * - the order's story in the connector (history/order-history.ts): a document event of the invoice,
 *   kept after the ledger expires.
 */
export interface EarlierTrace {
  where: 'note' | 'history';
  /** The document's number as the trace names it (FR A/1). */
  number: string;
  /** The document's id on the service when the trace names it (our notes and story do). */
  documentId?: number;
}

/**
 * A certified document's number as it is printed: the document code (FT invoice, FR invoice-receipt,
 * FS simplified invoice, NC credit note, ND debit note), a space, the series, a slash and the
 * sequence (Portaria 195/2020 numbering: "FR A/1", "FT 2026A/37", "FS 01P2026/123").
 */
const DOCUMENT_NUMBER = /\b(?:FT|FR|FS|NC|ND) [A-Za-z0-9._-]{1,40}\/\d{1,10}\b/;
/** Our issued note's document id: "(documento 4711)" / "(document 4711)" (connector/words.ts NOTES.issued). */
const OUR_DOCUMENT_ID = /\((?:documento|document) (\d{1,12})\)/;

/** The first note (oldest first) naming a document number. */
export function traceInNotes(notes: readonly ShopNote[]): EarlierTrace | undefined {
  for (const note of [...notes].reverse()) {
    const number = DOCUMENT_NUMBER.exec(note.note)?.[0];
    if (!number) continue;
    const id = OUR_DOCUMENT_ID.exec(note.note)?.[1];
    return { where: 'note', number, ...(id ? { documentId: Number(id) } : {}) };
  }
  return undefined;
}

/**
 * Every trace the shop and the connector keep, cheapest first: the order's story (Redis, as read by
 * the caller: a story that cannot be read is an empty one), then its notes (the shop).
 */
export async function earlierDocumentTrace(shop: Shop, story: readonly HistoryEvent[], orderId: number): Promise<EarlierTrace | undefined> {
  for (const event of story) {
    if (event.kind === 'document' && event.purpose === 'invoice' && event.number) return { where: 'history', number: event.number, documentId: event.documentId };
  }
  return traceInNotes(await shop.listNotes(orderId, 'any'));
}
