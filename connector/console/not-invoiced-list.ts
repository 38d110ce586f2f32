import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { recordAction, releaseHold, retryOrder, type OrderActionDeps } from '../admin/order-actions';
import { ACTION_NOTES } from '../admin/action-notes';
import { addNoteQuietly } from '../pipeline/write-back';
import { forgetNotInvoiced, listNotInvoiced } from '../ingest/not-invoiced';
import type { NotInvoicedReason } from '../ingest/plan-order';
import { stateRules } from '../core/ledger';
import { entryWords } from '../pipeline/problems';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { NOTES, type Lang } from '../words';
import { shopDateTime } from '../../messages/dates';

/**
 * Orders of a shop that are not invoiced, and why: sold before the go-live cut-off, carrying another
 * system's document (ingest/not-invoiced.ts), held or refused (the ledger's attention list). A
 * person picks some and has them issued: a backfill of the order for the cut-off, a release for a
 * hold, a retry for a refusal; another system's document is never issued here.
 */
export type NotInvoicedKind = 'before-go-live' | 'other-system' | 'advance-payment' | 'held' | 'refused';

export interface NotInvoicedRow {
  orderId: number;
  kind: NotInvoicedKind;
  /** In the reader's language. */
  why: string;
  /** The ledger purpose for held / refused rows. */
  purpose?: string;
  /** The ledger state of held / refused rows: named by its one name (connector/words.ts stateLabel). */
  state?: string;
  at: number;
  /** Whether "issue" can do anything for it. */
  issuable: boolean;
}

type Of<C extends NotInvoicedReason['code']> = Extract<NotInvoicedReason, { code: C }>;

/** Why an order is not invoiced, per language; times in the shop's zone (messages/dates.ts). */
const REASON_WORDS: Record<Lang, { 'other-system': (r: Of<'other-system'>) => string; 'before-go-live': (r: Of<'before-go-live'>, at: (iso: string) => string) => string }> = {
  pt: {
    'other-system': (r) => `já tem um documento de outro sistema (${r.system}: ${r.key} = ${r.value})`,
    'before-go-live': (r, at) => `vendida a ${at(r.soldAt)}, antes da entrada em funcionamento (${at(r.goLiveAt)})`,
  },
  en: {
    'other-system': (r) => `already has a document from another system (${r.system}: ${r.key} = ${r.value})`,
    'before-go-live': (r, at) => `sold ${at(r.soldAt)}, before the go-live cut-off (${at(r.goLiveAt)})`,
  },
};

/** Why an order is not invoiced, in the reader's language, its times in the shop's zone. */
export function notInvoicedWhy(lang: Lang, reason: NotInvoicedReason, timeZone: string): string {
  if (reason.code === 'other-system') return REASON_WORDS[lang]['other-system'](reason);
  // A deposit or pre-order paid before the supply (CIVA art. 36(1)(c)): what the law asks and what to do.
  if (reason.code === 'advance-payment') return NOTES.advancePaymentWhy(lang, reason);
  const at = (iso: string): string => (Number.isNaN(Date.parse(iso)) ? iso : shopDateTime(lang, Date.parse(iso), timeZone));
  return REASON_WORDS[lang]['before-go-live'](reason, at);
}

export async function notInvoicedRows(deps: OrderActionDeps & { prefix: string }, tenant: TenantRuntime, lang: Lang): Promise<NotInvoicedRow[]> {
  const id = tenant.config.id;
  const rows: NotInvoicedRow[] = [];
  for (const entry of await listNotInvoiced(deps.redis, deps.prefix, id)) {
    // Issued since (a backfill, a person): no longer a row.
    const invoice = await deps.ledger.get({ tenant: id, orderId: entry.orderId, purpose: 'invoice' });
    if (invoice?.documentId !== undefined) continue;
    rows.push({ orderId: entry.orderId, kind: entry.reason.code, why: notInvoicedWhy(lang, entry.reason, tenant.mapping.shopTimeZone), at: entry.at, issuable: entry.reason.code === 'before-go-live' });
  }
  for (const member of await deps.ledger.attention(500)) {
    const [tenantId, orderText, purpose] = member.split(':');
    if (tenantId !== id) continue;
    const orderId = Number(orderText);
    const entry = await deps.ledger.get({ tenant: id, orderId, purpose });
    const rules = stateRules(entry?.state);
    if (!entry || entry.documentId !== undefined || !rules.dismissable) continue;
    const kind: NotInvoicedKind = rules.waitsFor === 'fix' ? 'refused' : 'held';
    rows.push({ orderId, kind, purpose, state: entry.state, why: entryWords(lang, entry, { tenant: id, orderId, purpose }, 'console').reason, at: entry.alertAt ?? 0, issuable: true });
  }
  return rows.sort((a, b) => b.at - a.at);
}

export interface IssueOutcome {
  orderId: number;
  ok: boolean;
  detail: string;
}

/**
 * "Issue" for the chosen orders, each by the way its reason calls for; one order's failure does not
 * stop the others. `by` (the console, after the preview): the history and a note on each order say who decided it.
 */
export async function issueChosen(deps: OrderActionDeps & { prefix: string }, tenant: TenantRuntime, orderIds: readonly number[], by?: string): Promise<IssueOutcome[]> {
  const id = tenant.config.id;
  const rows = new Map<number, NotInvoicedRow[]>();
  for (const row of await notInvoicedRows(deps, tenant, 'en')) rows.set(row.orderId, [...(rows.get(row.orderId) ?? []), row]);
  const outcomes: IssueOutcome[] = [];
  for (const orderId of orderIds) {
    const found = rows.get(orderId) ?? [];
    if (found.length === 0) {
      outcomes.push({ orderId, ok: false, detail: 'not in the not-invoiced list' });
      continue;
    }
    for (const row of found) {
      if (!row.issuable) {
        outcomes.push({ orderId, ok: false, detail: `never issued here: ${row.why}` });
        continue;
      }
      const result = row.kind === 'held' && row.purpose ? await releaseHold(deps, { tenant: id, orderId, purpose: row.purpose }, by) : await retryOrder(deps, id, orderId);
      if (result.ok && by !== undefined && !(row.kind === 'held' && row.purpose)) {
        await recordAction(deps, id, orderId, { action: 'issue-now', by, purpose: row.purpose ?? 'invoice' });
        await addNoteQuietly(tenant, orderId, ACTION_NOTES.issueNow(tenant.config.settings.language, { purpose: row.purpose ?? 'invoice', by, held: false }), deps.logger);
      }
      if (result.ok && row.kind === 'before-go-live') await forgetNotInvoiced(deps.redis, deps.prefix, id, [orderId]);
      outcomes.push(result.ok ? { orderId, ok: true, detail: [...result.value.retried, ...result.value.enqueued].join(', ') || 'nothing left to do' } : { orderId, ok: false, detail: result.error });
    }
  }
  deps.logger.info({ tenant: id, outcomes }, 'not-invoiced orders issued on request');
  return outcomes;
}

const IssueBody = z.object({ orderIds: z.array(z.number().int().positive()).min(1).max(500) });

/** GET /admin/api/not-invoiced/:tenant and POST /admin/api/not-invoiced/:tenant/issue {"orderIds":[...]}. */
export function notInvoicedApi(deps: OrderActionDeps & { prefix: string }): Router {
  const router = Router();
  router.use(express.json({ limit: '64kb' }));
  router.get('/:tenant', async (req: Request, res: Response) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    if (!tenant) return void res.status(404).json({ error: 'unknown tenant' });
    res.json(await notInvoicedRows(deps, tenant, 'en'));
  });
  router.post('/:tenant/issue', async (req: Request, res: Response) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    if (!tenant) return void res.status(404).json({ error: 'unknown tenant' });
    const body = IssueBody.safeParse(req.body);
    if (!body.success) return void res.status(400).json({ error: 'send {"orderIds": [order ids]} (1 to 500)' });
    res.json(await issueChosen(deps, tenant, body.data.orderIds));
  });
  return router;
}
