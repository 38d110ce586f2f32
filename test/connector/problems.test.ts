import { entryWords, moneyWords, personNeeded, problemWords, ProblemSchema, type Problem } from '../../connector/pipeline/problems';

/**
 * Every reason an order waits for a person has its words in Portuguese and English (issue 12: the
 * console in both languages); the English ones are what the ledger, the order's note and the alerts
 * carry.
 */
const ref = { tenant: 'loja1', orderId: 4321, purpose: 'credit-note-77' };
const samples: Problem[] = [
  { code: 'held', reasons: 'The tax number 123456780 given for Empresa Lda is not valid.' },
  { code: 'order-refused', message: 'Order #4321: the order is in USD and no EuroRate is known' },
  { code: 'service-refused', message: 'TaxExemptionDoesNotExist on TaxExemptionReasonCode' },
  { code: 'credentials', message: 'AuthenticationError' },
  { code: 'shop-refused', message: 'shop answered 401 woocommerce_rest_cannot_view' },
  { code: 'vies-unavailable', vatNumber: 'DE123456789', attempts: 10, why: 'MS_UNAVAILABLE' },
  { code: 'gave-up', attempts: 10, message: 'connect ECONNREFUSED' },
  { code: 'no-invoice' },
  { code: 'series-ahead', serie: 'A', type: 'T', date: '2026-12-01' },
  { code: 'unknown-id', externalId: 'wc-4321-R77', cause: 'client-changed' },
  { code: 'no-number', documentId: 99, calls: 9 },
  { code: 'total-differs', number: 'FR A/7', total: '12.32', difference: '0.01' },
  { code: 'order-deleted', number: 'FR A/9' },
  { code: 'wrong-company', nif: '512300011', company: '512300011 (Loja Azul, Lda.)', cause: 'not-listed', actual: '512300020 (Loja Verde, Lda.) (tenant loja-verde)' },
  { code: 'order-changed', number: 'FR A/8', shopNet: '1660.50', covered: '1622.08', difference: '38.42', way: 'ask' },
  { code: 'refund-gone', number: 'NC A/3', refundId: 77, amount: '10.00' },
];

/** Amounts of the problems worded as money (the reader's "1 660,50 €"), every other fact as it is. */
const MONEY_FACTS = new Set(['shopNet', 'covered', 'difference', 'amount']);

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
      if (key === 'code' || key === 'cause' || key === 'way') continue;
      expect(pt.reason + pt.action).toContain(MONEY_FACTS.has(key) && problem.code !== 'total-differs' ? moneyWords('pt', String(value)) : String(value));
    }
  });

  it('the ledger keeps the English words and the problem; the console words it again in the reader\'s language', () => {
    const needed = personNeeded(ref, { code: 'no-invoice' }, 'skipped');
    expect(needed).toMatchObject({ state: 'skipped', reason: 'There is no invoice from this connector to reference, so no credit note for refund #77 was issued.' });
    const entry = { problem: JSON.stringify(needed.problem), detail: needed.reason, action: needed.action };
    expect(entryWords('pt', entry, ref).reason).toBe('Não há fatura deste conector a que fazer referência, por isso não foi emitida a nota de crédito do reembolso #77.');
    expect(entryWords('en', entry, ref)).toEqual({ reason: needed.reason, action: needed.action });
  });

  it('an entry recorded before problems had codes (or a damaged one) shows its recorded words', () => {
    expect(entryWords('pt', { detail: 'old reason', action: 'old fix' }, ref)).toEqual({ reason: 'old reason', action: 'old fix' });
    expect(entryWords('pt', { problem: '{not json', detail: 'old reason', action: 'old fix' }, ref)).toEqual({ reason: 'old reason', action: 'old fix' });
    expect(entryWords('pt', { problem: '{"code":"nope"}', lastError: 'boom' }, ref)).toEqual({ reason: 'boom', action: '–' });
  });
});

describe('the console says which button to press; notes and the API say which route to call', () => {
  it.each<[Problem, string, string]>([
    [{ code: 'gave-up', attempts: 10, message: 'boom' }, 'o botão "Tentar agora"', 'the "Retry now" button'],
    [{ code: 'unknown-id', externalId: 'wc-4321-R77', cause: 'lost-answer' }, 'o botão "Associar documento"', 'the "Attach document" button'],
  ])('%j', (problem, pt, en) => {
    expect(problemWords('pt', problem, ref, 'console').action).toContain(pt);
    expect(problemWords('en', problem, ref, 'console').action).toContain(en);
    expect(problemWords('en', problem, ref, 'console').action).not.toContain('/admin/api/');
    expect(problemWords('en', problem, ref).action).toContain('POST /admin/api/orders/loja1/4321/');
  });
});
