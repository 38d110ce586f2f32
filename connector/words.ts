/**
 * What the connector writes for people, in Portuguese or English: document types, purposes and the
 * notes it leaves on orders. The shop's language is the tenant setting `language` (notes are read
 * by the shop owner, the customer note by the buyer); the console follows the reader's browser.
 */
import type { LedgerState } from './core/ledger';
import { z } from 'zod';
import type { Lang, PerLang } from '../messages/lang';
import { catalogue, fixed, words } from '../messages/catalogue';
import { countOf, type CountWords } from '../messages/plural';
import { documentTypeLabel, documentTypeWords } from '../messages/document-types';
import { money } from '../messages/money';
import type { RegimeStanding } from './core/regime-standing';

/** The reader's language and the document types' names: defined once, in messages/. */
export type { Lang };
export { documentTypeLabel };

/** Ledger states in the reader's words (the raw state stays in the admin API). */
const STATES: Record<LedgerState, Record<Lang, string>> = {
  // One name per state, on every page, note, alert, month pack and the doctor; feminine in
  // Portuguese, as the words it qualifies (a fatura, a nota de crédito, a encomenda).
  drafting: { pt: 'a criar o rascunho', en: 'creating a draft' },
  draft: { pt: 'rascunho criado', en: 'draft created' },
  creating: { pt: 'a emitir', en: 'being issued' },
  created: { pt: 'emitida, ainda sem número', en: 'issued, no number yet' },
  finalized: { pt: 'numerada', en: 'numbered' },
  'written-back': { pt: 'registada na encomenda', en: 'on the order' },
  'duplicate-unknown-id': { pt: 'emitida com id desconhecido', en: 'issued with an unknown id' },
  'alert-no-number': { pt: 'emitida sem número', en: 'issued without a number' },
  held: { pt: 'retida', en: 'held' },
  'mapping-failed': { pt: 'por corrigir', en: 'to be corrected' },
  failed: { pt: 'parada por erro', en: 'stopped by an error' },
  skipped: { pt: 'nada a emitir', en: 'nothing to issue' },
  cancelled: { pt: 'anulada', en: 'cancelled' },
  dismissed: { pt: 'tratada fora do conector', en: 'handled outside the connector' },
};

/** A ledger state's one name in `lang`; a state this version does not know stays as it came, none is "–". */
export function stateLabel(lang: Lang, state: LedgerState | string | undefined): string {
  if (!state) return '–';
  return Object.prototype.hasOwnProperty.call(STATES, state) ? STATES[state as LedgerState][lang] : state;
}

const PURPOSES: Record<string, Record<Lang, string>> = {
  invoice: { pt: 'fatura', en: 'invoice' },
  waybill: { pt: 'guia de transporte', en: 'waybill' },
  cancellation: { pt: 'anulação', en: 'cancellation' },
  review: { pt: 'verificação dos documentos', en: 'check of the documents' },
};

/** The refund id of a credit note's purpose (`credit-note-<id>`), undefined for the others. */
function refundOf(purpose: string): string | undefined {
  return purpose.startsWith('credit-note-') ? purpose.slice('credit-note-'.length) : undefined;
}

const S = z.string();
const N = z.number();
const OPT = z.string().optional();

/** The owner's words on the order (its notes) and the purposes' names: codes with typed parameters per language (messages/catalogue.ts). */
/** What an advance payment is, and what a person does about it (CIVA art. 36(1)(c)), by its kind. */
const ADVANCE_WHAT: Record<Lang, Record<string, string>> = {
  pt: { deposit: 'foi recebido um sinal (pagamento parcial) antes da entrega', 'pre-order': 'uma pré-encomenda paga antes de o produto existir ou ser entregue' },
  en: { deposit: 'a deposit (partial payment) was received before the supply', 'pre-order': 'a pre-order paid before the product is released or delivered' },
};
const ADVANCE_DO: Record<Lang, Record<string, string>> = {
  pt: {
    deposit:
      'emita hoje à mão, no MagniFinance, a fatura do sinal recebido. Depois de o resto estar pago, o conector fatura a encomenda inteira: regularize então a fatura do sinal (uma nota de crédito que a refira) ou marque a encomenda como tratada fora do conector. Não ponha este estado nos estados que faturam (triggerStatuses): faturaria a encomenda inteira como paga.',
    'pre-order':
      'ponha "pre-ordered" nos estados que faturam (triggerStatuses) para o conector emitir a fatura da encomenda paga no dia do pagamento, ou emita-a hoje à mão no MagniFinance.',
  },
  en: {
    deposit:
      "issue the deposit's invoice by hand in MagniFinance today. When the rest is paid, the connector invoices the whole order: then settle the deposit's invoice (a credit note naming it) or mark the order as handled outside the connector. Do not add this status to triggerStatuses: the whole order would be invoiced as paid.",
    'pre-order': 'add "pre-ordered" to triggerStatuses so the connector invoices the paid order on the day of the payment, or issue the invoice by hand in MagniFinance today.',
  },
};

const OWNER = catalogue({
  'credit-note-purpose': words({ refund: S }, { pt: (p) => `nota de crédito do reembolso #${p.refund}`, en: (p) => `credit note for refund #${p.refund}` }),
  'credit-note-label': words({ refund: S }, { pt: (p) => `Nota de crédito (reembolso #${p.refund})`, en: (p) => `Credit note (refund #${p.refund})` }),
  issued: words(
    { type: OPT, number: S, documentId: N },
    {
      pt: (p) => `MagniFinance: ${documentTypeLabel('pt', p.type)} ${p.number} emitida (documento ${p.documentId}).`,
      en: (p) => `MagniFinance: ${documentTypeLabel('en', p.type)} ${p.number} issued (document ${p.documentId}).`,
    },
  ),
  'vies-confirmed': words(
    { vatNumber: S, on: S },
    { pt: (p) => ` Número de IVA ${p.vatNumber} confirmado válido no VIES a ${p.on}.`, en: (p) => ` VAT number ${p.vatNumber} confirmed valid by VIES on ${p.on}.` },
  ),
  'please-check': words({ warnings: S }, { pt: (p) => ` Verifique: ${p.warnings}`, en: (p) => ` Please check: ${p.warnings}` }),
  'cancelled-in-place': words(
    { number: S, documentId: N },
    {
      pt: (p) => `MagniFinance: a fatura ${p.number} (documento ${p.documentId}) foi anulada porque a encomenda foi cancelada.`,
      en: (p) => `MagniFinance: invoice ${p.number} (document ${p.documentId}) was cancelled because the order was cancelled.`,
    },
  ),
  customer: words(
    { type: OPT, number: S },
    { pt: (p) => `A sua ${documentTypeWords('pt', p.type)} ${p.number}:`, en: (p) => `Your ${documentTypeWords('en', p.type)} ${p.number}:` },
  ),
  attention: words(
    { purpose: S, reason: S, action: S, pageUrl: OPT },
    {
      pt: (p) =>
        `Conector MagniFinance: a ${purposeWords('pt', p.purpose)} desta encomenda precisa da sua atenção.\nPorquê: ${p.reason}\nO que fazer: ${p.action}${p.pageUrl ? `\nPágina da encomenda: ${p.pageUrl}` : ''}`,
      en: (p) =>
        `MagniFinance connector: the ${purposeWords('en', p.purpose)} of this order needs your attention.\nWhy: ${p.reason}\nWhat to do: ${p.action}${p.pageUrl ? `\nOrder page: ${p.pageUrl}` : ''}`,
    },
  ),
  'other-system': words(
    { system: S, key: S, value: S },
    {
      pt: (p) =>
        `Conector MagniFinance: esta encomenda já tem um documento de outro sistema (${p.system}: ${p.key} = ${p.value}), por isso o conector não a vai faturar. Se esse documento foi anulado e a encomenda deve ser faturada aqui, retire esse campo da encomenda e fature-a com o comando backfill do conector.`,
      en: (p) =>
        `MagniFinance connector: this order already has a document from another system (${p.system}: ${p.key} = ${p.value}). The connector will not invoice it. If that document was cancelled and the order must be invoiced here, remove that field and issue it with a backfill.`,
    },
  ),
  'advance-payment': words(
    { kind: S, status: S, plugin: S },
    {
      pt: (p) =>
        `Conector MagniFinance: esta encomenda está no estado "${p.status}" de "${p.plugin}": ${ADVANCE_WHAT.pt[p.kind] ?? ADVANCE_WHAT.pt.deposit}. Um pagamento recebido antes da entrega dos bens ou da prestação do serviço é faturado no dia em que é recebido, pelo valor recebido (art. 36.º, n.º 1, alínea c), do CIVA), e o conector não o emite: ${ADVANCE_DO.pt[p.kind] ?? ADVANCE_DO.pt.deposit}`,
      en: (p) =>
        `MagniFinance connector: this order is in ${p.plugin}'s status "${p.status}": ${ADVANCE_WHAT.en[p.kind] ?? ADVANCE_WHAT.en.deposit}. A payment received before the goods are delivered or the service performed is invoiced on the day it is received, for the amount received (CIVA art. 36(1)(c)), and the connector does not issue that: ${ADVANCE_DO.en[p.kind] ?? ADVANCE_DO.en.deposit}`,
    },
  ),
  'advance-payment-why': words(
    { kind: S, status: S, plugin: S },
    {
      pt: (p) => `${ADVANCE_WHAT.pt[p.kind] ?? ADVANCE_WHAT.pt.deposit} (estado "${p.status}" de "${p.plugin}"): a fatura do pagamento emite-se no dia em que é recebido (art. 36.º, n.º 1, alínea c), do CIVA); ${ADVANCE_DO.pt[p.kind] ?? ADVANCE_DO.pt.deposit}`,
      en: (p) => `${ADVANCE_WHAT.en[p.kind] ?? ADVANCE_WHAT.en.deposit} (${p.plugin}'s status "${p.status}"): the payment is invoiced the day it is received (CIVA art. 36(1)(c)); ${ADVANCE_DO.en[p.kind] ?? ADVANCE_DO.en.deposit}`,
    },
  ),
  settled: words(
    { purpose: S, by: S, how: S },
    {
      pt: (p) => `Conector MagniFinance: a diferença na ${purposeWords('pt', p.purpose)} desta encomenda foi marcada como regularizada por ${p.by}: ${p.how}.`,
      en: (p) => `MagniFinance connector: the difference on the ${purposeWords('en', p.purpose)} of this order was marked as settled by ${p.by}: ${p.how}.`,
    },
  ),
  dismissed: words(
    { purpose: S, by: S, how: S },
    {
      pt: (p) => `Conector MagniFinance: a ${purposeWords('pt', p.purpose)} desta encomenda foi marcada como tratada fora do conector por ${p.by}: ${p.how}. O conector não a vai emitir.`,
      en: (p) => `MagniFinance connector: the ${purposeWords('en', p.purpose)} of this order was marked as handled outside the connector by ${p.by}: ${p.how}. The connector will not issue it.`,
    },
  ),
});

/** The purpose in a sentence: invoice, credit note for refund #N, ... */
export function purposeWords(lang: Lang, purpose: string): string {
  const refund = refundOf(purpose);
  if (refund !== undefined) return OWNER.say(lang, 'credit-note-purpose', { refund });
  return PURPOSES[purpose]?.[lang] ?? purpose;
}

/** The purpose as a label (the console): Fatura, Nota de crédito (reembolso #N), ... */
export function purposeLabel(lang: Lang, purpose: string): string {
  const refund = refundOf(purpose);
  if (refund !== undefined) return OWNER.say(lang, 'credit-note-label', { refund });
  const words = PURPOSES[purpose]?.[lang];
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : purpose;
}

/**
 * The notes on the order. `head` identifies a note (a retry looks for it before posting again);
 * the rest of the text may change between attempts (the PDF link's expiry).
 */
export const NOTES = {
  issued: (lang: Lang, d: { type: string | undefined; number: string; documentId: number }) => OWNER.say(lang, 'issued', d),
  /** What follows the head of the issued note: the PDF, what was checked, what to check. */
  issuedDetails: (lang: Lang, d: { pdfUrl: string; viesConfirmed?: { vatNumber: string; on: string }; warnings?: string[] }) => {
    const vies = d.viesConfirmed ? OWNER.say(lang, 'vies-confirmed', d.viesConfirmed) : '';
    const check = d.warnings && d.warnings.length > 0 ? OWNER.say(lang, 'please-check', { warnings: sentencesOf(d.warnings) }) : '';
    return ` PDF: ${d.pdfUrl}${vies}${check}`;
  },
  cancelledInPlace: (lang: Lang, d: { number: string; documentId: number }) => OWNER.say(lang, 'cancelled-in-place', d),
  /** The customer note (WooCommerce e-mails it to the buyer): its head, then the link. */
  customer: (lang: Lang, d: { type: string | undefined; number: string }) => OWNER.say(lang, 'customer', d),
  /**
   * A purpose waits for a person: why, what to do, and the order's page in the console (whose
   * buttons the words name). Each part on its own line.
   */
  attention: (lang: Lang, d: { purpose: string; reason: string; action: string; pageUrl?: string }) => OWNER.say(lang, 'attention', d),
  /** An order that already has another system's document: never invoiced here. */
  otherSystem: (lang: Lang, d: { system: string; key: string; value: string }) => OWNER.say(lang, 'other-system', d),
  /** A deposit or pre-order paid before the supply, kept by its plugin (CIVA art. 36(1)(c)): told once, on the order. */
  advancePayment: (lang: Lang, d: { kind: string; status: string; plugin: string }) => OWNER.say(lang, 'advance-payment', d),
  /** The same, as the console's not-invoiced list says why. */
  advancePaymentWhy: (lang: Lang, d: { kind: string; status: string; plugin: string }) => OWNER.say(lang, 'advance-payment-why', d),
  /** A difference between an order and its documents, settled outside the connector. */
  settled: (lang: Lang, d: { purpose: string; by: string; how: string }) => OWNER.say(lang, 'settled', d),
  dismissed: (lang: Lang, d: { purpose: string; by: string; how: string }) => OWNER.say(lang, 'dismissed', d),
};

/** Sentences as one text, each ending with a full stop (never two reasons glued). */
export function sentencesOf(parts: readonly string[]): string {
  return parts
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => (/[.!?…]$/.test(part) ? part : `${part}.`))
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
}

const SWEEP_WORDS: Record<Lang, Record<'scanned' | 'enqueued' | 'resumed' | 'waitingForPerson' | 'advancePayments', CountWords>> = {
  pt: {
    scanned: { one: 'encomenda vista', other: 'encomendas vistas' },
    enqueued: { one: 'documento posto na fila para emissão', other: 'documentos postos na fila para emissão' },
    resumed: { one: 'retomado depois de ter parado', other: 'retomados depois de terem parado' },
    waitingForPerson: { one: 'encomenda precisa da sua atenção', other: 'encomendas precisam da sua atenção' },
    advancePayments: {
      one: 'encomenda paga em parte ou antes da entrega, não faturada pelo conector (art. 36.º, n.º 1, alínea c), do CIVA: veja a lista das não faturadas)',
      other: 'encomendas pagas em parte ou antes da entrega, não faturadas pelo conector (art. 36.º, n.º 1, alínea c), do CIVA: veja a lista das não faturadas)',
    },
  },
  en: {
    scanned: { one: 'order scanned', other: 'orders scanned' },
    enqueued: { one: 'document queued to be issued', other: 'documents queued to be issued' },
    resumed: { one: 'resumed after it had stopped', other: 'resumed after they had stopped' },
    waitingForPerson: { one: 'order needs your attention', other: 'orders need your attention' },
    advancePayments: {
      one: 'order paid in part or before the supply, not invoiced by the connector (CIVA art. 36(1)(c): see the not-invoiced list)',
      other: 'orders paid in part or before the supply, not invoiced by the connector (CIVA art. 36(1)(c): see the not-invoiced list)',
    },
  },
};

/** What a sweep found and did, as one sentence ("9 encomendas vistas; 2 enviadas para emissão."). */
export function sweepSummary(lang: Lang, d: { scanned: number; enqueued: number; resumed: number; waitingForPerson?: number; advancePayments?: number }): string {
  const w = SWEEP_WORDS[lang];
  const parts = [countOf(lang, d.scanned, w.scanned), countOf(lang, d.enqueued, w.enqueued)];
  if (d.resumed > 0) parts.push(countOf(lang, d.resumed, w.resumed));
  if (d.waitingForPerson) parts.push(countOf(lang, d.waitingForPerson, w.waitingForPerson));
  if (d.advancePayments) parts.push(countOf(lang, d.advancePayments, w.advancePayments));
  return `${parts.join('; ')}.`;
}

/**
 * Deliveries the webhook route refused (or could not use), by reason (ingest/webhook-health.ts).
 * Their likely cause and fix name the platform's screens and settings, so the tenant's platform
 * words them (ShopPlatform.deliveryProblemWords): a WooCommerce shop shows a webhook with a wrong
 * secret as healthy while every order is refused; a Shopify store's is the app's client secret.
 */
export const DELIVERY_PROBLEMS = ['bad-signature', 'missing-signature', 'unknown-topic', 'invalid-payload', 'malformed-json', 'too-large', 'redis-unavailable'] as const;
export type DeliveryProblem = (typeof DELIVERY_PROBLEMS)[number];

export function isDeliveryProblem(reason: string): reason is DeliveryProblem {
  return (DELIVERY_PROBLEMS as readonly string[]).includes(reason);
}

/**
 * The console's buttons, named the same on the button and in every note, alert and problem that
 * tells a person to press one (so "press «Tentar de novo»" always matches what they see).
 */
export const BUTTONS = {
  retry: { pt: 'Tentar de novo', en: 'Try again' },
  attach: { pt: 'Associar documento', en: 'Attach document' },
  issueNow: { pt: 'Rever e emitir', en: 'Review and issue' },
  confirmIssue: { pt: 'Confirmar e emitir', en: 'Confirm and issue' },
  creditNote: { pt: 'Nota de crédito da fatura inteira', en: 'Credit note for the whole invoice' },
  cancellation: { pt: 'Aplicar a regra de cancelamento', en: 'Apply the cancellation rule' },
  dismiss: { pt: 'Marcar como tratada', en: 'Mark as handled' },
} as const satisfies Record<string, Record<Lang, string>>;
export type Button = keyof typeof BUTTONS;

/** A button's name in a sentence: «Tentar de novo» (pt), "Try again" (en). */
export function buttonWords(lang: Lang, button: Button): string {
  return QUOTED[lang](BUTTONS[button][lang]);
}

/** A name quoted the language's way: «…» in Portuguese, "…" in English. */
const QUOTED: PerLang<(text: string) => string> = { pt: (text) => `«${text}»`, en: (text) => `"${text}"` };

/** The console's page of an order: notes and alerts link here (server.publicUrl in front). */
export function orderPagePath(tenant: string, orderId: number): string {
  return `/console/${encodeURIComponent(tenant)}/orders/${orderId}`;
}

/**
 * The art. 53 regime's standing near its exit (core/regime-standing.ts), for the console's warning
 * line and the alerts: the year's M10 documents against EUR 18,750 (DL 35/2025), amounts in euros.
 */
const REGIME = catalogue({
  'regime-near': words(
    { year: N, total: S, exit: S, warnFrom: S },
    {
      pt: (p) =>
        `As faturas M10 de ${p.year} emitidas pelo conector somam ${money('pt', p.total, 'EUR')}, perto do limite de ${money('pt', p.exit, 'EUR')} do regime de isenção do art. 53.º do CIVA (aviso a partir de ${money('pt', p.warnFrom, 'EUR')}). Acima do limite a loja sai de imediato do regime (DL 35/2025) e a fatura que o ultrapassa já leva IVA: o conector retém-na.`,
      en: (p) =>
        `The ${p.year} M10 invoices issued by the connector come to ${money('en', p.total, 'EUR')}, near the ${money('en', p.exit, 'EUR')} limit of the art. 53 CIVA exemption regime (warned from ${money('en', p.warnFrom, 'EUR')}). Past it the shop leaves the regime at once (DL 35/2025) and the invoice that crosses it already carries VAT: the connector holds it.`,
    },
  ),
  'regime-past': words(
    { year: N, total: S, exit: S },
    {
      pt: (p) =>
        `As faturas M10 de ${p.year} somam ${money('pt', p.total, 'EUR')}, acima do limite de ${money('pt', p.exit, 'EUR')} do regime do art. 53.º do CIVA: a loja saiu do regime (DL 35/2025) e o conector retém as faturas M10 seguintes.`,
      en: (p) =>
        `The ${p.year} M10 invoices come to ${money('en', p.total, 'EUR')}, past the ${money('en', p.exit, 'EUR')} limit of the art. 53 CIVA regime: the shop has left the regime (DL 35/2025) and the connector holds the next M10 invoices.`,
    },
  ),
  'regime-fix': fixed({
      pt: 'Prepare a mudança com o seu contabilista: no dia em que a loja sai do regime, defina exemptions.regimeUntil e aplique o imposto aos produtos na loja; as faturas retidas são então emitidas com IVA.',
      en: 'Plan the change with your accountant: on the day the shop leaves the regime, set exemptions.regimeUntil and tax the products in the shop; the held invoices are then issued with VAT.',
  }),
});

/** What to tell of a shop near (or past) the art. 53 exit, and what to do; undefined below the warning threshold. */
export function regimeStandingWords(lang: Lang, standing: RegimeStanding | undefined): { what: string; fix: string } | undefined {
  if (!standing || standing.state === 'below') return undefined;
  const { year, total, exit, warnFrom } = standing;
  const what = standing.state === 'near' ? REGIME.say(lang, 'regime-near', { year, total, exit, warnFrom }) : REGIME.say(lang, 'regime-past', { year, total, exit });
  return { what, fix: REGIME.say(lang, 'regime-fix') };
}
