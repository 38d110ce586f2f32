import { abs, add, formatDecimal, isZero, parseDecimal, subtract, sum, type Decimal } from '../../client/money';
import { stateRules, type LedgerEntry } from '../core/ledger';
import { META, metaValue } from '../shop/order-meta';

/**
 * Does an invoiced order still agree with the documents this connector issued for it? One rule,
 * fed two ways: from the ledger (the review job, authoritative) and from our meta on the order (the
 * webhook route and the sweep, free: they decide whether a review is worth a job).
 */

/** What a coverage check needs of the order as the shop has it. */
export interface CoverageOrder {
  status: string;
  total: string;
  /** Refund summaries: id and total ("-5.00"); the total may be absent in a trimmed payload. */
  refunds: readonly { id: number; total?: string }[];
}

/** A document as far as coverage goes: what it covers in the shop's money (positive, 2 decimals). */
export type CoveringDocument =
  | { kind: 'invoice'; number: string; amount: string }
  /** A credit note for a refund (refundId) or for the cancellation (no refundId). */
  | { kind: 'credit'; number: string; amount: string; refundId?: number; purpose: string }
  /** The invoice itself was cancelled on the service (onCancelled: cancel). */
  | { kind: 'invoice-cancelled' };

/** A credit note whose refund is no longer on the order (deleted in WooCommerce after it was issued). */
export interface OrphanCreditNote {
  purpose: string;
  refundId: number;
  number: string;
  amount: string;
}

export interface CoverageVerdict {
  /** Refunds on the order without their credit note yet: the pipeline is on them, no verdict on totals. */
  pending: boolean;
  /** The shop's amount net of refunds ("0.00" for a cancelled order) and what the documents cover. */
  shopNet: string;
  covered: string;
  /** shopNet - covered: positive when the order grew after its documents, negative when it shrank. */
  difference: string;
  orphans: OrphanCreditNote[];
}

/**
 * The invoice, less its credit notes, against the order's total less its refunds. Credit notes
 * whose refund is gone are reported apart and left out of the sums, so one deleted refund is one
 * problem, not two. Undefined when there is nothing to judge (no invoice, or a refund's total unknown).
 */
export function coverageOf(order: CoverageOrder, documents: readonly CoveringDocument[]): CoverageVerdict | undefined {
  const invoice = documents.find((d) => d.kind === 'invoice');
  if (invoice?.kind !== 'invoice') return undefined;
  if (order.refunds.some((r) => r.total === undefined)) return undefined;
  const refundIds = new Set(order.refunds.map((r) => r.id));
  const orphans: OrphanCreditNote[] = [];
  const credited: Decimal[] = [];
  const creditedRefunds = new Set<number>();
  for (const doc of documents) {
    if (doc.kind === 'invoice-cancelled') credited.push(parseDecimal(invoice.amount));
    if (doc.kind !== 'credit') continue;
    if (doc.refundId !== undefined && !refundIds.has(doc.refundId)) {
      orphans.push({ purpose: doc.purpose, refundId: doc.refundId, number: doc.number, amount: doc.amount });
      continue;
    }
    if (doc.refundId !== undefined) creditedRefunds.add(doc.refundId);
    credited.push(parseDecimal(doc.amount));
  }
  const refunded = sum(order.refunds.map((r) => abs(parseDecimal(r.total ?? '0'))));
  // A cancelled order owes nothing, whatever its total says.
  const shopNet = order.status === 'cancelled' ? parseDecimal('0') : subtract(parseDecimal(order.total), refunded);
  const covered = subtract(parseDecimal(invoice.amount), sum(credited));
  return {
    pending: order.refunds.some((r) => !creditedRefunds.has(r.id)),
    shopNet: formatDecimal(shopNet, 2),
    covered: formatDecimal(covered, 2),
    difference: formatDecimal(subtract(shopNet, covered), 2),
    orphans,
  };
}

/** True when the order and its documents disagree on the amount (judged only with no refund pending). */
export function coverageDiffers(verdict: CoverageVerdict): boolean {
  return !verdict.pending && !isZero(parseDecimal(verdict.difference));
}

/** What a document covers in the shop's money: its total plus the rounding difference recorded at issue. */
export function coveredAmountOf(entry: Pick<LedgerEntry, 'total' | 'totalDifference'>): string | undefined {
  if (entry.total === undefined) return undefined;
  return formatDecimal(add(abs(parseDecimal(entry.total)), parseDecimal(entry.totalDifference ?? '0')), 2);
}

const CREDIT_NOTE = 'credit-note-';

/** The documents the ledger knows (undefined when one's amount is unknown, e.g. restored from the order's meta). */
export function documentsFromLedger(entries: Readonly<Record<string, LedgerEntry>>): CoveringDocument[] | undefined {
  const documents: CoveringDocument[] = [];
  for (const [purpose, entry] of Object.entries(entries)) {
    if (entry.documentId === undefined) continue;
    if (purpose === 'cancellation' && entry.state === 'cancelled') {
      documents.push({ kind: 'invoice-cancelled' });
      continue;
    }
    const isInvoice = purpose === 'invoice';
    if ((!isInvoice && !purpose.startsWith(CREDIT_NOTE) && purpose !== 'cancellation') || stateRules(entry.state).document !== 'numbered') continue;
    const amount = coveredAmountOf(entry);
    if (amount === undefined) return undefined;
    const number = entry.documentNumber ?? `document ${entry.documentId}`;
    if (isInvoice) documents.push({ kind: 'invoice', number, amount });
    else documents.push({ kind: 'credit', number, amount, purpose, refundId: purpose === 'cancellation' ? undefined : Number(purpose.slice(CREDIT_NOTE.length)) });
  }
  return documents;
}

type MetaList = readonly { key: string; value?: unknown }[];

function metaObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The documents our meta on the order shows (written back with their amounts since this version);
 * undefined when a document's amount is not there (written back by an older version).
 */
export function documentsFromMeta(meta: MetaList): CoveringDocument[] | undefined {
  const number = metaValue(meta, META.documentNumber);
  if (typeof number !== 'string' || number === '') return [];
  const invoiceAmount = metaValue(meta, META.coveredTotal);
  if (typeof invoiceAmount !== 'string') return undefined;
  const documents: CoveringDocument[] = [{ kind: 'invoice', number, amount: invoiceAmount }];
  for (const entry of meta) {
    const isCredit = entry.key.startsWith(META.creditNotePrefix);
    if (!isCredit && entry.key !== META.cancellation) continue;
    const value = metaObject(entry.value);
    if (!value) continue;
    if (value.action === 'cancel') {
      documents.push({ kind: 'invoice-cancelled' });
      continue;
    }
    if (typeof value.amount !== 'string') return undefined;
    const refundId = isCredit ? Number(entry.key.slice(META.creditNotePrefix.length)) : undefined;
    documents.push({ kind: 'credit', number: String(value.number ?? ''), amount: value.amount, refundId, purpose: refundId === undefined ? 'cancellation' : `${CREDIT_NOTE}${refundId}` });
  }
  return documents;
}

/**
 * Whether an update of an invoiced order is worth a review job, from the payload alone: a credit
 * note whose refund is gone, or an amount our documents do not cover. Our own write-back echo
 * agrees with its documents, so it stays free.
 */
export function payloadCallsForReview(order: CoverageOrder & { attributes: MetaList }): boolean {
  const documents = documentsFromMeta(order.attributes);
  if (!documents) return false;
  const verdict = coverageOf(order, documents);
  return verdict !== undefined && (verdict.orphans.length > 0 || coverageDiffers(verdict));
}
