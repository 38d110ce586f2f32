import { abs, parseDecimal, toCents } from '../../client/money';
import { platformOf } from '../../platforms/registry';
import { type LedgerEntry } from '../core/ledger';
import { type Problem } from './problems';
import { type StepContext, orderOf } from './step-context';

/**
 * The credit check: a refund after the whole invoice was credited would credit more than the invoice.
 */

/**
 * A refund made after the whole invoice was credited (the console's "credit note for the whole
 * invoice", or a cancellation's credit note): the whole credit note plus the shop's refunds would
 * credit more than the invoice (a cent per document of rounding aside). The refunds made before the
 * whole credit note were left out of it, so theirs still pass.
 */
export async function creditedInFull(ctx: StepContext, invoice: LedgerEntry): Promise<Problem | undefined> {
  const whole = await ctx.deps.ledger.get({ ...ctx.ref, purpose: 'cancellation' });
  if (whole?.documentId === undefined || whole.state === 'cancelled' || whole.documentNumber === undefined) return undefined;
  const sale = await orderOf(ctx);
  const refunds = (await ctx.tenant.shop.listRefunds(ctx.data.orderId)).map((raw) => platformOf(ctx.tenant.config).refundOf(raw, sale));
  // An invoice or credit note whose total is not recorded (restored from an old order): no sum can clear it.
  if (whole.total !== undefined && invoice.total !== undefined) {
    const cents = (text: string): bigint => toCents(abs(parseDecimal(text)));
    const credited = refunds.reduce((total, refund) => total + cents(refund.amount), cents(whole.total));
    if (credited <= cents(invoice.total) + BigInt(refunds.length + 1)) return undefined;
  }
  const refund = refunds.find((r) => r.id === String(ctx.data.refundId));
  return { code: 'credited-in-full', invoice: invoice.documentNumber ?? '', creditNote: whole.documentNumber, refundId: ctx.data.refundId ?? 0, amount: refund?.amount.replace('-', '') ?? '0.00', currency: invoice.currency };
}
