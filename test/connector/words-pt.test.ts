import { describeOrder, describeWebhooks, subjectOf, textOf, type Digest } from '../../connector/alerts/digest';
import { PLATFORMS } from '../../platforms/registry';
import { answerWords, type Answer } from '../../connector/pipeline/answers';
import { problemWords, ProblemSchema, type Problem } from '../../connector/pipeline/problems';
import { DELIVERY_PROBLEMS, NOTES, purposeLabel, stateLabel, sweepSummary, type Lang } from '../../connector/words';
import { LEDGER_STATES } from '../../connector/core/ledger';
import { englishWords } from '../support/english-words';
import { sweepReport } from './support/sweep-report';

/**
 * The message-code check (issue 19): every text a shop owner or a buyer reads is built from a code
 * and its facts, in the tenant's language. Each one is rendered in Portuguese with realistic facts
 * and must hold no English word (test/support/english-words.ts); its English form exists and differs.
 * Quoted words («...») are someone else's (the service's text for an answer unknown here) and are
 * not checked.
 */
const ref = { tenant: 'loja-azul', orderId: 1834, purpose: 'invoice' };
const creditRef = { ...ref, purpose: 'credit-note-77' };

const ANSWERS: [string, Answer][] = [
  ['an invalid NIF', { from: 'service', status: 400, name: 'ValidationError', issues: [{ type: 'InvalidTaxId', field: 'TaxId', element: 0, detail: 'Invalid Tax Id' }] }],
  ['a duplicate', { from: 'service', status: 400, name: 'ValidationError', issues: [{ type: 'DocumentIsADuplicate', field: 'DocumentDetailExternalId', element: 0, detail: 'Duplicate Document' }] }],
  ['a date before the series', { from: 'service', status: 400, name: 'ValidationError', issues: [{ type: 'MustBePosteriorToMostCurrentClosedDocument', field: 'DocumentDetailDate', element: 0, detail: 'Change series or use a date equal or after 2026-11-30' }] }],
  ['two line errors', { from: 'service', status: 400, name: 'SaveFailed', issues: [{ type: 'Required', field: 'Document.Lines[1].Description', element: 1 }, { type: 'TaxExemptionReasonRequired', field: 'Document.Lines[2].TaxExemptionReasonCode', element: 2 }] }],
  ['an unknown validation type', { from: 'service', status: 400, name: 'SaveFailed', issues: [{ type: 'SomethingNew', field: 'Document.Foo', element: 0, detail: 'Something new went wrong' }] }],
  ['credentials', { from: 'service', status: 401, name: 'AuthenticationError', issues: [] }],
  ['an unknown error value with its text', { from: 'service', status: 500, name: 'GeneralUnknownError', issues: [], said: 'Please try again later' }],
  ['an error value unknown here', { from: 'service', status: 500, name: 'WeirdThing', issues: [], said: 'Something odd happened' }],
  ['the local check', { from: 'local', issues: [{ type: 'Local', field: 'Document.Lines[2].TaxValue', detail: 'must be one of 0, 6, 13, 23' }] }],
  ['the shop refusing the key', { from: 'shop', status: 401, code: 'woocommerce_rest_cannot_view', said: 'Sorry, you cannot list resources.' }],
  ['the shop failing', { from: 'shop', status: 500 }],
  ['a timeout', { from: 'timeout', to: 'service', ms: 30_000 }],
  ['no connection', { from: 'network', to: 'shop', code: 'ECONNREFUSED' }],
  ['a connector error', { from: 'connector', said: 'the order lock was lost' }],
];

const PROBLEMS: Problem[] = [
  { code: 'held', holds: [{ code: 'company-nif-invalid', params: { nif: '509442014', company: 'Costa & Filhos, Lda.' } }] },
  { code: 'held', holds: [{ code: 'consumer-invoice-unidentified-held', params: { total: '1383.75', missing: 'name-address', from: '1000.00' } }, { code: 'm16-needs-vies', params: { vat: 'DE123456789' } }] },
  { code: 'order-refused', error: { code: 'euro-rate-unknown', params: { currency: 'USD', keys: '_euro_rate' } } },
  { code: 'order-refused', error: { code: 'negative-order-total', params: { total: '-5.00' } } },
  { code: 'order-unreadable', fields: ['billing.email', 'line_items.0.quantity'] },
  ...ANSWERS.map(([, answer]) => ({ code: 'service-refused' as const, answer })),
  { code: 'credentials', answer: ANSWERS[5][1] },
  { code: 'shop-refused', answer: ANSWERS[9][1] },
  { code: 'vies-unavailable', vatNumber: 'DE123456789', attempts: 10, why: 'MS_UNAVAILABLE' },
  { code: 'vies-unavailable', vatNumber: 'DE123456789', attempts: 10, why: 'no answer within 5000 ms' },
  { code: 'gave-up', attempts: 10, answer: { from: 'network', to: 'service', code: 'ECONNREFUSED' } },
  { code: 'no-invoice' },
  { code: 'earlier-document', where: 'history', number: 'FT A/3' },
  { code: 'series-ahead', serie: 'A', type: 'T', date: '2026-12-01' },
  { code: 'unknown-id', externalId: 'wc-1834', cause: 'lost-answer' },
  { code: 'unknown-id', externalId: 'wc-1834', cause: 'unrecorded' },
  { code: 'unknown-id', externalId: 'wc-1834', cause: 'client-changed' },
  { code: 'no-number', documentId: 99, calls: 9 },
  { code: 'total-differs', number: 'FR A/7', total: '1660.50', difference: '0.01' },
  { code: 'order-deleted' },
  { code: 'order-deleted', number: 'FR A/9' },
  { code: 'month-closed', number: 'FR A/10', day: '2026-11-30', month: '2026-11', by: 'contabilista', closedOn: '2026-11-29' },
  { code: 'wrong-company', nif: '512300011', company: '512300011 (Loja Azul, Lda.)', cause: 'not-listed', actual: '512300020 (Loja Verde, Lda.)', actualTenant: 'loja-verde' },
  { code: 'wrong-company', nif: '512300011', company: '512300011 (Loja Azul, Lda.)', cause: 'no-partnership' },
  { code: 'wrong-company', nif: '512300011', company: '512300011 (Loja Azul, Lda.)', cause: 'refused' },
  { code: 'order-changed', number: 'FR A/8', shopNet: '1660.50', covered: '1622.08', difference: '38.42', way: 'ask' },
  { code: 'order-changed', number: 'FR A/8', shopNet: '1660.50', covered: '1622.08', difference: '38.42', way: 'credit-and-reissue' },
  { code: 'order-changed', number: 'FR A/8', shopNet: '1660.50', covered: '1622.08', difference: '38.42', way: 'difference-document' },
  { code: 'refund-gone', number: 'NC A/3', refundId: 77, amount: '10.00' },
  { code: 'buyer-changed', number: 'FR A/8', invoiceNif: '999999990', orderNif: '123456789' },
  { code: 'buyer-changed', number: 'FR A/8', invoiceNif: '999999990', orderNif: '123456780', company: 'Empresa Lda' },
  { code: 'credited-in-full', invoice: 'FR A/12', creditNote: 'NC A/4', refundId: 78, amount: '1660.50' },
  { code: 'order-changed', number: 'FR A/8', shopNet: '1660.50', covered: '0.00', difference: '1660.50', way: 'ask', creditedBy: 'NC A/5' },
];

/** Someone else's words, quoted, are left out of the check; so are identifiers in snake_case (woocommerce_rest_cannot_view). */
/** The prose of a text: quotes, identifiers, HTTP headers (X-Shopify-Shop-Domain) and webhook topics (orders/paid) are names, not words. */
function prose(text: string): string {
  return text.replace(/«[^»]*»/g, ' ').replace(/\b\w+_\w+\b/g, ' ').replace(/\bX-[\w*-]+/g, ' ').replace(/\b[a-z]+\/(?:\*|[a-z_]+)/g, ' ');
}

function expectPortuguese(pt: string, en: string): void {
  expect(englishWords(prose(pt))).toEqual([]);
  expect(en.length).toBeGreaterThan(0);
  expect(en).not.toBe(pt);
}

/** Full sentences: no two reasons glued (". ." or a lowercase start after a full stop), each text ends with a stop. */
function expectSentences(text: string): void {
  expect(text.trim()).toMatch(/[.»)]$/);
  expect(text).not.toMatch(/\.\s*\./);
  expect(text).not.toMatch(/[a-zç]\. [a-zà-ú]/);
}

describe('message-code check: every problem in Portuguese, no English, the English form exists', () => {
  it('covers every problem code', () => {
    const codes = new Set(ProblemSchema.options.map((option) => option.shape.code.value));
    expect(new Set(PROBLEMS.map((p) => p.code))).toEqual(codes);
  });

  it.each(PROBLEMS.map((p) => [`${p.code} ${JSON.stringify(p).slice(0, 120)}`, p] as const))('%s', (_name, problem) => {
    for (const via of ['page', 'console'] as const) {
      for (const r of [ref, creditRef]) {
        const pt = problemWords('pt', problem, r, via);
        const en = problemWords('en', problem, r, via);
        expectPortuguese(pt.reason, en.reason);
        expectPortuguese(pt.action, en.action);
        expectSentences(pt.reason);
        expectSentences(pt.action);
        expect(pt.reason + pt.action).not.toContain('/admin/api');
      }
    }
  });

  it.each(ANSWERS)('the service or shop answered %s: worded in Portuguese; an unknown one quoted and labelled as theirs', (_name, answer) => {
    const pt = answerWords('pt', answer);
    expectPortuguese(pt, answerWords('en', answer));
    expectSentences(pt);
  });

  it('an unknown answer is the service\'s own words, quoted, never glued into a Portuguese sentence', () => {
    expect(answerWords('pt', ANSWERS[4][1])).toBe('A MagniFinance respondeu com erros que o conector não conhece: SomethingNew em Document.Foo «Something new went wrong».');
    expect(answerWords('pt', ANSWERS[7][1])).toBe('A MagniFinance respondeu (WeirdThing): «Something odd happened».');
    expect(answerWords('pt', ANSWERS[0][1])).toBe('A MagniFinance respondeu que o NIF do cliente (TaxId) não é válido (InvalidTaxId).');
  });
});

describe('message-code check: the notes written on orders', () => {
  const notes: [string, (lang: Lang) => string][] = [
    ['issued', (lang) => NOTES.issued(lang, { type: 'T', number: 'FR A/12', documentId: 4411 })],
    ['issued details', (lang) => NOTES.issuedDetails(lang, { pdfUrl: 'https://invoices.example.pt/documents/x/pdf?t=1', viesConfirmed: { vatNumber: 'DE123456789', on: '2026-11-24' } })],
    ['cancelled in place', (lang) => NOTES.cancelledInPlace(lang, { number: 'FT A/3', documentId: 4412 })],
    ['customer', (lang) => NOTES.customer(lang, { type: 'S', number: 'FS A/9' })],
    ['attention', (lang) => NOTES.attention(lang, { purpose: 'invoice', ...problemWords(lang, { code: 'no-number', documentId: 99, calls: 9 }, ref), pageUrl: 'https://invoices.example.pt/console/loja-azul/orders/1834' })],
    ['attention, credit note', (lang) => NOTES.attention(lang, { purpose: 'credit-note-77', ...problemWords(lang, { code: 'no-invoice' }, creditRef) })],
    ['other system', (lang) => NOTES.otherSystem(lang, { system: 'InvoiceXpress', key: '_invoicexpress_id', value: '123' })],
    ['advance payment, deposit', (lang) => NOTES.advancePayment(lang, { kind: 'deposit', status: 'partially-paid', plugin: 'Deposits & Partial Payments for WooCommerce' })],
    ['advance payment, pre-order', (lang) => NOTES.advancePayment(lang, { kind: 'pre-order', status: 'pre-ordered', plugin: 'WooCommerce Pre-Orders' })],
    ['advance payment why, deposit', (lang) => NOTES.advancePaymentWhy(lang, { kind: 'deposit', status: 'partial-payment', plugin: 'WooCommerce Deposits' })],
    ['settled', (lang) => NOTES.settled(lang, { purpose: 'invoice', by: 'ana', how: 'nota de crédito manual' })],
    ['dismissed', (lang) => NOTES.dismissed(lang, { purpose: 'invoice', by: 'ana', how: 'faturado à mão' })],
  ];
  it('covers every note', () => {
    expect(notes.map(([name]) => name.split(',')[0].replace(/ .*/, ''))).toEqual(expect.arrayContaining(['issued', 'cancelled', 'customer', 'attention', 'other', 'settled', 'dismissed']));
    const covered = new Set(['issued', 'issuedDetails', 'cancelledInPlace', 'customer', 'attention', 'otherSystem', 'advancePayment', 'advancePaymentWhy', 'settled', 'dismissed']);
    expect(new Set(Object.keys(NOTES))).toEqual(covered);
  });
  it.each(notes)('%s', (_name, note) => expectPortuguese(note('pt'), note('en')));
});

describe('message-code check: states, purposes, delivery problems, the sweep, the alert digest', () => {
  it.each([...LEDGER_STATES])('state %s', (state) => expectPortuguese(stateLabel('pt', state), stateLabel('en', state)));
  it.each(['invoice', 'waybill', 'cancellation', 'review', 'credit-note-77'])('purpose %s', (purpose) => expect(englishWords(purposeLabel('pt', purpose))).toEqual([]));
  it.each(Object.values(PLATFORMS).flatMap((platform) => DELIVERY_PROBLEMS.map((reason) => [platform.name, reason] as const)))('%s: delivery problem %s', (name, reason) => {
    const pt = PLATFORMS[name].deliveryProblemWords('pt', reason);
    const en = PLATFORMS[name].deliveryProblemWords('en', reason);
    expectPortuguese(pt.cause, en.cause);
    expectPortuguese(pt.fix, en.fix);
  });
  it('the sweep\'s result', () => {
    const counts = { scanned: 9, enqueued: 2, resumed: 1, waitingForPerson: 3 };
    expect(sweepSummary('pt', counts)).toBe('9 encomendas vistas; 2 documentos postos na fila para emissão; 1 retomado depois de ter parado; 3 encomendas precisam da sua atenção.');
    expectPortuguese(sweepSummary('pt', counts), sweepSummary('en', counts));
    expectPortuguese(sweepSummary('pt', { scanned: 1, enqueued: 1, resumed: 0 }), sweepSummary('en', { scanned: 1, enqueued: 1, resumed: 0 }));
  });
  it('the alert digest: orders, webhook findings and refused deliveries', () => {
    const digest = (lang: Lang): Digest => ({
      tenant: 'loja-azul',
      lang,
      orders: [
        { orderId: 1834, purpose: 'invoice', ...describeOrder({ purpose: 'invoice', state: 'mapping-failed', problem: JSON.stringify({ code: 'service-refused', answer: ANSWERS[0][1] }) }, ref, lang), link: 'https://invoices.example.pt/console/loja-azul/orders/1834', since: '2026-11-24T09:30:00.000Z' },
        { orderId: 1835, purpose: 'credit-note-77', ...describeOrder({ purpose: 'credit-note-77', state: 'duplicate-unknown-id', externalId: 'wc-1835-R77' }, { ...creditRef, orderId: 1835 }, lang), link: 'https://invoices.example.pt/console/loja-azul/orders/1835', since: '2026-11-24T09:31:00.000Z' },
      ],
      webhooks: describeWebhooks(
        sweepReport({
          inactiveWebhooks: [{ id: 4, topic: 'order.updated', status: 'disabled', deliveryUrl: 'https://invoices.example.pt/webhooks/woocommerce/loja-azul' }],
          missingTopics: ['order.created'],
          refusedDeliveries: [{ reason: 'bad-signature', count: 3, lastAt: '2026-11-24T09:00:00.000Z' }],
        }),
        PLATFORMS.woocommerce,
        lang,
      ),
      more: 4,
      attentionLink: 'https://invoices.example.pt/console/loja-azul',
    });
    const pt = textOf(digest('pt'));
    expectPortuguese(pt, textOf(digest('en')));
    expectPortuguese(subjectOf(digest('pt')), subjectOf(digest('en')));
    expect(pt).not.toContain('/admin/api');
    expect(pt).toContain('Página da encomenda: https://invoices.example.pt/console/loja-azul/orders/1834');
    expect(pt).toContain('carregue em «Associar documento» na página da encomenda');
  });
});
