import { englishWords } from '../support/english-words';
import { mappingError, OrderMappingError } from '../../law/mapping-errors';
import {
  MAPPING_CODES,
  type MappingCode,
  type MappingMessage,
  MappingMessageSchema,
  type MappingParams,
  mappingText,
} from '../../law/mapping-messages';
import { moneyPt } from '../../law/mapping-words';

/** The facts of a 0% line's reason, all empty but `why`. */
const why = (kind: string, facts: Record<string, string> = {}) => ({ why: kind, country: '', vat: '', regime: '', placeWhy: '', place: '', placeCode: '', ...facts });

/**
 * Sample params for every code (the type makes the table complete: a new code fails to compile
 * until it has a sample). Values are what the mapping passes: English-free facts, quoted names.
 */
const SAMPLES: { [C in MappingCode]: MappingParams<C> } = {
  'order-payload-invalid': { fields: 'billing.email, line_items[0].total', issues: 'billing.email Invalid input: expected string, received number' },
  'refund-payload-invalid': { refund: '9', fields: 'amount', issues: 'amount must be decimal text' },
  'draft-status': { status: 'checkout-draft' },
  'unpaid-status': { status: 'on-hold' },
  'no-sale-date': {},
  'nothing-to-invoice': {},
  'only-vouchers-sold': { names: '"Cartão-presente 25 €"', count: 1 },
  'voucher-sold-left-out': { names: '"Cartão-presente 25 €"', count: 1, amount: '25.00' },
  'voucher-sold-held': { names: '"Cartão-presente 25 €"', count: 1, amount: '25.00' },
  'voucher-refund-left-out': { refund: '5000000001', names: '"Cartão-presente 25 €"', count: 1, amount: '25.00' },
  'only-vouchers-refunded': { refund: '5000000001', names: '"Cartão-presente 25 €"', count: 1 },
  'refund-without-lines-held': { refund: 9, amount: '1.00' },
  'negative-order-total': { total: '-5.00' },
  'lines-differ-from-total': { lines: '36.04', totalKind: 'order', total: '40.00', difference: '3.96' },
  'internal-total-mismatch': { amount: '39.99', totalKind: 'refund', total: '40.00' },
  'credit-note-invoice-buyer': { nif: '999999990', orderNif: 'ESB12345678' },
  'sale-invalid': { platform: 'shopify', fields: 'lines.0.total', problems: 'lines.0.total must be a decimal amount as text ("12.30")' },
  'refund-invalid': { refund: 7001, fields: 'amount', problems: 'amount must be a decimal amount as text ("12.30")' },
  'document-invalid': { fields: 'Client.NIF', problems: 'Client.NIF Invalid string: must match pattern' },
  'external-id-too-long': { id: 'loja-muito-longa-123456789012345678901234567890-R1', max: 50 },
  'unpaid-document-type': { type: 'I' },
  'simplified-tax-abroad': { code: 'M05', type: 'T' },
  'simplified-over-limit': { total: '1660.50', limit: '1000', why: 'retail', type: 'T' },
  'coupons-as-line-discounts': { codes: 'verao10, clientefiel' },
  'gift-card-redeemed': { names: '"Cartão-oferta 50"' },
  'consumer-invoice-identified': { total: '1383.75' },
  'consumer-invoice-unidentified': { total: '1383.75', missing: 'name-address', from: '1000' },
  'consumer-invoice-unidentified-held': { total: '1383.75', missing: 'address', from: '1000' },
  'invoice-deadline': { due: '2026-03-10', basis: 'sale', day: '2026-03-03' },
  'invoice-late': { subject: 'order', id: 5009, issued: '2026-03-20', due: '2026-03-14', basis: 'advance', day: '2026-03-14' },
  'issued-late': { subject: 'refund', id: 7003, sale: '2026-03-01', issued: '2026-03-20' },
  'total-differs-held': { difference: '0.01' },
  'm16-needs-vies': { vat: 'ESB12345678' },
  'm40-needs-vies': { vat: 'DE123456789' },
  'oss-electronic-service': { line: 'Curso online', country: 'FR', rate: '23' },
  'taxed-under-regime': { line: 'Caneca', rate: '23', regime: 'M10' },
  'regime-limit-crossed': { year: 2026, total: '18600.00', amount: '200.00', after: '18800.00', limit: '18750' },
  'regime-limit-near': { year: 2026, total: '16800.00', amount: '200.00', after: '17000.00', limit: '18750' },
  'taxed-despite-code': { line: 'Consultoria', rate: '23', code: 'M44' },
  'voucher-sale-taxed': { line: 'Cartão-oferta 50 €', rate: '23' },
  'unknown-negative-fee': { names: '"Vale"' },
  'tip-left-out': { names: '"Gorjeta"', count: 1 },
  'address-abroad-kept': { country: 'FR', postcode: '75001' },
  'donation-left-out': { names: '"Donativo Cruz Vermelha"', count: 1, amount: '5.00' },
  'company-nif-invalid': { nif: '509442014', company: 'Costa & Filhos, Lda.' },
  'company-vies-invalid': { vat: 'ESB12345678', company: '' },
  'company-vat-format': { vat: 'DE12345', company: 'Müller GmbH', country: 'DE' },
  'company-typed-consumer-nif': { company: 'Costa Lda', consumerNif: '999999990' },
  'vies-valid': { vat: 'ESB12345678' },
  'vies-invalid-consumer': { vat: 'ESB12345678', consumerNif: '999999990' },
  'vat-format-consumer': { vat: 'DE12345', country: 'DE', consumerNif: '999999990' },
  'no-nif': { consumerNif: '999999990' },
  'consumer-nif-given': { consumerNif: '999999990' },
  'nif-invalid': { nif: '123456780', consumerNif: '999999990' },
  'vat-number-kept': { vat: 'ESB12345678', country: 'ES' },
  'vat-country-differs': { vatCountry: 'ES', country: 'PT' },
  'portuguese-nif-abroad': { nif: '234567899', country: 'FR' },
  'vat-number-prefixed': { vat: 'B12345678', read: 'ESB12345678', country: 'ES' },
  'tax-id-unusable': { taxId: 'X', consumerNif: '999999990' },
  'tax-id-kept': { taxId: '123456789', country: 'US' },
  'tax-id-kept-consumer': { taxId: '123456789', country: 'US' },
  'postcode-not-portuguese': { postcode: '1000' },
  'email-unusable': { email: 'ana@' },
  'client-name-shortened': { name: 'Associação Cultural e Recreativa dos Amigos da Música de Vila Nova de Gaia' },
  'euro-rate-ecb': { currency: 'GBP', rate: '1.1834', day: '2026-03-09' },
  'euro-rate-meta': { currency: 'GBP', rate: '1.18', key: '_wcpay_multi_currency_order_exchange_rate' },
  'euro-rate-static': { currency: 'GBP', rate: '1.17' },
  'euro-rate-unknown': { currency: 'GBP', keys: '_order_rate / _exchange_rate' },
  'compound-tax': { tax: 'IVA' },
  'tax-percent-unknown': { tax: '', rateId: 3 },
  'tax-percent-derived': { tax: 'IVA', rateId: 1, percent: '7.5' },
  'line-tax-rate-unlisted': { line: 'Caneca', rateId: 9 },
  'line-tax-missing': { line: 'Caneca', tax: 'IVA 23%' },
  'line-several-rates': { line: 'Caneca', percent: '29' },
  'rate-not-portuguese': { line: 'Caneca', rate: '21', day: '2026-03-03', mainland: '23/13/6', madeira: '22/12/4', azores: '', where: 'ES' },
  'rate-wrong-region': {
    line: 'Caneca',
    rate: '22',
    regions: 'madeira',
    nature: 'P',
    region: 'mainland',
    source: 'assumed',
    allowed: 'mainland',
    day: '2026-03-03',
    rates: '23/13/6',
  },
  'oss-distance-sale': { country: 'FR', rate: '23' },
  'service-buyer-region-unknown': { line: 'Consultoria', rate: '23', postcode: '' },
  'zero-vat-reason': { code: 'M05', ...why('export', { country: 'ES', placeWhy: 'outside', place: 'canary-islands', placeCode: 'ES' }) },
  'zero-vat-no-reason': { names: '"Curso de primeiros socorros"', count: 1, ...why('service-no-code') },
  'zero-vat-codes-differ': {
    count: 2,
    line_0: 'Livro',
    code_0: 'M05',
    ...Object.fromEntries(Object.entries(why('export', { country: 'US' })).map(([k, v]) => [`${k}_0`, v])),
    line_1: 'Consultoria',
    code_1: 'M40',
    ...Object.fromEntries(Object.entries(why('service-reverse-charge', { country: 'US' })).map(([k, v]) => [`${k}_1`, v])),
  },
  'rounding-line-exemption': { code: 'M99' },
  'line-quantity-zero': { line: 'Caneca', quantity: 0 },
  'line-quantity-with-total': { line: 'Caneca', quantity: 0, total: '5.00' },
  'line-negative-total': { line: 'Caneca', total: '-5.00' },
  'free-sample': { line: 'Amostra de chá' },
  'shipping-negative': { shipping: 'CTT' },
  'free-shipping': { shipping: 'Envio grátis' },
  'negative-fees-exceed': { fees: '50.00', products: '40.00' },
  'negative-fee-spread': { names: '"Desconto cliente fiel"', amount: '12.06', split: 1 },
  'shipping-rate-differs': { shipping: 'CTT', rate: '23', goodsRate: '6' },
  'shipping-re-rated': { shipping: 'CTT', from: '23', to: '6', gross: '4.92' },
  'shipping-split': { shipping: 'CTT' },
  'fee-rate-differs': { fee: 'Embalagem', rate: '23', goodsRate: '6' },
  'fee-re-rated': { fee: 'Embalagem', from: '23', to: '6', gross: '2.46' },
  'fee-split': { fee: 'Embalagem' },
  'business-buyer-address-missing': { buyer: 'Livraria Lda', nif: '503504564', country: 'PT' },
  'rounding-net-moved': { line: 'T-shirt', rate: '23', net: '24.36', before: '24.37', totalKind: 'order', total: '38.45' },
  'total-unreachable': { totalKind: 'order-less-donations', total: '1660.50', difference: '-0.01' },
  'rounding-line-added': { line: 'Arredondamento', amount: '0.01', totalKind: 'refund', total: '12.30' },
  'refund-needs-invoice': { refund: 7003 },
  'invoice-number-too-long': { invoice: 'FT 2026/1' },
  'refund-zero': { refund: 7003 },
  'refund-no-date': { refund: 7003 },
  'refund-without-items': { refund: 7003 },
  'refund-beyond-items': { refund: 7003, amount: '10.00' },
  'credit-over-line': { refund: 7003, amount: '20.00', invoice: 'FT 2026/1', invoiced: '16.26', earlier: '0.00', line: 'T-shirt' },
  'credit-over-rate': { refund: 7003, amount: '1660.50', invoice: 'FT 2026/1', invoiced: '1500.00', earlier: '100.00', rate: '23' },
  'credit-note-invalid': { refund: 7003, fields: 'Document.DocumentReference', problems: 'Document.DocumentReference Too big' },
  'waybill-no-load-address': {},
  'waybill-no-goods': {},
  'waybill-billing-address': {},
  'waybill-no-address': {},
  'waybill-postcode-not-portuguese': { postcode: '1000' },
  'waybill-no-postcode': {},
  'waybill-invalid': { fields: 'Waybill.LoadDateTime', problems: 'Waybill.LoadDateTime Invalid' },
  'ecb-rate-missing': { currency: 'GBP' },
  'ecb-rates-unreadable': { currency: 'GBP', error: 'fetch failed: connection refused' },
  'vies-unavailable-format-only': { vat: 'ESB12345678', why: 'MS_UNAVAILABLE' },
  'shop-rounds-at-subtotal': { difference: '0.01' },
  'shop-rounds-per-line': {},
  'unknown-message': { code: 'some-future-code' },
};

const message = <C extends MappingCode>(code: C, params: MappingParams<C>): MappingMessage => ({ code, params }) as MappingMessage;
const SAMPLE_MESSAGES: MappingMessage[] = MAPPING_CODES.map(<C extends MappingCode>(code: C) => message(code, SAMPLES[code]));

/** The variants a code words differently (reason kinds, places, regions, subjects), beyond the one sample each. */
const VARIANTS: MappingMessage[] = [
  ...['export', 'intra-eu', 'goods-pt-regime', 'goods-eu-regime', 'goods-pt-taxed', 'goods-eu-taxed', 'goods-pt-code-blocked', 'goods-pt-reverse-charge-consumer', 'goods-pt-domestic', 'goods-pt-reverse-charge', 'service-reverse-charge', 'service-m44-in-pt', 'service-configured', 'service-regime', 'service-no-code'].map(
    (kind) => message('zero-vat-reason', { code: 'M10', ...why(kind, { country: 'FR', vat: 'FR12345678901', regime: 'M10' }) }),
  ),
  ...Object.entries({
    aland: '',
    'northern-ireland': '',
    outside: 'mount-athos',
    'part-of': 'FR',
  }).map(([placeWhy, place]) => message('zero-vat-reason', { code: 'M05', ...why('export', { country: 'GR', placeWhy, place, placeCode: 'MC' }) })),
  ...['canary-islands', 'ceuta', 'melilla', 'aland', 'busingen', 'heligoland', 'livigno', 'campione', 'french-overseas'].map((place) =>
    message('zero-vat-reason', { code: 'M05', ...why('export', { country: 'ES', placeWhy: 'outside', place, placeCode: 'ES' }) }),
  ),
  message('zero-vat-no-reason', { names: '"A", "B"', count: 2, ...why('goods-eu-taxed', { country: 'FR' }) }),
  message('rate-wrong-region', { line: 'Consultoria', rate: '16', regions: 'azores', nature: 'S', region: 'mainland', source: 'setting', allowed: 'mainland/madeira', day: '2026-03-03', rates: '23/13/6' }),
  message('rate-wrong-region', { line: 'Consultoria', rate: '16', regions: 'azores/madeira', nature: 'S', region: 'madeira', source: 'store-address', allowed: 'madeira', day: '2026-03-03', rates: '' }),
  ...['services', 'business', 'not-retailer'].map((kind) => message('simplified-over-limit', { total: '150.00', limit: '100', why: kind, type: 'I' })),
  message('invoice-deadline', { due: '2026-03-03', basis: 'advance', day: '2026-03-03' }),
  message('issued-late', { subject: 'order', id: 5009, sale: '2026-03-01', issued: '2026-03-20' }),
  message('consumer-invoice-unidentified', { total: '1383.75', missing: 'name', from: '1000' }),
  message('donation-left-out', { names: '"A", "B"', count: 2, amount: '7.50', currency: 'USD' }),
  message('company-vies-invalid', { vat: 'ESB12345678', company: 'Ibérica SL' }),
  message('company-typed-consumer-nif', { company: '', consumerNif: '999999990' }),
  message('company-nif-invalid', { nif: '509442014', company: '' }),
  message('euro-rate-unknown', { currency: 'GBP', keys: '' }),
  message('negative-fee-spread', { names: '"Desconto"', amount: '12.06', split: 0 }),
  message('credit-over-line', { refund: 7003, amount: '20.00', invoice: 'FT 2026/1', invoiced: '16.26', earlier: '4.00', line: 'T-shirt', currency: 'GBP' }),
  message('tax-percent-derived', { tax: '', rateId: 4, percent: '23' }),
  message('order-payload-invalid', { fields: '(payload)', issues: '(payload) Invalid input: expected object, received string' }),
];

const ALL = [...SAMPLE_MESSAGES, ...VARIANTS];

describe('the catalogue: every code worded in English and Portuguese', () => {
  it('has codes, each in kebab-case', () => {
    expect(MAPPING_CODES.length).toBeGreaterThan(90);
    for (const code of MAPPING_CODES) expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each(ALL.map((m) => [m.code, m] as const))('%s: a sentence in each language, no English in the Portuguese', (_code, m) => {
    const pt = mappingText('pt', m);
    const en = mappingText('en', m);
    for (const text of [pt, en]) {
      expect(text).toMatch(/^["A-ZÀ-Ý0-9]/);
      expect(text).toMatch(/[.]$/);
      expect(text).not.toMatch(/undefined|NaN|\[object/);
      // Two reasons are never glued: a full stop is followed by a space and a capital, or ends the text.
      expect(text).not.toMatch(/\.\.$/);
    }
    expect(englishWords(pt)).toEqual([]);
    expect(pt).not.toEqual(en);
    // The detector sees the English one: were it shown in place of the Portuguese, this test would fail.
    expect(englishWords(en).length).toBeGreaterThan(0);
  });

  it('writes amounts, percentages and dates the Portuguese way', () => {
    expect(moneyPt('1660.5')).toBe('1 660,50 €');
    expect(moneyPt('-0.01')).toBe('-0,01 €');
    expect(moneyPt('1234567.89', 'USD')).toBe('1 234 567,89 USD');
    const limit = mappingText('pt', message('simplified-over-limit', SAMPLES['simplified-over-limit']));
    expect(limit).toContain('1 660,50 €');
    expect(limit).toContain('limite de 1 000,00 €');
    expect(mappingText('pt', message('shipping-rate-differs', SAMPLES['shipping-rate-differs']))).toContain('IVA a 23 %, mas os bens que transportam estão a 6 %');
    expect(mappingText('pt', message('tax-percent-derived', SAMPLES['tax-percent-derived']))).toContain('7,5 %');
    expect(mappingText('pt', message('invoice-deadline', SAMPLES['invoice-deadline']))).toBe(
      'Prazo desta fatura: 10/03/2026 (venda em 03/03/2026: cinco dias úteis (art. 36.º, n.º 1, alínea a), do CIVA)).',
    );
    // Another currency than the euro is named by its code.
    expect(mappingText('pt', message('negative-order-total', { total: '-5.00', currency: 'GBP' }))).toBe('O total da encomenda (-5,00 GBP) é negativo.');
  });

  it('keeps setting names, codes and VAT numbers as they are', () => {
    expect(mappingText('pt', message('unpaid-status', SAMPLES['unpaid-status']))).toContain('invoiceUnpaidStatuses');
    expect(mappingText('pt', message('m16-needs-vies', SAMPLES['m16-needs-vies']))).toContain('ESB12345678');
    expect(mappingText('pt', message('zero-vat-reason', SAMPLES['zero-vat-reason']))).toMatch(/\(M05\)\.$/);
  });

  it('the issue\'s example reads as Portuguese', () => {
    expect(mappingText('pt', message('company-nif-invalid', SAMPLES['company-nif-invalid']))).toBe(
      'O NIF "509442014" indicado para a empresa "Costa & Filhos, Lda." não é válido (art. 36.º, n.º 5, alínea a), do CIVA: a fatura de uma empresa tem de levar o NIF dela); ' +
        'corrija-o na encomenda (no campo meta do NIF) e guarde a encomenda.',
    );
  });
});

describe('MappingMessageSchema: a message stored as JSON reads back', () => {
  it.each(ALL.map((m) => [m.code, m] as const))('%s round-trips', (_code, m) => {
    const back = MappingMessageSchema.parse(JSON.parse(JSON.stringify(m)));
    expect(back).toEqual(m);
    expect(mappingText('pt', back)).toBe(mappingText('pt', m));
  });

  it.each([
    ['a code of another version', { code: 'invoice-from-the-future', params: { x: 1 } }, 'invoice-from-the-future'],
    ['a known code with params of another version', { code: 'nif-invalid', params: { number: '123' } }, 'nif-invalid'],
    ['a known code without params', { code: 'nif-invalid' }, 'nif-invalid'],
    ['params that are not text or numbers', { code: 'no-nif', params: { consumerNif: { nested: true } } }, '?'],
    ['not a message at all', 'Order #5: something', '?'],
    ['null', null, '?'],
  ])('%s reads as unknown-message, worded in the reader\'s language', (_what, stored, named) => {
    const back = MappingMessageSchema.parse(stored);
    expect(back).toEqual({ code: 'unknown-message', params: { code: named } });
    const pt = mappingText('pt', back);
    expect(englishWords(pt)).toEqual([]);
    expect(pt).toContain(`"${named}"`);
  });

  it('a message without params (no facts) stays itself', () => {
    expect(MappingMessageSchema.parse({ code: 'no-sale-date' })).toEqual({ code: 'no-sale-date', params: {} });
  });
});

describe('OrderMappingError: coded, English message as before', () => {
  it('keeps "Order #id: <problem>" as its message and words the problem in each language', () => {
    const error = mappingError(5001, 'nif-invalid', { nif: '123', consumerNif: '999999990' });
    expect(error).toBeInstanceOf(OrderMappingError);
    expect(error.message).toBe('Order #5001: NIF 123 invalid: consumer NIF 999999990 used');
    expect(error.problem).toBe('NIF 123 invalid: consumer NIF 999999990 used');
    expect([error.code, error.params]).toEqual(['nif-invalid', { nif: '123', consumerNif: '999999990' }]);
    expect(error.text('en')).toBe('NIF 123 invalid: consumer NIF 999999990 used.');
    expect(error.text('pt')).toBe('NIF "123" inválido: usado o NIF de consumidor final 999999990.');
  });

  it('without an order id the message is the problem alone', () => {
    expect(mappingError(undefined, 'no-sale-date', {}).message).toBe('the order has no date_paid, date_completed or date_created');
  });
});
