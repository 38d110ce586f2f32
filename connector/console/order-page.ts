import { platformOf } from '../../platforms/registry';
import type { ShopPlatform } from '../../platforms/shop-platform';
import { canDismiss, creditableInvoice } from '../admin/order-actions';
import type { HistoryEvent } from '../history/order-history';
import { stateRules, type LedgerEntry } from '../core/ledger';
import { entryWords } from '../pipeline/problems';
import { money } from '../../messages/money';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { CONSOLE } from './console-messages';
import { BUTTONS, documentTypeLabel, orderPagePath, purposeLabel, stateLabel, type Lang } from '../words';
import type { ConsoleDeps } from './console-deps';
import { shopTime, t } from './i18n';
import { html, type Html, type View } from './page';
import { withTimeout } from '../core/timeout';
import { listNotInvoiced } from '../ingest/not-invoiced';
import { notInvoicedWhy } from './not-invoiced-list';
import { failedShopCallWords } from '../shop/shop-answer-words';
import { buyerNameText, type ListedOrder } from '../shop/order-summary';
import { refusedWordsOf } from '../shop/refused-words';
import { orderShown } from '../shop/order-shown';

/** How long a console page waits for the shop before it shows what it has without it (the page's own limit, 5 s, means Redis). */
export const SHOP_WAIT_MS = 3_000;

/** What the console shows of the shop's order (nothing of it is stored by the connector). */
export type ShopOrderHead = Pick<ListedOrder, 'id' | 'number' | 'status' | 'total' | 'currency' | 'createdAt' | 'buyer'>;

/** The buyer's name as the shop has it: first and last name, else the company. */
export function customerName(order: ShopOrderHead): string {
  return buyerNameText(order.buyer);
}

/** WooCommerce's order statuses as WooCommerce itself names them in Portuguese (pt_PT) and English. */
const SHOP_STATUSES: Record<string, Record<Lang, string>> = {
  pending: { pt: 'Pagamento pendente', en: 'Pending payment' },
  processing: { pt: 'Em processamento', en: 'Processing' },
  'on-hold': { pt: 'Em espera', en: 'On hold' },
  completed: { pt: 'Concluída', en: 'Completed' },
  cancelled: { pt: 'Cancelada', en: 'Cancelled' },
  refunded: { pt: 'Reembolsada', en: 'Refunded' },
  failed: { pt: 'Falhada', en: 'Failed' },
  'checkout-draft': { pt: 'Rascunho', en: 'Draft' },
  trash: { pt: 'No lixo', en: 'Trash' },
};

/** An order status in the reader's words. */
export type StatusLabel = (lang: Lang, status: string) => string;

/** The order's status on a WooCommerce shop in the reader's words; a plugin's own status as its slug. */
export function shopStatusLabel(lang: Lang, status: string): string {
  return SHOP_STATUSES[status]?.[lang] ?? status;
}

/** The order statuses of the tenant's platform in the reader's words (its catalogue: a Shopify store's own statuses). */
export function statusLabelOf(platform: Pick<ShopPlatform, 'statusLabel'>): StatusLabel {
  const own = platform.statusLabel;
  return own ? (lang, status) => own(lang, status) : shopStatusLabel;
}

/** An amount in the reader's words and its currency (`1 660,50 €`, kept on one line: no-break spaces), or a dash. */
export function amount(lang: Lang, value: string | undefined, currency = 'EUR'): string {
  return value ? money(lang, value, currency, { oneLine: true }) : '–';
}

/**
 * What the page shows of the shop's order, whatever its platform: read from the platform's neutral
 * sale, else (an order the law cannot read, e.g. a broken one a person must see) from its summary.
 */
function orderHead(runtime: TenantRuntime, raw: unknown): ShopOrderHead | undefined {
  const platform = platformOf(runtime.config);
  try {
    const sale = platform.saleOf(raw, runtime.mapping, runtime.config);
    return {
      id: Number(sale.id),
      ...(sale.number !== undefined ? { number: sale.number } : {}),
      status: sale.status,
      total: sale.total,
      currency: sale.currency,
      createdAt: sale.created ? new Date(Date.parse(sale.created)).toISOString().slice(0, 19) : null,
      buyer: { firstName: sale.billing.firstName, lastName: sale.billing.lastName, company: sale.billing.company },
    };
  } catch {
    try {
      return platform.orderOf(raw);
    } catch {
      return undefined;
    }
  }
}

/** The shop's order, or why it could not be read (in the reader's words, by its cause: a slow shop is not Redis). */
export async function readShopOrder(runtime: TenantRuntime, orderId: number, lang: Lang = 'en'): Promise<{ order?: ShopOrderHead; error?: string }> {
  try {
    const raw = await withTimeout(runtime.shop.getOrder(orderId), SHOP_WAIT_MS);
    const head = orderHead(runtime, raw);
    return head ? { order: head } : { error: CONSOLE.say(lang, 'not-an-order') };
  } catch (error) {
    return { error: failedShopCallWords(lang, error, SHOP_WAIT_MS, runtime.config.shop.timeoutMs, refusedWordsOf(runtime.config)) };
  }
}

/** A document exists on the service for the entry (not one whose create may still be in flight). */
function isOnService(entry: LedgerEntry): boolean {
  const { document } = stateRules(entry.state);
  return document === 'unnumbered' || document === 'numbered' || document === 'invoice-cancelled';
}

/** The purpose's document type: the ledger's, else what a purpose of that kind issues. */
function typeOf(purpose: string, entry: LedgerEntry): string | undefined {
  if (entry.documentType) return entry.documentType;
  if (purpose === 'cancellation' || purpose.startsWith('credit-note-')) return 'C';
  return undefined;
}

/** The order's documents with the invoice each credit note corrects and "credited" on the invoice. */
function documentsSection(deps: ConsoleDeps, tenant: TenantRuntime, view: View, ledger: Record<string, LedgerEntry>): Html {
  const { lang } = view;
  const invoice = ledger.invoice;
  const cancellation = ledger.cancellation;
  const creditNotes = Object.entries(ledger).filter(([purpose, entry]) => purpose.startsWith('credit-note-') && entry.documentId !== undefined);
  const rows = Object.entries(ledger)
    .filter(([purpose, entry]) => entry.documentId !== undefined && isOnService(entry) && !(purpose === 'cancellation' && entry.state === 'cancelled'))
    .map(([purpose, entry]) => {
      const marks: (Html | string)[] = [];
      if (purpose === 'invoice') {
        if (cancellation?.state === 'cancelled') marks.push(html`<span class="tag warn">${t(lang, 'cancelledInPlace')}</span>`);
        else if (cancellation?.documentId !== undefined && cancellation.documentNumber) marks.push(html`<span class="tag warn">${t(lang, 'credited')}</span>`);
        else if (creditNotes.length > 0) marks.push(html`<span class="tag">${t(lang, 'partlyCredited')}</span>`);
      } else if ((purpose === 'cancellation' || purpose.startsWith('credit-note-')) && invoice?.documentNumber) {
        marks.push(`${t(lang, 'corrects')} ${invoice.documentNumber}`);
      }
      if (entry.state !== 'written-back') marks.push(html` <span class="muted">${stateLabel(lang, entry.state)}</span>`);
      const pdf = entry.documentNumber ? html`<a href="${deps.links.link(tenant.config.id, entry.documentId as number)}">${t(lang, 'pdf')}</a>` : '–';
      return html`<tr data-purpose="${purpose}"><td data-label="${t(lang, 'document')}">${documentTypeLabel(lang, typeOf(purpose, entry))}</td><td class="nowrap" data-label="${t(lang, 'number')}"><b>${entry.documentNumber ?? '–'}</b></td><td class="num" data-label="${t(lang, 'total')}">${amount(lang, entry.total, entry.currency)}</td><td class="nowrap">${pdf}</td><td>${marks}</td></tr>`;
    });
  return html`<section id="documents"><h2>${t(lang, 'documents')}</h2>${
    rows.length === 0
      ? html`<p>${t(lang, 'noDocuments')}</p>`
      : html`<table class="stack"><tr><th>${t(lang, 'document')}</th><th>${t(lang, 'number')}</th><th class="num">${t(lang, 'total')}</th><th>${t(lang, 'pdf')}</th><th></th></tr>${rows}</table>`
  }</section>`;
}

/** A purpose that waits for a person (why, what to do, its buttons), or one in progress. */
function purposeCard(tenant: TenantRuntime, view: View, orderId: number, purpose: string, entry: LedgerEntry, name: PurposeName): Html | string {
  const { lang, token } = view;
  // On the attention list while `action` is set (clearForPerson takes it away), whatever the state:
  // a difference found after an invoice was written back waits for a person too.
  const waits = entry.action !== undefined;
  // Settled, or finished (nothing more ever happens to it): nothing in progress to show.
  const { settled, mayExpire } = stateRules(entry.state);
  if (!waits && (entry.documentId !== undefined || settled || mayExpire)) return '';
  const base = orderPagePath(tenant.config.id, orderId);
  const hidden = html`<input type="hidden" name="csrf" value="${token}"><input type="hidden" name="purpose" value="${purpose}"><input type="hidden" name="from" value="order">`;
  const words = entryWords(lang, entry, { tenant: tenant.config.id, orderId, purpose }, 'console');
  const buttons = [
    entry.state === 'held' ? html`<form method="get" action="${base}/preview"><input type="hidden" name="purpose" value="${purpose}"><button>${BUTTONS.issueNow[lang]}</button></form>` : '',
    stateRules(entry.state).waitsFor === 'attach'
      ? html`<form method="post" action="${base}/attach">${hidden}<input name="documentId" inputmode="numeric" placeholder="${t(lang, 'documentId')}" aria-label="${t(lang, 'documentId')}"><button>${BUTTONS.attach[lang]}</button></form>`
      : '',
    canDismiss(entry)
      ? html`<form method="post" action="${base}/dismiss">${hidden}<input class="reason" name="reason" required minlength="3" maxlength="500" placeholder="${t(lang, 'dismissReason')}" aria-label="${t(lang, 'dismissReason')}"><button class="secondary">${BUTTONS.dismiss[lang]}</button></form>`
      : '',
  ];
  if (!waits) {
    return html`<div class="item calm" data-purpose="${purpose}"><p><b>${name(lang, purpose)}</b> · ${t(lang, 'inProgress')}: ${stateLabel(lang, entry.state)}</p></div>`;
  }
  return html`<div class="item" data-purpose="${purpose}">
<p><b>${name(lang, purpose)}</b> · <span class="muted">${t(lang, 'state')}: ${stateLabel(lang, entry.state)}</span></p>
<p><b>${t(lang, 'why')}:</b> ${words.reason}</p>
<p><b>${t(lang, 'whatToDo')}:</b> ${words.action}</p>
<div class="actions">${buttons}</div></div>`;
}

const VIA: Record<Extract<HistoryEvent, { kind: 'received' }>['via'], Record<Lang, string>> = {
  webhook: { pt: 'por webhook', en: 'by webhook' },
  sweep: { pt: 'pela sincronização', en: 'by the sweep' },
  backfill: { pt: 'por um backfill', en: 'by a backfill' },
  console: { pt: 'pela consola', en: 'from the console' },
};
const STEP: Record<Extract<HistoryEvent, { kind: 'attempt' }>['step'], Record<Lang, string>> = {
  draft: { pt: 'rascunho na MagniFinance', en: 'draft on MagniFinance' },
  create: { pt: 'emissão na MagniFinance', en: 'issue on MagniFinance' },
  close: { pt: 'fecho do documento na MagniFinance', en: 'closing the document on MagniFinance' },
  'get-document': { pt: 'pedido do número à MagniFinance', en: 'asking MagniFinance for the number' },
  'write-back': { pt: 'registo na encomenda da loja', en: "writing to the shop's order" },
  cancel: { pt: 'anulação na MagniFinance', en: 'cancelling on MagniFinance' },
  vies: { pt: 'consulta ao VIES', en: 'VIES check' },
};
const ACTION: Record<Extract<HistoryEvent, { kind: 'action' }>['action'], Record<Lang, string>> = {
  retry: { pt: `carregou em «${BUTTONS.retry.pt}»`, en: `pressed "${BUTTONS.retry.en}"` },
  attach: { pt: 'associou o documento da MagniFinance com o id', en: 'attached the MagniFinance document with id' },
  'issue-now': { pt: 'reviu o documento e mandou emiti-lo', en: 'reviewed the document and had it issued' },
  'credit-note': { pt: 'reviu e pediu uma nota de crédito da fatura inteira', en: 'reviewed and asked for a credit note for the whole invoice' },
  cancellation: { pt: 'aplicou a regra de cancelamento da loja à fatura', en: "applied the shop's cancellation rule to the invoice" },
  dismiss: { pt: 'marcou como tratada fora do conector', en: 'marked it as handled outside the connector' },
  settle: { pt: 'marcou a diferença como regularizada', en: 'marked the difference as settled' },
};

/** A purpose's name on the order page. */
export type PurposeName = (lang: Lang, purpose: string) => string;

/**
 * The purposes' names for an order: the `cancellation` purpose is a credit note of the whole invoice
 * unless the invoice was cancelled in place (onCancelled: cancel), and is named so.
 */
export function purposeNames(ledger: Record<string, LedgerEntry>): PurposeName {
  return (lang, purpose) => {
    if (purpose === 'cancellation' && ledger.cancellation?.state !== 'cancelled' && (ledger.cancellation?.documentId !== undefined || ledger.cancellation?.creditNoteAskedAt !== undefined)) {
      return CONSOLE.say(lang, 'credit-note-whole');
    }
    return purposeLabel(lang, purpose);
  };
}

/** One event of the order's story in the reader's words. */
export function eventWords(lang: Lang, event: HistoryEvent, tenant: string, orderId: number, name: PurposeName = purposeLabel, status: StatusLabel = shopStatusLabel): Html {
  switch (event.kind) {
    case 'received':
      return html`${t(lang, 'history.received')} ${VIA[event.via][lang]}${event.status ? html` · ${t(lang, 'shopStatus')}: <span class="tag">${status(lang, event.status)}</span>` : ''}.`;
    case 'attempt':
      return html`${name(lang, event.purpose)}: ${STEP[event.step][lang]} · ${
        event.ok ? html`<span class="good">${t(lang, 'history.done')}</span>` : html`<span class="warn">${t(lang, 'history.failed')}</span>${event.error ? html`: <span class="muted">${event.error}</span>` : ''}`
      }`;
    case 'document':
      return html`${documentTypeLabel(lang, event.type)} <b>${event.number ?? `#${event.documentId}`}</b> ${t(lang, 'history.issued')}${event.total ? ` (${amount(lang, event.total)})` : ''}${
        event.corrects ? html`, ${t(lang, 'corrects')} ${event.corrects}` : ''
      }.`;
    case 'note':
      return html`${t(lang, event.customer ? 'history.customerNote' : 'history.privateNote')}: <q>${event.text}</q>`;
    case 'problem': {
      const words = entryWords(lang, { problem: event.problem }, { tenant, orderId, purpose: event.purpose }, 'console');
      return html`<span class="warn">${name(lang, event.purpose)}: ${t(lang, 'history.needsAttention')}.</span> ${words.reason}`;
    }
    case 'action':
      if (event.action === 'credit-note' && event.detail) {
        return html`<b>${event.by}</b> ${CONSOLE.say(lang, 'asked-credit-note', { invoice: event.detail })}.`;
      }
      if (event.action === 'cancellation' && event.detail) {
        return html`<b>${event.by}</b> ${ACTION.cancellation[lang]} <b>${event.detail}</b>.`;
      }
      return html`<b>${event.by}</b> ${ACTION[event.action][lang]}${event.detail ? html` <q>${event.detail}</q>` : ''}${event.purpose ? html` <span class="muted">(${name(lang, event.purpose)})</span>` : ''}.`;
  }
}

function historySection(view: View, events: HistoryEvent[], tenant: string, orderId: number, zone: string, name: PurposeName, status: StatusLabel): Html {
  const { lang } = view;
  const items = [...events].reverse().map((event) => html`<li data-kind="${event.kind}"><time>${shopTime(event.at, zone, lang)}</time>${eventWords(lang, event, tenant, orderId, name, status)}</li>`);
  return html`<section id="history"><h2>${t(lang, 'historyTitle')}</h2>${items.length === 0 ? html`<p>${t(lang, 'noHistory')}</p>` : html`<ol class="history">${items}</ol>`}</section>`;
}

/** The order's page: the shop's facts, its documents, what waits, what a person can do, its story. */
export async function orderPageBody(deps: ConsoleDeps, tenant: TenantRuntime, view: View, orderId: number): Promise<{ body: Html; found: boolean; shown: string }> {
  const { lang, token } = view;
  const id = tenant.config.id;
  const zone = tenant.mapping.shopTimeZone;
  const [ledger, events, shop] = await Promise.all([deps.ledger.forOrder(id, orderId), deps.history.of(id, orderId), readShopOrder(tenant, orderId, lang)]);
  const found = shop.order !== undefined || Object.keys(ledger).length > 0 || events.length > 0;
  const base = orderPagePath(id, orderId);
  const order = shop.order;
  const platform = platformOf(tenant.config);
  const customer = order ? customerName(order) : '';
  const shown = orderShown(orderId, order);
  const head = html`<section id="order"><h2>${t(lang, 'order')} ${shown}${customer ? html` · ${customer}` : ''}</h2>
${
  order
    ? html`<dl class="facts"><dt>${t(lang, 'shopStatus')}</dt><dd><span class="tag">${statusLabelOf(platform)(lang, order.status)}</span></dd>
<dt>${t(lang, 'total')}</dt><dd>${amount(lang, order.total, order.currency?.toUpperCase())}</dd>
${order.createdAt ? html`<dt>${t(lang, 'createdAt')}</dt><dd>${shopTime(Date.parse(`${order.createdAt}Z`), zone, lang)}</dd>` : ''}</dl>`
    : html`<p class="warn">${t(lang, 'shopUnreachable')}: ${shop.error ?? ''}</p>`
}
<p><a href="${platform.adminOrderUrl(tenant.config, orderId)}" rel="noopener">${t(lang, 'orderInShop')} ${platform.title} ↗</a></p></section>`;
  if (!found) return { body: html`${head}<section><p>${t(lang, 'unknownOrder')}</p></section>`, found, shown };

  const name = purposeNames(ledger);
  const cards = Object.entries(ledger).map(([purpose, entry]) => purposeCard(tenant, view, orderId, purpose, entry, name));
  const hidden = html`<input type="hidden" name="csrf" value="${token}"><input type="hidden" name="from" value="order">`;
  const creditable = await creditableInvoice(deps, id, orderId);
  const cancellationWaits = order?.status === 'cancelled' && creditable.ok && tenant.config.settings.onCancelled !== 'ignore';
  // Retry runs again what the pipeline already decided to issue; an order it never took up (before
  // go-live) is issued from the not-invoiced list, after its preview.
  const needsIssue = Object.values(ledger).some((entry) => entry.action !== undefined && !(entry.documentId !== undefined && entry.state === 'written-back'));
  const anyHeld = Object.values(ledger).some((entry) => entry.state === 'held');
  const actions = [
    needsIssue ? html`<form method="post" action="${base}/retry">${hidden}<button class="${anyHeld ? 'secondary' : ''}">${BUTTONS.retry[lang]}</button></form>` : '',
    cancellationWaits ? html`<form method="get" action="${base}/preview"><input type="hidden" name="purpose" value="cancellation"><input type="hidden" name="policy" value="1"><button>${BUTTONS.cancellation[lang]}</button></form>` : '',
    creditable.ok && !(cancellationWaits && tenant.config.settings.onCancelled === 'credit-note')
      ? html`<form method="get" action="${base}/preview"><input type="hidden" name="purpose" value="cancellation"><button class="${cancellationWaits ? 'secondary' : ''}">${BUTTONS.creditNote[lang]}</button></form>`
      : '',
  ].filter((action) => action !== '');
  const notInvoiced = ledger.invoice?.documentId === undefined ? (await listNotInvoiced(deps.redis, deps.prefix, id)).find((entry) => entry.orderId === orderId && entry.reason.code === 'before-go-live') : undefined;
  // An order sold before the go-live cut-off: why it was not invoiced, and the way to issue it (its preview first).
  if (notInvoiced) {
    actions.unshift(html`<form method="get" action="/console/${id}/not-invoiced/preview"><input type="hidden" name="order" value="${orderId}"><button>${BUTTONS.issueNow[lang]}</button></form>`);
  }
  const notInvoicedSection = notInvoiced ? html`<section id="not-invoiced"><h2>${t(lang, 'notInvoiced')}</h2><p>${notInvoicedWhy(lang, notInvoiced.reason, zone)}</p></section>` : '';
  const actionSection = actions.length > 0 ? html`<section id="actions"><h2>${t(lang, 'actions')}</h2><div class="actions">${actions}</div></section>` : '';
  const waiting = cards.filter((card) => card !== '');
  return {
    found,
    shown,
    body: html`${head}${notInvoicedSection}${waiting.length > 0 ? html`<section id="waiting"><h2>${t(lang, 'waiting')}</h2>${waiting}</section>` : ''}${documentsSection(deps, tenant, view, ledger)}${actionSection}${historySection(view, events, id, orderId, zone, name, statusLabelOf(platform))}`,
  };
}

/** Whether a purpose is one a person may still issue from the console (held, refused or failed with nothing issued). */
export function issuable(entry: LedgerEntry | null): boolean {
  return entry !== null && stateRules(entry.state).dismissable && entry.documentId === undefined;
}
