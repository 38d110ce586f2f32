import { taxDueDay } from '../../law/issue-date';
import type { MappingSettingsInput } from '../../law/mapping-settings';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { creditNoteForRefund } from '../../platforms/woocommerce/documents';
import { buildOrder, buildRefund, type Cart } from './support/woo-cart';
import { wooOrder, wooRefund } from '../support/payloads';

/**
 * Issue 26.10: the VAT rates and the exchange rate are those of the day the tax became due (CIVA art.
 * 8(1), 18(9); Despacho Normativo 44/86). (c) a payment received before the invoice: its day; (b) an
 * invoice issued within its deadline (art. 36(1)): its own day; (a) one issued after: the deadline's.
 */
describe('CIVA art. 8(1), 18(9); Despacho Normativo 44/86: the day the tax became due', () => {
  it.each<[string, { paid?: string; completed?: string; created: string }, string, string]>([
    ['art. 8(1)(c): paid at checkout, invoiced the same day: the payment day', { paid: '2026-03-10', created: '2026-03-10' }, '2026-03-10', '2026-03-10'],
    ['art. 8(1)(c): paid at checkout, invoiced two days later (in time): still the payment day', { paid: '2026-03-10', created: '2026-03-10' }, '2026-03-12', '2026-03-10'],
    ['art. 8(1)(b): unpaid (cash on delivery), invoiced in time: the invoice day', { created: '2026-03-10' }, '2026-03-11', '2026-03-11'],
    ['art. 8(1)(a): unpaid, delivered 2026-03-02, invoiced late: the deadline (five business days)', { completed: '2026-03-02', created: '2026-03-01' }, '2026-03-20', '2026-03-09'],
    ['art. 8(1)(a): delivered 2026-03-02, paid 2026-03-16 after the deadline: the deadline', { paid: '2026-03-16', completed: '2026-03-02', created: '2026-03-01' }, '2026-03-16', '2026-03-09'],
    ['art. 8(1)(c): delivered 2026-03-02, paid 2026-03-04 before the invoice: the payment day', { paid: '2026-03-04', completed: '2026-03-02', created: '2026-03-01' }, '2026-03-05', '2026-03-04'],
  ])('%s', (_name, days, issued, due) => {
    expect(taxDueDay(days, issued)).toBe(due);
  });

  const funchal = { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua do Aljube 5', city: 'Funchal', postcode: '9000-055', country: 'PT' };
  const cart = (rate: string, extra: Partial<Cart>): Cart => ({
    id: 7150,
    items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate }],
    billing: funchal,
    dateCreatedGmt: '2024-09-27T10:00:00',
    ...extra,
  });
  const madeira: MappingSettingsInput = { dispatchRegion: 'madeira', invoiceUnpaidStatuses: ['on-hold'] };

  it.each<[string, Partial<Cart>, string, string, boolean]>([
    ['art. 8(1)(c), 18(9): paid 2024-09-27, invoiced 2024-10-01: Madeira\'s 5 % of the payment day', {}, '5', '2024-10-01', true],
    ['art. 8(1)(b), 18(9): unpaid (on-hold listed), invoiced 2024-10-01 in time: the 4 % in force that day', { datePaidGmt: null }, '4', '2024-10-01', true],
    ['art. 8(1)(b), 18(9): unpaid, invoiced 2024-10-01: the 5 % of the order\'s creation is no rate of the tax day', { datePaidGmt: null }, '5', '2024-10-01', false],
  ])('%s', (_name, extra, rate, issueDate, issues) => {
    const order = wooOrder(buildOrder(cart(rate, extra)));
    if (!issues) {
      expect(() => documentForOrder(order, madeira, { issueDate })).toThrow(/no Portuguese VAT rate in force on 2024-10-01/);
      return;
    }
    const doc = documentForOrder(order, madeira, { issueDate });
    expect(doc.request.Document.Lines[0].TaxValue).toBe(rate);
    expect(doc.holds.map((h) => h.code)).toEqual([]);
    expect(doc.request.Document.Description).toContain('2024-09-27');
  });

  it('art. 8(1)(b), 18(9), 29(7): the credit note of an unpaid order invoiced on 2024-10-01 credits the 4 % its invoice carried', () => {
    const order = buildOrder(cart('4', { datePaidGmt: null }));
    const refund = buildRefund(order, { id: 1, items: [{ index: 0, quantity: 1 }] });
    const note = creditNoteForRefund(wooOrder(order), wooRefund(refund), 'FT 1/1', madeira, { issueDate: '2026-03-10', invoiceDate: '2024-10-01' });
    expect(note.hold).toBe(false);
    expect(note.request.Document.Lines[0].TaxValue).toBe('4');
  });
});
