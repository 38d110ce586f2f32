import { z } from 'zod';
import { catalogue, fixed, inEveryLang, words } from '../../messages/catalogue';
import { purposeWords, stateLabel } from '../words';

/**
 * Why a person's action on an order was refused (retry, attach a document, issue now, credit the
 * whole invoice, mark as handled), as the console shows it beside the button, by code with typed
 * parameters per language (messages/catalogue.ts). The admin API's `error` stays in English, like
 * the logs.
 */
const S = z.string();
const N = z.number();
const OPT = z.string().optional();

export const ACTION_REFUSALS = catalogue({
  'other-system': words(
    { orderId: N, which: S },
    {
      pt: (p) => `a encomenda ${p.orderId} já tem um documento de outro sistema (${p.which}) e o conector nunca a fatura.`,
      en: (p) => `order ${p.orderId} has another system's document (${p.which}): the connector never invoices it.`,
    },
  ),
  'shop-unreadable': words(
    { orderId: N, why: S },
    {
      pt: (p) => `não foi possível ler a encomenda ${p.orderId} na loja (${p.why}). Tente de novo daqui a pouco.`,
      en: (p) => `could not read order ${p.orderId} from the shop (${p.why}). Try again in a moment.`,
    },
  ),
  /** The frame of a refusal by the purpose's state; `why` is one of the `why-*` entries. */
  'in-state': words(
    { purpose: S, orderId: N, state: OPT, why: S },
    {
      pt: (p) => `a ${purposeWords('pt', p.purpose)} da encomenda ${p.orderId} está no estado «${stateLabel('pt', p.state)}»: ${p.why}.`,
      en: (p) => `the ${purposeWords('en', p.purpose)} of order ${p.orderId} is in state "${stateLabel('en', p.state)}": ${p.why}.`,
    },
  ),
  'why-attach': fixed({
    pt: 'só se associa um documento quando o conector não sabe o id do documento emitido',
    en: 'a document is attached only when the connector does not know the id of the issued document',
  }),
  'why-release': fixed({ pt: 'já não está retida', en: 'it is no longer held' }),
  'why-dismiss': fixed({
    pt: 'só se marca como tratada uma encomenda retida, por corrigir ou parada por erro, sem documento emitido',
    en: 'only an order held, to be corrected or stopped by an error, with nothing issued, can be marked as handled',
  }),
  'document-unreadable': words(
    { documentId: N, why: S },
    { pt: (p) => `não foi possível ler o documento ${p.documentId} na MagniFinance (${p.why}).`, en: (p) => `could not read document ${p.documentId} from MagniFinance (${p.why}).` },
  ),
  'document-not-this': words(
    { documentId: N, found: OPT, expected: OPT },
    {
      pt: (p) => `o documento ${p.documentId} não é o desta encomenda: o seu ExternalId é ${p.found ?? '(nenhum)'} e devia ser ${p.expected ?? '(desconhecido)'}. Confirme o id no back-office.`,
      en: (p) => `document ${p.documentId} is not this order's: its ExternalId is ${p.found ?? '(none)'}, not ${p.expected ?? '(unknown)'}. Check the id in the back-office.`,
    },
  ),
  'no-invoice': words(
    { orderId: N },
    { pt: (p) => `a encomenda ${p.orderId} não tem uma fatura emitida pelo conector que possa ser creditada.`, en: (p) => `order ${p.orderId} has no invoice issued by the connector to credit.` },
  ),
  'already-credited': words(
    { number: S },
    { pt: (p) => `a fatura ${p.number} já foi creditada ou anulada: não se emite outra nota de crédito.`, en: (p) => `invoice ${p.number} is already credited or cancelled: no second credit note is issued.` },
  ),
  'cancellation-ignored': fixed({ pt: 'a regra de cancelamento da loja (onCancelled) é ignore: não há nada a emitir.', en: "the shop's cancellation rule (onCancelled) is ignore: nothing to issue." }),
});

/** A refusal worded in every language (the console picks its reader's). */
export const refusalSays = inEveryLang(ACTION_REFUSALS);
