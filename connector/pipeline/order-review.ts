import type { Logger } from 'pino';
import { isZero, parseDecimal } from '../../client/money';
import { platformOf } from '../../platforms/registry';
import type { LedgerRef } from '../core/ledger';
import { ShopRequestError } from '../shop/shop';
import { reviewBuyer } from './buyer-change';
import { coverageDiffers, coverageOf, documentsFromLedger } from './coverage';
import { clearForPerson, flagForPerson, type NeedsPersonDeps } from './needs-person';
import { personNeeded, settledOutsideProblem } from './problems';
import type { TenantRuntime } from './tenant-runtime';

/**
 * The check behind a `review` job (every update of an invoiced order, and the sweep): the order as
 * the shop has it now against what this connector's documents cover. A certified document cannot
 * change, so a difference is never "fixed" here: a person is told, on the order and in the
 * attention list, with the lawful ways to settle it (problems.ts: order-changed, refund-gone).
 * Returns what it found, for the job's log.
 */
export async function reviewOrder(deps: NeedsPersonDeps, tenant: TenantRuntime, orderId: number, now: number, log: Logger): Promise<string> {
  let raw: unknown;
  try {
    raw = await tenant.shop.getOrder(orderId);
  } catch (error) {
    // A deleted order (or a key that lost access, which the document jobs report): nothing to compare, and retrying will not change it.
    if (error instanceof ShopRequestError && error.permanent) return `not reviewed: ${error.message}`;
    throw error;
  }
  const order = platformOf(tenant.config).orderOf(raw);
  const { refunds } = order;
  const entries = await deps.ledger.forOrder(tenant.config.id, orderId);
  // Another buyer than the invoice's (a NIF added after it): told once, never issued (buyer-change.ts).
  const buyer = await reviewBuyer(deps, tenant, orderId, raw, entries.invoice, now, log);
  if (buyer?.endsWith('was told')) return buyer;
  const documents = documentsFromLedger(entries);
  const verdict = documents && coverageOf({ status: order.status, total: order.total, refunds }, documents);
  if (!verdict) return 'nothing to compare';
  const ref = (purpose: string): LedgerRef => ({ tenant: tenant.config.id, orderId, purpose });
  for (const orphan of verdict.orphans) {
    const entry = entries[orphan.purpose];
    if (entry.settledAt !== undefined) continue;
    const problem = personNeeded(ref(orphan.purpose), { code: 'refund-gone', number: orphan.number, refundId: orphan.refundId, amount: orphan.amount, currency: order.currency.toUpperCase() });
    await flagForPerson(deps, tenant, ref(orphan.purpose), problem, now, log, entry);
  }
  const invoice = entries.invoice;
  const told = settledOutsideProblem(invoice);
  const flagged = told?.code === 'order-changed';
  // The difference is what matters: a refund with its credit note moves the order's net and what the
  // documents cover alike, and must not tell the same difference again (nor undo its settlement).
  const alreadyTold = flagged && told.difference === verdict.difference;
  if (coverageDiffers(verdict) && invoice.settledDifference !== verdict.difference && !alreadyTold) {
    const problem = personNeeded(ref('invoice'), {
      code: 'order-changed',
      number: invoice.documentNumber ?? `document ${String(invoice.documentId)}`,
      shopNet: verdict.shopNet,
      covered: verdict.covered,
      difference: verdict.difference,
      currency: order.currency.toUpperCase(),
      way: tenant.config.settings.orderChanged,
      // A person credited the whole invoice in the console and the order still stands: say that, not "the order changed".
      ...(entries.cancellation?.creditNoteAskedAt !== undefined && entries.cancellation.documentNumber && isZero(parseDecimal(verdict.covered)) ? { creditedBy: entries.cancellation.documentNumber } : {}),
    });
    await flagForPerson(deps, tenant, ref('invoice'), problem, now, log, invoice);
    return `the order differs from its documents by ${verdict.difference}`;
  }
  // Back in agreement (the change was undone): nothing to settle any more.
  if (flagged && !coverageDiffers(verdict)) await clearForPerson(deps.ledger, ref('invoice'), invoice);
  return verdict.orphans.length > 0 ? `${verdict.orphans.length} credit note(s) whose refund is gone` : verdict.pending ? 'refunds pending' : 'documents cover the order';
}
