import { creditNoteForRefund } from '../../platforms/woocommerce/documents';
import { buildOrder, buildRefund, Cart, RefundSpec } from './support/woo-cart';
import { wooOrder, wooRefund, wooRefunds } from '../support/payloads';

/** CIVA art. 29(7), 78(2): a credit note never credits more than its invoice, per line and per rate. */

const cart: Cart = {
  id: 7500,
  items: [
    { name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 2, rate: '23' },
    { name: 'Livro', sku: 'LIV', productId: 2, price: '20.00', quantity: 1, rate: '6' },
  ],
  shipping: [{ title: 'CTT', cost: '5.00', rate: '23' }],
  billing: { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua Augusta 100', city: 'Lisboa', postcode: '1100-053', country: 'PT' },
  dateCreatedGmt: '2026-03-10T10:00:00',
};
const order = buildOrder(cart);
const refund = (spec: RefundSpec) => buildRefund(order, spec);
const issue = { issueDate: '2026-03-12' };

describe('CIVA art. 29(7), 78(2): a credit note never credits more than was invoiced', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>[], boolean, RegExp | undefined]>([
    ['one mug of two: within the invoice', refund({ id: 1, items: [{ index: 0, quantity: 1 }] }), [], false, undefined],
    ['the second mug after the first: exactly the invoice', refund({ id: 2, items: [{ index: 0, quantity: 1 }] }), [refund({ id: 1, items: [{ index: 0, quantity: 1 }] })], false, undefined],
    [
      'a third mug after two: beyond the line, held',
      refund({ id: 3, items: [{ index: 0, quantity: 1 }] }),
      [refund({ id: 1, items: [{ index: 0, quantity: 1 }] }), refund({ id: 2, items: [{ index: 0, quantity: 1 }] })],
      true,
      /Refund 3 would credit 10\.00 \(net\) of "Caneca", but invoice FT 1\/1 has 20\.00 and earlier credit notes already credit 20\.00: a credit note never credits more than was invoiced \(CIVA art\. 29\(7\), 78\(2\)\)/,
    ],
    ['shipping twice: the second is held', refund({ id: 2, shipping: true }), [refund({ id: 1, shipping: true })], true, /of "CTT", but invoice FT 1\/1 has 5\.00 and earlier credit notes already credit 5\.00/],
    [
      'an amount with no lines beyond all that remains (the book credited already): held on the 23 % rate',
      refund({ id: 2, amount: '35.00' }),
      [refund({ id: 1, items: [{ index: 1, quantity: 1 }] })],
      true,
      /of the 23% VAT rate, but invoice FT 1\/1 has 25\.00/,
    ],
    ['an amount with no lines within what remains (the book credited already): split over the 23 % rest only', refund({ id: 2, amount: '30.00' }), [refund({ id: 1, items: [{ index: 1, quantity: 1 }] })], false, undefined],
    ['an amount with no lines within the invoice', refund({ id: 1, amount: '20.00' }), [], false, undefined],
  ])('%s', (_name, current, earlier, held, reason) => {
    const note = creditNoteForRefund(wooOrder(order), wooRefund(current), 'FT 1/1', {}, issue, wooRefunds(earlier));
    expect(note.hold).toBe(held);
    if (reason) expect(note.notes.map((n) => n.message).join('\n')).toMatch(reason);
  });

  it('a partial line refund, then the status Refunded (WooCommerce refunds the rest without lines): one credit note for exactly the rest, nothing held', () => {
    const mugs = refund({ id: 1, items: [{ index: 0, quantity: 2 }] });
    // The rest: the book (20.00 + 6 %) and the shipping (5.00 + 23 %).
    const rest = refund({ id: 2, amount: '27.35' });
    const note = creditNoteForRefund(wooOrder(order), wooRefund(rest), 'FT 1/1', {}, issue, wooRefunds([mugs]));
    expect(note.hold).toBe(false);
    expect(note.request.Document.Lines.map((l) => [String(l.TaxValue), l.UnitPrice])).toEqual([
      ['23', '5'],
      ['6', '20'],
    ]);
  });

  it('a refund of more than the whole order is held on its lines and rates', () => {
    const everything = refund({ id: 1, items: [{ index: 0, quantity: 2 }, { index: 1, quantity: 1 }], shipping: true });
    const again = creditNoteForRefund(wooOrder(order), wooRefund({ ...everything, id: 2 }), 'FT 1/1', {}, issue, wooRefunds([everything]));
    expect(again.hold).toBe(true);
    expect(again.notes.filter((n) => /never credits more than was invoiced/.test(n.message)).length).toBeGreaterThanOrEqual(4);
  });
});

describe('issue 21.5: a refund without lines is typed by what the order sold at each rate', () => {
  const exportCart: Cart = {
    ...cart,
    id: 7501,
    items: [{ name: 'Rolha', sku: 'ROL', productId: 3, price: '50.00', quantity: 1 }],
    shipping: [],
    billing: { first_name: 'John', last_name: 'Doe', address_1: '1 Main St', city: 'New York', postcode: '10001', country: 'US' },
  };
  it.each<[string, Partial<Cart['items'][number]>, Record<string, unknown>, string, string]>([
    ['CIVA art. 14: goods exported, refunded without lines: a goods line, M05 (not a service)', {}, {}, 'P', 'M05'],
    ['CIVA art. 6(6)(a): a service to a US business, refunded without lines: a service line, M40', {}, { lineTypes: { default: 'S' } }, 'S', 'M40'],
  ])('%s', (_name, _item, settings, type, code) => {
    const meta = code === 'M40' ? [{ key: '_billing_vat', value: '12-3456789' }] : [];
    const built = buildOrder({ ...exportCart, meta, billing: { ...exportCart.billing, ...(code === 'M40' ? { company: 'Doe Inc' } : {}) } });
    const note = creditNoteForRefund(wooOrder(built), wooRefund(buildRefund(built, { id: 1, amount: '20.00' })), 'FT 1/1', settings, issue);
    expect(note.request.Document.Lines.map((l) => l.Type)).toEqual([type]);
    expect(note.request.Document.TaxExemptionReasonCode).toBe(code);
  });
});
