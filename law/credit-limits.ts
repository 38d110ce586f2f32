import { formatDecimal, fromCents, toCents } from '../client/money';
import type { PlannedLine } from './line-plan';
import { currencyParam, type MappingMessage } from './mapping-messages';

/**
 * A credit note never credits more than its invoice (CIVA art. 29(7): it corrects that invoice;
 * art. 78(2): the seller's regularisation is limited to the tax charged): per line (a product,
 * shipping or fee code) and per VAT rate, net of the credit notes of the same invoice's earlier
 * refunds. Anything beyond is held with the reason: issued, it would reverse VAT nobody charged.
 * The invoice is what the mapping plans from the order (donations left out); amounts compared
 * are the nets before the exact-cent balancing, on both sides.
 */

const REFUND_AMOUNT_CODE = 'REEMBOLSO';

/**
 * Holds no person may release: a credit note beyond its invoice is unlawful whoever confirms it
 * (the other holds ask for a fact a person can vouch for, e.g. that a consumer invoice is right).
 */
const BINDING_HOLDS: ReadonlySet<MappingMessage['code']> = new Set([
  'credit-over-line',
  'credit-over-rate',
  // An M10 invoice past EUR 18,750 in the year: the crossing invoice carries VAT (CIVA art. 53, DL 35/2025).
  'regime-limit-crossed',
  // VAT written where the shop's configuration says none is due is owed as written (CIVA art. 2(1)(c)).
  'taxed-under-regime',
  'taxed-despite-code',
  'voucher-sale-taxed',
]);

export function isBindingHold(hold: MappingMessage): boolean {
  return BINDING_HOLDS.has(hold.code);
}

function netsBy(lines: readonly PlannedLine[], key: (line: PlannedLine) => string | undefined): Map<string, { cents: bigint; label: string }> {
  const map = new Map<string, { cents: bigint; label: string }>();
  for (const line of lines) {
    const k = key(line);
    if (k === undefined) continue;
    const entry = map.get(k) ?? { cents: 0n, label: line.description };
    entry.cents += toCents(line.targetNet);
    map.set(k, entry);
  }
  return map;
}

/** Cents as the messages carry an amount ("16.26", in the order's currency). */
const amountText = (cents: bigint): string => formatDecimal(fromCents(cents), 2);

export function creditLimitHolds(
  invoiced: readonly PlannedLine[],
  earlier: readonly (readonly PlannedLine[])[],
  current: readonly PlannedLine[],
  /** `wholeInvoice`: the credit note of the whole invoice (a cancellation, or a person's ask), named so in the words. */
  context: { refundId: number | string; invoiceNumber: string; currency?: string; wholeInvoice?: boolean },
): MappingMessage[] {
  const holds: MappingMessage[] = [];
  const credited = earlier.flat();
  const check = (key: (line: PlannedLine) => string | undefined, about: (k: string, label: string) => { line: string } | { rate: string }) => {
    const inv = netsBy(invoiced, key);
    const before = netsBy(credited, key);
    for (const [k, now] of netsBy(current, key)) {
      const invoicedCents = inv.get(k)?.cents ?? 0n;
      const earlierCents = before.get(k)?.cents ?? 0n;
      if (earlierCents + now.cents <= invoicedCents) continue;
      const facts = {
        refund: context.refundId,
        amount: amountText(now.cents),
        invoice: context.invoiceNumber,
        invoiced: amountText(invoicedCents),
        earlier: amountText(earlierCents),
        ...currencyParam(context.currency),
        ...(context.wholeInvoice ? { of: 'invoice' as const } : {}),
      };
      const subject = about(k, now.label);
      holds.push('line' in subject ? { code: 'credit-over-line', params: { ...facts, ...subject } } : { code: 'credit-over-rate', params: { ...facts, ...subject } });
    }
  };
  // Per line: products, shipping and fees by their code (amount lines of a refund without items count per rate only).
  check((line) => (line.code === REFUND_AMOUNT_CODE ? undefined : line.code), (_k, label) => ({ line: label }));
  check((line) => formatDecimal(line.rate), (rate) => ({ rate }));
  return holds;
}
