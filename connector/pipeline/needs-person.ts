import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { AuthenticationError, LocalValidationError, ServiceValidationError } from '../../client/errors';
import { OrderMappingError } from '../../webhooks/woocommerce/mapping-errors';
import { NO_DOCUMENT_STATES, type Ledger, type LedgerEntry, type LedgerRef, type LedgerState } from '../ledger';
import type { ConnectorMetrics } from '../metrics';
import { ShopRequestError } from '../shop/woo-shop';
import { ViesUnavailableError } from '../vies/vies-registry';
import type { TenantRuntime } from './tenant-runtime';
import { addNoteQuietly } from './write-back';

/**
 * Why an order waits for a person, and what that person does about it. Every such order is in the
 * ledger (state, `detail` = reason, `action` = fix), in the attention list (admin API, alerts), in
 * the metrics, and has a private note on the order with both: one path for all of them.
 */
export interface PersonNeeded {
  /** The ledger state to set; absent to keep the progress state (a purpose that has a document). */
  state?: LedgerState;
  reason: string;
  action: string;
}

export interface NeedsPersonDeps {
  ledger: Ledger;
  metrics: ConnectorMetrics;
}

export function describePurpose(purpose: string): string {
  if (purpose.startsWith('credit-note-')) return `credit note for refund #${purpose.slice('credit-note-'.length)}`;
  if (purpose === 'cancellation') return 'cancellation';
  return purpose;
}

export function retryHint(ref: LedgerRef): string {
  return `POST /admin/api/orders/${ref.tenant}/${ref.orderId}/retry`;
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
  const before = previous === undefined ? await deps.ledger.get(ref) : previous;
  const state = problem.state;
  await deps.ledger.record(ref, { state, detail: problem.reason, action: problem.action, alertAt: now }, now);
  await deps.ledger.markAttention(ref, now);
  deps.metrics.alerts.inc({ tenant: tenant.config.id, state: state ?? before?.state ?? 'failed' });
  log.warn({ reason: problem.reason, state: state ?? before?.state }, 'order needs a person');
  // One note per distinct problem: a retry that meets the same problem does not add another.
  if (before?.detail !== problem.reason || before.alertAt === undefined) {
    await addNoteQuietly(
      tenant,
      ref.orderId,
      `MagniFinance: the ${describePurpose(ref.purpose)} needs your attention. Why: ${problem.reason} What to do: ${problem.action}`,
      log,
    );
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
  await deps.ledger.record(ref, { lastError: error instanceof Error ? error.message : String(error) }, now);
  const state = NO_DOCUMENT_STATES.has(entry?.state) ? problem.state : undefined;
  await flagForPerson(deps, tenant, ref, { ...problem, state }, now, log, entry);
}

/** The problem is over (the document was created or written back): off the attention list. */
export async function clearForPerson(ledger: Ledger, ref: LedgerRef, entry: LedgerEntry | null | undefined): Promise<void> {
  if (entry?.alertAt === undefined && entry?.action === undefined) return;
  await ledger.clearAttention(ref);
  await ledger.clearFields(ref, ['action', 'alertAt']);
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

function isMappingRefusal(error: unknown): boolean {
  return error instanceof OrderMappingError || error instanceof LocalValidationError || error instanceof ServiceValidationError || error instanceof ZodError;
}

/** The reason and the fix for an error that ended a job, in words for the shop owner. */
export function problemFromError(error: unknown, ref: LedgerRef, attempts: number): PersonNeeded {
  const message = error instanceof Error ? error.message : String(error);
  const retry = retryHint(ref);
  if (isMappingRefusal(error)) {
    const reason = error instanceof ServiceValidationError ? `MagniFinance refused the document: ${message}.` : `The order cannot be turned into a document: ${message}.`;
    return {
      state: 'mapping-failed',
      reason,
      action: `Correct the order in WooCommerce (or the tenant's mapping settings) and save it: the connector tries again on the order's next update, on the next sweep, or now with ${retry}. Nothing was issued.`,
    };
  }
  if (error instanceof AuthenticationError) {
    return {
      state: 'failed',
      reason: `MagniFinance refused the connector's credentials (${message}).`,
      action: `Fix invoicing.email and invoicing.token of tenant "${ref.tenant}" in the tenants file, restart the connector, then ${retry}.`,
    };
  }
  if (error instanceof ShopRequestError && error.permanent) {
    return {
      state: 'failed',
      reason: `The shop refused the connector's request (${message}).`,
      action: `Check the shop URL and that the REST API key of tenant "${ref.tenant}" has read/write access, then ${retry}.`,
    };
  }
  if (error instanceof ViesUnavailableError) {
    return {
      state: 'failed',
      reason: `The invoice waits for the EU VAT registry (VIES), which could not confirm VAT number ${error.vatNumber} after ${attempts} attempts (${error.why}).`,
      action: `Nothing was issued. The connector asks VIES again on the order's next update and on the next sweep; to try now: ${retry}. If VIES stays down and your accountant agrees, set vies.whenUnavailable: format-check for tenant "${ref.tenant}".`,
    };
  }
  return {
    state: 'failed',
    reason: `Gave up after ${attempts} attempts: ${message}.`,
    action: `Nothing was issued twice. The connector tries again on the order's next update and on the next sweep; to try now: ${retry}.`,
  };
}
