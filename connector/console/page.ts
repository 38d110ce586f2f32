import { LANGS, type Lang } from '../../messages/lang';
import { t } from './i18n';

/** Text into HTML: every value from a shop, a ledger or an error goes through here. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** A tagged template whose values are escaped; nested `Html` values are kept as they are. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new Html(out);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return esc(value);
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2327;background:#f0f0f1}
header{background:#1d2327;color:#fff;padding:.7rem 1rem;display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
header a{color:#fff}header h1{font-size:1.05rem;margin:0;flex:1}
main{max-width:1100px;margin:0 auto;padding:1rem}
section{background:#fff;border:1px solid #dcdcde;border-radius:6px;padding:1rem;margin:0 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin:0 0 .7rem}h3{font-size:.95rem;margin:1rem 0 .5rem}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:.45rem .4rem;border-bottom:1px solid #f0f0f1;vertical-align:top}
th,td{overflow-wrap:break-word}th{font-weight:600;color:#50575e;font-size:.85rem;hyphens:none}td.num,th.num{text-align:right}td.num{white-space:nowrap}
.figures{display:flex;gap:1rem;flex-wrap:wrap}.figure{flex:1;min-width:8rem}.figure b{display:block;font-size:1.6rem}
.flash{padding:.7rem 1rem;border-radius:6px;margin:0 0 1rem;overflow-wrap:anywhere}.ok{background:#edfaef;border:1px solid #68de7c}.err{background:#fcf0f1;border:1px solid #d63638}
.warn{color:#b32d2e}.muted{color:#646970;font-size:.85rem}.good{color:#007017}
.item{border-left:4px solid #d63638;padding:.6rem .8rem;margin:0 0 .8rem;background:#fcf9f9}
.item.calm{border-left-color:#72aee6;background:#f6f9fc}
.item p{margin:.25rem 0}.actions{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:.4rem}
button,.button{background:#2271b1;color:#fff;border:0;border-radius:4px;padding:.45rem .8rem;font:inherit;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#f6f7f7;color:#2271b1;border:1px solid #2271b1}button.danger{background:#b32d2e}
input{font:inherit;padding:.35rem;border:1px solid #8c8f94;border-radius:4px;width:9rem;max-width:100%}input.reason{width:22rem}input[type=checkbox]{width:auto}
.nowrap{white-space:nowrap}td.check,th.check{width:2rem}
form{display:inline-flex;gap:.4rem;align-items:center;margin:0;flex-wrap:wrap;max-width:100%}
.search-bar{margin:0 0 1rem}.search-bar form{display:flex;flex-wrap:nowrap;width:min(36rem,100%)}.search-bar input.search{flex:1;min-width:0;width:auto}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem .8rem;margin:.5rem 0}dl.facts dt{color:#50575e}dl.facts dd{margin:0}
ol.history{list-style:none;padding:0;margin:0}ol.history li{padding:.45rem 0;border-bottom:1px solid #f0f0f1}ol.history time{color:#646970;font-size:.85rem;display:block}
.tag{display:inline-block;padding:0 .4rem;border-radius:3px;background:#f0f0f1;font-size:.8rem}.tag.warn{background:#fcf0f1}
.total-line{font-size:1.2rem;font-weight:600;text-align:right;margin:.6rem 0}
@media (max-width:640px){.wide{display:none}th,td{padding:.4rem .2rem}body{font-size:14px}main{padding:.5rem}section{padding:.75rem}
table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}table.stack tr:first-child{display:none}
table.stack tr{border-bottom:1px solid #dcdcde;padding:.35rem 0}table.stack td{border:0;padding:.1rem 0}table.stack td.num{text-align:left}
table.stack td[data-label]::before{content:attr(data-label) ": ";color:#50575e;font-size:.85rem}table.stack td.wide{display:none}
table.stack td.check{display:inline-block;width:auto;margin-right:.6rem}table.stack td.check+td{display:inline-block;width:auto}
table.lines td:first-child{font-weight:600}table.lines td:first-child::before{content:none}table.lines td.num{display:inline-block;width:auto;margin-right:.9rem}}
input[type=checkbox]{transform:scale(1.3)}
`;

/** What every page needs to know of its reader: the language, and the token its forms carry. */
export interface View {
  lang: Lang;
  token: string;
}

/** The page frame: language switch, title, optional flash message, then the sections. */
export function page(lang: Lang, title: string, body: Html, flash?: { ok: boolean; text: string }, query?: URLSearchParams): string {
  const other = LANGS.find((each) => each !== lang) ?? lang;
  // The other language keeps the page's own query (a search, a preview), without its one-time flash.
  const keep = new URLSearchParams(query);
  keep.delete('flash');
  keep.set('lang', other);
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${new Html(STYLE)}</style></head>
<body><header><h1><a href="/console">${t(lang, 'title')}</a></h1><a href="?${keep.toString()}" hreflang="${other}">${t(lang, 'language')}</a></header>
<main>${flash ? html`<div class="flash ${flash.ok ? 'ok' : 'err'}" role="status">${flash.text}</div>` : ''}${body}</main></body></html>`.text;
}
