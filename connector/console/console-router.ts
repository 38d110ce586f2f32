import { randomUUID } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import type { Queue } from 'bullmq';
import { z } from 'zod';
import { idFrom, IdText, type SweepJobData } from '../jobs';
import { sweepScheduleState } from '../queues';
import { adminUser } from '../admin/basic-auth';
import { attachDocument, canDismiss, dismissOrder, releaseHold, retryOrder, type ActionResult, type OrderActionDeps } from '../admin/order-actions';
import type { LedgerEntry } from '../ledger';
import type { PdfLinkSigner } from '../pdf-link';
import { entryWords } from '../pipeline/problems';
import { deliveryProblemWords, documentTypeLabel, purposeLabel, stateLabel, type Lang } from '../words';
import { refusalsOf } from '../ingest/webhook-health';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { lastSweepReport, sweepTenant, type SweepReport } from '../sweep';
import { companyFingerprint } from '../config/company-check';
import type { ReloadResult } from '../config/reload';
import type { ReloadControl } from '../app';
import { CompanyGuard } from '../config/company-guard';
import { csrfProblem, csrfToken } from './csrf';
import { issueChosen, notInvoicedRows } from './not-invoiced-list';
import { pickLang, shopTime, startOfShopDay, t } from './i18n';
import { html, page, type Html } from './page';

export interface ConsoleDeps extends OrderActionDeps {
  prefix: string;
  /** The reload button (absent: the button is not shown). */
  reloads?: ReloadControl;
  /** server.publicUrl, for the sweep's webhook check. */
  publicUrl: string;
  links: PdfLinkSigner;
  /** Signs the forms' anti-forgery tokens. */
  secret: string;
  /** The periodic sweep's queue: the console says when its schedule is missing. */
  sweepQueue?: Queue<SweepJobData>;
  sweepEveryMinutes?: number;
}

const OrderForm = z.object({ purpose: z.string().regex(/^(invoice|waybill|cancellation|credit-note-\d+)$/), csrf: z.string() });
const AttachForm = OrderForm.extend({ documentId: IdText });
const DismissForm = OrderForm.extend({ reason: z.string().trim().min(3).max(500) });

interface View {
  lang: Lang;
  token: string;
}

/**
 * The operator's console, server-rendered HTML behind the admin credentials: every shop at a glance,
 * and per shop the orders waiting for a person (why, what to do, and the buttons to do it), recent
 * documents with their PDF, the sweep and webhook health, and today's figures.
 */
export function consoleRouter(deps: ConsoleDeps): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '16kb' }));

  const viewOf = (req: Request, res: Response): View => {
    const lang = pickLang(req.query.lang, req.get('cookie'), req.get('accept-language'));
    if (req.query.lang === 'pt' || req.query.lang === 'en') res.cookie('lang', lang, { sameSite: 'lax', httpOnly: true, path: '/console' });
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
    res.setHeader('Cache-Control', 'no-store');
    return { lang, token: csrfToken(deps.secret, req) };
  };

  router.get('/', async (req: Request, res: Response) => {
    const view = viewOf(req, res);
    const waiting = await deps.ledger.attentionCounts();
    const rows = await Promise.all(
      [...deps.tenants.values()].map(async (tenant) => {
        const id = tenant.config.id;
        const sweep = await lastSweepReport(deps.redis, deps.prefix, id);
        const today = await deps.ledger.writtenBackSince(id, startOfShopDay(Date.now(), tenant.mapping.shopTimeZone));
        const count = waiting.get(id) ?? 0;
        return html`<tr><td><a href="/console/${id}">${id}</a></td><td>${tenant.config.invoicing.companyNif ?? '–'}</td><td class="${count > 0 ? 'warn' : ''}">${count}</td><td>${today}</td>
<td class="wide">${sweep?.until ? shopTime(Date.parse(sweep.until), tenant.mapping.shopTimeZone, view.lang) : t(view.lang, 'never')}</td><td>${webhookHealth(sweep)}</td></tr>`;
      }),
    );
    const body = html`${await sweepNotice(deps, view)}${reloadSection(deps, view)}<section><h2>${t(view.lang, 'shops')}</h2><table>
<tr><th>${t(view.lang, 'shop')}</th><th>${t(view.lang, 'company')}</th><th>${t(view.lang, 'waiting')}</th><th>${t(view.lang, 'issuedToday')}</th><th class="wide">${t(view.lang, 'lastSweep')}</th><th>Webhooks</th></tr>
${rows}</table></section>`;
    res.type('html').send(page(view.lang, t(view.lang, 'title'), body, await takeFlash(req)));
  });

  router.post('/reload', async (req: Request, res: Response) => {
    const forged = csrfProblem(deps.secret, req, (req.body as Record<string, unknown> | undefined)?.csrf);
    if (forged) return void res.status(403).type('text').send(forged);
    if (!deps.reloads) return void res.status(404).type('text').send('reload is not available here');
    const result = await deps.reloads.reload();
    res.redirect(303, `/console?flash=${await putFlash({ ok: result.ok, text: reloadWords(result, pickLang(req.query.lang, req.get('cookie'), req.get('accept-language'))) })}`);
  });

  router.get('/:tenant', async (req: Request, res: Response) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    if (!tenant) return void res.status(404).type('text').send('unknown tenant');
    const view = viewOf(req, res);
    const sections = [
      await sweepNotice(deps, view),
      await waitingSection(deps, tenant, view, waitingOffset(req.query.waitingFrom)),
      await notInvoicedSection(deps, tenant, view),
      await figuresSection(deps, tenant, view),
      await recentSection(deps, tenant, view),
      await healthSection(deps, tenant, view),
    ];
    res.type('html').send(page(view.lang, `${tenant.config.id} · ${t(view.lang, 'title')}`, html`<p><a href="/console">← ${t(view.lang, 'back')}</a></p><h2>${tenant.config.id}</h2>${await companyLine(deps, tenant, view.lang)}${sections}`, await takeFlash(req)));
  });

  /** Every form posts here: checked, carried out, then the page again with what happened (POST-redirect-GET). */
  const action = (run: (tenant: TenantRuntime, req: Request) => Promise<ActionResult<unknown> | { ok: true; value: string }>) => {
    return async (req: Request, res: Response) => {
      const tenant = deps.tenants.get(String(req.params.tenant));
      if (!tenant) return void res.status(404).type('text').send('unknown tenant');
      if (req.params.orderId !== undefined && idFrom(req.params.orderId) === null) return void res.status(404).type('text').send('unknown order id: an order id is written in digits');
      const lang = pickLang(req.query.lang, req.get('cookie'), req.get('accept-language'));
      const forged = csrfProblem(deps.secret, req, (req.body as Record<string, unknown> | undefined)?.csrf);
      if (forged) return void res.status(403).type('text').send(forged);
      let flash: { ok: boolean; text: string };
      try {
        const result = await run(tenant, req);
        flash = result.ok ? { ok: true, text: `${t(lang, 'done')}: ${summary(result.value, lang)}` } : { ok: false, text: `${t(lang, 'failed')}: ${result.error}` };
      } catch (error) {
        flash = { ok: false, text: `${t(lang, 'failed')}: ${(error as Error).message}` };
      }
      res.redirect(303, `/console/${tenant.config.id}?flash=${await putFlash(flash)}`);
    };
  };

  const lang = (req: Request): Lang => pickLang(req.query.lang, req.get('cookie'), req.get('accept-language'));
  const orderRef = (tenant: TenantRuntime, req: Request, form: z.infer<typeof OrderForm>) => ({ tenant: tenant.config.id, orderId: Number(req.params.orderId), purpose: form.purpose });
  const formError = (message: string): ActionResult<never> => ({ ok: false, status: 409, error: message });

  router.post(
    '/:tenant/orders/:orderId/retry',
    action(async (tenant, req) => retryOrder(deps, tenant.config.id, Number(req.params.orderId))),
  );
  router.post(
    '/:tenant/orders/:orderId/attach',
    action(async (tenant, req) => {
      const form = AttachForm.safeParse(req.body);
      if (!form.success) return formError('enter the document id (a positive number) found in the MagniFinance back-office');
      return attachDocument(deps, orderRef(tenant, req, form.data), form.data.documentId);
    }),
  );
  router.post(
    '/:tenant/orders/:orderId/release',
    action(async (tenant, req) => {
      const form = OrderForm.safeParse(req.body);
      if (!form.success) return formError('the form is incomplete: reload the page');
      return releaseHold(deps, orderRef(tenant, req, form.data));
    }),
  );
  router.post(
    '/:tenant/orders/:orderId/dismiss',
    action(async (tenant, req) => {
      const form = DismissForm.safeParse(req.body);
      if (!form.success) return formError('say how the order was handled (at least 3 characters), e.g. the number of the invoice issued by hand');
      return dismissOrder(deps, orderRef(tenant, req, form.data), form.data.reason, adminUser(req));
    }),
  );
  router.post(
    '/:tenant/not-invoiced/issue',
    action(async (tenant, req) => {
      const chosen = ([] as unknown[]).concat((req.body as Record<string, unknown>).order ?? []).map(Number).filter((id) => Number.isInteger(id) && id > 0);
      if (chosen.length === 0) return formError(lang(req) === 'pt' ? 'escolha pelo menos uma encomenda' : 'choose at least one order');
      const outcomes = await issueChosen(deps, tenant, chosen);
      return { ok: true, value: outcomes.map((o) => `#${o.orderId} ${o.ok ? '✓' : '✗'} ${o.detail}`).join('; ') };
    }),
  );
  router.post(
    '/:tenant/sweep',
    action(async (tenant) => {
      const report = await sweepTenant(tenant, deps);
      return { ok: true, value: `${report.scanned} scanned, ${report.enqueued.length} enqueued, ${report.resumed.length} resumed` };
    }),
  );

  async function putFlash(flash: { ok: boolean; text: string }): Promise<string> {
    const id = randomUUID();
    await deps.redis.set(`${deps.prefix}:console-flash:${id}`, JSON.stringify(flash), 'EX', 120);
    return id;
  }

  async function takeFlash(req: Request): Promise<{ ok: boolean; text: string } | undefined> {
    const id = typeof req.query.flash === 'string' && /^[0-9a-f-]{36}$/.test(req.query.flash) ? req.query.flash : undefined;
    if (!id) return undefined;
    const text = await deps.redis.getdel(`${deps.prefix}:console-flash:${id}`);
    return text ? (JSON.parse(text) as { ok: boolean; text: string }) : undefined;
  }

  return router;
}

function summary(value: unknown, lang: Lang): string {
  if (typeof value === 'string') return value;
  const v = value as { retried?: string[]; enqueued?: string[] | string; attached?: number; dismissed?: string };
  const pt = lang === 'pt';
  const parts: string[] = [];
  if (v.dismissed !== undefined) parts.push(`${purposeLabel(lang, v.dismissed)}: ${pt ? 'marcada como tratada' : 'marked as handled'}`);
  if (v.attached !== undefined) parts.push(`${pt ? 'documento' : 'document'} ${v.attached} ${pt ? 'associado' : 'attached'}`);
  if (v.retried?.length) parts.push(`${pt ? 'tentado de novo' : 'retried'} ${v.retried.join(', ')}`);
  if (Array.isArray(v.enqueued) && v.enqueued.length) parts.push(`${pt ? 'em fila' : 'enqueued'} ${v.enqueued.join(', ')}`);
  return parts.join('; ') || (pt ? 'nada mais a fazer nesta encomenda' : 'nothing left to do for this order');
}

/** What the last reload did, or why it was refused, in the reader's words. */
function reloadWords(result: ReloadResult, lang: Lang): string {
  if (!result.ok) return `${t(lang, 'notReloaded')}: ${result.problems.join('; ')}`;
  const parts = (['added', 'removed', 'changed'] as const).filter((key) => result[key].length > 0).map((key) => `${t(lang, key)}: ${result[key].join(', ')}`);
  if (result.restartNeeded.length > 0) parts.push(`${t(lang, 'restartNeeded')}: ${result.restartNeeded.join(', ')}`);
  return `${t(lang, 'reloaded')} (${result.at})${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`;
}

function reloadSection(deps: ConsoleDeps, view: View): Html | string {
  if (!deps.reloads) return '';
  const last = deps.reloads.last();
  return html`<section id="configuration"><h2>${t(view.lang, 'configuration')}</h2>
<p class="${last && !last.ok ? 'warn' : ''}">${last ? reloadWords(last, view.lang) : t(view.lang, 'neverReloaded')}</p>
<form method="post" action="/console/reload"><input type="hidden" name="csrf" value="${view.token}"><button>${t(view.lang, 'reload')}</button></form></section>`;
}

/** Which company the shop's documents are issued for, and whether its partner token was checked to be that company's. */
async function companyLine(deps: ConsoleDeps, tenant: TenantRuntime, lang: Lang): Promise<Html> {
  const { companyNif, partnerToken } = tenant.config.invoicing;
  if (!companyNif) return html`<p id="company">${t(lang, 'company')}: ${t(lang, 'companyUnset')}</p>`;
  if (!partnerToken) return html`<p id="company">${t(lang, 'company')}: <b>${companyNif}</b> · <span class="muted">${t(lang, 'companyOwnToken')}</span></p>`;
  const checked = (await deps.redis.get(CompanyGuard.key(deps.prefix, tenant.config.id))) === companyFingerprint(tenant.config);
  return html`<p id="company">${t(lang, 'company')}: <b>${companyNif}</b> · <span class="${checked ? 'muted' : 'warn'}">${t(lang, checked ? 'companyChecked' : 'companyNotChecked')}</span></p>`;
}

/** Refused deliveries of this shop, by reason, with the likely cause and the fix (ingest/webhook-health.ts). */
async function refusalsTable(deps: ConsoleDeps, tenant: TenantRuntime, lang: Lang): Promise<Html> {
  const refusals = await refusalsOf(deps.redis, deps.prefix, tenant.config.id);
  if (refusals.length === 0) return html`<h3>${t(lang, 'refusedDeliveries')}</h3><p>${t(lang, 'noRefusals')}</p>`;
  const zone = tenant.mapping.shopTimeZone;
  const rows = refusals.map((refusal) => {
    const words = deliveryProblemWords(lang, refusal.reason);
    return html`<tr data-reason="${refusal.reason}"><td>${refusal.reason}</td><td class="warn">${refusal.count}</td><td>${shopTime(refusal.lastAt, zone, lang)}</td><td>${words.cause}</td><td>${words.fix}</td></tr>`;
  });
  return html`<h3>${t(lang, 'refusedDeliveries')}</h3><table id="refusals"><tr><th>${t(lang, 'reason')}</th><th>${t(lang, 'count')}</th><th>${t(lang, 'lastSeen')}</th><th>${t(lang, 'likelyCause')}</th><th>${t(lang, 'whatToDo')}</th></tr>${rows}</table>`;
}

function webhookHealth(sweep: SweepReport | null): Html | string {
  if (!sweep) return '–';
  const problems = sweep.inactiveWebhooks.length + sweep.missingTopics.length + (sweep.refusedDeliveries ?? []).length;
  if (problems === 0) return html`<span>✓</span>`;
  return html`<span class="warn">${problems} ✗</span>`;
}

/** A warning at the top when the periodic sweep is not scheduled (a worker re-creates it; if it stays, none runs). */
async function sweepNotice(deps: ConsoleDeps, view: View): Promise<Html | string> {
  if (!deps.sweepQueue || !deps.sweepEveryMinutes) return '';
  const state = await sweepScheduleState(deps.sweepQueue, deps.sweepEveryMinutes, Date.now()).catch(() => 'scheduled' as const);
  return state === 'missing' || state === 'late' ? html`<p class="warn" id="sweep-missing">${t(view.lang, 'sweepMissing')}</p>` : '';
}

/** Orders waiting for a person shown per console page (the rest are a "Next" away, never cut off). */
const WAITING_PAGE = 100;

function waitingOffset(query: unknown): number {
  return typeof query === 'string' && /^\d{1,9}$/.test(query) ? Number(query) : 0;
}

async function waitingSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View, offset: number): Promise<Html> {
  const { lang } = view;
  const zone = tenant.mapping.shopTimeZone;
  const page = await deps.ledger.attentionPage({ tenant: tenant.config.id, offset, limit: WAITING_PAGE });
  const refs = page.members.map((member) => member.split(':'));
  const items = await Promise.all(
    refs.map(async ([, orderText, purpose]) => {
      const orderId = Number(orderText);
      const entry = await deps.ledger.get({ tenant: tenant.config.id, orderId, purpose });
      return entry ? waitingItem(tenant, view, orderId, purpose, entry, zone) : html``;
    }),
  );
  const base = `/console/${tenant.config.id}?waitingFrom=`;
  const pager =
    page.total <= WAITING_PAGE
      ? ''
      : html`<p class="muted">${t(lang, 'shownOf')} ${offset + 1}–${offset + refs.length} ${t(lang, 'of')} ${page.total}
${offset > 0 ? html` · <a href="${base}${Math.max(0, offset - WAITING_PAGE)}#waiting">${t(lang, 'previousPage')}</a>` : ''}${offset + WAITING_PAGE < page.total ? html` · <a href="${base}${offset + WAITING_PAGE}#waiting">${t(lang, 'nextPage')}</a>` : ''}</p>`;
  return html`<section id="waiting"><h2>${t(lang, 'waiting')} (${page.total})</h2>${page.total === 0 ? html`<p>${t(lang, 'noneWaiting')}</p>` : html`${items}${pager}`}</section>`;
}

function waitingItem(tenant: TenantRuntime, view: View, orderId: number, purpose: string, entry: LedgerEntry, zone: string): Html {
  const { lang, token } = view;
  const base = `/console/${tenant.config.id}/orders/${orderId}`;
  const hidden = html`<input type="hidden" name="csrf" value="${token}"><input type="hidden" name="purpose" value="${purpose}">`;
  const words = entryWords(lang, entry, { tenant: tenant.config.id, orderId, purpose }, 'console');
  return html`<div class="item" data-order="${orderId}">
<p><b>${t(lang, 'order')} #${orderId}</b> · ${purposeLabel(lang, purpose)} · <span class="muted">${t(lang, 'state')}: ${stateLabel(lang, entry.state)} · ${entry.alertAt ? shopTime(entry.alertAt, zone, lang) : ''}</span></p>
<p><b>${t(lang, 'why')}:</b> ${words.reason}</p>
<p><b>${t(lang, 'whatToDo')}:</b> ${words.action}</p>
<div class="actions">
<form method="post" action="${base}/retry">${hidden}<button>${t(lang, 'retry')}</button></form>
${entry.state === 'duplicate-unknown-id' ? html`<form method="post" action="${base}/attach">${hidden}<input name="documentId" inputmode="numeric" placeholder="${t(lang, 'documentId')}" aria-label="${t(lang, 'documentId')}"><button>${t(lang, 'attach')}</button></form>` : ''}
${entry.state === 'held' ? html`<form method="post" action="${base}/release">${hidden}<button>${t(lang, 'issueNow')}</button></form>` : ''}
${canDismiss(entry) ? html`<form method="post" action="${base}/dismiss">${hidden}<input class="reason" name="reason" required minlength="3" maxlength="500" placeholder="${t(lang, 'dismissReason')}" aria-label="${t(lang, 'dismissReason')}"><button>${t(lang, 'dismiss')}</button></form>` : ''}
</div></div>`;
}

async function notInvoicedSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View): Promise<Html> {
  const { lang, token } = view;
  const rows = await notInvoicedRows(deps, tenant, lang);
  const zone = tenant.mapping.shopTimeZone;
  if (rows.length === 0) return html`<section id="not-invoiced"><h2>${t(lang, 'notInvoiced')} (0)</h2><p>${t(lang, 'noneNotInvoiced')}</p></section>`;
  const lines = rows.map(
    (row) => html`<tr data-order="${row.orderId}" data-kind="${row.kind}"><td>${row.issuable ? html`<input type="checkbox" name="order" value="${row.orderId}" aria-label="#${row.orderId}">` : ''}</td><td>#${row.orderId}</td><td>${t(lang, `kind.${row.kind}`)}</td><td>${row.why}</td><td class="wide">${row.at ? shopTime(row.at, zone, lang) : ''}</td></tr>`,
  );
  return html`<section id="not-invoiced"><h2>${t(lang, 'notInvoiced')} (${rows.length})</h2><p class="muted">${t(lang, 'notInvoicedHelp')}</p>
<form method="post" action="/console/${tenant.config.id}/not-invoiced/issue"><input type="hidden" name="csrf" value="${token}">
<table><tr><th></th><th>${t(lang, 'order')}</th><th>${t(lang, 'kind')}</th><th></th><th class="wide">${t(lang, 'when')}</th></tr>${lines}</table>
<div class="actions"><button>${t(lang, 'issueChosen')}</button></div></form></section>`;
}

async function figuresSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View): Promise<Html> {
  const { lang } = view;
  const today = await deps.ledger.writtenBackSince(tenant.config.id, startOfShopDay(Date.now(), tenant.mapping.shopTimeZone));
  const waiting = (await deps.ledger.attentionCounts()).get(tenant.config.id) ?? 0;
  const counts = await deps.queue.getJobCounts('waiting', 'delayed', 'failed');
  const figure = (label: string, value: number, warn = false) => html`<div class="figure"><b class="${warn ? 'warn' : ''}">${value}</b>${label}</div>`;
  return html`<section id="today"><h2>${t(lang, 'today')}</h2><div class="figures">
${figure(t(lang, 'issuedToday'), today)}${figure(t(lang, 'waiting'), waiting, waiting > 0)}
${figure(`${t(lang, 'queue')}: ${t(lang, 'waitingJobs')}`, counts.waiting ?? 0)}${figure(`${t(lang, 'queue')}: ${t(lang, 'delayedJobs')}`, counts.delayed ?? 0)}${figure(`${t(lang, 'queue')}: ${t(lang, 'failedJobs')}`, counts.failed ?? 0, (counts.failed ?? 0) > 0)}
</div><p class="muted">${t(lang, 'queue')}: ${lang === 'pt' ? 'todas as lojas' : 'all shops'}</p></section>`;
}

async function recentSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View): Promise<Html> {
  const { lang } = view;
  const zone = tenant.mapping.shopTimeZone;
  const recent = await deps.ledger.recent(tenant.config.id, 50);
  const rows = await Promise.all(
    recent.map(async (item) => {
      const entry = await deps.ledger.get({ tenant: tenant.config.id, orderId: item.orderId, purpose: item.purpose });
      if (!entry?.documentId) return html``;
      const type = documentTypeLabel(lang, entry.documentType);
      return html`<tr><td>#${item.orderId}</td><td>${type}</td><td>${entry.documentNumber ?? ''}</td><td>${lang === 'pt' ? (entry.total ?? '').replace('.', ',') : (entry.total ?? '')}</td>
<td><a href="${deps.links.link(tenant.config.id, entry.documentId)}">${t(lang, 'pdf')}</a></td><td class="wide">${shopTime(item.at, zone, lang)}</td></tr>`;
    }),
  );
  return html`<section id="recent"><h2>${t(lang, 'recent')}</h2>${
    recent.length === 0
      ? html`<p>${t(lang, 'noneRecent')}</p>`
      : html`<table><tr><th>${t(lang, 'order')}</th><th>${t(lang, 'document')}</th><th>${t(lang, 'number')}</th><th>${t(lang, 'total')}</th><th>${t(lang, 'pdf')}</th><th class="wide">${t(lang, 'when')}</th></tr>${rows}</table>`
  }</section>`;
}

async function healthSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View): Promise<Html> {
  const { lang, token } = view;
  const sweep = await lastSweepReport(deps.redis, deps.prefix, tenant.config.id);
  const webhooks = !sweep
    ? ''
    : sweep.inactiveWebhooks.length === 0 && sweep.missingTopics.length === 0
      ? html`<p>${t(lang, 'webhooksOk')}</p>`
      : html`${sweep.inactiveWebhooks.length > 0 ? html`<p class="warn">${t(lang, 'webhooksInactive')} ${sweep.inactiveWebhooks.map((w) => `#${w.id} ${w.topic} (${w.status})`).join(', ')}</p>` : ''}${
          sweep.missingTopics.length > 0 ? html`<p class="warn">${t(lang, 'topicsMissing')}: ${sweep.missingTopics.join(', ')}</p>` : ''
        }`;
  const zone = tenant.mapping.shopTimeZone;
  return html`<section id="health"><h2>${t(lang, 'health')}</h2>
<p>${t(lang, 'lastSweep')}: ${sweep?.until ? html`${shopTime(Date.parse(sweep.until), zone, lang)} · ${sweep.scanned} ${t(lang, 'scanned')} · ${sweep.enqueued.length} ${t(lang, 'enqueued')} · ${(sweep.resumed ?? []).length} ${t(lang, 'resumed')}` : t(lang, 'never')}</p>
<p>${t(lang, 'webhooksChecked')}: ${sweep?.webhooksCheckedAt ? shopTime(Date.parse(sweep.webhooksCheckedAt), zone, lang) : t(lang, 'never')}</p>
${webhooks}
${await refusalsTable(deps, tenant, lang)}
<form method="post" action="/console/${tenant.config.id}/sweep"><input type="hidden" name="csrf" value="${token}"><button>${t(lang, 'sweepNow')}</button></form></section>`;
}
