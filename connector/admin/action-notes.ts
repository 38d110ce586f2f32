import { z } from 'zod';
import { catalogue, words } from '../../messages/catalogue';
import { money } from '../../messages/money';
import { purposeWords, type Lang } from '../words';

/**
 * The private notes the console leaves on an order when a person decides to issue a certified
 * document: what was decided and by whom, in the shop's language (tenant setting `language`).
 * Codes with typed parameters per language (messages/catalogue.ts).
 */
const S = z.string();
const OPT = z.string().optional();
const shown = (lang: Lang, total: string | undefined, currency: string | undefined): string => (total ? money(lang, total, currency ?? 'EUR') : '');

const NOTES = catalogue({
  'issue-now': words(
    { purpose: S, by: S, total: OPT, currency: OPT, held: z.boolean().optional() },
    {
      pt: (p) => `Conector MagniFinance: ${p.by} reviu na consola a ${purposeWords('pt', p.purpose)}${p.held === false ? '' : ' retida'}${p.total ? ` (total ${shown('pt', p.total, p.currency)})` : ''} e decidiu emiti-la.`,
      en: (p) => `MagniFinance connector: ${p.by} reviewed the${p.held === false ? '' : ' held'} ${purposeWords('en', p.purpose)}${p.total ? ` (total ${shown('en', p.total, p.currency)})` : ''} in the console and decided to issue it.`,
    },
  ),
  'credit-note': words(
    { by: S, number: S, total: OPT, currency: OPT },
    {
      pt: (p) => `Conector MagniFinance: ${p.by} reviu na consola e pediu uma nota de crédito da fatura ${p.number} inteira${p.total ? ` (${shown('pt', p.total, p.currency)})` : ''}.`,
      en: (p) => `MagniFinance connector: ${p.by} reviewed in the console and asked for a credit note for the whole invoice ${p.number}${p.total ? ` (${shown('en', p.total, p.currency)})` : ''}.`,
    },
  ),
  'cancel-invoice': words(
    { by: S, number: S },
    {
      pt: (p) => `Conector MagniFinance: ${p.by} aplicou na consola a regra de cancelamento da loja: a fatura ${p.number} vai ser anulada.`,
      en: (p) => `MagniFinance connector: ${p.by} applied the shop's cancellation rule in the console: invoice ${p.number} is to be cancelled.`,
    },
  ),
});

export const ACTION_NOTES = {
  /** "Issue now" on a held order, after its preview. */
  issueNow: (lang: Lang, d: { purpose: string; by: string; total?: string; currency?: string; held?: boolean }) => NOTES.say(lang, 'issue-now', d),
  /** A credit note for the whole invoice, after its preview. */
  creditNote: (lang: Lang, d: { by: string; number: string; total?: string; currency?: string }) => NOTES.say(lang, 'credit-note', d),
  /** The cancellation rule `cancel` applied from the console. */
  cancelInvoice: (lang: Lang, d: { by: string; number: string }) => NOTES.say(lang, 'cancel-invoice', d),
};
