import { z } from 'zod';
import type { LedgerRef, LedgerState } from '../core/ledger';
import { buttonWords, purposeWords, type Button, type Lang } from '../words';
import { AnswerSchema, answerWords, type Answer } from './answers';
import { MappingMessageSchema, mappingText, type MappingMessage } from '../../law/mapping-messages';
import { datePt } from '../../law/mapping-words';
import { money } from '../../messages/money';
import { catalogue, fixed, words } from '../../messages/catalogue';
import { PLATFORMS } from '../../platforms/registry';
import type { ShopPlatform } from '../../platforms/shop-platform';

/**
 * Every reason an order waits for a person, with its fix, in the reader's language: one table of
 * codes and facts. The pipeline records the problem (code and facts); every reader words it in
 * their language: the order's note and the alerts in the tenant's, the console in the reader's.
 * What came from elsewhere (the service's or the shop's answer) is recorded as facts too
 * (answers.ts) and worded there; only an answer unknown here is quoted, labelled as someone else's.
 * Problems recorded by older versions (English text in `message` or `reasons`) still parse and show
 * that text, quoted and labelled.
 */

/** The currency of a problem's amounts (ISO 4217); problems recorded before it was named are in euros. */
const CURRENCY = z.string().regex(/^[A-Za-z]{3}$/).optional();

/**
 * The shop platform's name where a fix is made in the shop ("Shopify"): recorded for a tenant of
 * another platform than WooCommerce; absent (WooCommerce, and problems recorded before) reads "WooCommerce".
 */
const SHOP = z.string().max(40).optional();
/** The problems whose fix names the shop platform (needs-person.ts records the tenant's). */
export const SHOP_NAMED_PROBLEMS: ReadonlySet<string> = new Set(['held', 'order-refused', 'order-unreadable', 'service-refused', 'total-differs', 'shop-refused', 'order-deleted', 'order-changed']);

export const ProblemSchema = z.discriminatedUnion('code', [
  /** The mapping held the order (a consumer invoice without a NIF, a NIF that is not valid...): its holds, coded. `reasons`: older versions' English words. */
  z.object({ code: z.literal('held'), holds: z.array(MappingMessageSchema).max(20).optional(), reasons: z.string().optional(), shop: SHOP }),
  /** The order cannot become a document as it stands: the mapping's refusal, coded. `message`: older versions' English words. */
  z.object({ code: z.literal('order-refused'), error: MappingMessageSchema.optional(), message: z.string().optional(), shop: SHOP }),
  /** The order the shop sent does not read as an order (fields missing or of another type). */
  z.object({ code: z.literal('order-unreadable'), fields: z.array(z.string()).max(10), shop: SHOP }),
  /** The service (or the connector's check of its rules) refused the document: `answer`, what it said. */
  z.object({ code: z.literal('service-refused'), answer: AnswerSchema.optional(), message: z.string().optional(), shop: SHOP }),
  z.object({ code: z.literal('credentials'), answer: AnswerSchema.optional(), message: z.string().optional() }),
  z.object({ code: z.literal('shop-refused'), answer: AnswerSchema.optional(), message: z.string().optional(), shop: SHOP }),
  z.object({ code: z.literal('vies-unavailable'), vatNumber: z.string(), attempts: z.number(), why: z.string() }),
  z.object({ code: z.literal('gave-up'), attempts: z.number(), answer: AnswerSchema.optional(), message: z.string().optional() }),
  z.object({ code: z.literal('no-invoice') }),
  /** Neither the ledger nor the order's meta knows an invoice, yet a note or the order's story names one (pipeline/earlier-traces.ts). */
  z.object({ code: z.literal('earlier-document'), where: z.enum(['note', 'history']), number: z.string().max(64), documentId: z.number().int().optional() }),
  z.object({ code: z.literal('series-ahead'), serie: z.string(), type: z.string(), date: z.string() }),
  z.object({ code: z.literal('unknown-id'), externalId: z.string(), cause: z.enum(['lost-answer', 'unrecorded', 'client-changed']) }),
  z.object({ code: z.literal('no-number'), documentId: z.number(), calls: z.number() }),
  /** `total` and `difference` are amounts (12.32); older versions wrote words where the total was unknown. */
  z.object({ code: z.literal('total-differs'), number: z.string(), total: z.string().optional(), difference: z.string(), currency: CURRENCY, shop: SHOP }),
  /** A document issued dated in a month the accountant had closed (connector/month/sign-off.ts): `by` closed it on `closedOn`. */
  z.object({ code: z.literal('month-closed'), number: z.string(), day: z.string(), month: z.string(), by: z.string(), closedOn: z.string() }),
  /** The order is gone from the shop (deleted for good); `number` when its document was issued before. */
  z.object({ code: z.literal('order-deleted'), number: z.string().optional(), shop: SHOP }),
  /** `actual`: the company the token is (another tenant's, `actualTenant`; one of the agency's partners, `actualPartner`). */
  z.object({
    code: z.literal('wrong-company'),
    nif: z.string(),
    company: z.string(),
    cause: z.enum(['not-listed', 'no-partnership', 'refused']),
    actual: z.string().optional(),
    actualTenant: z.string().optional(),
    /** The agency's own name for the company the token is (agency.partners, matched by its NIF). */
    actualPartner: z.string().max(200).optional(),
  }),
  /** An invoiced order changed (a line added or removed, a refund deleted...): its documents cover another amount. */
  z.object({
    code: z.literal('order-changed'),
    number: z.string(),
    shopNet: z.string(),
    covered: z.string(),
    difference: z.string(),
    currency: CURRENCY,
    way: z.enum(['ask', 'credit-and-reissue', 'difference-document']),
    shop: SHOP,
    /** The credit note a person asked for the whole invoice (the console): the order still stands in the shop. */
    creditedBy: z.string().optional(),
  }),
  /**
   * The order now names another buyer than its invoice (a NIF added or corrected after the invoice,
   * or a company whose number is not valid where the invoice went to the final consumer): the invoice
   * stays; a credit note and a new invoice are a person's choice (pipeline/buyer-change.ts).
   */
  z.object({ code: z.literal('buyer-changed'), number: z.string(), invoiceNif: z.string(), orderNif: z.string().max(40), company: z.string().max(200).optional() }),
  /** A credit note whose refund was deleted in WooCommerce after the credit note was issued. */
  z.object({ code: z.literal('refund-gone'), number: z.string(), refundId: z.number(), amount: z.string(), currency: CURRENCY }),
  /** A refund made after the whole invoice was credited (the console's credit note, or a cancellation): a credit note for it would credit more than was invoiced. */
  z.object({ code: z.literal('credited-in-full'), invoice: z.string(), creditNote: z.string(), refundId: z.number(), amount: z.string(), currency: CURRENCY }),
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

/**
 * Where the reader acts: `console` (on the order's page: "press «Tentar de novo»"), `page` (a note
 * on the order or an alert, read elsewhere: the button on the order's page, whose link follows the
 * words), `api` (the admin API's users: the route to call).
 */
export type RetryVia = 'api' | 'console' | 'page';

const ROUTE_BODIES: Partial<Record<Button, (purpose: string) => string>> = {
  attach: (purpose) => ` {"purpose":"${purpose}","documentId":<id>}`,
  dismiss: (purpose) => ` {"purpose":"${purpose}","reason":"…"}`,
};

/** The admin API's route for a button (`retry`, `attach`, `dismiss`). */
export function routeHint(ref: LedgerRef, button: 'retry' | 'attach' | 'dismiss'): string {
  return `POST /admin/api/orders/${ref.tenant}/${ref.orderId}/${button}${ROUTE_BODIES[button]?.(ref.purpose) ?? ''}`;
}

/** The admin API's routes that act on this problem (for API users; words name the console's buttons). */
export function problemRoutes(problem: Problem, ref: LedgerRef): string[] {
  return [...new Set(Object.values(ALL_WORDING[problem.code].buttons).map((button) => routeHint(ref, button)))];
}

/** "press «Tentar de novo»" in the reader's place: imperative, without a full stop. */
type Press = (button: 'retry' | 'attach' | 'dismiss') => string;

function pressWords(lang: Lang, ref: LedgerRef, via: RetryVia): Press {
  return (button) => {
    if (via === 'api') return SAY.say(lang, 'send', { route: routeHint(ref, button) });
    return SAY.say(lang, via === 'console' ? 'press' : 'press-on-page', { button: buttonWords(lang, button) });
  };
}

/** Problems about documents already issued that a person settles outside the connector, then marks as handled. */
const SETTLED_OUTSIDE: ReadonlySet<Problem['code']> = new Set(['order-changed', 'refund-gone', 'buyer-changed']);

/** The problem recorded on a ledger entry, if it is one of those (the console's and the admin API's "mark as handled"). */
export function settledOutsideProblem(entry: { problem?: string }): Extract<Problem, { code: 'order-changed' | 'refund-gone' | 'buyer-changed' }> | undefined {
  const parsed = parseProblem(entry.problem);
  if (parsed && SETTLED_OUTSIDE.has(parsed.code)) return parsed as Extract<Problem, { code: 'order-changed' | 'refund-gone' | 'buyer-changed' }>;
  return undefined;
}

/** A problem stored as JSON (the ledger, the history); undefined when it is not one (older words, damage). */
export function parseProblem(text: string | undefined): Problem | undefined {
  if (!text) return undefined;
  try {
    const parsed = ProblemSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An amount as the reader writes it, in its currency: 1 660,50 € (pt), €1,660.50 (en), US$20.00 for
 * an order in dollars (messages/money.ts). A value that is not an amount stays as it is.
 */
export function moneyWords(lang: Lang, amount: string, currency: string): string {
  return money(lang, amount, currency);
}

/** The currency of a problem's amounts: named since it was recorded, the euro before. */
function currencyOf(p: { currency?: string }): string {
  return p.currency ?? 'EUR';
}

/** Someone else's words (an older version's English, the VIES's answer), quoted as they came. */
function quoted(lang: Lang, text: string): string {
  return SAY.say(lang, 'quoted', { text: text.replace(/[«»]/g, '"').trim().replace(/\.$/, '') });
}

const SETTLE_WAYS: Record<Lang, Record<Of<'order-changed'>['way'], (p: Of<'order-changed'>, press: Press) => string>> = {
  en: {
    ask: (p, press) =>
      `Settle it in the MagniFinance back-office in one of the two lawful ways (your accountant chooses; tenant setting orderChanged): a credit note for ${p.number} and a new invoice for the order as it is now; or a document for the difference only: a second invoice for ${moneyWords('en', p.difference, currencyOf(p))} when the order grew, a credit note against ${p.number} when it shrank. Then ${press('dismiss')}.`,
    'credit-and-reissue': (p, press) =>
      `Your accountant's way (orderChanged: "credit-and-reissue"): in the MagniFinance back-office, issue a credit note for ${p.number} and a new invoice for the order as it is now (${moneyWords('en', p.shopNet, currencyOf(p))}). Then ${press('dismiss')}.`,
    'difference-document': (p, press) =>
      `Your accountant's way (orderChanged: "difference-document"): in the MagniFinance back-office, issue a document for the difference only: a second invoice for ${moneyWords('en', p.difference, currencyOf(p))} when the order grew, a credit note against ${p.number} when it shrank. Then ${press('dismiss')}.`,
  },
  pt: {
    ask: (p, press) =>
      `Regularize no back-office da MagniFinance de uma das duas formas legais (o seu contabilista escolhe; definição orderChanged da loja): uma nota de crédito da ${p.number} e uma nova fatura da encomenda tal como está agora; ou um documento só pela diferença: uma segunda fatura de ${moneyWords('pt', p.difference, currencyOf(p))}, se a encomenda aumentou, ou uma nota de crédito sobre a ${p.number}, se diminuiu. Depois ${press('dismiss')}.`,
    'credit-and-reissue': (p, press) =>
      `A forma escolhida pelo seu contabilista (orderChanged: "credit-and-reissue"): no back-office da MagniFinance, emita uma nota de crédito da ${p.number} e uma nova fatura da encomenda tal como está agora (${moneyWords('pt', p.shopNet, currencyOf(p))}). Depois ${press('dismiss')}.`,
    'difference-document': (p, press) =>
      `A forma escolhida pelo seu contabilista (orderChanged: "difference-document"): no back-office da MagniFinance, emita um documento só pela diferença: uma segunda fatura de ${moneyWords('pt', p.difference, currencyOf(p))}, se a encomenda aumentou, ou uma nota de crédito sobre a ${p.number}, se diminuiu. Depois ${press('dismiss')}.`,
  },
};

type Words<C extends Problem['code']> = (p: Of<C>, ref: LedgerRef, press: Press) => ProblemWords;
/** Per code: the buttons its words name (the admin API's routes for them), and the words per language. */
type Wording = { [C in Problem['code']]: { buttons: ('retry' | 'attach' | 'dismiss')[] } & Record<Lang, Words<C>> };

/**
 * What the shop can do about a cent between its total and the invoice's: the platform's own words
 * (its tax setting, platforms/shop-platform.ts), found by the title recorded with the problem;
 * absent, WooCommerce (as every problem recorded before platforms were named).
 */
function roundingFix(lang: Lang, shop: string | undefined): string {
  const platform = platformTitled(shop);
  return platform ? platform.roundingFix(lang) : SAY.say(lang, 'rounding-settle');
}

/** What to check when the shop refused the connector's request (its credentials): the platform's words, found as above. */
function shopRefusedFix(lang: Lang, shop: string | undefined, tenant: string): string {
  const platform = platformTitled(shop);
  return platform ? platform.shopRefusedFix(lang, tenant) : SAY.say(lang, 'shop-access', { tenant });
}

/** The platform a problem names by its title (recorded for a tenant of another platform than WooCommerce); absent: WooCommerce; unknown here: undefined. */
function platformTitled(shop: string | undefined): ShopPlatform | undefined {
  return shop === undefined ? PLATFORMS.woocommerce : Object.values(PLATFORMS).find((candidate) => candidate.title === shop);
}

const orderFix: Record<Lang, (press: Press, shop?: string) => string> = {
  en: (press, shop = 'WooCommerce') =>
    `Correct the order in ${shop} (or the tenant's mapping settings) and save it: the connector tries again on the order's next update and on the next sweep; to try now, ${press('retry')}. Nothing was issued.`,
  pt: (press, shop = 'WooCommerce') =>
    `Corrija a encomenda no ${shop} (ou as definições de mapeamento da loja) e guarde-a: o conector tenta de novo na próxima atualização da encomenda e na próxima sincronização; para tentar já, ${press('retry')}. Nada foi emitido.`,
};

const UNKNOWN_ID_DETAIL: Record<UnknownIdCause, Record<Lang, string>> = {
  'lost-answer': {
    en: 'the create answer was lost and the retry came back DocumentIsADuplicate: the document exists once on MagniFinance but its id is unknown here; find it by ExternalId in the back-office',
    pt: 'perdeu-se a resposta ao pedido de criação e a nova tentativa recebeu DocumentIsADuplicate: o documento existe uma vez na MagniFinance, mas o conector não sabe o seu id; procure-o pelo ExternalId no back-office',
  },
  unrecorded: {
    en: 'MagniFinance already has a document with this ExternalId that this connector did not record (another installation or a wiped Redis); find it in the back-office',
    pt: 'a MagniFinance já tem um documento com este ExternalId que este conector não registou (outra instalação ou um Redis apagado); procure-o no back-office',
  },
  'client-changed': {
    en: "the create answer was lost and the buyer's data on the order has changed since; the service checks duplicates by ExternalId with the client data, so a retry could issue a second document and was not sent; look for the ExternalId in the back-office and issue by hand only if it is not there",
    pt: 'perdeu-se a resposta ao pedido de criação e os dados do comprador na encomenda mudaram entretanto; o serviço deteta duplicados pelo ExternalId juntamente com os dados do cliente, por isso uma nova tentativa poderia emitir um segundo documento e não foi enviada; procure o ExternalId no back-office e emita à mão só se lá não estiver',
  },
};

/** Why a partner token is not the tenant's company's (config/company-check.ts). */
const WRONG_COMPANY_CAUSE: Record<'not-listed' | 'no-partnership' | 'refused', Record<Lang, (company: string) => string>> = {
  'not-listed': {
    en: (c) => `the partner token is not one of the tokens Get Partner Access Tokens lists for company ${c}`,
    pt: (c) => `o token de parceiro não é nenhum dos que o Get Partner Access Tokens devolve para a empresa ${c}`,
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

/** The VIES's reason for not answering (vies/vies-registry.ts writes it in English or as the VIES's code). */
function viesWhy(lang: Lang, why: string): string {
  const timeout = /^no answer within (\d+) ms$/.exec(why);
  if (timeout) return SAY.say(lang, 'vies-silent', { seconds: Math.round(Number(timeout[1]) / 1000) });
  if (why.startsWith('unreachable')) return SAY.say(lang, 'vies-unreachable');
  if (/^HTTP \d+/.test(why)) return SAY.say(lang, 'vies-answered', { answer: why.split(',')[0] });
  if (/^[A-Z_]+$/.test(why)) return SAY.say(lang, 'vies-answered', { answer: why });
  return SAY.say(lang, 'vies-said', { said: quoted(lang, why) });
}

/** An answer, or the English text an older version recorded (quoted and labelled). */
function answerOrRecorded(lang: Lang, answer: Answer | undefined, message: string | undefined): string {
  if (answer) return answerWords(lang, answer);
  if (message) return SAY.say(lang, 'recorded-answer', { said: quoted(lang, message) });
  return '';
}

/** The mapping's messages, each a full sentence in `lang` (never two reasons glued). */
function mappingSentences(lang: Lang, messages: readonly MappingMessage[] | undefined): string {
  return (messages ?? []).map((message) => mappingText(lang, message)).join(' ');
}

function sentences(...parts: string[]): string {
  return parts.filter((part) => part.trim() !== '').join(' ');
}

const WORDING: Omit<Wording, 'order-changed' | 'refund-gone' | 'credited-in-full' | 'buyer-changed'> = {
  'wrong-company': {
    buttons: ['retry'],
    en: (p, ref, press) => ({
      reason: `Nothing was issued: tenant "${ref.tenant}" invoices for company ${p.company}, but ${WRONG_COMPANY_CAUSE[p.cause].en(p.company)}${SAY.say('en', 'token-holder', p)}. A document issued with it would be in another company's name.`,
      action: `Put the partner token of company ${p.nif} ("magnifinance partner tokens --tax-id ${p.nif}") in invoicing.partnerToken of tenant "${ref.tenant}" (or correct invoicing.companyNif), reload the tenants file, then ${press('retry')}.`,
    }),
    pt: (p, ref, press) => ({
      reason: `Nada foi emitido: a loja "${ref.tenant}" fatura pela empresa ${p.company}, mas ${WRONG_COMPANY_CAUSE[p.cause].pt(p.company)}${SAY.say('pt', 'token-holder', p)}. Um documento emitido com ele ficaria em nome de outra empresa.`,
      action: `Ponha o token de parceiro da empresa ${p.nif} ("magnifinance partner tokens --tax-id ${p.nif}") em invoicing.partnerToken da loja "${ref.tenant}" (ou corrija invoicing.companyNif), recarregue o ficheiro de lojas e depois ${press('retry')}.`,
    }),
  },
  held: {
    buttons: ['retry'],
    en: (p, _ref, press) => ({
      reason: sentences('Nothing was issued: the connector held the order.', mappingSentences('en', p.holds), !p.holds?.length && p.reasons ? `Why, as recorded: ${quoted('en', p.reasons)}.` : ''),
      action: `Complete the order in ${p.shop ?? 'WooCommerce'} (for example the buyer's NIF) and save it: the connector issues it on that update or on the next sweep; to issue it now, ${press('retry')}.`,
    }),
    pt: (p, _ref, press) => ({
      reason: sentences('Nada foi emitido: o conector reteve a encomenda.', mappingSentences('pt', p.holds), !p.holds?.length && p.reasons ? `Motivo registado: ${quoted('pt', p.reasons)}.` : ''),
      action: `Complete a encomenda no ${p.shop ?? 'WooCommerce'} (por exemplo, o NIF do comprador) e guarde-a: o conector emite o documento nessa atualização ou na próxima sincronização; para o emitir já, ${press('retry')}.`,
    }),
  },
  'order-refused': {
    buttons: ['retry'],
    en: (p, _ref, press) => ({
      reason: sentences('The order cannot be turned into a document as it stands.', mappingSentences('en', p.error ? [p.error] : []), !p.error && p.message ? `Why, as recorded: ${quoted('en', p.message)}.` : ''),
      action: orderFix.en(press, p.shop),
    }),
    pt: (p, _ref, press) => ({
      reason: sentences('Não é possível emitir um documento para a encomenda tal como está.', mappingSentences('pt', p.error ? [p.error] : []), !p.error && p.message ? `Motivo registado: ${quoted('pt', p.message)}.` : ''),
      action: orderFix.pt(press, p.shop),
    }),
  },
  'order-unreadable': {
    buttons: ['retry'],
    en: (p, _ref, press) => ({ reason: `The order the shop sent does not read as a ${p.shop ?? 'WooCommerce'} order (fields ${p.fields.join(', ')}).`, action: orderFix.en(press, p.shop) }),
    pt: (p, _ref, press) => ({ reason: `A encomenda que a loja enviou não tem a forma de uma encomenda ${p.shop ?? 'WooCommerce'} (campos ${p.fields.join(', ')}).`, action: orderFix.pt(press, p.shop) }),
  },
  'service-refused': {
    buttons: ['retry'],
    en: (p, _ref, press) => ({ reason: sentences('MagniFinance did not accept the document, so nothing was issued.', answerOrRecorded('en', p.answer, p.message)), action: orderFix.en(press, p.shop) }),
    pt: (p, _ref, press) => ({ reason: sentences('A MagniFinance não aceitou o documento, por isso nada foi emitido.', answerOrRecorded('pt', p.answer, p.message)), action: orderFix.pt(press, p.shop) }),
  },
  credentials: {
    buttons: ['retry'],
    en: (p, ref, press) => ({
      reason: sentences("MagniFinance refused the connector's credentials.", answerOrRecorded('en', p.answer, p.message)),
      action: `Fix invoicing.email and invoicing.token of tenant "${ref.tenant}" in the tenants file, restart the connector, then ${press('retry')}.`,
    }),
    pt: (p, ref, press) => ({
      reason: sentences('A MagniFinance recusou as credenciais do conector.', answerOrRecorded('pt', p.answer, p.message)),
      action: `Corrija invoicing.email e invoicing.token da loja "${ref.tenant}" no ficheiro de lojas, reinicie o conector e depois ${press('retry')}.`,
    }),
  },
  'shop-refused': {
    buttons: ['retry'],
    en: (p, ref, press) => ({
      reason: sentences("The shop refused the connector's request.", answerOrRecorded('en', p.answer, p.message)),
      action: `${shopRefusedFix('en', p.shop, ref.tenant)}, then ${press('retry')}.`,
    }),
    pt: (p, ref, press) => ({
      reason: sentences('A loja recusou o pedido do conector.', answerOrRecorded('pt', p.answer, p.message)),
      action: `${shopRefusedFix('pt', p.shop, ref.tenant)}; depois ${press('retry')}.`,
    }),
  },
  'vies-unavailable': {
    buttons: ['retry'],
    en: (p, ref, press) => ({
      reason: `The invoice waits for the EU VAT registry (VIES), which could not confirm VAT number ${p.vatNumber} after ${p.attempts} attempts (${viesWhy('en', p.why)}).`,
      action: `Nothing was issued. The connector asks VIES again on the order's next update and on the next sweep; to try now, ${press('retry')}. If VIES stays down and your accountant agrees, set vies.whenUnavailable to "format-check" for tenant "${ref.tenant}".`,
    }),
    pt: (p, ref, press) => ({
      reason: `A fatura aguarda o registo europeu de IVA (VIES), que não confirmou o número de IVA ${p.vatNumber} em ${p.attempts} tentativas (${viesWhy('pt', p.why)}).`,
      action: `Nada foi emitido. O conector volta a consultar o VIES na próxima atualização da encomenda e na próxima sincronização; para tentar já, ${press('retry')}. Se o VIES continuar indisponível e o seu contabilista concordar, defina vies.whenUnavailable como "format-check" na loja "${ref.tenant}".`,
    }),
  },
  'gave-up': {
    buttons: ['retry'],
    en: (p, _ref, press) => ({
      reason: sentences(`The connector gave up after ${p.attempts} attempts.`, answerOrRecorded('en', p.answer, p.message)),
      action: `Nothing was issued twice. The connector tries again on the order's next update and on the next sweep; to try now, ${press('retry')}.`,
    }),
    pt: (p, _ref, press) => ({
      reason: sentences(`O conector desistiu ao fim de ${p.attempts} tentativas.`, answerOrRecorded('pt', p.answer, p.message)),
      action: `Nada foi emitido duas vezes. O conector tenta de novo na próxima atualização da encomenda e na próxima sincronização; para tentar já, ${press('retry')}.`,
    }),
  },
  'no-invoice': {
    buttons: [],
    en: (_p, ref) => ({
      reason: `There is no invoice from this connector to reference, so no ${purposeWords('en', ref.purpose)} was issued.`,
      action: 'If the order was invoiced outside the connector, issue the credit note in the MagniFinance back-office against that invoice.',
    }),
    pt: (_p, ref) => ({
      reason: `Não há nenhuma fatura deste conector a que a ${purposeWords('pt', ref.purpose)} possa fazer referência, por isso não foi emitida.`,
      action: 'Se a encomenda foi faturada fora do conector, emita a nota de crédito dessa fatura no back-office da MagniFinance.',
    }),
  },
  'earlier-document': {
    buttons: ['attach'],
    en: (p, _ref, press) => ({
      reason: `Nothing was issued: the connector has no record of this order's invoice (its ledger expired or was lost, and its MagniFinance fields were removed from the order), yet ${p.where === 'note' ? "one of the order's notes" : "the order's history in the connector"} names document ${p.number}${p.documentId !== undefined ? ` (id ${p.documentId})` : ''}. A new invoice could be a second one for the same sale.`,
      action: `If ${p.number} is this order's invoice, ${press('attach')} and give ${p.documentId !== undefined ? `id ${p.documentId}` : 'its id from the MagniFinance back-office'}: its number and PDF go back on the order. If it was credited in full and the order must be invoiced again, press ${buttonWords('en', 'issueNow')} on the order's page in the connector.`,
    }),
    pt: (p, _ref, press) => ({
      reason: `Nada foi emitido: o conector não tem registo da fatura desta encomenda (o registo expirou ou perdeu-se, e os campos MagniFinance foram retirados da encomenda), mas ${p.where === 'note' ? 'uma nota da encomenda' : 'o histórico da encomenda no conector'} indica o documento ${p.number}${p.documentId !== undefined ? ` (id ${p.documentId})` : ''}. Uma nova fatura poderia ser a segunda da mesma venda.`,
      action: `Se ${p.number} é a fatura desta encomenda, ${press('attach')} e indique ${p.documentId !== undefined ? `o id ${p.documentId}` : 'o id desse documento no back-office da MagniFinance'}: o número e o PDF voltam à encomenda. Se foi anulada por uma nota de crédito total e a encomenda deve ser faturada de novo, carregue em ${buttonWords('pt', 'issueNow')} na página da encomenda no conector.`,
    }),
  },
  'series-ahead': {
    buttons: ['retry'],
    en: (p, ref, press) => ({
      reason: `MagniFinance's series ${p.serie} (document type ${p.type}) has a closed document dated ${p.date}, after today; a document cannot be dated before it.`,
      action: `Nothing is lost: the connector issues this ${purposeWords('en', ref.purpose)} on ${p.date} by itself. If that date is a mistake, correct it in the MagniFinance back-office (a credit note), or give tenant "${ref.tenant}" another series, then ${press('retry')}.`,
    }),
    pt: (p, ref, press) => ({
      reason: `A série ${p.serie} (tipo de documento ${p.type}) da MagniFinance tem um documento fechado com data de ${datePt(p.date)}, posterior a hoje; nenhum documento da série pode ter data anterior a essa.`,
      action: `Nada se perde: o conector emite esta ${purposeWords('pt', ref.purpose)} a ${datePt(p.date)}, sem intervenção. Se essa data estiver errada, corrija-a no back-office da MagniFinance (com uma nota de crédito) ou atribua outra série à loja "${ref.tenant}"; depois ${press('retry')}.`,
    }),
  },
  'unknown-id': {
    buttons: ['attach'],
    en: (p, ref, press) => ({
      reason: `The ${purposeWords('en', ref.purpose)} (ExternalId ${p.externalId}) ${p.cause === 'client-changed' ? 'may have been issued once' : 'was issued once'}, but its number is unknown to the connector: ${UNKNOWN_ID_DETAIL[p.cause].en}. Nothing was issued twice.`,
      action: `Find the document with ExternalId ${p.externalId} in the MagniFinance back-office, then ${press('attach')} and give its id; the number and PDF then land on the order.`,
    }),
    pt: (p, ref, press) => ({
      reason: `A ${purposeWords('pt', ref.purpose)} (ExternalId ${p.externalId}) ${p.cause === 'client-changed' ? 'pode ter sido emitida uma vez' : 'foi emitida uma vez'}, mas o conector não sabe o seu número: ${UNKNOWN_ID_DETAIL[p.cause].pt}. Nada foi emitido duas vezes.`,
      action: `Procure o documento com o ExternalId ${p.externalId} no back-office da MagniFinance; depois ${press('attach')} e indique o id desse documento. O número e o PDF passam então para a encomenda.`,
    }),
  },
  'no-number': {
    buttons: ['retry'],
    en: (p, _ref, press) => ({
      reason: `Document ${p.documentId} was created on MagniFinance but had no number after ${p.calls} Get Document calls.`,
      action: `Check document ${p.documentId} in the MagniFinance back-office; the connector asks again on the order's next update and on the next sweep; to ask now, ${press('retry')}. Nothing will be issued twice.`,
    }),
    pt: (p, _ref, press) => ({
      reason: `O documento ${p.documentId} foi criado na MagniFinance, mas continuava sem número ao fim de ${p.calls} pedidos Get Document.`,
      action: `Verifique o documento ${p.documentId} no back-office da MagniFinance; o conector volta a perguntar na próxima atualização da encomenda e na próxima sincronização; para perguntar já, ${press('retry')}. Nada será emitido duas vezes.`,
    }),
  },
  'month-closed': {
    buttons: ['dismiss'],
    en: (p, _ref, press) => ({
      reason: `${p.number} is dated ${p.day}, in ${p.month}, a month ${p.by} had already closed on ${p.closedOn}: the VAT return or the SAF-T sent for that month may not include it.`,
      action: `Tell the accountant, who makes the month's pack again (the console's month page) and decides whether the return needs a replacement; then ${press('dismiss')}.`,
    }),
    pt: (p, _ref, press) => ({
      reason: `${p.number} tem a data de ${datePt(p.day)}, em ${p.month}, mês que ${p.by} já tinha fechado a ${datePt(p.closedOn)}: a declaração periódica ou o SAF-T enviados para esse mês podem não a incluir.`,
      action: `Avise o contabilista, que volta a gerar o pacote do mês (a página do mês na consola) e decide se a declaração precisa de substituição; depois, ${press('dismiss')}.`,
    }),
  },
  'order-deleted': {
    buttons: ['retry', 'dismiss'],
    en: (p, ref, press) => ({
      reason: p.number
        ? `Order #${ref.orderId} was deleted from the shop after its ${purposeWords('en', ref.purpose)} ${p.number} was issued, so the number and PDF could not be put on it. ${p.number} stays valid: a certified document is never deleted.`
        : `Order #${ref.orderId} no longer exists on the shop (deleted); nothing was issued for it.`,
      action:
        p.shop !== undefined
          ? p.number
            ? `If the sale did not happen, issue a credit note for ${p.number} in the MagniFinance back-office; ${p.shop} cannot restore a deleted order, so if the sale stands ${p.number} stays as it is. Then ${press('dismiss')}.`
            : `Nothing to do if the order was meant to go: ${press('dismiss')}. ${p.shop} cannot restore a deleted order: if the sale stands, issue its invoice in the MagniFinance back-office.`
          : p.number
            ? `If the sale did not happen, issue a credit note for ${p.number} in the MagniFinance back-office; if the order was deleted by mistake, restore it in WooCommerce, then ${press('retry')}. Then ${press('dismiss')}.`
            : `Nothing to do if the order was meant to go: ${press('dismiss')}. If it was deleted by mistake, restore it in WooCommerce, then ${press('retry')}.`,
    }),
    pt: (p, ref, press) => ({
      reason: p.number
        ? `A encomenda #${ref.orderId} foi apagada da loja depois de emitida a ${purposeWords('pt', ref.purpose)} ${p.number}, por isso não foi possível registar nela o número e o PDF. ${p.number} continua válida: um documento certificado nunca é apagado.`
        : `A encomenda #${ref.orderId} já não existe na loja (foi apagada); nada foi emitido para ela.`,
      action:
        p.shop !== undefined
          ? p.number
            ? `Se a venda não se concretizou, emita uma nota de crédito da ${p.number} no back-office da MagniFinance; o ${p.shop} não repõe uma encomenda apagada, por isso, se a venda se mantém, a ${p.number} fica como está. No fim, ${press('dismiss')}.`
            : `Se a encomenda era mesmo para apagar, não há nada a fazer: ${press('dismiss')}. O ${p.shop} não repõe uma encomenda apagada: se a venda se mantém, emita a sua fatura no back-office da MagniFinance.`
          : p.number
            ? `Se a venda não se concretizou, emita uma nota de crédito da ${p.number} no back-office da MagniFinance; se a encomenda foi apagada por engano, reponha-a no WooCommerce e depois ${press('retry')}. No fim, ${press('dismiss')}.`
            : `Se a encomenda era mesmo para apagar, não há nada a fazer: ${press('dismiss')}. Se foi apagada por engano, reponha-a no WooCommerce e depois ${press('retry')}.`,
    }),
  },
  'total-differs': {
    buttons: [],
    en: (p) => ({
      reason: `${p.number} was issued for ${p.total ? moneyWords('en', p.total, currencyOf(p)) : 'a total'} while the shop's total differs by ${moneyWords('en', p.difference, currencyOf(p))}: ${p.shop ?? 'WooCommerce'} rounded the tax per line, the invoice rounds it once per rate (legally right), and no split of the lines reaches the shop's figure.`,
      action: roundingFix('en', p.shop),
    }),
    pt: (p) => ({
      reason: `${p.number} foi emitida ${p.total ? `por ${moneyWords('pt', p.total, currencyOf(p))}` : ''} e o total da loja difere em ${moneyWords('pt', p.difference, currencyOf(p))}: o ${p.shop ?? 'WooCommerce'} arredondou o imposto linha a linha, a fatura arredonda-o uma vez por taxa (como a lei manda) e nenhuma repartição das linhas chega ao valor da loja.`.replace('emitida  e', 'emitida e'),
      action: roundingFix('pt', p.shop),
    }),
  },
};

const EXTRA_WORDING: Pick<Wording, 'order-changed' | 'refund-gone' | 'credited-in-full' | 'buyer-changed'> = {
  'buyer-changed': {
    buttons: ['dismiss'],
    en: (p, _ref, press) => ({
      reason: p.company
        ? `Invoice ${p.number} was issued to the final consumer (NIF ${p.invoiceNif}); the order now names the company ${p.company} with the tax number ${p.orderNif}, which is not valid. The invoice stays as it is: a certified invoice cannot be changed, and the connector issued nothing.`
        : `Invoice ${p.number} was issued with NIF ${p.invoiceNif}; the order now has the buyer's NIF ${p.orderNif} (added or changed after the invoice). The invoice stays as it is: a certified invoice cannot be changed, and the connector issued nothing.`,
      action: `If the buyer needs an invoice in their name, that is your choice (or your accountant's): in the MagniFinance back-office, issue a credit note for ${p.number} and a new invoice with ${p.company ? "the company's valid NIF" : `NIF ${p.orderNif}`}. Then, or if the invoice stays as it is, ${press('dismiss')}.`,
    }),
    pt: (p, _ref, press) => ({
      reason: p.company
        ? `A fatura ${p.number} foi emitida ao consumidor final (NIF ${p.invoiceNif}); a encomenda indica agora a empresa ${p.company} com o número fiscal ${p.orderNif}, que não é válido. A fatura fica como está: uma fatura certificada não pode ser alterada, e o conector não emitiu nada.`
        : `A fatura ${p.number} foi emitida com o NIF ${p.invoiceNif}; a encomenda tem agora o NIF do comprador ${p.orderNif} (acrescentado ou alterado depois da fatura). A fatura fica como está: uma fatura certificada não pode ser alterada, e o conector não emitiu nada.`,
      action: `Se o comprador precisar de uma fatura em seu nome, a decisão é sua (ou do seu contabilista): no back-office da MagniFinance, emita uma nota de crédito da ${p.number} e uma nova fatura com ${p.company ? 'o NIF válido da empresa' : `o NIF ${p.orderNif}`}. Depois, ou se a fatura ficar como está, ${press('dismiss')}.`,
    }),
  },
  'credited-in-full': {
    buttons: ['dismiss'],
    en: (p, _ref, press) => ({
      reason: `Nothing was issued: invoice ${p.invoice} was already credited in full by credit note ${p.creditNote}, and refund #${p.refundId} (${moneyWords('en', p.amount, currencyOf(p))}) was made after it. A credit note for it would credit more than was invoiced (CIVA art. 29(7), 78(2)).`,
      action: `If the refund only records money already returned with ${p.creditNote}, nothing more is due: ${press('dismiss')}. If the sale went ahead after all, issue a new invoice in the MagniFinance back-office before crediting anything more.`,
    }),
    pt: (p, _ref, press) => ({
      reason: `Nada foi emitido: a fatura ${p.invoice} já foi creditada na totalidade pela nota de crédito ${p.creditNote}, e o reembolso #${p.refundId} (${moneyWords('pt', p.amount, currencyOf(p))}) foi feito depois dela. Uma nota de crédito desse reembolso creditaria mais do que foi faturado (art. 29.º, n.º 7, e art. 78.º, n.º 2, do CIVA).`,
      action: `Se o reembolso apenas regista o dinheiro já devolvido com a ${p.creditNote}, nada mais é devido: ${press('dismiss')}. Se a venda afinal se manteve, emita primeiro uma nova fatura no back-office da MagniFinance antes de creditar mais.`,
    }),
  },
  'order-changed': {
    buttons: ['dismiss'],
    en: (p, _ref, press) =>
      p.creditedBy
        ? {
            reason: `Invoice ${p.number} was credited in full by credit note ${p.creditedBy}, as a person asked in the console, but the order still stands in ${p.shop ?? 'WooCommerce'} for ${moneyWords('en', p.shopNet, currencyOf(p))}.`,
            action: `If the sale did not go ahead, cancel the order in ${p.shop ?? 'WooCommerce'} (no second credit note is issued). If the invoice was wrong and the sale stands, issue the right invoice in the MagniFinance back-office (the connector issues one invoice per order), then ${press('dismiss')}.`,
          }
        : {
            reason: `The order was changed after ${p.number} was issued: its total net of refunds is now ${moneyWords('en', p.shopNet, currencyOf(p))} while the connector's documents cover ${moneyWords('en', p.covered, currencyOf(p))} (a difference of ${moneyWords('en', p.difference, currencyOf(p))}). A certified document cannot be changed, so the connector issued nothing for the difference.`,
            action: SETTLE_WAYS.en[p.way](p, press),
          },
    pt: (p, _ref, press) =>
      p.creditedBy
        ? {
            reason: `A fatura ${p.number} foi creditada na totalidade pela nota de crédito ${p.creditedBy}, a pedido de uma pessoa na consola, mas a encomenda continua ativa no ${p.shop ?? 'WooCommerce'}, com ${moneyWords('pt', p.shopNet, currencyOf(p))}.`,
            action: `Se a venda não se realizou, cancele a encomenda no ${p.shop ?? 'WooCommerce'} (não é emitida uma segunda nota de crédito). Se a fatura estava errada e a venda se mantém, emita a fatura correta no back-office da MagniFinance (o conector emite uma só fatura por encomenda) e depois ${press('dismiss')}.`,
          }
        : {
            reason: `A encomenda foi alterada depois de emitida a ${p.number}: o seu total, descontados os reembolsos, é agora ${moneyWords('pt', p.shopNet, currencyOf(p))}, e os documentos do conector cobrem ${moneyWords('pt', p.covered, currencyOf(p))} (uma diferença de ${moneyWords('pt', p.difference, currencyOf(p))}). Um documento certificado não pode ser alterado, por isso o conector não emitiu nada pela diferença.`,
            action: SETTLE_WAYS.pt[p.way](p, press),
          },
  },
  'refund-gone': {
    buttons: ['dismiss'],
    en: (p, _ref, press) => ({
      reason: `Credit note ${p.number} (${moneyWords('en', p.amount, currencyOf(p))}) was issued for refund #${p.refundId}, which is no longer on the order: it was deleted in WooCommerce. A certified credit note cannot be deleted.`,
      action: `Do not create the refund again in WooCommerce (the connector would issue a second credit note). If the money was returned, nothing more is due: ${press('dismiss')}. If it was not, issue a new invoice (or a debit note) for ${moneyWords('en', p.amount, currencyOf(p))} in the MagniFinance back-office, then ${press('dismiss')}.`,
    }),
    pt: (p, _ref, press) => ({
      reason: `A nota de crédito ${p.number} (${moneyWords('pt', p.amount, currencyOf(p))}) foi emitida para o reembolso #${p.refundId}, que já não está na encomenda: foi apagado no WooCommerce. Uma nota de crédito certificada não pode ser apagada.`,
      action: `Não volte a criar o reembolso no WooCommerce (o conector emitiria uma segunda nota de crédito). Se o dinheiro foi devolvido, nada mais é devido: ${press('dismiss')}. Se não foi, emita uma nova fatura (ou uma nota de débito) de ${moneyWords('pt', p.amount, currencyOf(p))} no back-office da MagniFinance e depois ${press('dismiss')}.`,
    }),
  },
};

const ALL_WORDING: Wording = { ...WORDING, ...EXTRA_WORDING };

/** The problem in `lang`, for a reader at `via` (notes and alerts: `page`; the console: `console`; the admin API: `api`). */
export function problemWords(lang: Lang, problem: Problem, ref: LedgerRef, via: RetryVia = 'page'): ProblemWords {
  const words = ALL_WORDING[problem.code][lang] as Words<Problem['code']>;
  return words(problem as never, ref, pressWords(lang, ref, via));
}

/**
 * A problem as the pipeline records it: the state to set (absent to keep a progress state), the
 * problem itself, and its English words for a reader of the ledger (the admin API, logs).
 */
export interface PersonNeeded extends ProblemWords {
  state?: LedgerState;
  problem: Problem;
}

export function personNeeded(ref: LedgerRef, problem: Problem, state?: LedgerState): PersonNeeded {
  return { state, problem, ...problemWords('en', problem, ref) };
}

/** The words of a ledger entry's problem in `lang`; entries recorded before problems had codes keep their recorded words. */
export function entryWords(lang: Lang, entry: { problem?: string; detail?: string; lastError?: string; action?: string }, ref: LedgerRef, via: RetryVia = 'page'): ProblemWords {
  const problem = parseProblem(entry.problem);
  if (problem) return problemWords(lang, problem, ref, via);
  const reason = entry.detail ?? entry.lastError;
  // Recorded in English by an older version: as it is in English, quoted and labelled in another language.
  return {
    reason: reason ? SAY.say(lang, 'recorded-reason', { text: reason, quoted: quoted(lang, reason) }) : '–',
    action: entry.action ? SAY.say(lang, 'recorded-action', { text: entry.action, quoted: quoted(lang, entry.action) }) : '–',
  };
}

const S = z.string();
const OPT_S = z.string().optional();
/** " (a; b)" of the parts known, nothing when none is. */
function known(...parts: string[]): string {
  const given = parts.filter((part) => part !== '');
  return given.length > 0 ? ` (${given.join('; ')})` : '';
}
/** The small sentences the problems' words are built with (the owner's notes, the console, the alerts). */
const SAY = catalogue({
  send: words({ route: S }, { pt: (p) => `envie ${p.route}`, en: (p) => `send ${p.route}` }),
  press: words({ button: S }, { pt: (p) => `carregue em ${p.button}`, en: (p) => `press ${p.button}` }),
  'press-on-page': words({ button: S }, { pt: (p) => `carregue em ${p.button} na página da encomenda no conector`, en: (p) => `press ${p.button} on the order's page in the connector` }),
  quoted: words({ text: S }, { pt: (p) => `«${p.text}»`, en: (p) => `"${p.text}"` }),
  // A platform this version does not know (a title recorded by a newer one): what holds on any shop.
  'shop-access': words(
    { tenant: S },
    { en: (p) => `Check the connector's access to the shop of tenant "${p.tenant}" (its credentials and their permissions)`, pt: (p) => `Verifique o acesso do conector à loja "${p.tenant}" (as credenciais e as suas permissões)` },
  ),
  'rounding-settle': fixed({
    en: 'Settle the cent with the customer if needed (a credit note for it can be issued in the back-office); your accountant may choose roundingLine, which closes such a gap with a 0% line.',
    pt: 'Se necessário, acerte o cêntimo com o cliente (pode emitir uma nota de crédito no back-office); o seu contabilista pode escolher o roundingLine, que fecha essa diferença com uma linha a 0 %.',
  }),
  'vies-silent': words({ seconds: z.number() }, { pt: (p) => `sem resposta em ${p.seconds} s`, en: (p) => `no answer within ${p.seconds} s` }),
  'vies-unreachable': fixed({ pt: 'o VIES não estava acessível', en: 'the VIES could not be reached' }),
  'vies-answered': words({ answer: S }, { pt: (p) => `o VIES respondeu ${p.answer}`, en: (p) => `the VIES answered ${p.answer}` }),
  'vies-said': words({ said: S }, { pt: (p) => `resposta do VIES: ${p.said}`, en: (p) => `the VIES said ${p.said}` }),
  /** Whose a wrong partner token is, as far as the tenants file knows (another tenant, the agency's partner list); nothing when unknown. */
  'token-holder': words(
    { actual: OPT_S, actualTenant: OPT_S, actualPartner: OPT_S },
    {
      en: (p) => (p.actual ? `; the token is company ${p.actual}'s${known(p.actualTenant ? `tenant "${p.actualTenant}"` : '', p.actualPartner ? `the agency's partner "${p.actualPartner}"` : '')}` : ''),
      pt: (p) => (p.actual ? `; o token é da empresa ${p.actual}${known(p.actualTenant ? `loja "${p.actualTenant}"` : '', p.actualPartner ? `parceira da agência «${p.actualPartner}»` : '')}` : ''),
    },
  ),
  'recorded-answer': words({ said: S }, { pt: (p) => `Resposta registada: ${p.said}.`, en: (p) => `Recorded answer: ${p.said}.` }),
  /** What an older version recorded, in English: as it is in English, quoted and labelled in Portuguese. */
  'recorded-reason': words({ text: S, quoted: S }, { pt: (p) => `Motivo registado: ${p.quoted}.`, en: (p) => p.text }),
  'recorded-action': words({ text: S, quoted: S }, { pt: (p) => `Indicação registada: ${p.quoted}.`, en: (p) => p.text }),
});
