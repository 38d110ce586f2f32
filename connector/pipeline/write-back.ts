import type { Logger } from 'pino';
import { z } from 'zod';
import { WooMetaSchema } from '../../webhooks/woocommerce/order-schema';
import type { DocumentJobData } from '../jobs';
import type { Ledger, LedgerEntry, LedgerRef } from '../ledger';
import type { ConnectorMetrics } from '../metrics';
import type { PdfLinkSigner } from '../pdf-link';
import { META, metaKeyForPurpose, metaValue } from '../shop/order-meta';
import type { MetaUpdate } from '../shop/woo-shop';
import type { TenantRuntime } from './tenant-runtime';

export interface WriteBackDeps {
  tenant: TenantRuntime;
  ledger: Ledger;
  links: PdfLinkSigner;
  metrics: ConnectorMetrics;
  now: () => number;
  log: Logger;
}

const TYPE_LABELS: Record<string, string> = {
  T: 'Invoice-receipt',
  I: 'Invoice',
  S: 'Simplified invoice',
  C: 'Credit note',
  D: 'Debit note',
  W: 'Waybill',
  Y: 'Delivery note',
};

const OrderMetaOnlySchema = z.looseObject({ meta_data: z.array(WooMetaSchema).optional().transform((m) => m ?? []) });

/**
 * Puts the document on the order: meta (by key), a private note, optionally a customer note. Each
 * part is checked against the shop and the ledger before it is written, so a retry after a partial
 * failure (or a worker killed half-way) completes the rest without writing anything twice.
 */
export async function writeBack(deps: WriteBackDeps, ref: LedgerRef, data: DocumentJobData, entry: LedgerEntry): Promise<void> {
  const { tenant, ledger } = deps;
  const documentId = entry.documentId as number;
  const number = entry.documentNumber ?? '';
  const cancelledInPlace = entry.state === 'cancelled';
  const pdfUrl = deps.links.link(tenant.config.id, documentId, deps.now());
  const label = TYPE_LABELS[entry.documentType ?? ''] ?? 'Document';

  const order = OrderMetaOnlySchema.parse(await tenant.shop.getOrder(data.orderId));
  const key = metaKeyForPurpose(ref.purpose);
  if (!metaShowsNumber(metaValue(order.meta_data, key), number, cancelledInPlace)) {
    await tenant.shop.updateOrderMeta(data.orderId, metaFor(ref.purpose, { documentId, number, type: entry.documentType ?? '', pdfUrl, cancelledInPlace }));
    deps.metrics.writebacks.inc({ outcome: 'meta' });
  }
  await ledger.record(ref, { metaWrittenAt: deps.now() });

  // The head identifies the note (the link's expiry changes between attempts; the head does not).
  const head = cancelledInPlace
    ? `MagniFinance: invoice ${number} (document ${documentId}) was cancelled because the order was cancelled.`
    : `MagniFinance: ${label} ${number} issued (document ${documentId}).`;
  const text = cancelledInPlace ? head : `${head} PDF: ${pdfUrl}`;
  if (entry.noteWrittenAt === undefined) {
    const notes = await tenant.shop.listNotes(data.orderId);
    // The ledger write after a note can be lost (worker killed): the shop's own notes decide.
    if (!notes.some((note) => !note.customer_note && note.note.startsWith(head))) {
      await tenant.shop.addNote(data.orderId, text, false);
      deps.metrics.writebacks.inc({ outcome: 'note' });
    }
    await ledger.record(ref, { noteWrittenAt: deps.now() });
  }
  if (tenant.config.settings.customerNote && !cancelledInPlace && entry.customerNoteAt === undefined) {
    const notes = await tenant.shop.listNotes(data.orderId);
    if (!notes.some((note) => note.customer_note && note.note.includes(number))) {
      await tenant.shop.addNote(data.orderId, `Your ${label.toLowerCase()} ${number}: ${pdfUrl}`, true);
      deps.metrics.writebacks.inc({ outcome: 'customer-note' });
    }
    await ledger.record(ref, { customerNoteAt: deps.now() });
  }
  await ledger.record(ref, { state: 'written-back', writtenBackAt: deps.now() });
  deps.log.info({ documentNumber: number }, 'written back to the shop');
}

function metaShowsNumber(value: unknown, number: string, cancelled: boolean): boolean {
  if (typeof value === 'string') return value === number;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return record.number === number && (!cancelled || record.action === 'cancel');
  }
  return false;
}

function metaFor(
  purpose: string,
  doc: { documentId: number; number: string; type: string; pdfUrl: string; cancelledInPlace: boolean },
): MetaUpdate[] {
  if (purpose === 'invoice') {
    return [
      { key: META.documentId, value: String(doc.documentId) },
      { key: META.documentNumber, value: doc.number },
      { key: META.documentType, value: doc.type },
      { key: META.documentState, value: 'closed' },
      { key: META.pdfUrl, value: doc.pdfUrl },
    ];
  }
  if (purpose === 'cancellation' && doc.cancelledInPlace) {
    return [
      { key: META.cancellation, value: { action: 'cancel', number: doc.number, documentId: String(doc.documentId) } },
      { key: META.documentState, value: 'cancelled' },
    ];
  }
  const value = { number: doc.number, documentId: String(doc.documentId), type: doc.type, pdfUrl: doc.pdfUrl };
  return [{ key: metaKeyForPurpose(purpose), value: purpose === 'cancellation' ? { ...value, action: 'credit-note' } : value }];
}

/** Notes about problems are best effort: failing to post one must not hide the problem itself. */
export async function addNoteQuietly(tenant: TenantRuntime, orderId: number, text: string, log: Logger): Promise<void> {
  try {
    await tenant.shop.addNote(orderId, text, false);
  } catch (error) {
    log.warn({ err: (error as Error).message }, 'could not add a note to the order');
  }
}
