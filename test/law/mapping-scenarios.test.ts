import fc from 'fast-check';
import { englishWords } from '../support/english-words';
import { type MappingNote, OrderMappingError } from '../../law/mapping-errors';
import { englishClause, MAPPING_CODES, type MappingCode, type MappingMessage, mappingText } from '../../law/mapping-messages';
import type { MappingSettingsInput } from '../../law/mapping-settings';
import { parseWooOrder, parseWooRefund } from '../../platforms/woocommerce/order-schema';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { waybillForOrder } from '../../platforms/woocommerce/documents';
import { creditNoteForRefund } from '../../platforms/woocommerce/documents';
import { creditNoteForRefund as creditNoteForSale } from '../../law/refund-to-credit-note';
import { parseMappingSettings } from '../../law/mapping-settings';
import { saleOfWooOrder } from '../../platforms/woocommerce/order-to-sale';
import { saleRefundOfWooRefund } from '../../platforms/woocommerce/refund-to-sale-refund';
import { externalIdForRefund } from '../../law/external-id';
import { orderFixture, orderFixtureNames, refundFixture, sharedFixture } from './support/fixtures';
import { cartArbitrary } from './support/random-carts';
import { buildOrder, buildRefund, Cart } from './support/woo-cart';
import { wooOrder, wooRefund, wooRefunds } from '../support/payloads';

/**
 * The mapping's real messages: the fixtures the other tests map, and a table of orders that make
 * each refusal, hold and note. Every message the mapping produces carries a code of the catalogue
 * whose Portuguese holds no English, and whose English is the text the library always gave.
 */

/** A WooCommerce payload being changed by a scenario: JSON whose shape the scenario knows. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test payloads are edited as free JSON
type Json = Record<string, any>;

type Produced = { source: string; kind: 'error' | 'note' | 'hold'; message: MappingMessage; english: string };

const produced: Produced[] = [];

function collectNotes(source: string, notes: readonly MappingNote[]): void {
  for (const note of notes) produced.push({ source, kind: 'note', message: note, english: note.message });
}

/** Runs one mapping and keeps what it said: its error, or its notes and holds. */
function run(source: string, mapping: () => { notes: MappingNote[]; holds?: MappingMessage[]; holdReasons?: string[] } | unknown): void {
  try {
    const result = mapping() as { notes?: MappingNote[]; holds?: MappingMessage[]; holdReasons?: string[] } | undefined;
    if (result?.notes) collectNotes(source, result.notes);
    if (result?.holds) {
      expect(result.holdReasons).toHaveLength(result.holds.length);
      result.holds.forEach((hold, i) => produced.push({ source, kind: 'hold', message: hold, english: result.holdReasons?.[i] ?? '' }));
    }
  } catch (error) {
    if (!(error instanceof OrderMappingError)) throw new Error(`${source}: ${String(error)}`, { cause: error });
    produced.push({ source, kind: 'error', message: error.detail, english: error.message });
  }
}

// --- orders ---------------------------------------------------------------------------------

const lisbon = { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua Augusta 100', city: 'Lisboa', postcode: '1100-053', country: 'PT', email: 'maria@example.pt' };
const madrid = { ...lisbon, city: 'Madrid', postcode: '28013', country: 'ES' };
const funchal = { ...lisbon, city: 'Funchal', postcode: '9000-055' };

function cart(extra: Partial<Cart> = {}): Cart {
  return {
    id: 8100,
    items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate: '23' }],
    billing: lisbon,
    dateCreatedGmt: '2026-03-10T10:00:00',
    ...extra,
  };
}
const order = (extra: Partial<Cart> = {}) => buildOrder(cart(extra));
const withNif = (value: string, billing: Record<string, string> = lisbon, key = '_billing_nif') => order({ billing, meta: [{ key, value }] });
const issue = { issueDate: '2026-03-11' };
const document = (source: string, input: unknown, settings: MappingSettingsInput = {}, verdict?: { countryCode: string; number: string; valid: boolean }) =>
  run(source, () => documentForOrder(wooOrder(input), settings, issue, verdict));

/** A fixture order changed by `change` (a deep copy). */
function fixture(name: string, change: (o: Json) => void = () => undefined): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(orderFixture(name))) as Json;
  change(copy);
  return copy;
}

/** A deep copy of `input` changed by `change`. */
function fixtureOf(input: unknown, change: (o: Json) => void): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(input)) as Json;
  change(copy);
  return copy;
}

const waybillSettings: MappingSettingsInput = {
  waybill: { loadAddress: { addressDetail: 'Zona Industrial da Maia, Lote 12', city: 'Maia', postalCode: '4470-122', countryCode: 'PT' } },
};
const now = new Date('2025-03-31T23:00:00Z');

beforeAll(() => {
  // Every order fixture the other tests map, as invoices (default settings and today's date) and as waybills.
  for (const name of orderFixtureNames()) {
    run(name, () => documentForOrder(wooOrder(orderFixture(name))));
    run(`${name} (unpaid statuses listed)`, () => documentForOrder(wooOrder(orderFixture(name)), { invoiceUnpaidStatuses: ['pending', 'on-hold'] }));
    run(`${name} waybill`, () => waybillForOrder(wooOrder(orderFixture(name)), waybillSettings, now));
  }
  for (const name of ['wc-docs-order-727-create-response.json', 'wc-ios-order-963-coupon-tax.json', 'wc-pipedream-order-15-wc8.0.2-webhook.json']) {
    run(name, () => documentForOrder(wooOrder(sharedFixture(name)), { euroRates: { USD: '0.92' } }));
  }
  for (const refund of ['pt-026-refund-amount-only', 'pt-026-refund-full', 'pt-026-refund-partial-one-shirt', 'pt-026-refund-shipping-only']) {
    run(refund, () => creditNoteForRefund(wooOrder(orderFixture('pt-026-refund-source')), wooRefund(refundFixture(refund)), 'FT 2025/26', {}, issue));
  }
  // Random carts, as the property tests draw them (rounding notes, unreachable totals).
  fc.sample(cartArbitrary, { numRuns: 150, seed: 19 }).forEach((c, i) => run(`random cart ${i}`, () => documentForOrder(wooOrder(buildOrder(c)), {}, issue)));

  // The order itself
  run('payload', () => parseWooOrder({ id: 5001, status: 7 }));
  run('refund payload', () => parseWooRefund({ id: 9, amount: 10 }, 723));
  document('draft', order({ status: 'checkout-draft' }));
  document('unpaid', order({ status: 'on-hold', datePaidGmt: null }));
  document('unpaid listed', order({ status: 'on-hold', datePaidGmt: null }), { invoiceUnpaidStatuses: ['on-hold'] });
  document('nothing', fixture('pt-001-mainland-23-single', (o) => Object.assign(o, { line_items: [], shipping_lines: [], total: '0.00' })));
  document('no date', fixture('pt-001-mainland-23-single', (o) => Object.assign(o, { date_paid: null, date_paid_gmt: null, date_created: null, date_created_gmt: null })));
  document('negative total', fixture('pt-001-mainland-23-single', (o) => Object.assign(o, { total: '-1.00' })));
  document('lines differ', fixture('pt-001-mainland-23-single', (o) => Object.assign(o, { total: '40.00' })));
  document('external id', order(), { externalIdPrefix: 'x'.repeat(30) });
  run('external id of a refund', () => externalIdForRefund('1'.repeat(12), '9'.repeat(8), { externalIdPrefix: 'x'.repeat(30) }));
  document('coupons', orderFixture('pt-011-percent-coupon-excl'));
  document('simplified, abroad', orderFixture('pt-007-export-us'), { documentType: 'S' });
  document('simplified, over the limit', order({ items: [{ name: 'Sofá', productId: 1, price: '1500.00', quantity: 1, rate: '23' }] }), { documentType: 'S' });
  document('simplified, services', order({ items: [{ name: 'Curso', productId: 7, price: '150.00', quantity: 1, rate: '23' }] }), { documentType: 'S', lineTypes: { default: 'S' } });
  const anonymous = (o: Json) => Object.assign(o.billing, { first_name: '', last_name: '', address_1: '' });
  const sofa = order({ items: [{ name: 'Sofá', productId: 1, price: '1500.00', quantity: 1, rate: '23' }] });
  document('consumer over 1000, no name', fixtureOf(sofa, anonymous));
  document('consumer over 1000, held', fixtureOf(sofa, anonymous), { holdUnidentifiedConsumerInvoices: true });
  document('consumer over 1000, identified', order({ items: [{ name: 'Sofá', productId: 1, price: '1500.00', quantity: 1, rate: '23' }] }));
  document('late', order({ dateCreatedGmt: '2026-01-05T10:00:00' }));
  document('total held', orderFixture('pt-025-single-rate-unreachable-total'), { unreachableTotal: 'hold' });
  document('rounding line', orderFixture('pt-025-single-rate-unreachable-total'), { roundingLine: { enabled: true, exemptionCode: 'M99' } });
  document('donation', order({ fees: [{ name: 'Donativo Cruz Vermelha', amount: '5.00', taxable: false }] }));
  document('gift card', order({ fees: [{ name: 'Cartão oferta GC-1', amount: '-5.00', taxable: false }] }), { giftCardFeeNames: ['cartão oferta'] });
  document('unknown negative fee', order({ fees: [{ name: 'Vale', amount: '-5.00', taxable: false }] }));
  document('negative fee', orderFixture('pt-015-negative-fee'));
  document('negative fees exceed', order({ fees: [{ name: 'Desconto', amount: '-50.00', taxable: true }] }));

  // The buyer
  document('nif invalid', withNif('123456780'));
  document('nif invalid, company', withNif('509442014', { ...lisbon, company: 'Costa & Filhos, Lda.' }));
  document('company without address', withNif('503504564', { ...lisbon, company: 'Costa & Filhos, Lda.', address_1: '' }));
  document('consumer nif given', withNif('999999990'));
  document('company typed the consumer nif', withNif('999999990', { ...lisbon, company: 'Costa Lda' }));
  document('vat kept', withNif('ESB12345678', madrid));
  document('vat country differs', withNif('ESB12345678'));
  document('vat prefixed', withNif('B12345678', madrid));
  document('vat format, consumer', withNif('DE12345', { ...lisbon, country: 'DE', city: 'Berlin', postcode: '10115' }));
  document('vat format, company', withNif('DE12345', { ...lisbon, country: 'DE', city: 'Berlin', postcode: '10115', company: 'Müller GmbH' }));
  document('vies valid', withNif('ESB12345678', madrid), {}, { countryCode: 'ES', number: 'B12345678', valid: true });
  document('vies invalid, company', withNif('ESB12345678', { ...madrid, company: 'Ibérica SL' }), {}, { countryCode: 'ES', number: 'B12345678', valid: false });
  document('vies invalid, consumer', withNif('ESB12345678', madrid), {}, { countryCode: 'ES', number: 'B12345678', valid: false });
  document('m16 without vies', withNif('ESB12345678', madrid));
  document('portuguese nif abroad', withNif('234567899', madrid));
  document('tax id unusable', withNif('X', { ...lisbon, country: 'US', city: 'Boston', postcode: '02110' }));
  document('tax id kept', withNif('A1234567', { ...lisbon, country: 'US', city: 'Boston', postcode: '02110', company: 'Acme Inc' }));
  document('tax id kept, consumer', withNif('A1234567', { ...lisbon, country: 'US', city: 'Boston', postcode: '02110' }));
  document('postcode', order({ billing: { ...lisbon, postcode: '1000' } }));
  document('e-mail', order({ billing: { ...lisbon, email: 'maria@' } }));
  document('long name', orderFixture('pt-027-long-names'));

  // Currency
  document('ecb rate', orderFixture('pt-030-gbp-with-euro-rate-meta'), { referenceEuroRates: { GBP: { euroRate: '1.18', day: '2025-03-14' } } });
  document('static rate', fixture('pt-030-gbp-with-euro-rate-meta', (o) => (o.meta_data = [])), { euroRates: { GBP: '1.17' } });
  document('no rate', fixture('pt-030-gbp-with-euro-rate-meta', (o) => (o.meta_data = [])));

  // Taxes and rates
  document('compound', fixture('pt-001-mainland-23-single', (o) => (o.tax_lines[0].compound = true)));
  document('rate unknown', fixture('pt-001-mainland-23-single', (o) => {
    delete o.tax_lines[0].rate_percent;
    Object.assign(o.line_items[0], { subtotal: '0', total: '0' });
    o.shipping_lines = [];
  }));
  document('rate derived', orderFixture('pt-023-no-rate-percent-incl'));
  document('tax missing', fixture('pt-001-mainland-23-single', (o) => {
    o.line_items[0].taxes[0].total = '0';
    Object.assign(o, { total: '30.11' });
    o.tax_lines[0].tax_total = '0.00';
  }), { exemptions: { regime: 'M10' } });
  document('several rates', fixture('pt-001-mainland-23-single', (o) => {
    Object.assign(o.tax_lines[0], { rate_percent: 13, tax_total: '3.35', shipping_tax_total: '0.00' });
    o.tax_lines.push({ ...o.tax_lines[0], id: 4001, rate_id: 101, label: 'Selo', rate_percent: 10, tax_total: '2.58' });
    o.line_items[0].taxes = [
      { id: 100, total: '3.354', subtotal: '3.354' },
      { id: 101, total: '2.58', subtotal: '2.58' },
    ];
    o.shipping_lines = [];
    Object.assign(o, { total: '31.73' });
  }));
  document('rate not portuguese', order({ items: [{ name: 'Caneca', productId: 1, price: '10.00', quantity: 1, rate: '21' }], billing: madrid }));
  document('rate of another region', order({ items: [{ name: 'Caneca', productId: 1, price: '10.00', quantity: 1, rate: '22' }], billing: funchal }));
  document('service rate of another region', order({ items: [{ name: 'Curso', productId: 7, price: '10.00', quantity: 1, rate: '16' }] }), { lineTypes: { default: 'S' } });
  document('oss', order({ billing: { ...lisbon, country: 'FR', city: 'Paris', postcode: '75001' } }), { oss: { registered: true } });
  document('zero vat, export', orderFixture('pt-007-export-us'));
  // Issue 26: services by their place of supply, the shop's charge against its configured treatment.
  const berlinCompany = { ...lisbon, company: 'Beispiel GmbH', city: 'Berlin', postcode: '10115', country: 'DE' };
  document('m40 without vies', order({ billing: berlinCompany, meta: [{ key: '_billing_vat', value: 'DE123456789' }], items: [{ name: 'Consultoria', productId: 7, price: '100.00', quantity: 1 }] }), { lineTypes: { default: 'S' } });
  document('oss, e-service', order({ items: [{ name: 'Curso online', productId: 7, price: '10.00', quantity: 1, rate: '23' }], billing: { ...lisbon, country: 'FR', city: 'Paris', postcode: '75001' } }), { oss: { registered: true }, lineTypes: { default: 'S' }, services: { electronic: { productIds: [7] } } });
  document('taxed under a configured code', order({ items: [{ name: 'Consultoria', productId: 7, price: '10.00', quantity: 1, rate: '23' }], billing: { ...lisbon, country: 'US', city: 'Boston', postcode: '02108' } }), { lineTypes: { default: 'S' }, exemptions: { byProduct: [{ code: 'M44', productIds: [7] }] } });
  document('service to a company whose region is unknown', order({ items: [{ name: 'Consultoria', productId: 7, price: '10.00', quantity: 1, rate: '23' }], billing: { ...lisbon, company: 'Contas Lda', postcode: '' }, meta: [{ key: '_billing_nif', value: '509442013' }] }), { lineTypes: { default: 'S' } });
  document('m10 past the year\'s limit', order({ items: [{ name: 'Caneca', productId: 1, price: '200.00', quantity: 1 }] }), { exemptions: { regime: 'M10', regimeTurnover: { year: 2026, total: '18600.00' } } });
  document('m10 near the year\'s limit', order({ items: [{ name: 'Caneca', productId: 1, price: '200.00', quantity: 1 }] }), { exemptions: { regime: 'M10', regimeTurnover: { year: 2026, total: '16800.00' } } });
  document('tip left out', order({ fees: [{ name: 'Gorjeta', amount: '2.00', taxable: false }] }));
  document('taxed voucher sold', order({ items: [{ name: 'Cartão-oferta 50 €', productId: 9, price: '50.00', quantity: 1, rate: '23' }] }), { giftCardFeeNames: ['cartão-oferta'] });
  const cardAndMug = order({ items: [{ name: 'Cartão-oferta 50 €', productId: 9, price: '50.00', quantity: 1 }, { name: 'Caneca', productId: 1, price: '10.00', quantity: 1, rate: '23' }] });
  document('voucher sold left out', cardAndMug, { giftCardFeeNames: ['cartão-oferta'] });
  document('voucher sold held', cardAndMug, { giftCardFeeNames: ['cartão-oferta'], giftCardSales: 'hold' });
  document('only vouchers sold', order({ items: [{ name: 'Cartão-oferta 50 €', productId: 9, price: '50.00', quantity: 1 }] }), { giftCardFeeNames: ['cartão-oferta'] });
  document('zero vat, canaries', order({ items: [{ name: 'Caneca', productId: 1, price: '10.00', quantity: 1 }], billing: { ...madrid, postcode: '35001', city: 'Las Palmas' } }));
  document('zero vat, no reason', order({ items: [{ name: 'Curso de primeiros socorros', productId: 7, price: '10.00', quantity: 1 }] }), { lineTypes: { default: 'S' } });
  document('zero vat, regime', order({ items: [{ name: 'Caneca', productId: 1, price: '10.00', quantity: 1 }] }), { exemptions: { regime: 'M10' } });
  document('zero vat, codes differ', order({
    items: [
      { name: 'Livro', productId: 1, price: '10.00', quantity: 1 },
      { name: 'Consultoria', productId: 777, price: '10.00', quantity: 1 },
    ],
    billing: { ...lisbon, country: 'US', city: 'Boston', postcode: '02110', company: 'Acme Inc' },
    meta: [{ key: '_billing_vat', value: 'US123456789' }],
  }), { lineTypes: { serviceProductIds: [777] } });

  // Lines
  document('quantity zero', fixture('pt-001-mainland-23-single', (o) => o.line_items.push({ ...o.line_items[0], id: 1001, name: 'Brinde', quantity: 0, subtotal: '0.00', total: '0.00', taxes: [] })));
  document('quantity with total', fixture('pt-001-mainland-23-single', (o) => (o.line_items[0].quantity = 0)));
  document('negative line', fixture('pt-001-mainland-23-single', (o) => (o.line_items[0].total = '-1.00')));
  document('free sample', order({ items: [...cart().items, { name: 'Amostra de chá', productId: 3, price: '0.00', quantity: 1 }] }));
  document('negative shipping', fixture('pt-001-mainland-23-single', (o) => (o.shipping_lines[0].total = '-1.00')));
  document('free shipping', orderFixture('pt-016-free-shipping'));
  document('shipping rate differs', order({ items: [{ name: 'Livro', productId: 1, price: '10.00', quantity: 1, rate: '6' }], shipping: [{ title: 'CTT', cost: '4.00', rate: '23' }] }));
  document('shipping re-rated', order({ items: [{ name: 'Livro', productId: 1, price: '10.00', quantity: 1, rate: '6' }], shipping: [{ title: 'CTT', cost: '4.00', rate: '23' }] }), {
    shippingRate: { otherRate: 'goods-rate' },
  });
  document('shipping split', orderFixture('pt-002-mixed-23-13-6-incl'), { shippingRate: { mixedGoods: 'proportional' } });
  const bookWithPackaging = order({ items: [{ name: 'Livro', productId: 1, price: '10.00', quantity: 1, rate: '6' }], fees: [{ name: 'Embalagem', amount: '2.00', rate: '23' }] });
  document('fee rate differs', bookWithPackaging);
  document('fee re-rated', bookWithPackaging, { shippingRate: { otherRate: 'goods-rate' } });
  document('fee split', order({ items: [{ name: 'Livro', productId: 1, price: '10.00', quantity: 1, rate: '6' }, { name: 'Caneca', productId: 2, price: '10.00', quantity: 1, rate: '23' }], fees: [{ name: 'Embalagem', amount: '2.00', rate: '23' }] }), { shippingRate: { mixedGoods: 'proportional' } });

  // Refunds and credit notes
  const refundOrder = order({ items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 2, rate: '23' }], shipping: [{ title: 'CTT', cost: '5.00', rate: '23' }] });
  const refund = (spec: Parameters<typeof buildRefund>[1]) => buildRefund(refundOrder, spec);
  const credit = (source: string, current: unknown, invoice = 'FT 1/1', earlier: unknown[] = []) =>
    run(source, () => creditNoteForRefund(wooOrder(refundOrder), wooRefund(current), invoice, {}, { issueDate: '2026-03-30' }, wooRefunds(earlier)));
  credit('no invoice', refund({ id: 1, items: [{ index: 0, quantity: 1 }] }), ' ');
  credit('invoice too long', refund({ id: 1, items: [{ index: 0, quantity: 1 }] }), 'F'.repeat(51));
  credit('zero', { ...refund({ id: 1, items: [{ index: 0, quantity: 1 }] }), amount: '0.00' });
  credit('rate unlisted', fixtureOf(refund({ id: 1, items: [{ index: 0, quantity: 1 }] }), (r) => (r.line_items[0].taxes[0].id = 999)));
  credit('refund without date', { ...refund({ id: 1, items: [{ index: 0, quantity: 1 }] }), date_created: null, date_created_gmt: null });
  credit('amount only', refund({ id: 1, amount: '5.00' }));
  credit('beyond items', { ...refund({ id: 1, items: [{ index: 0, quantity: 1 }] }), amount: '22.30' });
  credit('over the line', refund({ id: 3, items: [{ index: 0, quantity: 1 }] }), 'FT 1/1', [refund({ id: 1, items: [{ index: 0, quantity: 1 }] }), refund({ id: 2, items: [{ index: 0, quantity: 1 }] })]);
  credit('over the rate', refund({ id: 2, amount: '40.00' }), 'FT 1/1', [refund({ id: 1, amount: '5.00' })]);
  credit('late', refund({ id: 1, items: [{ index: 0, quantity: 1 }], dateGmt: '2026-03-11T10:00:00' }));
  run('credit note to the invoice\'s buyer', () =>
    creditNoteForRefund(wooOrder(refundOrder), wooRefund(refund({ id: 1, items: [{ index: 0, quantity: 1 }] })), 'FT 1/1', {}, { issueDate: '2026-03-30', invoiceBuyer: { nif: '509442013', countryCode: 'PT' } }),
  );
  // The neutral sale's contract (law/sale-schema.ts): what no platform may hand the law.
  document('a sale the law cannot read', fixture('pt-001-mainland-23-single', (o) => (o.line_items[0].quantity = -1)));
  const saleOfRefundOrder = saleOfWooOrder(parseWooOrder(wooOrder(refundOrder)), parseMappingSettings({}));
  run('a refund the law cannot read', () =>
    creditNoteForSale(saleOfRefundOrder, { ...saleRefundOfWooRefund(parseWooRefund(wooRefund(refund({ id: 1, items: [{ index: 0, quantity: 1 }] })), 8100), 8100), amount: 'dez euros' }, 'FT 1/1', {}, { issueDate: '2026-03-30' }),
  );

  // Waybills
  run('no load address', () => waybillForOrder(wooOrder(order()), {}, now));
  run('no goods', () => waybillForOrder(wooOrder(order()), { ...waybillSettings, lineTypes: { default: 'S' } }, now));
  const noShipping = fixture('pt-001-mainland-23-single', (o) => (o.shipping.address_1 = ''));
  run('billing address', () => waybillForOrder(wooOrder(noShipping), waybillSettings, now));
  run('no address', () => waybillForOrder(wooOrder(fixtureOf(noShipping, (o) => (o.billing.address_1 = ''))), waybillSettings, now));
  run('waybill postcode', () => waybillForOrder(wooOrder(order({ billing: { ...lisbon, postcode: '1000' } })), waybillSettings, now));
  run('waybill no postcode', () => waybillForOrder(wooOrder(order({ billing: { ...madrid, postcode: '' } })), waybillSettings, now));
});

/** Codes no order makes here, and why. */
const NOT_MADE_HERE: Partial<Record<MappingCode, string>> = {
  'internal-total-mismatch': 'a guard that cannot fire while the balancing is right',
  'document-invalid': 'the mapping clips and checks every field before the schema sees it',
  'credit-note-invalid': 'as document-invalid',
  'waybill-invalid': 'as document-invalid',
  'ecb-rate-missing': "the connector's note (ECB rates)",
  'ecb-rates-unreadable': "the connector's note (ECB rates)",
  'vies-unavailable-format-only': "the connector's note (VIES)",
  'shop-rounds-at-subtotal': "the connector's note (the shop's rounding setting)",
  'shop-rounds-per-line': "the connector's note (the shop's rounding setting)",
  'unknown-message': 'what a stored message of another version reads as',
  'refund-without-lines-held': "an amount a platform records apart from a refund's lines (Shopify's order adjustment): test/platforms/shopify/shopify-law.test.ts",
  'voucher-refund-left-out': "a refund that gives back a gift card sold (a Shopify gift-card line): test/platforms/shopify/gift-card-refund.test.ts",
  'only-vouchers-refunded': 'as voucher-refund-left-out',
};

describe('what the mapping really says', () => {
  it('said something in every scenario, through every path', () => {
    expect(produced.length).toBeGreaterThan(500);
    expect(new Set(produced.map((p) => p.kind))).toEqual(new Set(['error', 'note', 'hold']));
  });

  it('makes every code of the catalogue the mapping owns', () => {
    const made = new Set(produced.map((p) => p.message.code));
    const missing = MAPPING_CODES.filter((code) => !made.has(code) && !(code in NOT_MADE_HERE));
    expect(missing).toEqual([]);
    // And nothing listed as not made here is made after all (the list stays true).
    expect(Object.keys(NOT_MADE_HERE).filter((code) => made.has(code as MappingCode))).toEqual([]);
  });

  it('codes every message, with no English in its Portuguese and its English as the library always wrote it', () => {
    const wrong: string[] = [];
    const seen = new Set<string>();
    for (const { source, kind, message, english } of produced) {
      const key = JSON.stringify(message);
      if (seen.has(key)) continue;
      seen.add(key);
      const pt = mappingText('pt', message);
      const clause = englishClause(message);
      if (!MAPPING_CODES.includes(message.code) || message.code === 'unknown-message') wrong.push(`${source}: ${kind} without a code: ${english}`);
      if (englishWords(pt).length > 0) wrong.push(`${source}: English in "${pt}": ${englishWords(pt).join(', ')}`);
      if (!/[.]$/.test(pt) || !/[.]$/.test(mappingText('en', message))) wrong.push(`${source}: not a sentence: ${pt}`);
      if (!english.endsWith(clause)) wrong.push(`${source}: the English "${english}" is not the code's "${clause}"`);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the English of an error as "Order #id: problem", of a hold as in holdReasons', () => {
    for (const { kind, message, english } of produced) {
      if (kind === 'error') expect(english).toMatch(new RegExp(`^(Order #\\S+: )?${escape(englishClause(message))}$`));
      if (kind === 'hold') expect(english).toMatch(new RegExp(`^(Held: )?${escape(englishClause(message))}$`));
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
