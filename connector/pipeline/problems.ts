import { z } from 'zod';
import type { LedgerRef, LedgerState } from '../ledger';
import { purposeWords, type Lang } from '../words';

/**
 * Every reason an order waits for a person, with its fix, in the reader's language: one table.
 * The pipeline records the problem (code and facts) with its English words (the order's note, the
 * admin API and the alerts use those); the console words it again in Portuguese or English.
 * Messages that come from elsewhere (the mapping's refusal, the service's, an error) stay as they
 * came.
 */

export const ProblemSchema = z.discriminatedUnion('code', [
  z.object({ code: z.literal('held'), reasons: z.string() }),
  z.object({ code: z.literal('order-refused'), message: z.string() }),
  z.object({ code: z.literal('service-refused'), message: z.string() }),
  z.object({ code: z.literal('credentials'), message: z.string() }),
  z.object({ code: z.literal('shop-refused'), message: z.string() }),
  z.object({ code: z.literal('vies-unavailable'), vatNumber: z.string(), attempts: z.number(), why: z.string() }),
  z.object({ code: z.literal('gave-up'), attempts: z.number(), message: z.string() }),
  z.object({ code: z.literal('no-invoice') }),
  z.object({ code: z.literal('series-ahead'), serie: z.string(), type: z.string(), date: z.string() }),
  z.object({ code: z.literal('unknown-id'), externalId: z.string(), cause: z.enum(['lost-answer', 'unrecorded', 'client-changed']) }),
  z.object({ code: z.literal('no-number'), documentId: z.number(), calls: z.number() }),
  z.object({ code: z.literal('total-differs'), number: z.string(), total: z.string(), difference: z.string() }),
  /** The order is gone from the shop (deleted for good); `number` when its document was issued before. */
  z.object({ code: z.literal('order-deleted'), number: z.string().optional() }),
  z.object({ code: z.literal('wrong-company'), nif: z.string(), company: z.string(), cause: z.enum(['not-listed', 'no-partnership', 'refused']), actual: z.string().optional() }),
  /** An invoiced order changed (a line added or removed, a refund deleted...): its documents cover another amount. */
  z.object({ code: z.literal('order-changed'), number: z.string(), shopNet: z.string(), covered: z.string(), difference: z.string(), way: z.enum(['ask', 'credit-and-reissue', 'difference-document']) }),
  /** A credit note whose refund was deleted in WooCommerce after the credit note was issued. */
  z.object({ code: z.literal('refund-gone'), number: z.string(), refundId: z.number(), amount: z.string() }),
]);
export type Problem = z.infer<typeof ProblemSchema>;
type Of<C extends Problem['code']> = Extract<Problem, { code: C }>;
/** Why a document may exist on the service that this connector cannot name. */
export type UnknownIdCause = Of<'unknown-id'>['cause'];

/** What a person reads: why, and what to do. */
export interface ProblemWords {
  reason: string;
  action: string;
}

export function retryHint(ref: LedgerRef): string {
  return `POST /admin/api/orders/${ref.tenant}/${ref.orderId}/retry`;
}

/** How the reader retries: the admin API's route (notes, alerts, API) or the console's button. */
export type RetryVia = 'api' | 'console';

function retryWords(lang: Lang, ref: LedgerRef, via: RetryVia): string {
  if (via === 'api') return retryHint(ref);
  return lang === 'pt' ? 'o botão "Tentar agora"' : 'the "Retry now" button';
}

/** Problems about documents already issued that a person settles outside the connector, then marks as handled. */
const SETTLED_OUTSIDE: ReadonlySet<Problem['code']> = new Set(['order-changed', 'refund-gone']);

/** The problem recorded on a ledger entry, if it is one of those (the console's and the admin API's "mark as handled"). */
export function settledOutsideProblem(entry: { problem?: string }): Extract<Problem, { code: 'order-changed' | 'refund-gone' }> | undefined {
  if (!entry.problem) return undefined;
  try {
    const parsed = ProblemSchema.safeParse(JSON.parse(entry.problem));
    if (parsed.success && SETTLED_OUTSIDE.has(parsed.data.code)) return parsed.data as Extract<Problem, { code: 'order-changed' | 'refund-gone' }>;
  } catch {
    // words recorded before problems had codes
  }
  return undefined;
}

/** An amount as the reader writes it: 1 660,50 € (pt), €1,660.50 (en). */
export function moneyWords(lang: Lang, amount: string): string {
  const negative = amount.startsWith('-');
  const [whole, cents = '00'] = amount.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'pt' ? ' ' : ',');
  const text = lang === 'pt' ? `${grouped},${cents.padEnd(2, '0')} €` : `€${grouped}.${cents.padEnd(2, '0')}`;
  return negative ? `-${text}` : text;
}

const SETTLE_WAYS: Record<Lang, Record<Of<'order-changed'>['way'], (p: Of<'order-changed'>) => string>> = {
  en: {
    ask: (p) =>
      `Settle it in the MagniFinance back-office in one of the two lawful ways (your accountant chooses; tenant setting orderChanged): a credit note for ${p.number} and a new invoice for the order as it is now; or a document for the difference only: a second invoice for ${moneyWords('en', p.difference)} when the order grew, a credit note against ${p.number} when it shrank. Then mark this as handled.`,
    'credit-and-reissue': (p) =>
      `Your accountant's way (orderChanged: credit-and-reissue): in the MagniFinance back-office, issue a credit note for ${p.number} and a new invoice for the order as it is now (${moneyWords('en', p.shopNet)}). Then mark this as handled.`,
    'difference-document': (p) =>
      `Your accountant's way (orderChanged: difference-document): in the MagniFinance back-office, issue a document for the difference only: a second invoice for ${moneyWords('en', p.difference)} when the order grew, a credit note against ${p.number} when it shrank. Then mark this as handled.`,
  },
  pt: {
    ask: (p) =>
      `Regularize no back-office da MagniFinance de uma das duas formas legais (o seu contabilista escolhe; definição orderChanged da loja): uma nota de crédito da ${p.number} e uma nova fatura da encomenda como está agora; ou um documento só pela diferença: uma segunda fatura de ${moneyWords('pt', p.difference)} se a encomenda aumentou, uma nota de crédito sobre a ${p.number} se diminuiu. Depois marque como tratada.`,
    'credit-and-reissue': (p) =>
      `A forma do seu contabilista (orderChanged: credit-and-reissue): no back-office da MagniFinance, emita uma nota de crédito da ${p.number} e uma nova fatura da encomenda como está agora (${moneyWords('pt', p.shopNet)}). Depois marque como tratada.`,
    'difference-document': (p) =>
      `A forma do seu contabilista (orderChanged: difference-document): no back-office da MagniFinance, emita um documento só pela diferença: uma segunda fatura de ${moneyWords('pt', p.difference)} se a encomenda aumentou, uma nota de crédito sobre a ${p.number} se diminuiu. Depois marque como tratada.`,
  },
};

type Wording = { [C in Problem['code']]: Record<Lang, (p: Of<C>, ref: LedgerRef, retry: string, via: RetryVia) => ProblemWords> };

const orderFix: Record<Lang, (retry: string) => string> = {
  en: (retry) =>
    `Correct the order in WooCommerce (or the tenant's mapping settings) and save it: the connector tries again on the order's next update, on the next sweep, or now with ${retry}. Nothing was issued.`,
  pt: (retry) =>
    `Corrija a encomenda no WooCommerce (ou as definições de mapeamento da loja) e guarde-a: o conector tenta de novo na próxima atualização da encomenda, na próxima sincronização, ou já com ${retry}. Nada foi emitido.`,
};

const UNKNOWN_ID_DETAIL: Record<UnknownIdCause, Record<Lang, string>> = {
  'lost-answer': {
    en: 'the create answer was lost and the retry came back DocumentIsADuplicate: the document exists once on MagniFinance but its id is unknown here; find it by ExternalId in the back-office',
    pt: 'a resposta à criação perdeu-se e a nova tentativa voltou DocumentIsADuplicate: o documento existe uma vez na MagniFinance mas o seu id é desconhecido aqui; procure-o pelo ExternalId no back-office',
  },
  unrecorded: {
    en: 'MagniFinance already has a document with this ExternalId that this connector did not record (another installation or a wiped Redis); find it in the back-office',
    pt: 'a MagniFinance já tem um documento com este ExternalId que este conector não registou (outra instalação ou um Redis apagado); procure-o no back-office',
  },
  'client-changed': {
    en: "the create answer was lost and the buyer's data on the order has changed since; the service checks duplicates by ExternalId with the client data, so a retry could issue a second document and was not sent; look for the ExternalId in the back-office and issue by hand only if it is not there",
    pt: 'a resposta à criação perdeu-se e os dados do comprador na encomenda mudaram entretanto; o serviço deteta duplicados pelo ExternalId com os dados do cliente, por isso uma nova tentativa poderia emitir um segundo documento e não foi enviada; procure o ExternalId no back-office e emita à mão só se não estiver lá',
  },
};

/** Why a partner token is not the tenant's company's (config/company-check.ts). */
const WRONG_COMPANY_CAUSE: Record<'not-listed' | 'no-partnership' | 'refused', Record<Lang, (company: string) => string>> = {
  'not-listed': {
    en: (c) => `the partner token is not one of the tokens Get Partner Access Tokens lists for company ${c}`,
    pt: (c) => `o token de parceiro não é nenhum dos que o Get Partner Access Tokens dá para a empresa ${c}`,
  },
  'no-partnership': {
    en: (c) => `the account has no partnership with company ${c}`,
    pt: (c) => `a conta não tem parceria com a empresa ${c}`,
  },
  refused: {
    en: () => "Get Partner Access Tokens refused the account's e-mail and password",
    pt: () => 'o Get Partner Access Tokens recusou o e-mail e a palavra-passe da conta',
  },
};

const WRONG_COMPANY: Wording['wrong-company'] = {
  en: (p, ref, retry) => ({
    reason: `Nothing was issued: tenant "${ref.tenant}" invoices for company ${p.company}, but ${WRONG_COMPANY_CAUSE[p.cause].en(p.company)}${p.actual ? `; the token is company ${p.actual}'s` : ''}. A document issued with it would be in another company's name.`,
    action: `Put the partner token of company ${p.nif} ("magnifinance partner tokens --tax-id ${p.nif}") in invoicing.partnerToken of tenant "${ref.tenant}" (or correct invoicing.companyNif), reload the tenants file, then ${retry}.`,
  }),
  pt: (p, ref, retry) => ({
    reason: `Nada foi emitido: a loja "${ref.tenant}" fatura pela empresa ${p.company}, mas ${WRONG_COMPANY_CAUSE[p.cause].pt(p.company)}${p.actual ? `; o token é da empresa ${p.actual}` : ''}. Um documento emitido com ele ficaria em nome de outra empresa.`,
    action: `Ponha o token de parceiro da empresa ${p.nif} ("magnifinance partner tokens --tax-id ${p.nif}") em invoicing.partnerToken da loja "${ref.tenant}" (ou corrija invoicing.companyNif), recarregue o ficheiro de lojas e depois ${retry}.`,
  }),
};

const WORDING: Omit<Wording, 'order-changed' | 'refund-gone'> = {
  'wrong-company': WRONG_COMPANY,
  held: {
    en: (p, _ref, retry) => ({
      reason: `Nothing was issued: the order is on hold. ${p.reasons}`,
      action: `Complete the order in WooCommerce (for example the buyer's NIF) and save it: the connector issues it on that update, on the next sweep, or now with ${retry}.`,
    }),
    pt: (p, _ref, retry) => ({
      reason: `Nada foi emitido: a encomenda está retida. ${p.reasons}`,
      action: `Complete a encomenda no WooCommerce (por exemplo o NIF do comprador) e guarde-a: o conector emite-a nessa atualização, na próxima sincronização, ou já com ${retry}.`,
    }),
  },
  'order-refused': {
    en: (p, _ref, retry) => ({ reason: `The order cannot be turned into a document: ${p.message}.`, action: orderFix.en(retry) }),
    pt: (p, _ref, retry) => ({ reason: `A encomenda não pode dar um documento: ${p.message}.`, action: orderFix.pt(retry) }),
  },
  'service-refused': {
    en: (p, _ref, retry) => ({ reason: `MagniFinance refused the document: ${p.message}.`, action: orderFix.en(retry) }),
    pt: (p, _ref, retry) => ({ reason: `A MagniFinance recusou o documento: ${p.message}.`, action: orderFix.pt(retry) }),
  },
  credentials: {
    en: (p, ref, retry) => ({
      reason: `MagniFinance refused the connector's credentials (${p.message}).`,
      action: `Fix invoicing.email and invoicing.token of tenant "${ref.tenant}" in the tenants file, restart the connector, then ${retry}.`,
    }),
    pt: (p, ref, retry) => ({
      reason: `A MagniFinance recusou as credenciais do conector (${p.message}).`,
      action: `Corrija invoicing.email e invoicing.token da loja "${ref.tenant}" no ficheiro de lojas, reinicie o conector e depois ${retry}.`,
    }),
  },
  'shop-refused': {
    en: (p, ref, retry) => ({
      reason: `The shop refused the connector's request (${p.message}).`,
      action: `Check the shop URL and that the REST API key of tenant "${ref.tenant}" has read/write access, then ${retry}.`,
    }),
    pt: (p, ref, retry) => ({
      reason: `A loja recusou o pedido do conector (${p.message}).`,
      action: `Verifique o endereço da loja e que a chave da API REST da loja "${ref.tenant}" tem acesso de leitura e escrita, e depois ${retry}.`,
    }),
  },
  'vies-unavailable': {
    en: (p, ref, retry) => ({
      reason: `The invoice waits for the EU VAT registry (VIES), which could not confirm VAT number ${p.vatNumber} after ${p.attempts} attempts (${p.why}).`,
      action: `Nothing was issued. The connector asks VIES again on the order's next update and on the next sweep; to try now: ${retry}. If VIES stays down and your accountant agrees, set vies.whenUnavailable: format-check for tenant "${ref.tenant}".`,
    }),
    pt: (p, ref, retry) => ({
      reason: `A fatura espera pelo registo europeu de IVA (VIES), que não confirmou o número de IVA ${p.vatNumber} em ${p.attempts} tentativas (${p.why}).`,
      action: `Nada foi emitido. O conector pergunta de novo ao VIES na próxima atualização da encomenda e na próxima sincronização; para tentar já: ${retry}. Se o VIES continuar em baixo e o seu contabilista concordar, defina vies.whenUnavailable: format-check para a loja "${ref.tenant}".`,
    }),
  },
  'gave-up': {
    en: (p, _ref, retry) => ({
      reason: `Gave up after ${p.attempts} attempts: ${p.message}.`,
      action: `Nothing was issued twice. The connector tries again on the order's next update and on the next sweep; to try now: ${retry}.`,
    }),
    pt: (p, _ref, retry) => ({
      reason: `Desistiu ao fim de ${p.attempts} tentativas: ${p.message}.`,
      action: `Nada foi emitido duas vezes. O conector tenta de novo na próxima atualização da encomenda e na próxima sincronização; para tentar já: ${retry}.`,
    }),
  },
  'no-invoice': {
    en: (_p, ref) => ({
      reason: `There is no invoice from this connector to reference, so no ${purposeWords('en', ref.purpose)} was issued.`,
      action: 'If the order was invoiced outside the connector, issue the credit note in the MagniFinance back-office against that invoice.',
    }),
    pt: (_p, ref) => ({
      reason: `Não há fatura deste conector a que fazer referência, por isso não foi emitida a ${purposeWords('pt', ref.purpose)}.`,
      action: 'Se a encomenda foi faturada fora do conector, emita a nota de crédito no back-office da MagniFinance sobre essa fatura.',
    }),
  },
  'series-ahead': {
    en: (p, ref, retry) => ({
      reason: `MagniFinance's series ${p.serie} (document type ${p.type}) has a closed document dated ${p.date}, after today; a document cannot be dated before it.`,
      action: `Nothing is lost: the connector issues this ${purposeWords('en', ref.purpose)} on ${p.date} by itself. If that date is a mistake, correct it in the MagniFinance back-office (a credit note), or give tenant "${ref.tenant}" another series, then ${retry}.`,
    }),
    pt: (p, ref, retry) => ({
      reason: `A série ${p.serie} (tipo de documento ${p.type}) da MagniFinance tem um documento fechado com data ${p.date}, depois de hoje; nenhum documento pode ter data anterior.`,
      action: `Nada se perde: o conector emite esta ${purposeWords('pt', ref.purpose)} a ${p.date} sozinho. Se essa data for um engano, corrija-a no back-office da MagniFinance (com uma nota de crédito), ou dê outra série à loja "${ref.tenant}", e depois ${retry}.`,
    }),
  },
  'unknown-id': {
    en: (p, ref, _retry, via) => ({
      reason: `The ${purposeWords('en', ref.purpose)} (ExternalId ${p.externalId}) ${p.cause === 'client-changed' ? 'may have been issued once' : 'was issued once'}, but its number is unknown to the connector: ${UNKNOWN_ID_DETAIL[p.cause].en}. Nothing was issued twice.`,
      action: `Find the document with ExternalId ${p.externalId} in the MagniFinance back-office and attach its id: ${via === 'api' ? `POST /admin/api/orders/${ref.tenant}/${ref.orderId}/attach {"purpose":"${ref.purpose}","documentId":<id>}` : 'the "Attach document" button'}; the number and PDF then land on the order.`,
    }),
    pt: (p, ref, _retry, via) => ({
      reason: `A ${purposeWords('pt', ref.purpose)} (ExternalId ${p.externalId}) ${p.cause === 'client-changed' ? 'pode ter sido emitida uma vez' : 'foi emitida uma vez'}, mas o seu número é desconhecido do conector: ${UNKNOWN_ID_DETAIL[p.cause].pt}. Nada foi emitido duas vezes.`,
      action: `Procure o documento com o ExternalId ${p.externalId} no back-office da MagniFinance e associe o seu id: ${via === 'api' ? `POST /admin/api/orders/${ref.tenant}/${ref.orderId}/attach {"purpose":"${ref.purpose}","documentId":<id>}` : 'o botão "Associar documento"'}; o número e o PDF chegam então à encomenda.`,
    }),
  },
  'no-number': {
    en: (p, _ref, retry) => ({
      reason: `Document ${p.documentId} was created on MagniFinance but had no number after ${p.calls} Get Document calls.`,
      action: `Check document ${p.documentId} in the MagniFinance back-office; the connector asks again on the order's next update, on the next sweep, or now with ${retry}. Nothing will be issued twice.`,
    }),
    pt: (p, _ref, retry) => ({
      reason: `O documento ${p.documentId} foi criado na MagniFinance mas continuava sem número ao fim de ${p.calls} pedidos Get Document.`,
      action: `Verifique o documento ${p.documentId} no back-office da MagniFinance; o conector pergunta de novo na próxima atualização da encomenda, na próxima sincronização, ou já com ${retry}. Nada será emitido duas vezes.`,
    }),
  },
  'order-deleted': {
    en: (p, ref, retry, via) => ({
      reason: p.number
        ? `Order #${ref.orderId} was deleted from the shop after its ${purposeWords('en', ref.purpose)} ${p.number} was issued, so the number and PDF could not be put on it. ${p.number} stays valid: a certified document is never deleted.`
        : `Order #${ref.orderId} no longer exists on the shop (deleted); nothing was issued for it.`,
      action: p.number
        ? `If the sale did not happen, issue a credit note for ${p.number} in the MagniFinance back-office; if the order was deleted by mistake, restore it in WooCommerce and ${retry}. Then mark this as handled (${via === 'api' ? `POST /admin/api/orders/${ref.tenant}/${ref.orderId}/dismiss {"purpose":"${ref.purpose}","reason":"…"}` : 'the "Mark as handled" button'}).`
        : `Nothing to do if the order was meant to go: mark this as handled (${via === 'api' ? `POST /admin/api/orders/${ref.tenant}/${ref.orderId}/dismiss {"purpose":"${ref.purpose}","reason":"…"}` : 'the "Mark as handled" button'}). If it was deleted by mistake, restore it in WooCommerce and ${retry}.`,
    }),
    pt: (p, ref, retry, via) => ({
      reason: p.number
        ? `A encomenda #${ref.orderId} foi apagada da loja depois de emitida a ${purposeWords('pt', ref.purpose)} ${p.number}, por isso o número e o PDF não puderam ser postos nela. ${p.number} continua válida: um documento certificado nunca é apagado.`
        : `A encomenda #${ref.orderId} já não existe na loja (foi apagada); nada foi emitido para ela.`,
      action: p.number
        ? `Se a venda não aconteceu, emita uma nota de crédito de ${p.number} no back-office da MagniFinance; se a encomenda foi apagada por engano, reponha-a no WooCommerce e depois ${retry}. A seguir marque isto como tratado (${via === 'api' ? `POST /admin/api/orders/${ref.tenant}/${ref.orderId}/dismiss {"purpose":"${ref.purpose}","reason":"…"}` : 'o botão "Marcar como tratada"'}).`
        : `Nada a fazer se a encomenda era para sair: marque isto como tratado (${via === 'api' ? `POST /admin/api/orders/${ref.tenant}/${ref.orderId}/dismiss {"purpose":"${ref.purpose}","reason":"…"}` : 'o botão "Marcar como tratada"'}). Se foi apagada por engano, reponha-a no WooCommerce e depois ${retry}.`,
    }),
  },
  'total-differs': {
    en: (p) => ({
      reason: `${p.number} was issued for ${p.total} while the shop's total differs by ${p.difference}: WooCommerce rounded the tax per line, the invoice rounds it once per rate (legally right), and no split of the lines reaches the shop's figure.`,
      action: 'Turn on WooCommerce > Settings > Tax > "Round tax at subtotal level, instead of rounding per line" so new orders agree to the cent; settle the cent with the customer if needed (a credit note for it can be issued in the back-office).',
    }),
    pt: (p) => ({
      reason: `${p.number} foi emitida por ${p.total} e o total da loja difere em ${p.difference}: o WooCommerce arredondou o imposto por linha, a fatura arredonda-o uma vez por taxa (o legalmente certo), e nenhuma repartição das linhas chega ao valor da loja.`,
      action: 'Ative WooCommerce > Definições > Impostos > "Arredondar o imposto ao nível do subtotal, em vez de arredondar por linha" para que as novas encomendas batam ao cêntimo; acerte o cêntimo com o cliente se for preciso (pode emitir uma nota de crédito no back-office).',
    }),
  },
};

const EXTRA_WORDING: Pick<Wording, 'order-changed' | 'refund-gone'> = {
  'order-changed': {
    en: (p) => ({
      reason: `The order was changed after ${p.number} was issued: its total net of refunds is now ${moneyWords('en', p.shopNet)} while the connector's documents cover ${moneyWords('en', p.covered)} (a difference of ${moneyWords('en', p.difference)}). A certified document cannot be changed, so the connector issued nothing for the difference.`,
      action: SETTLE_WAYS.en[p.way](p),
    }),
    pt: (p) => ({
      reason: `A encomenda foi alterada depois de emitida a ${p.number}: o seu total líquido de reembolsos é agora ${moneyWords('pt', p.shopNet)} e os documentos do conector cobrem ${moneyWords('pt', p.covered)} (uma diferença de ${moneyWords('pt', p.difference)}). Um documento certificado não pode ser alterado, por isso o conector não emitiu nada pela diferença.`,
      action: SETTLE_WAYS.pt[p.way](p),
    }),
  },
  'refund-gone': {
    en: (p) => ({
      reason: `Credit note ${p.number} (${moneyWords('en', p.amount)}) was issued for refund #${p.refundId}, which is no longer on the order: it was deleted in WooCommerce. A certified credit note cannot be deleted.`,
      action: `Do not create the refund again in WooCommerce (the connector would issue a second credit note). If the money was returned, nothing more is due: mark this as handled. If it was not, issue a new invoice (or a debit note) for ${moneyWords('en', p.amount)} in the MagniFinance back-office, then mark this as handled.`,
    }),
    pt: (p) => ({
      reason: `A nota de crédito ${p.number} (${moneyWords('pt', p.amount)}) foi emitida para o reembolso #${p.refundId}, que já não está na encomenda: foi apagado no WooCommerce. Uma nota de crédito certificada não pode ser apagada.`,
      action: `Não volte a criar o reembolso no WooCommerce (o conector emitiria uma segunda nota de crédito). Se o dinheiro foi devolvido, nada mais é devido: marque como tratada. Se não foi, emita uma nova fatura (ou uma nota de débito) de ${moneyWords('pt', p.amount)} no back-office da MagniFinance e depois marque como tratada.`,
    }),
  },
};

const ALL_WORDING: Wording = { ...WORDING, ...EXTRA_WORDING };

export function problemWords(lang: Lang, problem: Problem, ref: LedgerRef, via: RetryVia = 'api'): ProblemWords {
  const words = ALL_WORDING[problem.code][lang] as (p: Problem, r: LedgerRef, retry: string, v: RetryVia) => ProblemWords;
  return words(problem, ref, retryWords(lang, ref, via), via);
}

/**
 * A problem as the pipeline records it: the state to set (absent to keep a progress state), the
 * problem itself, and its English words.
 */
export interface PersonNeeded extends ProblemWords {
  state?: LedgerState;
  problem: Problem;
}

export function personNeeded(ref: LedgerRef, problem: Problem, state?: LedgerState): PersonNeeded {
  return { state, problem, ...problemWords('en', problem, ref) };
}

/** The words of a ledger entry's problem in `lang`; entries recorded before problems had codes keep their English words. */
export function entryWords(lang: Lang, entry: { problem?: string; detail?: string; lastError?: string; action?: string }, ref: LedgerRef, via: RetryVia = 'api'): ProblemWords {
  if (entry.problem) {
    try {
      const problem = ProblemSchema.safeParse(JSON.parse(entry.problem));
      if (problem.success) return problemWords(lang, problem.data, ref, via);
    } catch {
      // not JSON: fall through to the recorded words
    }
  }
  return { reason: entry.detail ?? entry.lastError ?? '–', action: entry.action ?? '–' };
}
