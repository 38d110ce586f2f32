import type { Queue } from 'bullmq';
import type { TenantSettings } from '../config/tenant-config';
import { documentJobId, type DocumentJobData } from '../core/jobs';
import type { Ledger } from '../core/ledger';
import { hasWrittenBack } from '../shop/order-meta';
import { soldAt } from './go-live';
import type { ShopPlatform } from '../../platforms/shop-platform';
import type { OrderSummary } from '../shop/order-summary';
import { planJobs, type PlannableOrder, type PlannedJob } from './plan-jobs';
import { advancePaymentDuty, type AdvancePayment } from '../../law/advance-payment';

/** Why an order that would otherwise be invoiced is not: shown in the console's not-invoiced list. */
export type NotInvoicedReason = GateReason | AdvancePaymentReason;

/** The gate's reasons: another system's document, a sale before the go-live cut-off. */
export type GateReason = { code: 'before-go-live'; soldAt: string; goLiveAt: string } | { code: 'other-system'; system: string; key: string; value: string };

/**
 * A deposit or a pre-order paid before the supply (CIVA art. 36(1)(c): invoiced the day the payment
 * is received), in a plugin's status: the connector cannot invoice it as the whole order, so a
 * person is told (settings.advancePayments: `tell`).
 */
export type AdvancePaymentReason = { code: 'advance-payment'; kind: AdvancePayment['kind']; status: string; plugin: string };

/** What the gate reads: the order's attributes and when it was sold. */
export type GatedOrder = Pick<OrderSummary, 'attributes' | 'paidAt' | 'createdAt' | 'paymentMethod' | 'outstanding'>;

export type GateOrder = PlannableOrder & GatedOrder;

export interface PlanContext {
  settings: TenantSettings;
  /** The tenant's go-live cut-off; undefined for a backfill, which a person asked for. */
  goLiveAt: number | undefined;
  /** Whether this connector has invoiced the order, or is invoicing it (asked only when it matters). */
  invoiceKnown: () => Promise<boolean>;
  /** The tenant's platform: it knows the marks its other invoicing apps leave on an order. */
  platform: OtherSystems;
}

/** What the gate asks of the platform (platforms/shop-platform.ts): other systems' marks, and the advance payments its plugins keep. */
export type OtherSystems = Pick<ShopPlatform, 'otherSystemDocument' | 'advancePayment'>;

export interface OrderPlan {
  jobs: PlannedJob[];
  notInvoiced?: NotInvoicedReason;
}

/**
 * Which documents an order gets, for every path (delivery, sweep, backfill): one place for the rules
 * that keep the connector away from orders it must not touch.
 * - An order with our invoice on it is planned as usual (its refunds, its cancellation).
 * - Another system's document on the order: nothing, ever (not even a backfill).
 * - Sold before the go-live cut-off: nothing, unless a backfill asks.
 * - Not in a trigger status (cancelled, refunded) and never invoiced here: nothing. An unpaid order
 *   that WooCommerce cancels is not a problem for a person (FACTS: an order never invoiced is left alone).
 * The last three apply only when this connector has no invoice of the order (made or in the making).
 */
export async function planOrder(order: GateOrder, ctx: PlanContext): Promise<OrderPlan> {
  if (hasWrittenBack(order.attributes, 'invoice')) return { jobs: planJobs(order, ctx.settings) };
  const notInvoiced = notInvoicedReason(order, ctx.settings, ctx.goLiveAt, ctx.platform) ?? advancePaymentReason(order, ctx);
  if (notInvoiced?.code === 'advance-payment') {
    // Never the whole order as paid while only an advance was received: a person is told, unless it is invoiced here already.
    if (!(await ctx.invoiceKnown())) return { jobs: [], notInvoiced };
    return { jobs: planJobs(order, ctx.settings) };
  }
  const reversal = !ctx.settings.triggerStatuses.includes(order.status);
  if (notInvoiced || reversal) {
    if (!(await ctx.invoiceKnown())) return notInvoiced ? { jobs: [], notInvoiced } : { jobs: [] };
  }
  return { jobs: planJobs(order, ctx.settings) };
}

/**
 * A payment received before the supply that a deposit or pre-order plugin keeps the order for
 * (CIVA art. 36(1)(c)), with settings.advancePayments `tell`: a deposit in any status (the whole
 * order is never invoiced as paid while only the deposit is), a pre-order outside the trigger
 * statuses (listing `pre-ordered` as one invoices a pre-order charged upfront on its payment, as the
 * law asks). A pre-order charged upon release has received nothing: no invoice is due yet.
 */
export function advancePaymentReason(order: GatedOrder & Pick<OrderSummary, 'status'>, ctx: Pick<PlanContext, 'settings' | 'platform'>): AdvancePaymentReason | undefined {
  if (ctx.settings.advancePayments !== 'tell') return undefined;
  const advance = ctx.platform.advancePayment?.(order);
  if (!advance || !advancePaymentDuty(advance).due) return undefined;
  if (advance.kind === 'pre-order' && ctx.settings.triggerStatuses.includes(order.status)) return undefined;
  return { code: 'advance-payment', kind: advance.kind, status: advance.status, plugin: advance.plugin };
}

/** Another system's document, or a sale before the cut-off (none for a backfill: goLiveAt undefined). */
export function notInvoicedReason(order: GatedOrder, settings: TenantSettings, goLiveAt: number | undefined, platform: Pick<OtherSystems, 'otherSystemDocument'>): GateReason | undefined {
  const other = platform.otherSystemDocument(order.attributes, settings.otherSystemMetaKeys);
  if (other) return { code: 'other-system', ...other };
  if (goLiveAt === undefined) return undefined;
  const sold = soldAt(order, settings.paidOnCompletionGateways);
  // An order without dates is not one WooCommerce sends; it is planned, and the mapping judges it.
  // WooCommerce dates have whole seconds: an order of the cut-off's own second is after it.
  if (sold !== undefined && sold < Math.floor(goLiveAt / 1000) * 1000) {
    return { code: 'before-go-live', soldAt: new Date(sold).toISOString(), goLiveAt: new Date(goLiveAt).toISOString() };
  }
  return undefined;
}

/**
 * The ledger has an invoice entry of the order (any state: made, in the making, held), or its invoice
 * job is in the queue (a paid order cancelled before its job started must still get its credit note).
 */
export async function invoiceKnownHere(ledger: Ledger, queue: Queue<DocumentJobData>, tenant: string, orderId: number): Promise<boolean> {
  if (await ledger.get({ tenant, orderId, purpose: 'invoice' })) return true;
  return (await queue.getJob(documentJobId(tenant, orderId, 'invoice'))) !== undefined;
}
