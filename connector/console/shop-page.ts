import type { Queue } from 'bullmq';
import type { DocumentJobData } from '../core/jobs';
import { sweepScheduleState } from '../core/queues';
import { canDismiss } from '../admin/order-actions';
import type { LedgerEntry } from '../core/ledger';
import { entryWords } from '../pipeline/problems';
import { BUTTONS, regimeStandingWords, documentTypeLabel, orderPagePath, purposeLabel, stateLabel, sweepSummary, type Lang } from '../words';
import { refusalsOf } from '../ingest/webhook-health';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { lastSweepReport, type SweepReport } from '../core/sweep-report';
import { companyFingerprint } from '../config/company-check';
import { CompanyGuard } from '../pipeline/company-guard';
import { CONSOLE } from './console-messages';
import { notInvoicedRows } from './not-invoiced-list';
import { shopTime, startOfShopDay, t } from './i18n';
import { amount, customerName, SHOP_WAIT_MS, type ShopOrderHead } from './order-page';
import { orderShown, ordersByIds, shownOrders as shownBy } from '../shop/order-shown';
import { html, type Html, type View } from './page';
import type { ConsoleDeps } from './console-deps';
import { withTimeout } from '../core/timeout';
import { readShopAnswer, recordShopAnswer } from '../shop/shop-answer';
import { failedShopCallWords, shopAnswerWords } from '../shop/shop-answer-words';
import { refusedWordsOf } from '../shop/refused-words';
import { platformOf } from '../../platforms/registry';
import { attemptWaitWords } from '../pipeline/attempt-wait';
import { regimeStanding } from '../core/regime-standing';

/*
 * The sections of a shop's console page: what needs a person, orders not invoiced, today's figures
 * and queue, recent documents, the sweep and webhook health; and the all-shops page's cells.
 */

/** Documents per page of the recent list. */
const RECENT_PAGE = 50;

/** Jobs per shop, from their ids (`<purpose>.<tenant>.<order>`: no job is loaded). */
export interface ShopQueue {
  now: number;
  /** The jobs being issued now (waiting, active). */
  nowJobs: { orderId: number; purpose: string }[];
  later: number;
  /** The delayed jobs: each waits for its number or for a new attempt after an error. */
  laterJobs: { orderId: number; purpose: string }[];
  failed: { orderId: number; purpose: string }[];
}

export async function queueByTenant(queue: Queue<DocumentJobData>): Promise<Map<string, ShopQueue>> {
  const [now, later, failed] = await Promise.all([
    queue.getRanges(['waiting', 'prioritized', 'active', 'waiting-children'], 0, -1),
    queue.getRanges(['delayed'], 0, -1),
    queue.getRanges(['failed'], 0, -1),
  ]);
  const byTenant = new Map<string, ShopQueue>();
  const of = (id: string): { tenant: string; orderId: number; purpose: string; counts: ShopQueue } | undefined => {
    const [purpose, tenant, order] = id.split('.');
    if (!tenant || !order) return undefined;
    let counts = byTenant.get(tenant);
    if (!counts) byTenant.set(tenant, (counts = { now: 0, nowJobs: [], later: 0, laterJobs: [], failed: [] }));
    return { tenant, orderId: Number(order), purpose, counts };
  };
  for (const id of new Set(now)) {
    const found = of(id);
    if (!found) continue;
    found.counts.now += 1;
    found.counts.nowJobs.push({ orderId: found.orderId, purpose: found.purpose });
  }
  for (const id of new Set(later)) {
    const found = of(id);
    if (!found) continue;
    found.counts.later += 1;
    found.counts.laterJobs.push({ orderId: found.orderId, purpose: found.purpose });
  }
  for (const id of new Set(failed)) {
    const found = of(id);
    if (found) found.counts.failed.push({ orderId: found.orderId, purpose: found.purpose });
  }
  return byTenant;
}

export function pageOffset(query: unknown): number {
  return typeof query === 'string' && /^\d{1,9}$/.test(query) ? Number(query) : 0;
}

/** Which company the shop's documents are issued for, and whether its partner token was checked to be that company's. */
export async function companyLine(deps: ConsoleDeps, tenant: TenantRuntime, lang: Lang): Promise<Html> {
  const { companyNif, partnerToken } = tenant.config.invoicing;
  if (!companyNif) return html`<p id="company">${t(lang, 'company')}: ${t(lang, 'companyUnset')}</p>`;
  if (!partnerToken) return html`<p id="company">${t(lang, 'company')}: <b>${companyNif}</b> · <span class="muted">${t(lang, 'companyOwnToken')}</span></p>`;
  const checked = (await deps.redis.get(CompanyGuard.key(deps.prefix, tenant.config.id))) === companyFingerprint(tenant.config);
  const wrong = checked ? undefined : await CompanyGuard.wrongCompany(deps.redis, deps.prefix, tenant.config);
  if (wrong) {
    const words = { actual: wrong.actual, actualTenant: wrong.actualTenant, actualPartner: wrong.actualPartner };
    return html`<p id="company">${t(lang, 'company')}: <b>${companyNif}</b> · <span class="warn">${CONSOLE.say(lang, 'company-wrong', words)}</span></p>`;
  }
  return html`<p id="company">${t(lang, 'company')}: <b>${companyNif}</b> · <span class="${checked ? 'muted' : 'warn'}">${t(lang, checked ? 'companyChecked' : 'companyNotChecked')}</span></p>`;
}

/** Refused deliveries of this shop, by reason, with the likely cause and the fix (ingest/webhook-health.ts). */
async function refusalsTable(deps: ConsoleDeps, tenant: TenantRuntime, lang: Lang): Promise<Html> {
  const refusals = await refusalsOf(deps.redis, deps.prefix, tenant.config.id);
  if (refusals.length === 0) return html`<h3>${t(lang, 'refusedDeliveries')}</h3><p>${t(lang, 'noRefusals')}</p>`;
  const zone = tenant.mapping.shopTimeZone;
  // The cause and the fix name the tenant's platform's screens and settings (its words, not another platform's).
  const platform = platformOf(tenant.config);
  const rows = refusals.map((refusal) => {
    const words = platform.deliveryProblemWords(lang, refusal.reason);
    return html`<tr data-reason="${refusal.reason}"><td data-label="${t(lang, 'reason')}">${refusal.reason}</td><td class="warn" data-label="${t(lang, 'count')}">${refusal.count}</td><td data-label="${t(lang, 'lastSeen')}">${shopTime(refusal.lastAt, zone, lang)}</td><td data-label="${t(lang, 'likelyCause')}">${words.cause}</td><td data-label="${t(lang, 'whatToDo')}">${words.fix}</td></tr>`;
  });
  return html`<h3>${t(lang, 'refusedDeliveries')}</h3><table id="refusals" class="stack"><tr><th>${t(lang, 'reason')}</th><th>${t(lang, 'count')}</th><th>${t(lang, 'lastSeen')}</th><th>${t(lang, 'likelyCause')}</th><th>${t(lang, 'whatToDo')}</th></tr>${rows}</table>`;
}

/** ✓, or the number of webhook problems: inactive or missing webhooks, and deliveries refused in the last hour (read live, as the shop page does). */
export function webhookHealth(sweep: SweepReport | null, refusedNow?: number): Html | string {
  if (!sweep && !refusedNow) return '–';
  const problems = (sweep ? sweep.inactiveWebhooks.length + sweep.missingTopics.length : 0) + (refusedNow ?? (sweep?.refusedDeliveries ?? []).length);
  if (problems === 0) return html`<span class="good">✓</span>`;
  return html`<span class="warn">${problems} ✗</span>`;
}

/** A warning at the top when the periodic sweep is not scheduled (a worker re-creates it; if it stays, none runs). */
export async function sweepNotice(deps: ConsoleDeps, view: View): Promise<Html | string> {
  if (!deps.sweepQueue || !deps.sweepEveryMinutes) return '';
  const state = await sweepScheduleState(deps.sweepQueue, deps.sweepEveryMinutes, Date.now()).catch(() => 'scheduled' as const);
  return state === 'missing' || state === 'late' ? html`<p class="warn" id="sweep-missing">${t(view.lang, 'sweepMissing')}</p>` : '';
}

/** Orders waiting for a person shown per console page (the rest are a "Next" away, never cut off). */
const WAITING_PAGE = 100;

function pager(lang: Lang, base: string, anchor: string, offset: number, shown: number, total: number, size: number): Html | string {
  if (total <= size && offset === 0) return '';
  return html`<p class="muted pager">${t(lang, 'shownOf')} ${offset + 1}–${offset + shown} ${t(lang, 'of')} ${total}
${offset > 0 ? html` · <a href="${base}${Math.max(0, offset - size)}#${anchor}">${t(lang, 'previousPage')}</a>` : ''}${offset + size < total ? html` · <a href="${base}${offset + size}#${anchor}">${t(lang, 'nextPage')}</a>` : ''}</p>`;
}

export async function waitingSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View, offset: number): Promise<Html> {
  const { lang } = view;
  const zone = tenant.mapping.shopTimeZone;
  const attention = await deps.ledger.attentionPage({ tenant: tenant.config.id, offset, limit: WAITING_PAGE });
  const refs = attention.members.map((member) => member.split(':'));
  const shown = await shownOrders(deps, tenant, refs.map(([, orderText]) => Number(orderText)));
  const items = await Promise.all(
    refs.map(async ([, orderText, purpose]) => {
      const orderId = Number(orderText);
      const entry = await deps.ledger.get({ tenant: tenant.config.id, orderId, purpose });
      return entry ? waitingItem(tenant, view, shown(orderId), orderId, purpose, entry, zone) : html``;
    }),
  );
  const more = pager(lang, `/console/${tenant.config.id}?waitingFrom=`, 'waiting', offset, refs.length, attention.total, WAITING_PAGE);
  return html`<section id="waiting"><h2>${t(lang, 'waiting')} (${attention.total})</h2>${attention.total === 0 ? html`<p>${t(lang, 'noneWaiting')}</p>` : html`${items}${more}`}</section>`;
}

function waitingItem(tenant: TenantRuntime, view: View, shown: string, orderId: number, purpose: string, entry: LedgerEntry, zone: string): Html {
  const { lang, token } = view;
  const base = orderPagePath(tenant.config.id, orderId);
  const hidden = html`<input type="hidden" name="csrf" value="${token}"><input type="hidden" name="purpose" value="${purpose}"><input type="hidden" name="from" value="shop">`;
  const words = entryWords(lang, entry, { tenant: tenant.config.id, orderId, purpose }, 'console');
  return html`<div class="item" data-order="${orderId}">
<p><a href="${base}"><b>${t(lang, 'order')} ${shown}</b></a> · ${purposeLabel(lang, purpose)} · <span class="muted">${t(lang, 'state')}: ${stateLabel(lang, entry.state)}${entry.alertAt ? ` · ${shopTime(entry.alertAt, zone, lang)}` : ''}</span></p>
<p><b>${t(lang, 'why')}:</b> ${words.reason}</p>
<p><b>${t(lang, 'whatToDo')}:</b> ${words.action}</p>
<div class="actions">
${settledDocument(entry) ? '' : html`<form method="post" action="${base}/retry">${hidden}<button class="${entry.state === 'held' ? 'secondary' : ''}">${BUTTONS.retry[lang]}</button></form>`}
${entry.state === 'held' ? html`<form method="get" action="${base}/preview"><input type="hidden" name="purpose" value="${purpose}"><button>${BUTTONS.issueNow[lang]}</button></form>` : ''}
${entry.state === 'duplicate-unknown-id' ? html`<form method="post" action="${base}/attach">${hidden}<input name="documentId" inputmode="numeric" placeholder="${t(lang, 'documentId')}" aria-label="${t(lang, 'documentId')}"><button>${BUTTONS.attach[lang]}</button></form>` : ''}
${canDismiss(entry) ? html`<form method="post" action="${base}/dismiss">${hidden}<input class="reason" name="reason" required minlength="3" maxlength="500" placeholder="${t(lang, 'dismissReason')}" aria-label="${t(lang, 'dismissReason')}"><button class="secondary">${BUTTONS.dismiss[lang]}</button></form>` : ''}
</div></div>`;
}

/** An issued document written back: what waits is a difference settled in the back-office, not a retry. */
function settledDocument(entry: LedgerEntry): boolean {
  return entry.documentId !== undefined && entry.state === 'written-back';
}

export async function notInvoicedSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View): Promise<Html> {
  const { lang } = view;
  const rows = await notInvoicedRows(deps, tenant, lang);
  const zone = tenant.mapping.shopTimeZone;
  if (rows.length === 0) return html`<section id="not-invoiced"><h2>${t(lang, 'notInvoiced')} (0)</h2><p>${t(lang, 'noneNotInvoiced')}</p></section>`;
  const shown = await shownOrders(deps, tenant, rows.map((row) => row.orderId));
  const lines = rows.map(
    (row) =>
      html`<tr data-order="${row.orderId}" data-kind="${row.kind}"><td class="check">${row.issuable ? html`<input type="checkbox" name="order" value="${row.orderId}" aria-label="${shown(row.orderId)}">` : ''}</td><td class="nowrap" data-label="${t(lang, 'order')}"><a href="${orderPagePath(tenant.config.id, row.orderId)}">${shown(row.orderId)}</a></td><td class="nowrap" data-label="${t(lang, 'kind')}">${row.kind === 'before-go-live' || row.kind === 'other-system' ? t(lang, `kind.${row.kind}`) : stateLabel(lang, row.state)}</td><td>${row.why}</td><td class="wide nowrap">${row.at ? shopTime(row.at, zone, lang) : ''}</td></tr>`,
  );
  return html`<section id="not-invoiced"><h2>${t(lang, 'notInvoiced')} (${rows.length})</h2><p class="muted">${t(lang, 'notInvoicedHelp')}</p>
<form method="get" action="/console/${tenant.config.id}/not-invoiced/preview" class="block">
<table class="stack"><tr><th class="check"></th><th class="nowrap">${t(lang, 'order')}</th><th>${t(lang, 'kind')}</th><th></th><th class="wide">${t(lang, 'when')}</th></tr>${lines}</table>
<div class="actions"><button>${t(lang, 'issueChosen')}</button></div></form></section>`;
}

/** Today's figures and this shop's queue, in an owner's words; a red figure lists the orders behind it. */
export async function figuresSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View): Promise<Html> {
  const { lang } = view;
  const id = tenant.config.id;
  const today = await deps.ledger.writtenBackSince(id, startOfShopDay(Date.now(), tenant.mapping.shopTimeZone));
  const waiting = (await deps.ledger.attentionCounts()).get(id) ?? 0;
  const queue = (await queueByTenant(deps.queue)).get(id) ?? { now: 0, nowJobs: [], later: 0, laterJobs: [], failed: [] };
  const figure = (key: string, label: string, value: number, warn = false) => html`<div class="figure" data-figure="${key}"><b class="${warn ? 'warn' : ''}">${value}</b>${label}</div>`;
  const failedOrders = [...new Map(queue.failed.map((job) => [job.orderId, job])).values()];
  const shown = await shownOrders(deps, tenant, failedOrders.slice(0, 50).map((job) => job.orderId));
  const behind =
    failedOrders.length === 0
      ? ''
      : html`<p id="failed-orders" class="warn">${t(lang, 'queueFailedHelp')}: ${failedOrders.slice(0, 50).map((job, index) => html`${index > 0 ? ', ' : ''}<a href="${orderPagePath(id, job.orderId)}">${shown(job.orderId)}</a> <span class="muted">(${purposeLabel(lang, job.purpose).toLowerCase()})</span>`)}${failedOrders.length > 50 ? ' …' : ''}</p>`;
  return html`<section id="today"><h2>${t(lang, 'today')}</h2><div class="figures">
${figure('issued', t(lang, 'issuedToday'), today)}${figure('waiting', t(lang, 'waiting'), waiting, waiting > 0)}
${figure('now', t(lang, 'queueNow'), queue.now)}${figure('later', t(lang, 'queueLater'), queue.later)}${figure('failed', t(lang, 'queueFailed'), failedOrders.length, failedOrders.length > 0)}
</div>${behind}${await retryingList(deps, tenant, lang, queue.laterJobs)}</section>`;
}

/**
 * Each order that waits for a new attempt, with why, from its first failed attempt: what it waits
 * on in the outside world (VIES, the shop, the invoicing service), not only a count. Orders that only
 * wait for their number (the service's 10 s) are not listed.
 */
async function retryingList(deps: ConsoleDeps, tenant: TenantRuntime, lang: Lang, jobs: ShopQueue['laterJobs']): Promise<Html | string> {
  const id = tenant.config.id;
  const entries = await Promise.all(jobs.slice(0, 100).map(async (job) => ({ job, entry: await deps.ledger.get({ tenant: id, orderId: job.orderId, purpose: job.purpose }) })));
  const retrying = entries.filter(({ entry }) => entry?.lastError);
  if (retrying.length === 0) return '';
  const shown = await shownOrders(deps, tenant, retrying.map(({ job }) => job.orderId));
  const items = retrying.map(
    ({ job, entry }) =>
      html`<li data-order="${job.orderId}"><a href="${orderPagePath(id, job.orderId)}">${shown(job.orderId)}</a> <span class="muted">(${purposeLabel(lang, job.purpose).toLowerCase()})</span>: ${attemptWaitWords(lang, entry ?? {}, tenant.config.shop.timeoutMs)}</li>`,
  );
  return html`<div id="retrying" class="item calm"><p><b>${t(lang, 'retryingTitle')}</b></p><ul>${items}</ul></div>`;
}

/** A call to the shop from a page: its answer, or why there is none (never the page's own time-out, which means Redis). */
export async function askShop<T>(deps: ConsoleDeps, tenant: TenantRuntime, call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; why: (lang: Lang) => string }> {
  try {
    const value = await withTimeout(call(), SHOP_WAIT_MS);
    return { ok: true, value };
  } catch (error) {
    // A shop that refuses the key or does not answer is said on every page (shop/shop-answer.ts).
    await recordShopAnswer(deps.redis, deps.prefix, tenant.config.id, error, Date.now()).catch(() => undefined);
    return { ok: false, why: (lang) => failedShopCallWords(lang, error, SHOP_WAIT_MS, tenant.config.shop.timeoutMs, refusedWordsOf(tenant.config)) };
  }
}

/**
 * A warning line when the shop is in the art. 53 regime and its year's M10 invoices near (or passed)
 * the EUR 18,750 exit (DL 35/2025): the figure, the limit and what to plan (core/regime-standing.ts).
 */
export async function regimeNotice(deps: ConsoleDeps, tenant: TenantRuntime, lang: Lang): Promise<Html | string> {
  const standing = await regimeStanding(deps.ledger, tenant.config.id, tenant.mapping, Date.now()).catch(() => undefined);
  const words = regimeStandingWords(lang, standing);
  return words ? html`<p id="regime-limit" class="warn" data-state="${standing?.state ?? ''}">${words.what} ${words.fix}</p>` : '';
}

/** A banner at the top of a shop's pages when the shop was last seen not answering (or refusing the key). */
export async function shopAnswerBanner(deps: ConsoleDeps, tenant: TenantRuntime, lang: Lang): Promise<Html | string> {
  const words = shopAnswerWords(lang, await readShopAnswer(deps.redis, deps.prefix, tenant.config.id), tenant.config.shop.timeoutMs, tenant.mapping.shopTimeZone, refusedWordsOf(tenant.config));
  return words ? html`<p id="shop-silent" class="warn">${words}</p>` : '';
}

/** The shop's documents, newest first, with the customer (one `include=` call to the shop per page), paged. */
export async function recentSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View, offset: number): Promise<Html> {
  const { lang } = view;
  const id = tenant.config.id;
  const zone = tenant.mapping.shopTimeZone;
  const [recent, total] = await Promise.all([deps.ledger.recent(id, RECENT_PAGE, offset), deps.ledger.recentCount(id)]);
  const asked = await askShop(deps, tenant, () => ordersByIds(tenant.shop, recent.map((item) => item.orderId)));
  const names = asked.ok ? asked.value : new Map<number, ShopOrderHead>();
  const rows = await Promise.all(
    recent.map(async (item) => {
      const entry = await deps.ledger.get({ tenant: id, orderId: item.orderId, purpose: item.purpose });
      if (entry?.documentId === undefined) return html``;
      const corrects = item.purpose === 'cancellation' || item.purpose.startsWith('credit-note-') ? (await deps.ledger.get({ tenant: id, orderId: item.orderId, purpose: 'invoice' }))?.documentNumber : undefined;
      const type = entry.documentType ?? (corrects !== undefined || item.purpose !== 'invoice' ? (item.purpose === 'waybill' ? undefined : 'C') : undefined);
      const head = names.get(item.orderId);
      return html`<tr data-order="${item.orderId}"><td data-label="${t(lang, 'order')}"><a href="${orderPagePath(id, item.orderId)}">${orderShown(item.orderId, head)}</a></td><td data-label="${t(lang, 'customer')}">${head ? customerName(head) : '–'}</td>
<td data-label="${t(lang, 'document')}">${documentTypeLabel(lang, type)}${corrects ? html`<br><span class="muted">${t(lang, 'corrects')} ${corrects}</span>` : ''}</td><td class="nowrap" data-label="${t(lang, 'number')}">${entry.documentNumber ?? ''}</td><td class="num" data-label="${t(lang, 'total')}">${amount(lang, entry.total, entry.currency)}</td>
<td class="nowrap"><a href="${deps.links.link(id, entry.documentId)}">${t(lang, 'pdf')}</a></td><td class="wide nowrap">${shopTime(item.at, zone, lang)}</td></tr>`;
    }),
  );
  const more = pager(lang, `/console/${id}?recentFrom=`, 'recent', offset, recent.length, total, RECENT_PAGE);
  const noNames = !asked.ok && recent.length > 0 ? html`<p class="warn" id="names-missing">${t(lang, 'namesMissing')}: ${asked.why(lang)}</p>` : '';
  return html`<section id="recent"><h2>${t(lang, 'recent')} (${total})</h2>${noNames}${
    recent.length === 0
      ? html`<p>${t(lang, 'noneRecent')}</p>`
      : html`<table class="stack"><tr><th>${t(lang, 'order')}</th><th>${t(lang, 'customer')}</th><th>${t(lang, 'document')}</th><th>${t(lang, 'number')}</th><th class="num">${t(lang, 'total')}</th><th>${t(lang, 'pdf')}</th><th class="wide">${t(lang, 'when')}</th></tr>${rows}</table>${more}`
  }</section>`;
}

export async function healthSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View): Promise<Html> {
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
<p>${t(lang, 'lastSweep')}: ${sweep?.until ? html`${shopTime(Date.parse(sweep.until), zone, lang)} · ${sweepSummary(lang, { scanned: sweep.scanned, enqueued: sweep.enqueued.length, resumed: (sweep.resumed ?? []).length, advancePayments: (sweep.advancePayments ?? []).length })}` : t(lang, 'never')}</p>
<p>${t(lang, 'webhooksChecked')}: ${sweep?.webhooksCheckedAt ? shopTime(Date.parse(sweep.webhooksCheckedAt), zone, lang) : t(lang, 'never')}</p>
${webhooks}
${await refusalsTable(deps, tenant, lang)}
<form method="post" action="/console/${tenant.config.id}/sweep"><input type="hidden" name="csrf" value="${token}"><button class="secondary">${t(lang, 'sweepNow')}</button></form></section>`;
}

/** How the shop shows the orders of a list (connector/shop/order-shown.ts), asked as the page asks the shop. */
async function shownOrders(deps: ConsoleDeps, tenant: TenantRuntime, ids: readonly number[]): Promise<(orderId: number) => string> {
  return shownBy(tenant, ids, async (call) => {
    const asked = await askShop(deps, tenant, call);
    return asked.ok ? asked.value : undefined;
  });
}
