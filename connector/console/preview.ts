import { computeTotals } from '../../client/totals';
import { formatDecimal } from '../../client/money';
import { OrderMappingError, type MappingNote } from '../../law/mapping-errors';
import type { MappingMessage } from '../../law/mapping-messages';
import { platformOf } from '../../platforms/registry';
import { composeIssueRequest, type RegimeCounts } from '../pipeline/document-requests';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import type { LedgerEntry } from '../core/ledger';

/** What the console shows before a person confirms a certified document. */
export interface DocumentPreview {
  orderId: number;
  /** invoice, or cancellation (the whole invoice credited). */
  purpose: 'invoice' | 'cancellation';
  /** The document type code (FR, FT... as the service's letter: T, I, S, C). */
  type?: string;
  /** The buyer as the document carries it: the company (LegalName) when there is one, else the person; `contact` the person beside a company. */
  buyer?: { name: string; contact?: string; nif: string; country: string };
  lines: { description: string; quantity: string; unitPrice: string; rate: string; discount: string }[];
  /** The document's exemption code (M07, M16...) when a line has 0 %. */
  exemption?: string;
  currency: string;
  /** The total as the service will compute it (2 decimals). */
  total?: string;
  /** The invoice a credit note corrects. */
  corrects?: string;
  /** The mapping's warnings (coded: mappingText words them in the reader's language). */
  warnings: MappingNote[];
  /** Why the mapping holds it (a person confirming issues it all the same), coded. */
  holds: MappingMessage[];
  hold: boolean;
  /** The mapping refuses the order as it stands (coded), or the order could not be read (`unreadable`: the reason, technical). */
  refusal?: MappingMessage;
  unreadable?: string;
}

/**
 * The document the pipeline would issue for an order now, composed by the pipeline's own
 * composeIssueRequest (the shop's facts, the ECB rate, VIES, then the mapping), dated today in the
 * shop's zone. Nothing is created, written or enqueued.
 */
export async function previewDocument(
  runtime: TenantRuntime,
  orderId: number,
  purpose: 'invoice' | 'cancellation',
  invoice: LedgerEntry | null,
  now: number = Date.now(),
  /** The ledger's counts (the year's M10 documents), as the pipeline passes them. */
  counts?: RegimeCounts,
): Promise<DocumentPreview> {
  const base: DocumentPreview = { orderId, purpose, lines: [], currency: 'EUR', warnings: [], holds: [], hold: false };
  try {
    const sale = platformOf(runtime.config).saleOf(await runtime.shop.getOrder(orderId), runtime.mapping, runtime.config);
    base.currency = sale.currency.toUpperCase();
    const built = await composeIssueRequest(runtime, sale, { kind: purpose }, invoice, now, counts);
    if (purpose === 'cancellation') base.corrects = invoice?.documentNumber;
    if (built.kind !== 'document') throw new Error('the mapping answered a waybill');
    const { Client: client, Document: doc } = built.request;
    // A hold is also a warning note: shown once, under the hold.
    const holds = new Set((built.hold ? (built.holds ?? []) : []).map(keyOf));
    return {
      ...base,
      type: doc.Type,
      buyer: { name: client.LegalName || client.Name || '', contact: client.LegalName ? client.Name : undefined, nif: client.NIF ?? '', country: client.CountryCode ?? '' },
      lines: doc.Lines.map((line) => ({
        description: String(line.Description ?? ''),
        quantity: String(line.Quantity),
        unitPrice: String(line.UnitPrice),
        rate: String(line.TaxValue),
        discount: String(line.ProductDiscount ?? 0),
      })),
      exemption: doc.TaxExemptionReasonCode ?? undefined,
      total: formatDecimal(computeTotals(doc.Lines).amount, 2),
      warnings: built.notes.filter((note) => note.level !== 'info' && !holds.has(keyOf(note))),
      holds: built.hold ? (built.holds ?? []) : [],
      hold: built.hold,
    };
  } catch (error) {
    if (error instanceof OrderMappingError) return { ...base, refusal: error.detail };
    return { ...base, unreadable: (error as Error).message };
  }
}

function keyOf(message: MappingMessage): string {
  return `${message.code} ${JSON.stringify(message.params)}`;
}
