import { CONSUMER_NIF } from '../../client/nif';
import { decimalWords, percentWords } from '../../messages/numbers';
import { mappingText } from '../../law/mapping-messages';
import { documentTypeLabel, type Lang } from '../words';
import { t } from './i18n';
import { amount } from './order-page';
import { html, type Html } from './page';
import type { DocumentPreview } from './preview';

const rateWords = percentWords;
const quantityWords = decimalWords;

/**
 * The document a confirmation would issue, as a person checks it: type, buyer, lines, rates, the
 * exemption code, the total, the mapping's warnings and holds, all in the reader's language.
 */
export function previewHtml(lang: Lang, preview: DocumentPreview): Html {
  if (preview.refusal !== undefined || preview.unreadable !== undefined) {
    const why = preview.refusal !== undefined ? mappingText(lang, preview.refusal) : html`${t(lang, 'shopUnreachable')}. <span class="muted">${preview.unreadable}</span>`;
    return html`<div class="item" data-order="${preview.orderId}"><p><b>${t(lang, 'order')} #${preview.orderId}</b></p><p class="warn"><b>${t(lang, 'refused')}:</b> ${why}</p></div>`;
  }
  const currency = preview.currency;
  const lines = preview.lines.map(
    (line) =>
      html`<tr><td data-label="${t(lang, 'description')}">${line.description}</td><td class="num" data-label="${t(lang, 'quantity')}">${quantityWords(lang, line.quantity)}</td><td class="num" data-label="${t(lang, 'unitPrice')}">${amount(lang, line.unitPrice, currency)}</td><td class="num" data-label="${t(lang, 'rate')}">${rateWords(lang, line.rate)}</td>${
        preview.lines.some((l) => l.discount !== '0') ? html`<td class="num" data-label="${t(lang, 'discount')}">${rateWords(lang, line.discount)}</td>` : ''
      }</tr>`,
  );
  const { holds, warnings } = preview;
  return html`<div class="preview" data-order="${preview.orderId}">
<h3>${t(lang, 'order')} #${preview.orderId} · ${documentTypeLabel(lang, preview.type)}${preview.corrects ? html` · ${t(lang, 'corrects')} ${preview.corrects}` : ''}</h3>
<dl class="facts"><dt>${t(lang, 'buyer')}</dt><dd>${preview.buyer?.name || '–'}${preview.buyer?.contact ? html` <span class="muted">(${preview.buyer.contact})</span>` : ''}</dd><dt>${t(lang, 'nif')}</dt><dd>${preview.buyer?.nif ?? '–'}${preview.buyer?.nif === CONSUMER_NIF ? html` <span class="tag warn">${t(lang, 'consumerNif')}</span>` : ''}</dd><dt>${t(lang, 'country')}</dt><dd>${preview.buyer?.country ?? '–'}</dd>
${preview.exemption ? html`<dt>${t(lang, 'exemption')}</dt><dd>${preview.exemption}</dd>` : ''}</dl>
<table class="stack lines"><tr><th>${t(lang, 'description')}</th><th class="num">${t(lang, 'quantity')}</th><th class="num">${t(lang, 'unitPrice')}</th><th class="num">${t(lang, 'rate')}</th>${
    preview.lines.some((l) => l.discount !== '0') ? html`<th class="num">${t(lang, 'discount')}</th>` : ''
  }</tr>${lines}</table>
<p class="total-line">${t(lang, 'total')}: <span class="document-total">${amount(lang, preview.total, currency)}</span></p>
${holds.length > 0 ? html`<div class="item"><p><b>${t(lang, 'holds')}:</b></p><ul>${holds.map((note) => html`<li>${mappingText(lang, note)}</li>`)}</ul></div>` : ''}
<p><b>${t(lang, 'warnings')}:</b></p>${warnings.length > 0 ? html`<ul class="warnings">${warnings.map((note) => html`<li>${mappingText(lang, note)}</li>`)}</ul>` : html`<p class="muted">${t(lang, 'noWarnings')}</p>`}
</div>`;
}
