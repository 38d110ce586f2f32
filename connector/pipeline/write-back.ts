import type { Logger } from 'pino';
import type { DocumentJobData } from '../core/jobs';
import type { Ledger, LedgerEntry, LedgerFields, LedgerRef } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import type { PdfLinkSigner } from '../pdf/pdf-link';
import { buyerRecordFor, META, metaKeyForPurpose } from '../shop/order-meta';
import type { MetaUpdate } from '../shop/shop';
import { stripUnsafe } from '../../law/text';
import { NOTES, type Lang } from '../words';
import { z } from 'zod';
import { MappingMessageSchema, mappingText } from '../../law/mapping-messages';
import type { NewHistoryEvent } from '../history/order-history';
import { coveredAmountOf } from './coverage';
import type { TenantRuntime } from './tenant-runtime';

export interface WriteBackDeps {
  tenant: TenantRuntime;
  ledger: Ledger;
  links: PdfLinkSigner;
  metrics: ConnectorMetrics;
  now: () => number;
  log: Logger;
  /** The order's story: each note written is told there (the caller writes the events). */
  events?: NewHistoryEvent[];
  /** Sent with the final record, in its round trip (the caller's story of the run); must not reject. */
  alongsideFinal?: () => Promise<void>;
}

/**
 * Puts the document on the order: meta (by key), a private note, optionally a customer note. Each
 * part is recorded in the ledger once done, so a retry after a partial failure (or a worker killed
 * half-way) completes the rest without writing anything twice.
 */
export async function writeBack(deps: WriteBackDeps, ref: LedgerRef, data: DocumentJobData, entry: LedgerEntry): Promise<void> {
  const { tenant, ledger } = deps;
  const documentId = entry.documentId as number;
  const number = entry.documentNumber ?? '';
  const cancelledInPlace = entry.state === 'cancelled';
  const pdfUrl = deps.links.link(tenant.config.id, documentId, deps.now());
  const lang = tenant.config.settings.language;

  // Ledger fields for parts already done are written together with the next record that must
  // precede a call (or with the final state): a crash before they are recorded only repeats an
  // idempotent meta PUT, or a notes listing that finds the note, never a second note.
  const pending: LedgerFields = {};
  const recordWith = async (fields: LedgerFields): Promise<void> => {
    await ledger.record(ref, { ...pending, ...fields });
    for (const name of Object.keys(pending) as (keyof LedgerFields)[]) delete pending[name];
  };

  // Meta updates by key are idempotent on WooCommerce: a repeat after a crash rewrites the same values.
  if (entry.metaWrittenAt === undefined) {
    const buyer = ref.purpose === 'invoice' && entry.buyerNif ? [{ key: META.buyer, value: buyerRecordFor(entry.buyerNif, tenant.mapping.nifMetaKeys) }] : [];
    await tenant.shop.updateOrderMeta(data.orderId, [...metaFor(ref.purpose, { documentId, number, type: entry.documentType ?? '', pdfUrl, cancelledInPlace, covered: coveredAmountOf(entry) }), ...buyer]);
    deps.metrics.writebacks.inc({ outcome: 'meta' });
    pending.metaWrittenAt = deps.now();
  }

  // The head identifies the note (the link's expiry changes between attempts; the head does not).
  const head = cancelledInPlace ? NOTES.cancelledInPlace(lang, { number, documentId }) : NOTES.issued(lang, { type: entry.documentType, number, documentId });
  const [vatNumber, on] = (entry.viesConfirmed ?? '').split(' ');
  const viesConfirmed = vatNumber && on ? { vatNumber, on } : undefined;
  const text = cancelledInPlace ? head : `${head}${NOTES.issuedDetails(lang, { pdfUrl, viesConfirmed, warnings: warningsOf(lang, entry.warnings) })}`;
  if (entry.noteWrittenAt === undefined) {
    await addNoteOnce(deps, recordWith, pending, data.orderId, { purpose: ref.purpose, head, text, customer: false, sentField: 'noteSentAt', doneField: 'noteWrittenAt', sentAt: entry.noteSentAt });
  }
  if (tenant.config.settings.customerNote && !cancelledInPlace && entry.customerNoteAt === undefined) {
    const customerHead = NOTES.customer(lang, { type: entry.documentType, number });
    await addNoteOnce(deps, recordWith, pending, data.orderId, { purpose: ref.purpose, head: customerHead, text: `${customerHead} ${pdfUrl}`, customer: true, sentField: 'customerNoteSentAt', doneField: 'customerNoteAt', sentAt: entry.customerNoteSentAt });
  }
  const writtenBackAt = deps.now();
  // The final record and the console's index of recent documents in one round trip (the record first).
  await Promise.all([recordWith({ state: 'written-back', writtenBackAt }), ledger.markWrittenBack(ref, writtenBackAt), deps.alongsideFinal?.()]);
  deps.log.info({ documentNumber: number }, 'written back to the shop');
}

/**
 * Notes are not keyed on WooCommerce, so "sent" is recorded before the POST: only when a previous
 * attempt got that far (and its answer or our ledger write was lost) are the order's notes listed
 * to see whether it landed. The common path is one POST.
 */
async function addNoteOnce(
  deps: WriteBackDeps,
  recordWith: (fields: LedgerFields) => Promise<void>,
  pending: LedgerFields,
  orderId: number,
  note: { purpose: string; head: string; text: string; customer: boolean; sentField: 'noteSentAt' | 'customerNoteSentAt'; doneField: 'noteWrittenAt' | 'customerNoteAt'; sentAt: number | undefined },
): Promise<void> {
  const { tenant } = deps;
  const landed =
    note.sentAt !== undefined && (await tenant.shop.listNotes(orderId)).some((existing) => existing.customer_note === note.customer && existing.note.startsWith(stripUnsafe(note.head, 'keep-lines')));
  if (!landed) {
    // "sent" is on record before the POST, whatever else is pending goes with it.
    await recordWith({ [note.sentField]: deps.now() });
    const text = stripUnsafe(note.text, 'keep-lines');
    await tenant.shop.addNote(orderId, text, note.customer);
    deps.metrics.writebacks.inc({ outcome: note.customer ? 'customer-note' : 'note' });
    deps.events?.push({ kind: 'note', at: deps.now(), purpose: note.purpose, customer: note.customer, text: text.slice(0, 4000) });
  }
  pending[note.doneField] = deps.now();
}

function metaFor(
  purpose: string,
  doc: { documentId: number; number: string; type: string; pdfUrl: string; cancelledInPlace: boolean; covered: string | undefined },
): MetaUpdate[] {
  // What each document covers goes with it, so a later update can be compared with it for free (coverage.ts).
  const covered: Record<string, string> = doc.covered === undefined ? {} : { amount: doc.covered };
  if (purpose === 'invoice') {
    return [
      { key: META.documentId, value: String(doc.documentId) },
      { key: META.documentNumber, value: doc.number },
      { key: META.documentType, value: doc.type },
      { key: META.documentState, value: 'closed' },
      { key: META.pdfUrl, value: doc.pdfUrl },
      ...(doc.covered === undefined ? [] : [{ key: META.coveredTotal, value: doc.covered }]),
    ];
  }
  if (purpose === 'cancellation' && doc.cancelledInPlace) {
    return [
      { key: META.cancellation, value: { action: 'cancel', number: doc.number, documentId: String(doc.documentId) } },
      { key: META.documentState, value: 'cancelled' },
    ];
  }
  const value = { number: doc.number, documentId: String(doc.documentId), type: doc.type, pdfUrl: doc.pdfUrl, ...covered };
  return [{ key: metaKeyForPurpose(purpose), value: purpose === 'cancellation' ? { ...value, action: 'credit-note' } : value }];
}

const StoredWarnings = z.array(MappingMessageSchema);

/**
 * The mapping's warnings as the ledger keeps them, one sentence each in `lang`: coded (a JSON list
 * of messages), or the English "a | b" an older version recorded (shown as it was).
 */
export function warningsOf(lang: Lang, recorded: string | undefined): string[] {
  if (!recorded) return [];
  if (recorded.startsWith('[')) {
    try {
      const parsed = StoredWarnings.safeParse(JSON.parse(recorded));
      if (parsed.success) return parsed.data.map((message) => mappingText(lang, message));
    } catch {
      // not JSON: an older version's words
    }
  }
  return recorded.split(' | ');
}

/** Notes about problems are best effort: failing to post one must not hide the problem itself. */
export async function addNoteQuietly(tenant: TenantRuntime, orderId: number, text: string, log: Logger): Promise<void> {
  try {
    // Problem notes quote what the shop and the customer typed: nothing a note should not carry.
    await tenant.shop.addNote(orderId, stripUnsafe(text, 'keep-lines'), false);
  } catch (error) {
    log.warn({ err: (error as Error).message }, 'could not add a note to the order');
  }
}
