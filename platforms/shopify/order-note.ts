import { z } from 'zod';

/**
 * The connector's notes on a Shopify order. Shopify keeps one free-text note per order (no history,
 * no author) and `orderUpdate` replaces it whole, so:
 * - the connector's notes live in an app-owned metafield (a JSON list: what `listNotes` reads);
 * - people see them in a block of the connector's own at the end of the order's note, under a
 *   marker line; every write reads the note, keeps everything before the marker as the merchant
 *   wrote it, and rewrites only the block (read, merge, write);
 * - the block keeps the latest entries within a bounded length, the metafield keeps them all.
 */

export const NOTE_LOG_KEY = 'magnifinance_notes';
/** The line that opens the connector's block in the order's note. */
export const NOTE_MARKER = '--- MagniFinance ---';
/** Characters the block may take in the note (Shopify's note is a plain text field of the order). */
const BLOCK_LIMIT = 2_000;

export const noteLogSchema = z.array(z.object({ id: z.number().int().positive(), note: z.string(), customer_note: z.boolean(), at: z.string() }));
export type NoteLogEntry = z.output<typeof noteLogSchema>[number];

/** The merchant's part of an order's note: everything before the connector's block. */
export function merchantNoteOf(note: string): string {
  const at = note.indexOf(NOTE_MARKER);
  return (at === -1 ? note : note.slice(0, at)).trimEnd();
}

/** The order's note with the merchant's text kept and the connector's block rewritten from `log`. */
export function mergeNote(current: string, log: readonly NoteLogEntry[]): string {
  const lines: string[] = [];
  let length = NOTE_MARKER.length;
  for (const entry of [...log].reverse()) {
    const line = entry.note.replace(/\s*\n\s*/g, ' ').trim();
    if (length + line.length + 1 > BLOCK_LIMIT) break;
    lines.unshift(line);
    length += line.length + 1;
  }
  const merchant = merchantNoteOf(current);
  const block = [NOTE_MARKER, ...lines].join('\n');
  return merchant === '' ? block : `${merchant}\n\n${block}`;
}
