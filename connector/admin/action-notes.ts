import { money } from '../../messages/money';
import { purposeWords, type Lang } from '../words';

/**
 * The private notes the console leaves on an order when a person decides to issue a certified
 * document: what was decided and by whom, in the shop's language (tenant setting `language`).
 */
export const ACTION_NOTES = {
  /** "Issue now" on a held order, after its preview. */
  issueNow: (lang: Lang, d: { purpose: string; by: string; total?: string; currency?: string; held?: boolean }) =>
    lang === 'pt'
      ? `Conector MagniFinance: ${d.by} reviu na consola a ${purposeWords(lang, d.purpose)}${d.held === false ? '' : ' retida'}${d.total ? ` (total ${money(lang, d.total, d.currency ?? 'EUR')})` : ''} e decidiu emiti-la.`
      : `MagniFinance connector: ${d.by} reviewed the${d.held === false ? '' : ' held'} ${purposeWords(lang, d.purpose)}${d.total ? ` (total ${money(lang, d.total, d.currency ?? 'EUR')})` : ''} in the console and decided to issue it.`,
  /** A credit note for the whole invoice, after its preview. */
  creditNote: (lang: Lang, d: { by: string; number: string; total?: string; currency?: string }) =>
    lang === 'pt'
      ? `Conector MagniFinance: ${d.by} reviu na consola e pediu uma nota de crédito da fatura ${d.number} inteira${d.total ? ` (${money(lang, d.total, d.currency ?? 'EUR')})` : ''}.`
      : `MagniFinance connector: ${d.by} reviewed in the console and asked for a credit note for the whole invoice ${d.number}${d.total ? ` (${money(lang, d.total, d.currency ?? 'EUR')})` : ''}.`,
  /** The cancellation rule `cancel` applied from the console. */
  cancelInvoice: (lang: Lang, d: { by: string; number: string }) =>
    lang === 'pt'
      ? `Conector MagniFinance: ${d.by} aplicou na consola a regra de cancelamento da loja: a fatura ${d.number} vai ser anulada.`
      : `MagniFinance connector: ${d.by} applied the shop's cancellation rule in the console: invoice ${d.number} is to be cancelled.`,
};
