import { randomUUID } from 'node:crypto';
import { TimeoutError, withTimeout } from '../core/timeout';
import { isBindingHold } from '../../law/credit-limits';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { idFrom, IdText } from '../core/jobs';
import { adminUser } from '../admin/basic-auth';
import { attachDocument, creditableInvoice, creditWholeInvoice, dismissOrder, releaseHold, retryOrder, type ActionResult } from '../admin/order-actions';
import { BUTTONS, orderPagePath, purposeLabel, sweepSummary, type Lang } from '../words';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { platformOf } from '../../platforms/registry';
import { sweepTenant } from '../sweep/sweep';
import { reloadProblems, type ReloadResult } from '../config/reload';
import { isRedisOutage } from '../core/redis-connection';
import { csrfProblem, csrfToken } from './csrf';
import { issueChosen, notInvoicedRows } from './not-invoiced-list';
import { monthLink, registerMonthPage } from './month-page';
import { pickLang, shopTime, t } from './i18n';
import { readLang } from '../../messages/lang';
import type { ConsoleDeps } from './console-deps';
import { amount, orderPageBody, statusLabelOf } from './order-page';
import { orderShown } from '../shop/order-shown';
import { html, page, type Html, type View } from './page';
import { previewDocument, type DocumentPreview } from './preview';
import { previewHtml } from './preview-page';
import { searchOrders, shopMoreWords, type FoundOrders } from './search';
import { companyLine, figuresSection, healthSection, notInvoicedSection, pageOffset, recentSection, regimeNotice, shopAnswerBanner, sweepNotice, waitingSection } from './shop-page';
import { allShopsTable } from './all-shops';
import { CONSOLE } from './console-messages';


const Purpose = z.string().regex(/^(invoice|waybill|cancellation|credit-note-\d+)$/);
const OrderForm = z.object({ purpose: Purpose, csrf: z.string() });
const AttachForm = OrderForm.extend({ documentId: IdText });
const DismissForm = OrderForm.extend({ reason: z.string().trim().min(3).max(500) });
/** The total the person saw in the preview (kept in the note and the history). */
const SeenTotal = z.string().regex(/^-?\d{1,12}(\.\d{1,2})?$/).optional().catch(undefined);
const ConfirmForm = z.object({ csrf: z.string(), total: SeenTotal, currency: z.string().regex(/^[A-Z]{3}$/).optional() });

/** How long a console page may wait for Redis before it says Redis does not answer. */
const PAGE_TIMEOUT_MS = 5_000;

/**
 * The operator's console, server-rendered HTML behind the admin credentials: every shop at a glance
 * (problems first), and per shop a search, the orders waiting for a person (why, what to do, and the
 * buttons to do it), orders not invoiced, today's figures and queue, recent documents with their
 * customer and PDF, the sweep and webhook health; every order has its own page (its documents,
 * actions and story), and every action that issues a certified document shows it first.
 */
/** The ledger's count of the year's M10 documents, for a preview that shows what the pipeline would issue. */
const regimeCounts = (deps: ConsoleDeps, tenant: string) => ({ regimeTurnover: (year: number) => deps.ledger.regimeTurnover(tenant, year) });

export function consoleRouter(deps: ConsoleDeps): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '16kb' }));

  const viewOf = (req: Request, res: Response): View => {
    const lang = pickLang(req.query.lang, req.get('cookie'), req.get('accept-language'));
    if (readLang(req.query.lang)) res.cookie('lang', lang, { sameSite: 'lax', httpOnly: true, path: '/console' });
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
    res.setHeader('Cache-Control', 'no-store');
    return { lang, token: csrfToken(deps.secret, req) };
  };
  const langOf = (req: Request): Lang => pickLang(req.query.lang, req.get('cookie'), req.get('accept-language'));
  const queryOf = (req: Request): URLSearchParams => new URLSearchParams(req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '');
  const send = async (req: Request, res: Response, view: View, title: string, body: Html, status = 200): Promise<void> => {
    res.status(status).type('html').send(page(view.lang, title, body, await takeFlash(req), queryOf(req)));
  };
  /** A GET page: built within PAGE_TIMEOUT_MS (Redis away: the 503 page below). */
  const get = (path: string, build: (req: Request, res: Response) => Promise<void>) =>
    router.get(path, async (req: Request, res: Response) => {
      await withTimeout(build(req, res), PAGE_TIMEOUT_MS);
    });
  const notFound = (req: Request, res: Response, what: 'unknownShop' | 'unknownOrderId'): void => {
    const view = viewOf(req, res);
    res.status(404).type('html').send(page(view.lang, t(view.lang, 'title'), html`<section><h2>${t(view.lang, what)}</h2><p><a href="/console">← ${t(view.lang, 'back')}</a></p></section>`, undefined, queryOf(req)));
  };

  get('/', async (req, res) => {
    const view = viewOf(req, res);
    const body = html`${await sweepNotice(deps, view)}${await allShopsTable(deps, view, shopName)}${reloadSection(deps, view)}`;
    await send(req, res, view, t(view.lang, 'title'), body);
  });

  router.post('/reload', async (req: Request, res: Response) => {
    const forged = csrfProblem(deps.secret, req, (req.body as Record<string, unknown> | undefined)?.csrf);
    if (forged) return void res.status(403).type('text').send(forged);
    if (!deps.reloads) return void res.status(404).type('text').send('reload is not available here');
    const result = await deps.reloads.reload();
    res.redirect(303, `/console?flash=${await putFlash({ ok: result.ok, text: reloadWords(result, langOf(req), consoleZone(deps)) })}`);
  });

  registerMonthPage(router, deps, { viewOf, send, notFound, shopName });

  get('/:tenant', async (req, res) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    if (!tenant) return notFound(req, res, 'unknownShop');
    const view = viewOf(req, res);
    const sections = [
      await sweepNotice(deps, view),
      await waitingSection(deps, tenant, view, pageOffset(req.query.waitingFrom)),
      await notInvoicedSection(deps, tenant, view),
      await figuresSection(deps, tenant, view),
      await recentSection(deps, tenant, view, pageOffset(req.query.recentFrom)),
      await healthSection(deps, tenant, view),
    ];
    await send(req, res, view, `${shopName(tenant)} · ${t(view.lang, 'title')}`, html`${shopHeading(deps, tenant, view)}${await shopAnswerBanner(deps, tenant, view.lang)}${await regimeNotice(deps, tenant, view.lang)}${await companyLine(deps, tenant, view.lang)}${searchBar(tenant, view)}${sections}`);
  });

  get('/:tenant/search', async (req, res) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    if (!tenant) return notFound(req, res, 'unknownShop');
    const view = viewOf(req, res);
    const query = typeof req.query.q === 'string' ? req.query.q.trim().slice(0, 100) : '';
    const found: FoundOrders = query ? await searchOrders(deps, tenant, query) : { results: [] };
    // An order number that is an order, or one order found: its page straight away (a number may
    // also be in other orders' phone numbers or postcodes: the order of that number wins).
    const byNumber = found.results.find((result) => result.by === 'number');
    if (byNumber) return void res.redirect(303, orderPagePath(tenant.config.id, byNumber.orderId));
    if (found.results.length === 1 && !found.shopDown) return void res.redirect(303, orderPagePath(tenant.config.id, found.results[0].orderId));
    const { lang } = view;
    const zone = tenant.mapping.shopTimeZone;
    const statusLabel = statusLabelOf(platformOf(tenant.config));
    const rows = found.results.map(
      (r) => html`<tr data-order="${r.orderId}"><td data-label="${t(lang, 'order')}"><a href="${orderPagePath(tenant.config.id, r.orderId)}">${orderShown(r.orderId, r)}</a></td><td data-label="${t(lang, 'customer')}">${r.name ?? '–'}</td>
<td class="num" data-label="${t(lang, 'total')}">${r.total ? amount(lang, r.total, r.currency) : '–'}</td><td data-label="${t(lang, 'state')}">${r.status ? html`<span class="tag">${statusLabel(lang, r.status)}</span>` : '–'}</td>
<td data-label="${t(lang, 'foundBy')}">${t(lang, `foundBy.${r.by}`)}</td><td class="wide">${r.createdAt ? shopTime(r.createdAt, zone, lang) : ''}</td></tr>`,
    );
    const body = html`${shopHeading(deps, tenant, view)}${searchBar(tenant, view, query)}<section id="search-results"><h2>${t(lang, 'searchResults')}${query ? html`: <q>${query}</q>` : ''}</h2>
${found.shopDown ? html`<p class="warn">${t(lang, 'searchShopDown')}: ${found.shopDown}</p>` : ''}
${found.shopMore ? html`<div class="item calm" id="search-more"><p>${shopMoreWords(lang, found.shopMore)}</p></div>` : ''}
${rows.length === 0 ? html`<p>${t(lang, 'searchNone')}</p>` : html`<table class="stack"><tr><th>${t(lang, 'order')}</th><th>${t(lang, 'customer')}</th><th class="num">${t(lang, 'total')}</th><th>${t(lang, 'state')}</th><th>${t(lang, 'foundBy')}</th><th class="wide">${t(lang, 'createdAt')}</th></tr>${rows}</table>`}</section>`;
    await send(req, res, view, `${t(lang, 'searchResults')} · ${shopName(tenant)}`, body);
  });

  get('/:tenant/orders/:orderId', async (req, res) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    const orderId = idFrom(req.params.orderId);
    if (!tenant || orderId === null) return notFound(req, res, 'unknownOrderId');
    const view = viewOf(req, res);
    const { body, found, shown } = await orderPageBody(deps, tenant, view, orderId);
    await send(req, res, view, `${t(view.lang, 'order')} ${shown} · ${shopName(tenant)}`, html`${shopHeading(deps, tenant, view)}${searchBar(tenant, view)}${body}`, found ? 200 : 404);
  });

  /** The document "issue now", the credit note or the cancellation rule would issue, and the confirmation button. */
  get('/:tenant/orders/:orderId/preview', async (req, res) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    const orderId = idFrom(req.params.orderId);
    if (!tenant || orderId === null) return notFound(req, res, 'unknownOrderId');
    const view = viewOf(req, res);
    const { lang, token } = view;
    const id = tenant.config.id;
    const purpose = req.query.purpose === 'cancellation' ? 'cancellation' : 'invoice';
    const policy = purpose === 'cancellation' && req.query.policy === '1';
    const base = orderPagePath(id, orderId);
    const back = html`<p><a href="${base}">← ${t(lang, 'backToOrder')}</a></p>`;
    let content: Html;
    if (purpose === 'invoice') {
      const entry = await deps.ledger.get({ tenant: id, orderId, purpose: 'invoice' });
      if (entry?.state !== 'held') {
        content = html`<p>${t(lang, 'nothingToPreview')}</p>`;
      } else {
        const preview = await previewDocument(tenant, orderId, 'invoice', null, Date.now(), regimeCounts(deps, tenant.config.id));
        content = html`${previewHtml(lang, preview)}${confirmForm(`${base}/release`, view, preview, html`<input type="hidden" name="purpose" value="invoice">`, tenant)}`;
      }
    } else {
      const creditable = await creditableInvoice(deps, id, orderId);
      if (!creditable.ok) {
        content = html`<p>${t(lang, 'nothingToPreview')}</p>`;
      } else if (policy && tenant.config.settings.onCancelled === 'cancel') {
        content = html`<div class="item"><p>${CONSOLE.say(lang, 'cancel-preview', { number: creditable.invoice.documentNumber ?? '' })}</p></div>
<form method="post" action="${base}/cancellation"><input type="hidden" name="csrf" value="${token}"><button class="danger">${BUTTONS.confirmIssue[lang]}</button></form>`;
      } else {
        const preview = await previewDocument(tenant, orderId, 'cancellation', creditable.invoice, Date.now(), regimeCounts(deps, tenant.config.id));
        content = html`${previewHtml(lang, preview)}${confirmForm(`${base}/${policy ? 'cancellation' : 'credit-note'}`, view, preview, html``, tenant)}`;
      }
    }
    const body = html`${shopHeading(deps, tenant, view)}${back}<section id="preview"><h2>${t(lang, 'previewTitle')}</h2><p class="muted">${t(lang, 'previewHelp')}</p>${content}</section>`;
    await send(req, res, view, `${t(lang, 'previewTitle')} · #${orderId}`, body);
  });

  /** The chosen orders of the not-invoiced list, each as it would be issued, then one confirmation. */
  get('/:tenant/not-invoiced/preview', async (req, res) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    if (!tenant) return notFound(req, res, 'unknownShop');
    const view = viewOf(req, res);
    const { lang, token } = view;
    const chosen = [...new Set(([] as unknown[]).concat(req.query.order ?? []).map((text) => idFrom(text)).filter((id): id is number => id !== null))].slice(0, 50);
    const rows = await notInvoicedRows(deps, tenant, lang);
    const issuable = chosen.filter((orderId) => rows.some((row) => row.orderId === orderId && row.issuable));
    const previews = await Promise.all(issuable.map((orderId) => previewDocument(tenant, orderId, 'invoice', null, Date.now(), regimeCounts(deps, tenant.config.id))));
    const confirmable = previews.filter((preview) => preview.refusal === undefined && preview.unreadable === undefined);
    const back = html`<p><a href="/console/${tenant.config.id}#not-invoiced">← ${shopName(tenant)}</a></p>`;
    const body = html`${shopHeading(deps, tenant, view)}${back}<section id="preview"><h2>${t(lang, 'previewTitle')}</h2><p class="muted">${t(lang, 'previewHelp')}</p>
${previews.length === 0 ? html`<p>${CONSOLE.say(lang, 'choose-issuable')}</p>` : previews.map((preview) => previewHtml(lang, preview))}
${
  confirmable.length > 0
    ? html`<form method="post" action="/console/${tenant.config.id}/not-invoiced/issue"><input type="hidden" name="csrf" value="${token}">${confirmable.map((preview) => html`<input type="hidden" name="order" value="${preview.orderId}">`)}<button>${BUTTONS.confirmIssue[lang]} (${confirmable.length})</button></form>`
    : ''
}</section>`;
    await send(req, res, view, `${t(lang, 'previewTitle')} · ${shopName(tenant)}`, body);
  });

  /** Every form posts here: checked, carried out, then the page again with what happened (POST-redirect-GET). */
  const action = (run: (tenant: TenantRuntime, req: Request, lang: Lang) => Promise<ActionResult<unknown> | { ok: true; value: string }>) => {
    return async (req: Request, res: Response) => {
      const tenant = deps.tenants.get(String(req.params.tenant));
      if (!tenant) return void res.status(404).type('text').send('unknown tenant');
      if (req.params.orderId !== undefined && idFrom(req.params.orderId) === null) return void res.status(404).type('text').send('unknown order id: an order id is written in digits');
      const lang = langOf(req);
      const forged = csrfProblem(deps.secret, req, (req.body as Record<string, unknown> | undefined)?.csrf);
      if (forged) return void res.status(403).type('text').send(forged);
      let flash: { ok: boolean; text: string };
      try {
        const result = await run(tenant, req, lang);
        flash = result.ok ? { ok: true, text: `${t(lang, 'done')}: ${summary(result.value, lang)}` } : { ok: false, text: `${t(lang, 'failed')}: ${'says' in result && result.says ? result.says[lang] : result.error}` };
      } catch (error) {
        if (redisDown(error)) throw error;
        flash = { ok: false, text: `${t(lang, 'failed')}: ${(error as Error).message}` };
      }
      const toOrder = req.params.orderId !== undefined && (req.body as Record<string, unknown> | undefined)?.from !== 'shop';
      const target = toOrder ? orderPagePath(tenant.config.id, Number(req.params.orderId)) : `/console/${tenant.config.id}`;
      res.redirect(303, `${target}?flash=${await putFlash(flash)}`);
    };
  };

  const orderRef = (tenant: TenantRuntime, req: Request, form: { purpose: string }) => ({ tenant: tenant.config.id, orderId: Number(req.params.orderId), purpose: form.purpose });
  const formError = (message: string): ActionResult<never> => ({ ok: false, status: 409, error: message });

  router.post(
    '/:tenant/orders/:orderId/retry',
    action(async (tenant, req) => retryOrder(deps, tenant.config.id, Number(req.params.orderId), adminUser(req))),
  );
  router.post(
    '/:tenant/orders/:orderId/attach',
    action(async (tenant, req, lang) => {
      const form = AttachForm.safeParse(req.body);
      if (!form.success) return formError(CONSOLE.say(lang, 'form-document-id'));
      return attachDocument(deps, orderRef(tenant, req, form.data), form.data.documentId, adminUser(req));
    }),
  );
  /** "Issue now" of a held order, confirmed on its preview. */
  router.post(
    '/:tenant/orders/:orderId/release',
    action(async (tenant, req, lang) => {
      const form = OrderForm.safeParse(req.body);
      if (!form.success) return formError(CONSOLE.say(lang, 'form-incomplete'));
      const seen = ConfirmForm.safeParse(req.body);
      return releaseHold(deps, orderRef(tenant, req, form.data), adminUser(req), { total: seen.success ? seen.data.total : undefined, currency: seen.success ? seen.data.currency : undefined });
    }),
  );
  /** The whole invoice credited, confirmed on its preview. */
  router.post(
    '/:tenant/orders/:orderId/credit-note',
    action(async (tenant, req, lang) => {
      const seen = ConfirmForm.safeParse(req.body);
      const asked = await creditWholeInvoice(deps, { tenant: tenant.config.id, orderId: Number(req.params.orderId) }, adminUser(req), { total: seen.success ? seen.data.total : undefined, currency: seen.success ? seen.data.currency : undefined });
      // Said as what it is: a credit note of the whole invoice (its purpose is named "cancellation" in the ledger).
      return asked.ok ? { ok: true, value: CONSOLE.say(lang, 'credit-note-asked') } : asked;
    }),
  );
  /** The shop's cancellation rule for a cancelled order, confirmed on its preview. */
  router.post(
    '/:tenant/orders/:orderId/cancellation',
    action(async (tenant, req, lang) => {
      const seen = ConfirmForm.safeParse(req.body);
      const asked = await creditWholeInvoice(deps, { tenant: tenant.config.id, orderId: Number(req.params.orderId) }, adminUser(req), { policy: true, total: seen.success ? seen.data.total : undefined });
      if (!asked.ok) return asked;
      return { ok: true, value: CONSOLE.say(lang, tenant.config.settings.onCancelled === 'cancel' ? 'invoice-cancel-asked' : 'credit-note-asked') };
    }),
  );
  router.post(
    '/:tenant/orders/:orderId/dismiss',
    action(async (tenant, req, lang) => {
      const form = DismissForm.safeParse(req.body);
      if (!form.success) return formError(CONSOLE.say(lang, 'form-dismiss-reason'));
      return dismissOrder(deps, orderRef(tenant, req, form.data), form.data.reason, adminUser(req));
    }),
  );
  router.post(
    '/:tenant/not-invoiced/issue',
    action(async (tenant, req, lang) => {
      const chosen = ([] as unknown[]).concat((req.body as Record<string, unknown>).order ?? []).map(Number).filter((id) => Number.isInteger(id) && id > 0);
      if (chosen.length === 0) return formError(CONSOLE.say(lang, 'form-choose-order'));
      const outcomes = await issueChosen(deps, tenant, chosen, adminUser(req));
      return {
        ok: true,
        value: outcomes.map((o) => (o.ok ? CONSOLE.say(lang, 'chosen-issuing', { order: o.orderId }) : `#${o.orderId} ✗ ${o.detail}`)).join('; '),
      };
    }),
  );
  router.post(
    '/:tenant/sweep',
    action(async (tenant, _req, lang) => {
      const report = await sweepTenant(tenant, deps);
      return { ok: true, value: sweepSummary(lang, { scanned: report.scanned, enqueued: report.enqueued.length, resumed: report.resumed.length, advancePayments: (report.advancePayments ?? []).length }) };
    }),
  );

  /** Redis away: a page that says so and what to do, in the reader's language (never a JSON 500). */
  router.use((error: Error, req: Request, res: Response, next: NextFunction) => {
    if (!redisDown(error) || res.headersSent) return next(error);
    deps.logger.warn({ err: error.message, path: req.path }, 'console page while Redis does not answer');
    const lang = langOf(req);
    res.setHeader('Retry-After', '5');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
    const body = html`<section id="redis-down"><h2 class="warn">${t(lang, 'redisDownTitle')}</h2><p>${t(lang, 'redisDownWhat')}</p><p>${t(lang, 'redisDownFix')}</p><details><summary class="muted">${t(lang, 'technicalDetail')}</summary><p class="muted">${error.message}</p></details></section>`;
    res.status(503).type('html').send(page(lang, t(lang, 'redisDownTitle'), body, undefined, queryOf(req)));
  });

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

function redisDown(error: unknown): boolean {
  return isRedisOutage(error) || error instanceof TimeoutError;
}


/** The confirmation button under a preview: posts with the CSRF token and the total the person saw. */
function confirmForm(action: string, view: View, preview: DocumentPreview, extra: Html, tenant: TenantRuntime): Html | string {
  if (preview.refusal !== undefined || preview.unreadable !== undefined) return '';
  if (preview.holds.some(isBindingHold)) {
    // A partly credited invoice: the rest is credited by a refund in the shop (its own credit note), linked here.
    const platform = platformOf(tenant.config);
    return html`<p class="warn" id="binding-hold"><b>${CONSOLE.say(view.lang, 'binding-hold', { platform: platform.title })}</b></p><p><a id="refund-the-rest" href="${platform.adminOrderUrl(tenant.config, preview.orderId)}" rel="noopener">${CONSOLE.say(view.lang, 'refund-the-rest', { platform: platform.title })} ↗</a></p>`;
  }
  return html`${preview.hold ? html`<p><b>${t(view.lang, 'confirmDespiteHold')}</b></p>` : ''}<form method="post" action="${action}"><input type="hidden" name="csrf" value="${view.token}">${extra}${preview.total ? html`<input type="hidden" name="total" value="${preview.total}"><input type="hidden" name="currency" value="${preview.currency}">` : ''}<button>${BUTTONS.confirmIssue[view.lang]}</button></form>`;
}

/** The shop's name as its owner knows it: the shop's host (the tenant id when the URL has none). */
export function shopName(tenant: TenantRuntime): string {
  return tenant.config.name ?? hostOf(tenant.config.shop.url) ?? tenant.config.id;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function shopHeading(_deps: ConsoleDeps, tenant: TenantRuntime, view: View): Html {
  const id = tenant.config.id;
  return html`<p><a href="/console">← ${t(view.lang, 'back')}</a></p><h2 id="shop-name"><a href="/console/${id}">${shopName(tenant)}</a></h2>${monthLink(tenant, view.lang)}`;
}

function searchBar(tenant: TenantRuntime, view: View, value = ''): Html {
  return html`<section class="search-bar"><form method="get" action="/console/${tenant.config.id}/search" role="search"><input class="search" type="search" name="q" value="${value}" placeholder="${t(view.lang, 'searchLabel')}" aria-label="${t(view.lang, 'searchLabel')}" title="${t(view.lang, 'searchHelp')}" required maxlength="100"><button>${t(view.lang, 'search')}</button></form></section>`;
}

/** What an action did, in the reader's words. */
function summary(value: unknown, lang: Lang): string {
  if (typeof value === 'string') return value;
  const v = value as { retried?: string[]; enqueued?: string[] | string; attached?: number; dismissed?: string };
  const parts: string[] = [];
  if (v.dismissed !== undefined) parts.push(CONSOLE.say(lang, 'marked-handled', { purpose: purposeLabel(lang, v.dismissed) }));
  if (v.attached !== undefined) parts.push(CONSOLE.say(lang, 'attached', { documentId: v.attached }));
  const jobs = [...(v.retried ?? []), ...(Array.isArray(v.enqueued) ? v.enqueued : [])];
  if (jobs.length > 0) {
    const purposes = [...new Set(jobs.map((job) => purposeLabel(lang, job.split('.')[0]).toLowerCase()))].join(', ');
    parts.push(CONSOLE.say(lang, 'issuing-again', { purposes }));
  }
  return parts.join('; ') || CONSOLE.say(lang, 'nothing-left');
}

/** The zone of the console's own times (a reload): the shops' zone (the first shop's), Lisbon when there is none. */
function consoleZone(deps: ConsoleDeps): string {
  for (const runtime of deps.tenants.values()) return runtime.config.settings.mapping.shopTimeZone;
  return 'Europe/Lisbon';
}

/** What the last reload did, or why it was refused, in the reader's words. */
function reloadWords(result: ReloadResult, lang: Lang, timeZone: string): string {
  if (!result.ok) return `${t(lang, 'notReloaded')}: ${reloadProblems(lang, result).join('; ')}`;
  const parts = (['added', 'removed', 'changed'] as const).filter((key) => result[key].length > 0).map((key) => `${t(lang, key)}: ${result[key].join(', ')}`);
  if (result.restartNeeded.length > 0) parts.push(`${t(lang, 'restartNeeded')}: ${result.restartNeeded.join(', ')}`);
  // The time in the zone of the shops (the first shop's; Lisbon when none), as every time on the console.
  return `${t(lang, 'reloaded')} (${shopTime(Date.parse(result.at), timeZone, lang)})${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`;
}

function reloadSection(deps: ConsoleDeps, view: View): Html | string {
  if (!deps.reloads) return '';
  const last = deps.reloads.last();
  return html`<section id="configuration"><h2>${t(view.lang, 'configuration')}</h2>
<p class="${last && !last.ok ? 'warn' : ''}">${last ? reloadWords(last, view.lang, consoleZone(deps)) : t(view.lang, 'neverReloaded')}</p>
<form method="post" action="/console/reload"><input type="hidden" name="csrf" value="${view.token}"><button class="secondary">${t(view.lang, 'reload')}</button></form></section>`;
}
