import type { Lang } from '../words';
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
section{background:#fff;border:1px solid #dcdcde;border-radius:6px;padding:1rem;margin:0 0 1rem}
h2{font-size:1.05rem;margin:0 0 .7rem}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:.45rem .4rem;border-bottom:1px solid #f0f0f1;vertical-align:top}
th{font-weight:600;color:#50575e;font-size:.85rem}
.figures{display:flex;gap:1rem;flex-wrap:wrap}.figure{flex:1;min-width:8rem}.figure b{display:block;font-size:1.6rem}
.flash{padding:.7rem 1rem;border-radius:6px;margin:0 0 1rem}.ok{background:#edfaef;border:1px solid #68de7c}.err{background:#fcf0f1;border:1px solid #d63638}
.warn{color:#b32d2e}.muted{color:#646970;font-size:.85rem}
.item{border-left:4px solid #d63638;padding:.6rem .8rem;margin:0 0 .8rem;background:#fcf9f9}
.item p{margin:.25rem 0}.actions{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:.4rem}
button{background:#2271b1;color:#fff;border:0;border-radius:4px;padding:.45rem .8rem;font:inherit;cursor:pointer}
input{font:inherit;padding:.35rem;border:1px solid #8c8f94;border-radius:4px;width:9rem}input.reason{width:min(24rem,100%)}
form{display:inline-flex;gap:.4rem;align-items:center;margin:0}
@media (max-width:640px){.wide{display:none}th,td{padding:.4rem .2rem}body{font-size:14px}}
`;

/** The page frame: language switch, title, optional flash message, then the sections. */
export function page(lang: Lang, title: string, body: Html, flash?: { ok: boolean; text: string }): string {
  const other = lang === 'pt' ? 'en' : 'pt';
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${new Html(STYLE)}</style></head>
<body><header><h1><a href="/console">${t(lang, 'title')}</a></h1><a href="?lang=${other}">${t(lang, 'language')}</a></header>
<main>${flash ? html`<div class="flash ${flash.ok ? 'ok' : 'err'}" role="status">${flash.text}</div>` : ''}${body}</main></body></html>`.text;
}
