import { DelayedError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { Sale } from '../../law/sale';
import { platformOf } from '../../platforms/registry';
import type { ConnectorConfig } from '../config/load-config';
import { type DocumentJobData, type Step } from '../core/jobs';
import { stateRules, type Ledger, type LedgerEntry, type LedgerRef } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import type { PdfLinkSigner } from '../pdf/pdf-link';
import type { TenantRuntime } from './tenant-runtime';
import type { HistoryEvent, NewHistoryEvent, OrderHistory } from '../history/order-history';
import type { DocumentFacts } from '../month/ledger-documents';
import type { MonthSignOffs, SignOff } from '../month/sign-off';
import type { GateReason } from '../ingest/plan-order';

/**
 * The document job's run: what each step reads (the job, its tenant, the ledger entry, the order's
 * story so far), how a step hands over or parks the job (waitThen), where a purpose resumes, and the
 * order as the shop has it now (or as a delivery to this process carried it), as its platform's sale.
 */

export interface PipelineDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  ledger: Ledger;
  metrics: ConnectorMetrics;
  logger: Logger;
  links: PdfLinkSigner;
  pipeline: ConnectorConfig['pipeline'];
  now?: () => number;
  /** server.publicUrl: notes about problems link the order's page in the console. */
  publicUrl?: string;
  /** The order's story (the console's order page); a failure to write it never stops a document. */
  history?: OrderHistory;
  /** Keeps each finalized document's tax facts for the month pack; a failure to keep them never stops a document. */
  documentFacts?: Pick<DocumentFacts, 'remember'>;
  /** The months the accountant closed: a document dated in one goes to a person. */
  signOffs?: Pick<MonthSignOffs, 'of'>;
  /**
   * Puts an order on the tenant's not-invoiced list with its reason, and the one private note on the
   * order, as ingest does (ingest/not-invoiced.ts, recordNotInvoiced): the worker found another
   * invoicing system's document on the order under its lock, after the delivery was planned.
   */
  notInvoiced: (tenant: TenantRuntime, orderId: number, reason: Extract<GateReason, { code: 'other-system' }>) => Promise<void>;
}

export interface StepContext {
  job: Job<DocumentJobData>;
  token: string | undefined;
  data: DocumentJobData;
  tenant: TenantRuntime;
  ref: LedgerRef;
  deps: PipelineDeps;
  now: () => number;
  log: Logger;
  /** The ledger entry as the previous step of this run left it (saves a read). */
  entry?: LedgerEntry;
  /** The order's story of this run (attempts, the document, its notes): written in one MULTI when the run stops. */
  events: NewHistoryEvent[];
  /** The shop's copy of the order the document is composed from, as it came (its digest goes on the issuing marker). */
  composedFrom?: unknown;
  /** composedFrom is the copy the webhook carried (ingest/carried-orders.ts), not yet proven by a read under the lock. */
  carried?: boolean;
  /** orderDigest(composedFrom), kept when the copy is let go after the compose (the issuing marker carries it). */
  composedDigest?: string;
  /** What the read under the lock compares of a carried copy let go: its modification stamp and our own attributes. */
  carriedProof?: { stamp: string | undefined; ours: string | undefined };
  /**
   * While the order's lock is held (order-lock.ts): releases it. The write that ends what the lock
   * guards (the document recorded as created) sends it in its own round trip, after itself.
   */
  releaseLock?: () => Promise<void>;
  /** The order's story, read with the ledger entry at the start of a job's first run (earlier traces), until the issue step uses it. */
  story?: Promise<HistoryEvent[]>;
  /** The sign-off of the month of the document just numbered, read in the finalized record's round trip for the write-back step. */
  monthSignOff?: { month: string; read: Promise<SignOff | undefined> };
}

/** A step either hands over to the next step now, or the job is finished. Delays throw DelayedError. */
export type Outcome = { next: Step } | { done: string };

export async function setData(ctx: StepContext, changes: Partial<DocumentJobData>): Promise<void> {
  ctx.data = { ...ctx.data, ...changes };
  await ctx.job.updateData(ctx.data);
}

/**
 * Parks the job until `delayMs` from now, at `step`; the worker is free meanwhile. The job data is
 * rewritten only when the poll count changes: a job resumed at an earlier step (issue) finds its
 * progress in the ledger and moves on (one Redis script call per order less on the common path).
 */
export async function waitThen(ctx: StepContext, step: Step, delayMs: number, polls: number): Promise<never> {
  if (polls !== ctx.data.polls) await setData(ctx, { step, polls });
  // BullMQ promotes delayed jobs by the promoting process's own clock, not the shared one (ctx.now):
  // the delay is relative, and finalizeStep checks the shared clock again when the job comes back.
  await ctx.job.moveToDelayed(Date.now() + delayMs, ctx.token);
  throw new DelayedError();
}

/** Where a purpose already has progress, continue from it instead of issuing (the ledger's state table says where). */
export function resumeFrom(entry: LedgerEntry | null): Outcome | null {
  return entry ? stateRules(entry.state).resumeFrom : null;
}

/**
 * The order as the shop has it now (the job holds only a reference), as its platform's neutral sale;
 * `composing`: the copy the document is made from.
 */
export async function orderOf(ctx: StepContext, composing = false): Promise<Sale> {
  // The copy a delivery to this process has just carried, when there is one (composing only: it is
  // proven under the lock before anything is issued from it).
  const carried = composing ? ctx.tenant.carriedOrders?.take(ctx.data.orderId, ctx.now()) : undefined;
  const raw = carried ?? (await ctx.tenant.shop.getOrder(ctx.data.orderId));
  if (composing) {
    ctx.composedFrom = raw;
    ctx.composedDigest = undefined;
    ctx.carriedProof = undefined;
    ctx.carried = carried !== undefined;
  }
  return platformOf(ctx.tenant.config).saleOf(raw, ctx.tenant.mapping, ctx.tenant.config);
}
