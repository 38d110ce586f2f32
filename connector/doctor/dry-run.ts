import type { ListedOrder } from '../shop/order-summary';
import type { Lang } from '../../messages/lang';
import { computeTotals } from '../../client/totals';
import { mappingText } from '../../law/mapping-messages';
import { moneyWords } from '../pipeline/problems';
import { formatDecimal } from '../../client/money';
import { OrderMappingError } from '../../law/mapping-errors';
import { platformOf } from '../../platforms/registry';
import { composeIssueRequest } from '../pipeline/document-requests';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { META, hasWrittenBack, metaValue } from '../shop/order-meta';
import { NOTES, documentTypeLabel } from '../words';
import { advancePaymentReason, notInvoicedReason, type GateReason } from '../ingest/plan-order';
import { ShopRequestError } from '../shop/shop';
import type { DryRunOrder } from './check';
import { DOCTOR, doctorSays } from './doctor-messages';

/** WooCommerce answers at most 100 orders per page. */
export const MAX_DRY_RUN_ORDERS = 100;

/**
 * The invoice the connector would issue for each of the shop's last `count` orders in a trigger
 * status, composed as the pipeline composes it (composeIssueRequest: the shop's facts, the ECB rate
 * and VIES when configured, then the mapping), dated today in the shop's zone. Nothing
 * is created, written or enqueued.
 */
export async function dryRun(runtime: TenantRuntime, count: number, now: number = Date.now(), goLiveAt: number = now): Promise<DryRunOrder[]> {
  const { orders } = await runtime.shop.listOrders({
    statuses: runtime.config.settings.triggerStatuses,
    perPage: Math.min(count, MAX_DRY_RUN_ORDERS),
    orderBy: 'newest',
  });
  const results: DryRunOrder[] = [];
  // The whole order, as the listing carried it (WooCommerce's) or read alone (a platform whose listing gives summaries).
  for (const listed of orders) results.push(await dryRunOrder(runtime, listed, listed.source ?? (await runtime.shop.getOrder(listed.id)), now, goLiveAt));
  for (const listed of await advancePaymentOrders(runtime, count)) {
    const order = await dryRunOrder(runtime, listed, listed.source ?? (await runtime.shop.getOrder(listed.id)), now, goLiveAt);
    // Only the advance payments: an order of such a status that received nothing (a pre-order charged on release) is no news.
    if (order.advancePayment) results.push({ ...order, beyondTriggers: true });
  }
  return results;
}

/**
 * The last `count` orders in each of the platform's advance-payment statuses that is not a trigger
 * status (a deposit paid, Shopify's paid in part: CIVA art. 36(1)(c)), when the tenant is told of
 * them (settings.advancePayments `tell`). A status the shop refuses (the plugin is not installed)
 * has no such orders.
 */
async function advancePaymentOrders(runtime: TenantRuntime, count: number): Promise<ListedOrder[]> {
  const settings = runtime.config.settings;
  if (settings.advancePayments !== 'tell') return [];
  const statuses = (platformOf(runtime.config).advancePaymentStatuses ?? []).filter((status) => !settings.triggerStatuses.includes(status));
  const found: ListedOrder[] = [];
  for (const status of statuses) {
    try {
      found.push(...(await runtime.shop.listOrders({ statuses: [status], perPage: Math.min(count, MAX_DRY_RUN_ORDERS), orderBy: 'newest' })).orders);
    } catch (error) {
      if (!(error instanceof ShopRequestError) || !error.permanent) throw error;
    }
  }
  return found;
}

async function dryRunOrder(runtime: TenantRuntime, listed: ListedOrder, raw: unknown, now: number, goLiveAt: number): Promise<DryRunOrder> {
  const base = { orderId: listed.id, status: listed.status, shopTotal: listed.total, currency: listed.currency, exemptionCodes: [] as string[] };
  const platform = platformOf(runtime.config);
  try {
    const order = platform.orderOf(raw);
    if (hasWrittenBack(order.attributes, 'invoice')) {
      const number = String(metaValue(order.attributes, META.documentNumber));
      const done = doctorSays('already-done', { number });
      return { ...base, outcome: 'done', notes: [done.en], pt: { notes: [done.pt] } };
    }
    // The same gate as every delivery and sweep: what going live would (not) issue.
    const skipped = notInvoicedReason(order, runtime.config.settings, goLiveAt, platform);
    const zone = runtime.mapping.shopTimeZone;
    if (skipped) return { ...base, outcome: 'not-invoiced', notes: [notInvoicedWords('en', skipped, zone)], pt: { notes: [notInvoicedWords('pt', skipped, zone)] } };
    // A deposit or a payment in part, as every delivery, sweep and person's issue judges it (CIVA art. 36(1)(c)).
    const advance = advancePaymentReason(order, { settings: runtime.config.settings, platform });
    if (advance) {
      const { kind, status, plugin } = advance;
      return { ...base, outcome: 'not-invoiced', advancePayment: { kind, status, plugin }, notes: [NOTES.advancePaymentWhy('en', advance)], pt: { notes: [NOTES.advancePaymentWhy('pt', advance)] } };
    }
    const built = await composeIssueRequest(runtime, platform.saleOf(raw, runtime.mapping, runtime.config), { kind: 'invoice' }, null, now);
    if (built.kind !== 'document') throw new Error('the invoice mapping answered a waybill');
    const doc = built.request.Document;
    const documentTotal = formatDecimal(computeTotals(doc.Lines).amount, 2);
    const exemptionCodes = doc.TaxExemptionReasonCode ? [doc.TaxExemptionReasonCode] : [];
    const shown = built.hold ? built.notes : built.notes.filter((note) => note.level !== 'info');
    const notes = shown.map((note) => note.message);
    const notesPt = shown.map((note) => mappingText('pt', note));
    if (built.totalDifference !== undefined) {
      notes.unshift(`total differs from the shop's by ${built.totalDifference}`);
      notesPt.unshift(`o total difere do da loja em ${moneyWords('pt', built.totalDifference, order.currency)}`);
    }
    return {
      ...base,
      outcome: built.hold ? 'hold' : 'issue',
      documentType: `${documentTypeLabel('en', doc.Type)} (${doc.Type})`,
      documentTotal,
      exemptionCodes,
      notes,
      pt: { documentType: `${documentTypeLabel('pt', doc.Type)} (${doc.Type})`, notes: notesPt },
    };
  } catch (error) {
    if (error instanceof OrderMappingError) return { ...base, outcome: 'refuse', notes: [error.problem], pt: { notes: [error.text('pt')] } };
    const said = doctorSays('dry-run-not-built', { error: (error as Error).message });
    return { ...base, outcome: 'refuse', notes: [said.en], pt: { notes: [said.pt] } };
  }
}

function notInvoicedWords(lang: Lang, reason: GateReason, timeZone: string): string {
  if (reason.code === 'other-system') return DOCTOR.say(lang, 'other-system', { system: reason.system, key: reason.key, value: reason.value });
  return DOCTOR.say(lang, 'before-go-live', { soldAt: reason.soldAt, goLiveAt: reason.goLiveAt, timeZone });
}
