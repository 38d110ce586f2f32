import { failedAttemptFields } from './attempt-wait';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { AuthenticationError, LocalValidationError, ServiceValidationError } from '../../client/errors';
import type { OrderHistory } from '../history/order-history';
import { OrderMappingError } from '../../law/mapping-errors';
import { stateRules, type Ledger, type LedgerEntry, type LedgerRef } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import { ShopRequestError } from '../shop/shop';
import { ViesUnavailableError } from '../vies/vies-registry';
import type { TenantRuntime } from './tenant-runtime';
import { NOTES, orderPagePath } from '../words';
import { answerOf } from './answers';
import { personNeeded, ProblemSchema, problemWords, SHOP_NAMED_PROBLEMS, type PersonNeeded } from './problems';
import { platformOf } from '../../platforms/registry';
import { addNoteQuietly } from './write-back';

/**
 * Why an order waits for a person, and what that person does about it (the words: problems.ts).
 * Every such order is in the ledger (state, `detail` = reason, `action` = fix, `problem` = the
 * problem itself for the console's languages), in the attention list (admin API, alerts), in the
 * metrics, and has a private note on the order with both: one path for all of them.
 */
export interface NeedsPersonDeps {
  ledger: Ledger;
  metrics: ConnectorMetrics;
  /** server.publicUrl: the note names the order's page in the console (left out without it). */
  publicUrl?: string;
  /** The order's story (the console's order page): the problem and its note are told there. */
  history?: OrderHistory;
}

/** The console's page of an order, as a link (server.publicUrl in front). */
export function orderPageUrl(publicUrl: string | undefined, tenant: string, orderId: number): string | undefined {
  return publicUrl ? `${publicUrl.replace(/\/+$/, '')}${orderPagePath(tenant, orderId)}` : undefined;
}

/** A problem whose fix is made in the shop names the tenant's platform (Shopify), not WooCommerce. */
function inShopWords(tenant: TenantRuntime, ref: LedgerRef, problem: PersonNeeded): PersonNeeded {
  const platform = platformOf(tenant.config);
  if (platform.name === 'woocommerce' || !SHOP_NAMED_PROBLEMS.has(problem.problem.code)) return problem;
  const named = ProblemSchema.safeParse({ ...problem.problem, shop: platform.title });
  return named.success ? personNeeded(ref, named.data, problem.state) : problem;
}

export async function flagForPerson(
  deps: NeedsPersonDeps,
  tenant: TenantRuntime,
  ref: LedgerRef,
  problem: PersonNeeded,
  now: number,
  log: Logger,
  previous?: LedgerEntry | null,
): Promise<void> {
  problem = inShopWords(tenant, ref, problem);
  const before = previous === undefined ? await deps.ledger.get(ref) : previous;
  const state = problem.state;
  await deps.ledger.record(ref, { state, detail: problem.reason, action: problem.action, problem: JSON.stringify(problem.problem), alertAt: now }, now);
  await deps.ledger.markAttention(ref, now);
  deps.metrics.alerts.inc({ tenant: tenant.config.id, state: state ?? before?.state ?? 'failed' });
  log.warn({ reason: problem.reason, state: state ?? before?.state }, 'order needs a person');
  // One note per distinct problem: a retry that meets the same problem does not add another.
  const fresh = before?.detail !== problem.reason || before.alertAt === undefined;
  let note: string | undefined;
  if (fresh) {
    const lang = tenant.config.settings.language;
    const words = problemWords(lang, problem.problem, ref, 'page');
    note = NOTES.attention(lang, { purpose: ref.purpose, reason: words.reason, action: words.action, pageUrl: orderPageUrl(deps.publicUrl, ref.tenant, ref.orderId) });
    await addNoteQuietly(tenant, ref.orderId, note, log);
  }
  // The story of the order: the problem (each distinct one) and the note written about it, in one write.
  if (deps.history && fresh) {
    const problemJson = JSON.stringify(problem.problem);
    await deps.history
      .record(
        [
          { tenant: ref.tenant, orderId: ref.orderId, event: { kind: 'problem', purpose: ref.purpose, problem: problemJson } },
          ...(note ? [{ tenant: ref.tenant, orderId: ref.orderId, event: { kind: 'note' as const, purpose: ref.purpose, customer: false, text: note.slice(0, 4000) } }] : []),
        ],
        now,
      )
      .catch((error: unknown) => log.warn({ err: (error as Error).message }, 'could not record the order history'));
  }
}

/**
 * A job ended by `error` (permanent, attempts exhausted, or failed by BullMQ as stalled): the order
 * goes to a person. A purpose that already has a document keeps its progress state, so the resume
 * continues from it and never issues a second document; a written-back one needs nobody.
 */
export async function flagJobFailure(deps: NeedsPersonDeps, tenant: TenantRuntime, ref: LedgerRef, error: unknown, attempts: number, now: number, log: Logger): Promise<void> {
  const entry = await deps.ledger.get(ref);
  if (entry?.state === 'written-back') return;
  const problem = problemFromError(error, ref, attempts);
  await deps.ledger.record(ref, failedAttemptFields(error), now);
  const state = stateRules(entry?.state).document === 'none' ? problem.state : undefined;
  await flagForPerson(deps, tenant, ref, { ...problem, state }, now, log, entry);
}

/** The problem is over (the document was created or written back): off the attention list. */
export async function clearForPerson(ledger: Ledger, ref: LedgerRef, entry: LedgerEntry | null | undefined): Promise<void> {
  if (entry?.alertAt === undefined && entry?.action === undefined) return;
  await ledger.clearAttention(ref);
  await ledger.clearFields(ref, ['action', 'alertAt', 'problem']);
}

/** Errors that a retry cannot fix: wrong data or wrong credentials. They go to a person at once. */
export function isPermanent(error: unknown): boolean {
  return (
    isMappingRefusal(error) ||
    error instanceof AuthenticationError ||
    error instanceof SyntaxError ||
    (error instanceof ShopRequestError && error.permanent)
  );
}

/** The order or the law refuses the document (the problem's `mapping-failed`): a person fixes the order. */
export function isMappingRefusal(error: unknown): boolean {
  return error instanceof OrderMappingError || error instanceof LocalValidationError || error instanceof ServiceValidationError || error instanceof ZodError;
}

/** The reason and the fix for an error that ended a job, in words for the shop owner. */
export function problemFromError(error: unknown, ref: LedgerRef, attempts: number): PersonNeeded {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ZodError) {
    return personNeeded(ref, { code: 'order-unreadable', fields: [...new Set(error.issues.map((issue) => issue.path.join('.') || '(order)'))].slice(0, 10) }, 'mapping-failed');
  }
  if (error instanceof OrderMappingError) return personNeeded(ref, { code: 'order-refused', error: error.detail }, 'mapping-failed');
  if (error instanceof ServiceValidationError || error instanceof LocalValidationError) {
    return personNeeded(ref, { code: 'service-refused', answer: answerOf(error), message }, 'mapping-failed');
  }
  if (error instanceof AuthenticationError) return personNeeded(ref, { code: 'credentials', answer: answerOf(error), message }, 'failed');
  // Before anything was issued (the write-back's 404 is handled where it happens): the order is gone.
  if (isOrderGone(error)) return personNeeded(ref, { code: 'order-deleted' }, 'failed');
  if (error instanceof ShopRequestError && error.permanent) return personNeeded(ref, { code: 'shop-refused', answer: answerOf(error), message }, 'failed');
  if (error instanceof ViesUnavailableError) return personNeeded(ref, { code: 'vies-unavailable', vatNumber: error.vatNumber, attempts, why: error.why }, 'failed');
  return personNeeded(ref, { code: 'gave-up', attempts, answer: answerOf(error), message }, 'failed');
}

/**
 * The shop answered that the order does not exist (deleted for good; a trashed order still answers):
 * WooCommerce's own code for it, `woocommerce_rest_shop_order_invalid_id` (404 on GET, 400 on PUT).
 * Any other 404 (a route a security plugin blocks, `rest_no_route`, a web server's page) is not.
 */
export function isOrderGone(error: unknown): boolean {
  return error instanceof ShopRequestError && error.code === 'woocommerce_rest_shop_order_invalid_id';
}
