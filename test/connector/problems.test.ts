import { entryWords, moneyWords, personNeeded, problemRoutes, problemWords, ProblemSchema, routeHint, type Problem } from '../../connector/pipeline/problems';
import { englishWords } from '../support/english-words';

/**
 * Every reason an order waits for a person has its words in Portuguese and English (issue 12: the
 * console in both languages); the English ones are what the ledger, the order's note and the alerts
 * carry.
 */
const ref = { tenant: 'loja1', orderId: 4321, purpose: 'credit-note-77' };
const samples: Problem[] = [
  { code: 'held', holds: [{ code: 'company-nif-invalid', params: { nif: '123456780', company: 'Empresa Lda' } }] },
  { code: 'order-refused', error: { code: 'euro-rate-unknown', params: { currency: 'USD', keys: '_euro_rate' } } },
  { code: 'order-unreadable', fields: ['billing.email', 'line_items.0.quantity'] },
  { code: 'service-refused', answer: { from: 'service', status: 400, name: 'SaveFailed', issues: [{ type: 'TaxExemptionDoesNotExist', field: 'Document.Lines[1].TaxExemptionReasonCode', element: 1 }] } },
  { code: 'credentials', answer: { from: 'service', status: 401, name: 'AuthenticationError', issues: [] } },
  { code: 'shop-refused', answer: { from: 'shop', status: 401, code: 'woocommerce_rest_cannot_view' } },
  { code: 'vies-unavailable', vatNumber: 'DE123456789', attempts: 10, why: 'MS_UNAVAILABLE' },
  { code: 'gave-up', attempts: 10, answer: { from: 'network', to: 'service', code: 'ECONNREFUSED' } },
  { code: 'no-invoice' },
  { code: 'earlier-document', where: 'note', number: 'FR A/12', documentId: 4711 },
  { code: 'series-ahead', serie: 'A', type: 'T', date: '2026-12-01' },
  { code: 'unknown-id', externalId: 'wc-4321-R77', cause: 'client-changed' },
  { code: 'no-number', documentId: 99, calls: 9 },
  { code: 'total-differs', number: 'FR A/7', total: '12.32', difference: '0.01' },
  { code: 'order-deleted', number: 'FR A/9' },
  { code: 'month-closed', number: 'FR A/10', day: '2026-11-30', month: '2026-11', by: 'contabilista', closedOn: '2026-11-29' },
  { code: 'wrong-company', nif: '512300011', company: '512300011 (Loja Azul, Lda.)', cause: 'not-listed', actual: '512300020 (Loja Verde, Lda.)', actualTenant: 'loja-verde' },
  { code: 'order-changed', number: 'FR A/8', shopNet: '1660.50', covered: '1622.08', difference: '38.42', way: 'ask' },
  { code: 'refund-gone', number: 'NC A/3', refundId: 77, amount: '10.00', currency: 'USD' },
  { code: 'credited-in-full', invoice: 'FR A/12', creditNote: 'NC A/4', refundId: 78, amount: '1660.50' },
  { code: 'buyer-changed', number: 'FR A/13', invoiceNif: '999999990', orderNif: '123456789' },
];

/** Amounts of the problems worded as money (the reader's "1 660,50 €"), every other fact as it is. */
const MONEY_FACTS = new Set(['shopNet', 'covered', 'difference', 'amount', 'total']);
/** Days of the problems, written the Portuguese way (30/11/2026). */
const DATE_FACTS = new Set(['date', 'day', 'closedOn']);

describe('problems: why and what to do, in Portuguese and English', () => {
  it('covers every problem code', () => {
    const codes = ProblemSchema.options.map((option) => option.shape.code.value).sort();
    expect(samples.map((s) => s.code).sort()).toEqual(codes);
  });

  it.each(samples.map((s) => [s.code, s] as const))('%s: both languages worded, with the facts, never "undefined"', (_code, problem) => {
    const en = problemWords('en', problem, ref);
    const pt = problemWords('pt', problem, ref);
    for (const words of [en, pt]) {
      expect(words.reason.length).toBeGreaterThan(20);
      expect(words.action.length).toBeGreaterThan(20);
      expect(`${words.reason} ${words.action}`).not.toMatch(/undefined|\[object/);
    }
    expect(pt.reason).not.toBe(en.reason);
    expect(pt.action).not.toBe(en.action);
    // Every fact of the problem is in the Portuguese words too (the cause of unknown-id and the way of order-changed pick a sentence).
    for (const [key, value] of Object.entries(problem)) {
      if (['code', 'cause', 'way', 'where', 'answer', 'fields', 'reasons', 'message', 'holds', 'error', 'currency'].includes(key)) continue;
      const inPortuguese = MONEY_FACTS.has(key) ? moneyWords('pt', String(value), 'currency' in problem && problem.currency ? problem.currency : 'EUR') : DATE_FACTS.has(key) ? String(value).split('-').reverse().join('/') : String(value);
      expect(pt.reason + pt.action).toContain(inPortuguese);
    }
  });

  it('the ledger keeps the English words and the problem; the console words it again in the reader\'s language', () => {
    const needed = personNeeded(ref, { code: 'no-invoice' }, 'skipped');
    expect(needed).toMatchObject({ state: 'skipped', reason: 'There is no invoice from this connector to reference, so no credit note for refund #77 was issued.' });
    const entry = { problem: JSON.stringify(needed.problem), detail: needed.reason, action: needed.action };
    expect(entryWords('pt', entry, ref).reason).toBe('Não há nenhuma fatura deste conector a que a nota de crédito do reembolso #77 possa fazer referência, por isso não foi emitida.');
    expect(entryWords('en', entry, ref)).toEqual({ reason: needed.reason, action: needed.action });
  });

  it('an entry recorded before problems had codes (or a damaged one) shows its recorded words, quoted and labelled in Portuguese', () => {
    expect(entryWords('en', { detail: 'old reason', action: 'old fix' }, ref)).toEqual({ reason: 'old reason', action: 'old fix' });
    expect(entryWords('pt', { detail: 'old reason', action: 'old fix' }, ref)).toEqual({ reason: 'Motivo registado: «old reason».', action: 'Indicação registada: «old fix».' });
    expect(entryWords('pt', { problem: '{not json', detail: 'old reason', action: 'old fix' }, ref)).toEqual({ reason: 'Motivo registado: «old reason».', action: 'Indicação registada: «old fix».' });
    expect(entryWords('pt', { problem: '{"code":"nope"}', lastError: 'boom' }, ref)).toEqual({ reason: 'Motivo registado: «boom».', action: '–' });
  });

  it.each<[string, Problem]>([
    ['held with the English reasons of an older version', { code: 'held', reasons: 'The tax number 123456780 given for Empresa Lda is not valid.' }],
    ['service-refused with only the English message', { code: 'service-refused', message: 'MagniFinance SaveFailed (14): ValidationError - TaxId InvalidTaxId' }],
    ['gave-up with only the English message', { code: 'gave-up', attempts: 3, message: 'connect ECONNREFUSED' }],
  ])('a problem of the previous shape still reads: %s', (_what, problem) => {
    const stored = JSON.stringify(problem);
    const pt = entryWords('pt', { problem: stored }, ref);
    expect(pt.reason).toMatch(/Motivo registado: «.+»\.$|Resposta registada: «.+»\.$/);
    expect(englishWords(withoutQuotes(pt.reason + ' ' + pt.action))).toEqual([]);
  });
});

describe('notes and alerts name the order page\'s button; the console the button; the admin API the route', () => {
  it.each<[Problem, 'retry' | 'attach' | 'dismiss']>([
    [{ code: 'gave-up', attempts: 10, answer: { from: 'connector', said: 'boom' } }, 'retry'],
    [{ code: 'unknown-id', externalId: 'wc-4321-R77', cause: 'lost-answer' }, 'attach'],
    [{ code: 'refund-gone', number: 'NC A/3', refundId: 77, amount: '10.00' }, 'dismiss'],
  ])('%j', (problem, button) => {
    const names = { retry: ['«Tentar de novo»', '"Try again"'], attach: ['«Associar documento»', '"Attach document"'], dismiss: ['«Marcar como tratada»', '"Mark as handled"'] }[button];
    expect(problemWords('pt', problem, ref).action).toContain(`carregue em ${names[0]} na página da encomenda no conector`);
    expect(problemWords('en', problem, ref).action).toContain(`press ${names[1]} on the order's page`);
    expect(problemWords('pt', problem, ref, 'console').action).toContain(`carregue em ${names[0]}`);
    expect(problemWords('pt', problem, ref, 'console').action).not.toContain('página');
    for (const via of ['page', 'console'] as const) expect(problemWords('en', problem, ref, via).action).not.toContain('/admin/api/');
    expect(problemWords('en', problem, ref, 'api').action).toContain(`POST /admin/api/orders/loja1/4321/${button}`);
    expect(problemRoutes(problem, ref)).toContain(routeHint(ref, button));
  });
});

/** Someone else's words, quoted («...»), are not ours to translate. */
function withoutQuotes(text: string): string {
  return text.replace(/«[^»]*»/g, ' ');
}

describe('every amount a problem names carries its currency (issue 25, point 3)', () => {
  const changed = { code: 'order-changed', number: 'FT A/9', shopNet: '120.00', covered: '100.00', difference: '20.00', currency: 'USD', way: 'difference-document' } as const;

  it.each([
    ['en', 'a second invoice for US$20.00 when the order grew'],
    ['pt', 'uma segunda fatura de 20,00 US$, se a encomenda aumentou'],
  ] as const)('an order in dollars is told in dollars (%s), never in euros', (lang, words) => {
    const { reason, action } = problemWords(lang, changed, ref);
    expect(action).toContain(words);
    expect(`${reason} ${action}`).not.toContain('€');
  });

  it('a problem recorded before the currency was named reads back in euros, as it was issued then', () => {
    const { currency: _currency, ...older } = changed;
    expect(problemWords('en', ProblemSchema.parse(older), ref).action).toContain('a second invoice for €20.00 when the order grew');
  });
});
