import { CONSOLE } from './console-messages';
import express, { type Request, type Response, type Router } from 'express';
import type { Lang } from '../words';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import type { MonthPack } from '../month/month-pack';
import { boxRows } from '../month/month-render';
import { shopReportView } from '../month/shop-report-view';
import { MONTH_TEXT, tenantMonthPack } from '../month/month-service';
import { findingKind, formatFor, MONTH_LABELS, monthText, signOffText, type MonthFinding } from '../month/month-words';
import { MonthSignOffs } from '../month/sign-off';
import { accountantMailLine } from '../month/accountant-mail';
import { MONTH_SENTENCES } from '../month/month-sentences';
import { packCsv, packPdf, packXlsx } from '../month/month-files';
import { adminUser } from '../admin/basic-auth';
import { SaftFileError } from '../month/saft-reader';
import { SAFT_UPLOAD_LIMIT } from '../month/month-routes';
import { localDateTime } from '../../law/shop-date';
import type { ConsoleDeps } from './console-deps';
import { csrfProblem } from './csrf';
import { html, type Html, type View } from './page';

/**
 * The console's month page, /console/<shop>/month/<yyyy-mm>: the month pack of the shop (what needs
 * attention, the explained differences, the VAT boxes per region from our documents and from the
 * SAF-T, the exemption codes, the orders created or paid in another month), and a form to upload the
 * month's SAF-T exported from MagniFinance. The file is read for that one answer and not kept (it
 * holds the buyers' names and addresses; the connector keeps no personal data): the page that
 * answers the upload is the reconciled pack.
 */

export interface MonthPageTools {
  viewOf: (req: Request, res: Response) => View;
  send: (req: Request, res: Response, view: View, title: string, body: Html, status?: number) => Promise<void>;
  notFound: (req: Request, res: Response, what: 'unknownShop' | 'unknownOrderId') => void;
  shopName: (tenant: TenantRuntime) => string;
}

export function monthPagePath(tenant: string, month: string): string {
  return `/console/${encodeURIComponent(tenant)}/month/${month}`;
}

/** The shop page's link to its month (the current one in the shop's zone). */
export function monthLink(tenant: TenantRuntime, lang: Lang): Html {
  return html`<p><a id="month-link" href="/console/${encodeURIComponent(tenant.config.id)}/month">${MONTH_LABELS.title[lang]} →</a></p>`;
}

function shiftMonth(month: string, by: number): string {
  const [year, m] = month.split('-').map(Number);
  const index = year * 12 + (m - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

function findingItem(lang: Lang, finding: MonthFinding, tenant: string): Html {
  const words = monthText(lang, finding, formatFor(lang, { oneLine: true }));
  const order = 'order' in finding.params && typeof finding.params.order === 'number' ? finding.params.order : undefined;
  const calm = findingKind(finding) === 'explained';
  return html`<div class="item${calm ? ' calm' : ''}" data-code="${finding.code}"><p>${words.why}</p><p class="muted">${MONTH_LABELS.action[lang]}: ${words.action}</p>${
    order === undefined ? '' : html`<div class="actions"><a class="button" href="/console/${encodeURIComponent(tenant)}/orders/${order}">#${order}</a></div>`
  }</div>`;
}

function packBody(pack: MonthPack, tenant: TenantRuntime, view: View, tools: MonthPageTools, mail: { tone: string; text: string } | undefined): Html {
  const lang = view.lang;
  const id = tenant.config.id;
  const f = formatFor(lang, { oneLine: true });
  const attention = pack.findings.filter((x) => findingKind(x) === 'attention');
  const explained = pack.findings.filter((x) => findingKind(x) === 'explained');
  const rows = boxRows(pack, lang, { oneLine: true });
  const withSaft = pack.saft !== undefined;
  const nav = html`<p><a href="${monthPagePath(id, shiftMonth(pack.month, -1))}">← ${shiftMonth(pack.month, -1)}</a> · <b>${pack.month}</b> · <a href="${monthPagePath(id, shiftMonth(pack.month, 1))}">${shiftMonth(pack.month, 1)} →</a></p>`;
  const upload = html`<section id="saft"><h2>${MONTH_LABELS.upload[lang]}</h2>
<form method="post" action="${monthPagePath(id, pack.month)}" enctype="multipart/form-data"><input type="hidden" name="csrf" value="${view.token}"><input type="file" name="saft" accept=".xml,application/xml,text/xml" required><button type="submit">${MONTH_LABELS.upload[lang]}</button></form>
${withSaft ? html`<p class="muted">SAF-T ${pack.saft?.companyTaxId} · ${f.day(pack.saft?.start ?? '')} – ${f.day(pack.saft?.end ?? '')} · ${pack.saft?.documents} ${MONTH_LABELS.documents[lang].toLowerCase()} · ${pack.saft?.encoding}</p>` : html`<p class="muted">${MONTH_LABELS.noSaft[lang]}</p>`}</section>`;
  const files = html`<p id="files">${MONTH_LABELS.files[lang]}: ${(['pdf', 'xlsx', 'csv'] as const).map((x, i) => html`${i > 0 ? ' · ' : ''}<a href="${monthPagePath(id, pack.month)}/pack.${x}">${x.toUpperCase()}</a>`)}</p>`;
  const figures = html`<section>${files}<div class="figures"><div class="figure"><b>${pack.orders.ofMonth}</b>${MONTH_LABELS.orders[lang]}</div><div class="figure"><b>${pack.documents.length}</b>${MONTH_LABELS.documents[lang]}</div><div class="figure"><b class="${attention.length > 0 ? 'warn' : 'good'}">${attention.length}</b>${MONTH_LABELS.attention[lang]}</div></div></section>`;
  const attentionSection = html`<section id="attention"><h2>${MONTH_LABELS.attention[lang]}</h2>${attention.length === 0 ? html`<p class="good">${MONTH_LABELS.nothing[lang]}</p>` : attention.map((x) => findingItem(lang, x, id))}</section>`;
  const explainedSection = explained.length === 0 ? '' : html`<section id="explained"><h2>${MONTH_LABELS.explained[lang]}</h2>${explained.map((x) => findingItem(lang, x, id))}</section>`;
  const boxes = html`<section id="vat"><h2>${MONTH_LABELS.boxes[lang]}</h2><table class="stack"><tr><th></th><th></th><th class="num">${MONTH_LABELS.ours[lang]}</th>${withSaft ? html`<th class="num">${MONTH_LABELS.saft[lang]}</th><th class="num">${MONTH_LABELS.difference[lang]}</th>` : ''}</tr>
${rows.map((r) => html`<tr><td>${r.region}</td><td>${r.label}</td><td class="num" data-label="${MONTH_LABELS.ours[lang]}">${r.ours}</td>${withSaft ? html`<td class="num" data-label="${MONTH_LABELS.saft[lang]}">${r.saft}</td><td class="num ${r.difference && !/^[-−]?\D*0[,.]00\D*$/.test(r.difference) ? 'warn' : ''}" data-label="${MONTH_LABELS.difference[lang]}">${r.difference}</td>` : ''}</tr>`)}</table></section>`;
  const report = shopReportView(pack, lang, { oneLine: true });
  const shopReport = html`<section id="shop-report"><h2>${report.title}</h2>${report.notes.map((n) => html`<p class="muted">${n}</p>`)}${
    report.rows.length === 0
      ? ''
      : html`<table class="stack"><tr><th>${report.heads.rate}</th><th class="num">${report.heads.shop}</th><th class="num">${report.heads.ours}</th><th class="num">${report.heads.base}</th><th class="num">${report.heads.difference}</th><th>${report.heads.why}</th></tr>${report.rows.map(
          (r) =>
            html`<tr><td><b>${r.rate}</b>${r.names ? html`<br><span class="muted">${r.names}</span>` : ''}</td><td class="num" data-label="${report.heads.shop}">${r.shop}</td><td class="num" data-label="${report.heads.ours}">${r.ours}</td><td class="num" data-label="${report.heads.base}">${r.base}</td><td class="num" data-label="${report.heads.difference}">${r.difference}</td><td data-label="${report.heads.why}">${r.why.map((w) => html`<p class="muted">${w}</p>`)}</td></tr>`,
        )}</table>`
  }</section>`;
  const exemptions = pack.exemptions.length === 0 ? '' : html`<section id="exemptions"><h2>${MONTH_LABELS.exemptions[lang]}</h2><table class="stack"><tr><th>${MONTH_LABELS.code[lang]}</th><th class="num">${MONTH_LABELS.documents[lang]}</th><th class="num">${MONTH_LABELS.base[lang]}</th></tr>${pack.exemptions.map((e) => html`<tr><td><b>${e.code}</b></td><td class="num" data-label="${MONTH_LABELS.documents[lang]}">${e.documents}</td><td class="num" data-label="${MONTH_LABELS.base[lang]}">${f.money(e.base, 'EUR')}</td></tr>`)}</table></section>`;
  const quarter = pack.oss.quarter;
  const ossTable = (caption: string, rows: MonthPack['oss']['month']): Html | '' =>
    rows.length === 0 ? '' : html`<h3>${caption}</h3><table class="stack"><tr><th>${MONTH_LABELS.country[lang]}</th><th class="num">${MONTH_LABELS.documents[lang]}</th><th class="num">${MONTH_LABELS.base[lang]}</th><th class="num">${MONTH_LABELS.vat[lang]}</th><th>${MONTH_LABELS.rates[lang]}</th></tr>${rows.map((r) => html`<tr><td><b>${r.country}</b></td><td class="num" data-label="${MONTH_LABELS.documents[lang]}">${r.documents}</td><td class="num" data-label="${MONTH_LABELS.base[lang]}">${f.money(r.base, 'EUR')}</td><td class="num" data-label="${MONTH_LABELS.vat[lang]}">${f.money(r.vat, 'EUR')}</td><td data-label="${MONTH_LABELS.rates[lang]}">${r.rates.map((x) => `${x} %`).join(', ')}</td></tr>`)}</table>`;
  const oss = html`<section id="oss"><h2>${MONTH_LABELS.oss[lang]}</h2>${
    pack.oss.month.length === 0 && (quarter?.countries.length ?? 0) === 0 ? html`<p class="muted">${MONTH_LABELS.ossNone[lang]}</p>` : html`${ossTable(MONTH_LABELS.ossMonth[lang], pack.oss.month)}${ossTable(`${MONTH_LABELS.ossQuarter[lang]} ${quarter?.quarter ?? ''}`, quarter?.countries ?? [])}`
  }${quarter && quarter.missing.length > 0 ? html`<p class="muted">${MONTH_LABELS.ossMissing[lang]} ${quarter.missing.join(', ')}</p>` : ''}</section>`;
  const other = pack.orders.otherMonth.length === 0 ? '' : html`<section id="other-month"><h2>${MONTH_LABELS.otherMonth[lang]}</h2><table class="stack"><tr><th>#</th><th>${MONTH_LABELS.taxPoint[lang]}</th><th></th></tr>${pack.orders.otherMonth.slice(0, 200).map((o) => html`<tr><td><a href="/console/${encodeURIComponent(id)}/orders/${o.order}">#${o.order}</a></td><td>${f.day(o.documentDay ?? '')}</td><td class="muted">${[o.createdDay, o.paidDay].filter(Boolean).map((d) => f.day(d ?? '')).join(' · ')}</td></tr>`)}</table></section>`;
  const closedAt = pack.signOff ? localDateTime(new Date(pack.signOff.at), pack.timeZone) : undefined;
  const signOff = html`<section id="sign-off"><h2>${MONTH_LABELS.signOff[lang]}</h2>${
    pack.signOff && closedAt
      ? html`<p class="good">${signOffText(lang, pack.signOff.by, closedAt.date, closedAt.time.slice(0, 5))}</p><form method="post" action="${monthPagePath(id, pack.month)}/reopen"><input type="hidden" name="csrf" value="${view.token}"><button type="submit" class="secondary">${MONTH_LABELS.reopen[lang]}</button></form>`
      : html`<p>${MONTH_LABELS.open[lang]}</p><p class="muted">${MONTH_LABELS.closeHint[lang]}</p><form method="post" action="${monthPagePath(id, pack.month)}/close"><input type="hidden" name="csrf" value="${view.token}"><button type="submit">${MONTH_LABELS.close[lang]}</button></form>`
  }</section>`;
  const mailLine = mail ? html`<section id="accountant-mail"><h2>${MONTH_SENTENCES.say(lang, 'mail-label')}</h2><p class="${mail.tone}">${mail.text}</p></section>` : '';
  return html`<section><h2>${MONTH_LABELS.title[lang]} · <a href="/console/${encodeURIComponent(id)}">${tools.shopName(tenant)}</a></h2>${nav}<p class="muted">${MONTH_LABELS.computedIn[lang]} ${pack.computeMs} ms</p></section>${upload}${figures}${attentionSection}${explainedSection}${boxes}${shopReport}${exemptions}${oss}${other}${signOff}${mailLine}`;
}

export function registerMonthPage(router: Router, deps: ConsoleDeps, tools: MonthPageTools): void {
  const render = async (req: Request, res: Response, saft?: Buffer): Promise<void> => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    const month = String(req.params.month ?? '');
    if (!tenant || !MONTH_TEXT.test(month)) return tools.notFound(req, res, 'unknownShop');
    const view = tools.viewOf(req, res);
    try {
      const pack = await tenantMonthPack(tenant, deps, month, saft);
      const mail = await accountantMailLine(deps.redis, deps.prefix, tenant, month, view.lang);
      await tools.send(req, res, view, `${MONTH_LABELS.title[view.lang]} ${month} · ${tools.shopName(tenant)}`, packBody(pack, tenant, view, tools, mail));
    } catch (error) {
      if (!(error instanceof SaftFileError)) throw error;
      const words = CONSOLE.say(view.lang, 'not-saft');
      await tools.send(req, res, view, MONTH_LABELS.title[view.lang], html`<section><h2>${words}</h2><p class="muted">${error.code}: ${error.detail}</p><p><a href="${monthPagePath(tenant.config.id, month)}">← ${month}</a></p></section>`, 400);
    }
  };
  router.get('/:tenant/month', (req: Request, res: Response) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    if (!tenant) return tools.notFound(req, res, 'unknownShop');
    res.redirect(303, monthPagePath(tenant.config.id, localDateTime(new Date(), tenant.mapping.shopTimeZone).date.slice(0, 7)));
  });
  // Not under the pages' 5 s bound: a month of thousands of orders takes longer, and is no Redis outage.
  router.get('/:tenant/month/:month', (req: Request, res: Response) => render(req, res));
  // The files: the pack from the shop and our ledger (a SAF-T uploaded is not kept, so not in them).
  router.get('/:tenant/month/:month/pack.:format', async (req: Request, res: Response) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    const month = String(req.params.month ?? '');
    const format = String(req.params.format);
    if (!tenant || !MONTH_TEXT.test(month) || !['csv', 'xlsx', 'pdf'].includes(format)) return tools.notFound(req, res, 'unknownShop');
    const lang = tools.viewOf(req, res).lang;
    const pack = await tenantMonthPack(tenant, deps, month);
    const name = `${tenant.config.id}-${month}`;
    res.setHeader('Content-Disposition', `attachment; filename="${name}.${format}"`);
    if (format === 'csv') return void res.type('text/csv; charset=utf-8').send(packCsv(pack, lang));
    if (format === 'xlsx') return void res.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(await packXlsx(pack, lang));
    res.type('application/pdf').send(await packPdf(pack, lang, tools.shopName(tenant)));
  });
  // The sign-off: the accountant (read-only otherwise) may close a month; reopening is the administrator's.
  const signOffs = new MonthSignOffs(deps.redis, deps.prefix);
  const signOffAction = (run: (tenant: TenantRuntime, month: string, req: Request) => Promise<unknown>) => async (req: Request, res: Response) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    const month = String(req.params.month ?? '');
    if (!tenant || !MONTH_TEXT.test(month)) return tools.notFound(req, res, 'unknownShop');
    const forged = csrfProblem(deps.secret, req, (req.body as Record<string, unknown> | undefined)?.csrf);
    if (forged) return void res.status(403).type('text').send(forged);
    await run(tenant, month, req);
    res.redirect(303, `${monthPagePath(tenant.config.id, month)}#sign-off`);
  };
  router.post('/:tenant/month/:month/close', signOffAction((tenant, month, req) => signOffs.close(tenant.config.id, { month, by: adminUser(req), at: Date.now() })));
  router.post('/:tenant/month/:month/reopen', signOffAction((tenant, month) => signOffs.reopen(tenant.config.id, month)));
  router.post('/:tenant/month/:month', express.raw({ type: 'multipart/form-data', limit: SAFT_UPLOAD_LIMIT }), async (req: Request, res: Response) => {
    const type = req.get('content-type') ?? '';
    if (!Buffer.isBuffer(req.body) || !type.startsWith('multipart/form-data')) return void res.status(400).type('text').send('send the form with the SAF-T file');
    const form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': type } }).formData().catch(() => undefined);
    const forged = csrfProblem(deps.secret, req, form?.get('csrf'));
    if (forged) return void res.status(403).type('text').send(forged);
    const file = form?.get('saft');
    if (!file || typeof file === 'string' || file.size === 0) return void res.status(400).type('text').send('choose the SAF-T file');
    await render(req, res, Buffer.from(await file.arrayBuffer()));
  });
}
