import { formatDecimal } from '../../client/money';
import { CreateDocumentRequestSchema } from '../../client/schemas/document';
import { computeTotals } from '../../client/totals';
import { creditNoteForRefund } from '../../platforms/woocommerce/documents';
import { orderFixture, refundFixture, sharedFixture } from './support/fixtures';
import { buildOrder, buildRefund } from './support/woo-cart';
import { wooOrder, wooRefund } from '../support/payloads';

const order5026 = orderFixture('pt-026-refund-source');

/**
 * The docs' refund list belongs to order 723, which the docs do not show: this is a stand-in with
 * the refunded line (id 311, "Woo Album #2", product 87) in a US order like the docs' others.
 */
function order723(): Record<string, unknown> {
  const order = buildOrder({
    id: 723,
    currency: 'USD',
    items: [
      { name: 'Woo Album #2', productId: 87, price: '9.00', quantity: 1 },
      { name: 'Woo Single #1', productId: 93, price: '3.00', quantity: 4 },
    ],
    shipping: [{ title: 'Flat Rate', cost: '10.00' }],
    billing: { first_name: 'John', last_name: 'Doe', address_1: '969 Market', city: 'San Francisco', postcode: '94103', country: 'US', email: 'john.doe@example.com' },
  });
  (order.line_items as { id: number }[])[0].id = 311;
  return order;
}

describe('credit note totals equal the refund amount to the cent', () => {
  it.each([
    ['pt-026-refund-partial-one-shirt', '47.97', [['CAM-LIN', '1', '23']]],
    ['pt-026-refund-full', '109.87', [['CAM-LIN', '2', '23'], ['LIV-BOL', '1', '6'], ['PORTES', '1', '23']]],
    ['pt-026-refund-shipping-only', '4.92', [['PORTES', '1', '23']]],
    ['pt-026-refund-amount-only', '10.00', [['REEMBOLSO', '1', '23'], ['REEMBOLSO', '1', '6']]],
  ])('%s', (name, amount, lines) => {
    const refund = refundFixture(name);
    expect(refund.amount).toBe(amount);
    const { request } = creditNoteForRefund(wooOrder(order5026), wooRefund(refund), 'FR 2025/118');
    expect(() => CreateDocumentRequestSchema.parse(request)).not.toThrow();
    const doc = request.Document;
    expect(formatDecimal(computeTotals(doc.Lines).amount, 2)).toBe(amount);
    expect(doc.Lines.map((l) => [l.Code, String(l.Quantity), String(l.TaxValue)])).toEqual(lines);
    // WooCommerce stores refunds negative; the credit note is written positive.
    expect(doc.Lines.every((l) => !String(l.Quantity).startsWith('-') && !String(l.UnitPrice).startsWith('-'))).toBe(true);
  });

  it('fills the credit note fields: type C, reference, own ExternalId, issue date, refund date and reason', () => {
    const { request } = creditNoteForRefund(wooOrder(order5026), wooRefund(refundFixture('pt-026-refund-partial-one-shirt')), 'FR 2025/118', undefined, { issueDate: '2025-03-20' });
    expect(request.Client.NIF).toBe('298765438');
    expect(request.Document).toMatchObject({
      Type: 'C',
      DocumentReference: 'FR 2025/118',
      ExternalId: 'wc-5026-R7001',
      Date: '2025-03-20',
      DueDate: '2025-04-19',
      Description: 'Reembolso 7001 de 2025-03-20 da encomenda #5026: Tamanho errado',
    });
  });

  it('is never dated before its invoice, whatever day it is issued', () => {
    const refund = refundFixture('pt-026-refund-partial-one-shirt');
    const early = creditNoteForRefund(wooOrder(order5026), wooRefund(refund), 'FR 2025/118', undefined, { issueDate: '2025-03-20', invoiceDate: '2025-03-22' });
    expect(early.request.Document.Date).toBe('2025-03-22');
    const later = creditNoteForRefund(wooOrder(order5026), wooRefund(refund), 'FR 2025/118', undefined, { issueDate: '2025-03-25', invoiceDate: '2025-03-22' });
    expect(later.request.Document.Date).toBe('2025-03-25');
  });

  it('splits a refund without items over the VAT rates of the order, in proportion', () => {
    const { request, notes } = creditNoteForRefund(wooOrder(order5026), wooRefund(refundFixture('pt-026-refund-amount-only')), 'FR 2025/118');
    expect(request.Document.Lines[0].Description).toBe('Reembolso da encomenda #5026: Compensação por atraso (IVA 23%)');
    expect(notes.map((n) => n.message)).toContain('Refund 7003 lists no items: one amount line per VAT rate of what remains of the order, typed as what the order sold at that rate');
  });

  it('adds the part of a refund beyond its items as an amount line', () => {
    const refund = { ...refundFixture('pt-026-refund-partial-one-shirt'), amount: '57.97' };
    const { request, notes } = creditNoteForRefund(wooOrder(order5026), wooRefund(refund), 'FR 2025/118');
    expect(formatDecimal(computeTotals(request.Document.Lines).amount, 2)).toBe('57.97');
    expect(notes.map((n) => n.message).join('\n')).toMatch(/is 10.00 more than its items: added as an amount line/);
  });
});

describe('credit notes of the docs\' refund list (order 723, US export)', () => {
  const refunds = sharedFixture('wc-docs-order-723-refunds-list.json') as Record<string, unknown>[];
  it.each([
    [0, '10.00', 'wc-723-R726', 'REEMBOLSO'],
    [1, '9.00', 'wc-723-R724', '87'],
  ])('refund %i', (index, amount, externalId, code) => {
    const { request } = creditNoteForRefund(wooOrder(order723()), wooRefund(refunds[index]), 'FT A/77', { euroRates: { USD: '0.9251' } });
    expect(formatDecimal(computeTotals(request.Document.Lines).amount, 2)).toBe(amount);
    expect(request.Document).toMatchObject({ ExternalId: externalId, TaxExemptionReasonCode: 'M05', Currency: 'USD', DocumentReference: 'FT A/77' });
    expect(request.Document.Lines[0].Code).toBe(code);
  });
});

describe('credit notes that cannot be made fail by name', () => {
  it.each([
    ['no invoice number', '', { }, /^Order #5026: refund 7001 needs the number of the invoice it corrects/],
    ['an invoice number over 50 characters', 'X'.repeat(51), {}, /longer than 50 characters/],
    ['amount 0', 'FR 1', { amount: '0.00' }, /refund 7001 has amount 0: no credit note/],
    ['amount not decimal text', 'FR 1', { amount: 47.97 }, /refund 7001 is not usable: amount must be decimal text/],
  ])('%s', (_name, invoice, patch, message) => {
    const refund = { ...refundFixture('pt-026-refund-partial-one-shirt'), ...patch };
    expect(() => creditNoteForRefund(wooOrder(order5026), wooRefund(refund), invoice)).toThrow(message);
  });
});

describe('a full refund of an order with a discount fee', () => {
  it('spreads the reversed discount over the refunded products: no negative line, exact amount', () => {
    const order = orderFixture('pt-015-negative-fee');
    const refund = buildRefund(order, { id: 7100, items: [{ index: 0, quantity: 1 }, { index: 1, quantity: 2 }], shipping: true, fees: true });
    expect(refund.amount).toBe(order.total);
    const { request, notes } = creditNoteForRefund(wooOrder(order), wooRefund(refund), 'FR 2025/200');
    expect(formatDecimal(computeTotals(request.Document.Lines).amount, 2)).toBe(order.total);
    expect(request.Document.Lines.map((l) => l.Code)).toEqual(['CAD-ESC', 'AGE-25', 'PORTES']);
    expect(notes.map((n) => n.message).join('\n')).toMatch(/Negative fee "Desconto cliente fiel" of 12.06 spread as a discount/);
  });
});
