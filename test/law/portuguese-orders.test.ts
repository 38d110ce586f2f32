import { add, formatDecimal, parseDecimal, round, subtract } from '../../client/money';
import { CreateDocumentRequestSchema } from '../../client/schemas/document';
import { computeTotals } from '../../client/totals';
import { MappingSettingsInput } from '../../law/mapping-settings';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { orderFixture, orderFixtureNames } from './support/fixtures';
import { wooOrder } from '../support/payloads';

interface Expectation {
  settings?: MappingSettingsInput;
  type?: string;
  exemption?: string;
  nif?: string;
  country?: string;
  hold?: boolean;
  rates?: string[];
  notes?: RegExp[];
}

/** What each of the Portuguese orders must become (beyond the exact total, checked for all). */
const EXPECTED: Record<string, Expectation> = {
  'pt-001-mainland-23-single': { type: 'T', nif: '999999990', country: 'PT', rates: ['23'] },
  'pt-002-mixed-23-13-6-incl': { rates: ['6', '13', '23'] },
  // CIVA art. 6(1): the regional rates are those of a shop dispatching from that region.
  'pt-003-madeira-22-12-4': { settings: { dispatchRegion: 'madeira' }, rates: ['22', '12', '4'] },
  'pt-004-azores-16-9-4': { settings: { dispatchRegion: 'azores' }, rates: ['16', '9', '4'] },
  // RITI art. 14(1)(a): M16 waits for VIES to confirm the number (no verdict passed here: held).
  'pt-005-eu-b2b-es-vat': { exemption: 'M16', nif: 'B12345678', country: 'ES', rates: ['0'], hold: true, notes: [/VAT number ESB12345678 kept with its country ES/, /M16 \(intra-EU supply, RITI art\. 14\) needs the buyer's VAT number ESB12345678 valid in VIES/] },
  'pt-006-eu-b2b-de-vat-shipping': { exemption: 'M16', nif: '123456789', country: 'DE', rates: ['0'], settings: { viesRequiredForM16: false } },
  'pt-007-export-us': { exemption: 'M05', country: 'US', rates: ['0'], notes: [/export of goods to US \(CIVA art\. 14\) \(M05\)/] },
  'pt-008-export-ch': { exemption: 'M05', country: 'CH' },
  'pt-009-prices-incl-tax': { notes: [/Rounding: net of "T-shirt/] },
  'pt-010-many-lines-excl': { rates: ['23', '6'] },
  'pt-011-percent-coupon-excl': { notes: [/Coupons primavera10/] },
  'pt-012-percent-coupon-incl-mixed': { notes: [/Coupons natal15/] },
  'pt-013-fixed-cart-coupon': { notes: [/Coupons bemvindo5/] },
  'pt-014-positive-fee': { notes: [/Free shipping "CTT Expresso" left off/] },
  'pt-015-negative-fee': { notes: [/Negative fee "Desconto cliente fiel" of 12.06 spread as a discount/] },
  'pt-016-free-shipping': { notes: [/Free shipping "Envio gratuito" left off/] },
  'pt-017-many-quantities': { nif: '508112346' },
  'pt-018-consumer-over-1000-no-nif': { hold: false, nif: '999999990', notes: [/EUR 1199.00 to a consumer: issued with the consumer NIF and the buyer's name and address/] },
  'pt-019-consumer-over-1000-with-nif': { hold: false, nif: '234567899' },
  'pt-020-invalid-nif': { nif: '999999990', notes: [/NIF 123456780 invalid: consumer NIF 999999990 used/] },
  'pt-021-simplified-small': { settings: { documentType: 'S' }, type: 'S' },
  'pt-022-unpaid-bank-transfer': { settings: { invoiceUnpaidStatuses: ['on-hold'] }, type: 'I', nif: '512345678', notes: [/not paid yet/] },
  'pt-023-no-rate-percent-incl': { rates: ['23', '6'], notes: [/no rate_percent in the order: 23% derived/, /6% derived/] },
  'pt-024-per-rate-rounding': {},
  'pt-025-single-rate-unreachable-total': {
    notes: [/the document total differs from the order total 12.33 by -?0.01: .*Round tax at subtotal level/],
  },
  'pt-026-refund-source': { nif: '298765438' },
  'pt-027-long-names': {},
  'pt-028-variation-attributes': {},
  'pt-029-virtual-only': {},
  'pt-030-gbp-with-euro-rate-meta': { exemption: 'M05', country: 'GB', notes: [/EuroRate 1.1820 from order meta _euro_rate/] },
};

const names = orderFixtureNames();

describe('every Portuguese order maps to a document whose total is the order total to the cent', () => {
  it('has at least 25 orders and an expectation for each', () => {
    expect(names.length).toBeGreaterThanOrEqual(25);
    expect(Object.keys(EXPECTED).sort()).toEqual(names);
  });

  it.each(names)('%s', (name) => {
    const order = orderFixture(name);
    const { request, totalDifference } = documentForOrder(wooOrder(order), EXPECTED[name].settings);
    expect(() => CreateDocumentRequestSchema.parse(request)).not.toThrow();
    const totals = computeTotals(request.Document.Lines, { currency: request.Document.Currency, euroRate: request.Document.EuroRate });
    // Only the order built to be unreachable under per-rate rounding differs, by the cent it reports.
    expect(totalDifference).toEqual(name === 'pt-025-single-rate-unreachable-total' ? expect.stringMatching(/^-?0\.01$/) : undefined);
    expect(formatDecimal(totals.amount, 2)).toBe(formatDecimal(subtract(parseDecimal(order.total as string), parseDecimal(totalDifference ?? '0')), 2));
    for (const line of request.Document.Lines) {
      expect(parseDecimal(line.Quantity).units > 0n).toBe(true);
      expect(parseDecimal(line.UnitPrice).units >= 0n).toBe(true);
    }
  });
});

describe('decisions per order (type, NIF, exemption, hold, notes)', () => {
  it.each(names)('%s', (name) => {
    const expected = EXPECTED[name];
    const { request, notes, hold } = documentForOrder(wooOrder(orderFixture(name)), expected.settings);
    if (expected.type) expect(request.Document.Type).toBe(expected.type);
    expect(request.Document.TaxExemptionReasonCode).toBe(expected.exemption);
    if (expected.nif) expect(request.Client.NIF).toBe(expected.nif);
    if (expected.country) expect(request.Client.CountryCode).toBe(expected.country);
    expect(hold).toBe(expected.hold ?? false);
    if (expected.rates) {
      const rates = new Set(request.Document.Lines.map((l) => String(l.TaxValue)));
      expect([...rates].sort()).toEqual([...expected.rates].sort());
    }
    const text = notes.map((n) => `${n.level}: ${n.message}`).join('\n');
    for (const note of expected.notes ?? []) expect(text).toMatch(note);
  });
});

describe('lines: codes, descriptions, types, units', () => {
  it('uses the SKU as code, the product name as description, P for goods and S for shipping', () => {
    const { request } = documentForOrder(wooOrder(orderFixture('pt-001-mainland-23-single')));
    expect(request.Document.Lines).toEqual([
      { Code: 'CAN-001', Description: 'Caneca de cerâmica', UnitPrice: '12.9', Quantity: '2', Unit: 'UN', Type: 'P', TaxValue: '23', ProductDiscount: '0' },
      { Code: 'PORTES', Description: 'CTT Expresso', UnitPrice: '3.5', Quantity: '1', Unit: 'UN', Type: 'S', TaxValue: '23', ProductDiscount: '0' },
    ]);
  });

  it('puts variation attributes not already in the name into the description; code = variation id without SKU', () => {
    const { request } = documentForOrder(wooOrder(orderFixture('pt-028-variation-attributes')));
    expect(request.Document.Lines[0]).toMatchObject({ Code: '2811', Description: 'Camisola de lã - Azul, M (Gravação: J.P.)' });
  });

  it('shows a tax-inclusive price as its unrounded net unit price (or cents by setting)', () => {
    const unrounded = documentForOrder(wooOrder(orderFixture('pt-019-consumer-over-1000-with-nif')));
    expect(unrounded.request.Document.Lines[0]).toMatchObject({ UnitPrice: '1211.3821138211', ProductDiscount: '0', TaxValue: '23' });
    const cents = documentForOrder(wooOrder(orderFixture('pt-019-consumer-over-1000-with-nif')), { taxInclusiveUnitPrice: 'cents' });
    expect(cents.request.Document.Lines[0]).toMatchObject({ UnitPrice: '1211.38' });
  });

  it('shows a percent coupon as the line discount WooCommerce applied (10% -> 10)', () => {
    const { request } = documentForOrder(wooOrder(orderFixture('pt-011-percent-coupon-excl')));
    expect(request.Document.Lines.slice(0, 2).map((l) => l.ProductDiscount)).toEqual(['10', '10']);
  });

  it('spreads a fixed-cart coupon as each line\'s share, as WooCommerce did', () => {
    const order = orderFixture('pt-013-fixed-cart-coupon') as { line_items: { subtotal: string; total: string }[] };
    const { request } = documentForOrder(wooOrder(order));
    order.line_items.forEach((item, i) => {
      const line = request.Document.Lines[i];
      const net = round(parseDecimal(formatDecimal(computeTotals([line]).lineNets[0])), 2);
      expect(formatDecimal(net, 2)).toBe(item.total);
      expect(line.ProductDiscount).not.toBe('0');
    });
  });

  it('never writes a negative line: a negative fee becomes discount on the products', () => {
    const { request } = documentForOrder(wooOrder(orderFixture('pt-015-negative-fee')));
    expect(request.Document.Lines.map((l) => l.Code)).toEqual(['CAD-ESC', 'AGE-25', 'PORTES']);
    expect(request.Document.Lines.every((l) => !String(l.UnitPrice).startsWith('-'))).toBe(true);
    expect(Number(request.Document.Lines[0].ProductDiscount)).toBeGreaterThan(0);
  });

  it('adds a positive fee as a service line', () => {
    const { request } = documentForOrder(wooOrder(orderFixture('pt-014-positive-fee')));
    expect(request.Document.Lines[1]).toMatchObject({ Code: 'TAXA', Description: 'Embrulho para oferta', Type: 'S', TaxValue: '23' });
  });

  it('keeps free shipping off unless asked for', () => {
    const off = documentForOrder(wooOrder(orderFixture('pt-016-free-shipping')));
    expect(off.request.Document.Lines).toHaveLength(1);
  });

  it.each([
    ['by product id', { lineTypes: { serviceProductIds: [291] } }, ['S', 'P']],
    ['by SKU prefix', { lineTypes: { serviceSkuPrefixes: ['EBOOK'] } }, ['P', 'S']],
    ['all virtual (needs_processing false) by default', undefined, ['S', 'S']],
  ])('types lines as services %s', (_name, settings, types) => {
    const order = orderFixture('pt-029-virtual-only');
    if (settings) order.needs_processing = true;
    const { request } = documentForOrder(wooOrder(order), settings as MappingSettingsInput | undefined);
    expect(request.Document.Lines.map((l) => l.Type)).toEqual(types);
  });
});

describe('client: billing fields, clipped to the spec limits without breaking words', () => {
  it('clips long names, addresses and descriptions at word boundaries and fixes the post code', () => {
    const { request, notes } = documentForOrder(wooOrder(orderFixture('pt-027-long-names')));
    const client = request.Client;
    expect(client.Name).toBe('Maria da Conceição Albuquerque de Vasconcelos e Sá Fonseca Pinto Magalhães');
    expect(client.Name.length).toBeLessThanOrEqual(75);
    expect(client.Address!.length).toBeLessThanOrEqual(200);
    expect(client.City).toBe('Vila Nova de Famalicão');
    expect(client.PostCode).toBe('4760-123');
    const line = request.Document.Lines[0];
    expect(line.Description.length).toBeLessThanOrEqual(200);
    expect(line.Description.endsWith('cozinha profissional e')).toBe(true);
    expect(line.Description).toContain('anti-escaldão & oferta');
    expect(line.Code.length).toBeLessThanOrEqual(60);
    expect(notes.map((n) => n.message).join('\n')).toMatch(/Client name shortened to 75 characters/);
  });

  it('uses the billing company as LegalName', () => {
    const { request } = documentForOrder(wooOrder(orderFixture('pt-022-unpaid-bank-transfer')), { invoiceUnpaidStatuses: ['on-hold'] });
    expect(request.Client).toMatchObject({ Name: 'Maria Silva', LegalName: 'Livraria Aurora Lda', NIF: '512345678', CountryCode: 'PT', PostCode: '1100-053' });
  });

  it('sends the document to the customer only by setting', () => {
    expect(documentForOrder(wooOrder(orderFixture('pt-001-mainland-23-single'))).request.SendTo).toBeUndefined();
    expect(documentForOrder(wooOrder(orderFixture('pt-001-mainland-23-single')), { sendToCustomer: true }).request.SendTo).toBe('maria.silva@example.pt');
  });
});

describe('document fields: dates, ExternalId, series, currency', () => {
  it('CIVA art. 36(1)(a): the document is dated the day it is issued (given), DueDate after it; the sale day in the shop zone goes in the description', () => {
    const order = orderFixture('pt-001-mainland-23-single');
    order.date_paid_gmt = '2025-06-30T23:30:00'; // 00:30 on 1 July in Lisbon (summer time)
    const lisbon = documentForOrder(wooOrder(order), undefined, { issueDate: '2025-07-02' }).request.Document;
    expect([lisbon.Date, lisbon.DueDate, lisbon.Description]).toEqual(['2025-07-02', '2025-08-01', 'Encomenda #5001 de 2025-07-01']);
    const newYork = documentForOrder(wooOrder(order), { shopTimeZone: 'America/New_York', dueDays: 1 }, { issueDate: '2025-07-02' }).request.Document;
    expect([newYork.Date, newYork.DueDate, newYork.Description]).toEqual(['2025-07-02', '2025-07-03', 'Encomenda #5001 de 2025-06-30']);
  });

  it('CIVA art. 36(1)(a): without an issue date the document is dated today in the shop time zone, never with the older order date', () => {
    const order = { ...orderFixture('pt-001-mainland-23-single'), date_paid_gmt: '2025-01-02T10:00:00' };
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
    expect(documentForOrder(wooOrder(order)).request.Document.Date).toBe(today);
  });

  it.each([
    ['paid', { date_paid_gmt: '2025-01-02T10:00:00', date_completed_gmt: '2025-01-05T10:00:00' }, '2025-01-02'],
    ['completed, not paid', { date_paid: null, date_paid_gmt: null, date_completed_gmt: '2025-01-05T10:00:00' }, '2025-01-05'],
    ['only created', { date_paid: null, date_paid_gmt: null, date_created_gmt: '2025-01-07T10:00:00' }, '2025-01-07'],
    ['no *_gmt fields (old payload): the local day', { date_paid: '2025-01-09T23:59:00', date_paid_gmt: undefined }, '2025-01-09'],
  ])('names the sale day from %s in the description', (_name, dates, expected) => {
    const order = { ...orderFixture('pt-001-mainland-23-single'), ...dates };
    expect(documentForOrder(wooOrder(order), undefined, { issueDate: '2025-01-09' }).request.Document.Description).toBe(`Encomenda #5001 de ${expected}`);
  });

  it.each([
    // Paid on delivery (completed the same day): five business days from the sale.
    ['CIVA art. 36(1)(a): 5 business days after a paid delivery (Friday to Friday): no warning', '2025-01-03', '2025-01-03', '2025-01-10', false, '2025-01-10', '36(1)(a)'],
    ['CIVA art. 36(1)(a): 6 business days after a paid delivery: a warning on the order', '2025-01-03', '2025-01-03', '2025-01-13', true, '2025-01-10', '36(1)(a)'],
    ['CIVA art. 36(1)(a): a year later (backfill of an old order): a warning, dated the issue day', '2024-01-03', '2024-01-03', '2025-01-13', true, '2024-01-10', '36(1)(a)'],
    // Paid before it was delivered: an advance payment, due the day it is received.
    ['CIVA art. 36(1)(c): paid, not yet completed, issued the same day: no warning', '2025-01-03', null, '2025-01-03', false, '2025-01-03', '36(1)(c)'],
    ['CIVA art. 36(1)(c): paid, not yet completed, issued the next day: late from the first day', '2025-01-03', null, '2025-01-04', true, '2025-01-03', '36(1)(c)'],
    ['CIVA art. 36(1)(c): paid before it was completed days later: due on the payment day', '2025-01-03', '2025-01-08', '2025-01-06', true, '2025-01-03', '36(1)(c)'],
  ])('%s', (_name, paid, completed, issued, warned, due, article) => {
    const order = { ...orderFixture('pt-001-mainland-23-single'), date_paid_gmt: `${paid}T10:00:00`, date_completed_gmt: completed ? `${completed}T10:00:00` : null, date_completed: null };
    const { request, notes } = documentForOrder(wooOrder(order), undefined, { issueDate: issued });
    expect(request.Document.Date).toBe(issued);
    const late = notes.find((n) => n.level === 'warning' && n.message.includes('after its deadline'));
    expect(late !== undefined).toBe(warned);
    if (late) {
      expect(late.message).toContain(`issued on ${issued}, after its deadline ${due} (`);
      expect(late.message).toContain(`(CIVA art. ${article})`);
    }
  });

  it('every hold tells the deadline (CIVA art. 36(1)(c): a paid order waiting for a person)', () => {
    const order = { ...orderFixture('pt-001-mainland-23-single'), date_paid_gmt: '2025-01-03T10:00:00', date_completed_gmt: null };
    const { hold, notes } = documentForOrder(wooOrder(order), { unreachableTotal: 'hold', dispatchRegion: 'azores' }, { issueDate: '2025-01-03' });
    expect(hold).toBe(true);
    expect(notes.map((n) => n.message)).toContain("Deadline for this invoice: 2025-01-03 (paid on 2025-01-03 before delivery: an advance payment's invoice is due the day it is received (CIVA art. 36(1)(c)))");
  });

  it('builds ExternalId from the prefix and the order id, at most 50 characters', () => {
    expect(documentForOrder(wooOrder(orderFixture('pt-001-mainland-23-single'))).request.Document.ExternalId).toBe('wc-5001');
    expect(documentForOrder(wooOrder(orderFixture('pt-001-mainland-23-single')), { externalIdPrefix: 'loja-norte:' }).request.Document.ExternalId).toBe(
      'loja-norte:5001',
    );
  });

  it('uses the configured series for the type', () => {
    const doc = documentForOrder(wooOrder(orderFixture('pt-001-mainland-23-single')), { series: { T: 'FR2025' } }).request.Document;
    expect(doc.Serie).toBe('FR2025');
  });

  it('sets Currency and EuroRate for a non-euro order, from settings when meta has none', () => {
    const order = orderFixture('pt-030-gbp-with-euro-rate-meta');
    order.meta_data = [];
    const doc = documentForOrder(wooOrder(order), { euroRates: { GBP: '1.18' } }).request.Document;
    expect([doc.Currency, doc.EuroRate]).toEqual(['GBP', '1.18']);
    expect(() => documentForOrder(wooOrder(order))).toThrow(/Order #5030: the order is in GBP and no EuroRate is known: set euroRates.GBP/);
  });
});

describe('document type rules and the simplified-invoice limits', () => {
  const withTotal = (name: string) => orderFixture(name);
  it.each([
    ['retail consumer within EUR 1000', 'pt-016-free-shipping', {}, 'S'],
    ['retail consumer above EUR 1000', 'pt-018-consumer-over-1000-no-nif', {}, 'T'],
    ['business buyer above EUR 100', 'pt-017-many-quantities', {}, 'T'],
    ['not a retailer: EUR 100 limit', 'pt-016-free-shipping', { sellerIsRetailer: false }, 'T'],
    ['not a retailer, small order', 'pt-021-simplified-small', { sellerIsRetailer: false }, 'S'],
    ['configured fallback I', 'pt-018-consumer-over-1000-no-nif', { fallbackType: 'I' }, 'I'],
  ])('CIVA art. 40(1): %s', (_name, fixture, simplifiedInvoice, type) => {
    const result = documentForOrder(wooOrder(withTotal(fixture)), { documentType: 'S', simplifiedInvoice } as MappingSettingsInput);
    expect(result.request.Document.Type).toBe(type);
    if (type !== 'S') expect(result.notes.map((n) => n.message).join('\n')).toMatch(/Simplified invoice not allowed/);
  });

  it.each([
    // [name, fixture, lineTypes, type, reason in the note]
    ['CIVA art. 40(1)(b): services to a consumer above EUR 100 (107.17, virtual and downloadable)', 'pt-029-virtual-only', {}, 'T', /the order includes services/],
    ['CIVA art. 40(1)(b): goods made services by product id above EUR 100 (367.77)', 'pt-016-free-shipping', { serviceProductIds: [161] }, 'T', /the order includes services/],
    ['CIVA art. 40(1)(b): services by SKU prefix within EUR 100 (10.50)', 'pt-021-simplified-small', { serviceSkuPrefixes: ['POS'] }, 'S', undefined],
    ['CIVA art. 40(1)(a): the same goods as goods stay within the retail EUR 1000 (367.77)', 'pt-016-free-shipping', {}, 'S', undefined],
  ])('%s', (_name, fixture, lineTypes, type, reason) => {
    const result = documentForOrder(wooOrder(orderFixture(fixture)), { documentType: 'S', lineTypes } as MappingSettingsInput);
    expect(result.request.Document.Type).toBe(type);
    if (reason) expect(result.notes.map((n) => n.message).join('\n')).toMatch(reason);
  });

  it('invoice (I) by setting for paid orders', () => {
    expect(documentForOrder(wooOrder(orderFixture('pt-001-mainland-23-single')), { documentType: 'I' }).request.Document.Type).toBe('I');
  });

  it('DL 28/2019 revoked the former CIVA art. 36(15): a consumer invoice of EUR 1000 or more without an address is issued (warned); held only by setting', () => {
    const order = orderFixture('pt-018-consumer-over-1000-no-nif');
    order.billing = { ...(order.billing as object), address_1: '', address_2: '' };
    const issued = documentForOrder(wooOrder(order));
    expect(issued.hold).toBe(false);
    expect(issued.notes.some((n) => n.level === 'warning' && /without the buyer's address/.test(n.message))).toBe(true);
    expect(issued.request.Client.Name).not.toBe('Consumidor final');
    const strict = documentForOrder(wooOrder(order), { holdUnidentifiedConsumerInvoices: true });
    expect(strict.hold).toBe(true);
    expect(strict.notes.some((n) => n.level === 'warning' && /without the buyer's address.*held until the billing name and address/.test(n.message))).toBe(true);
  });
});

describe('exact-cent strategy: moves and the rounding line are reported, or refused by setting', () => {
  it('reports each net moved by a cent', () => {
    const { notes } = documentForOrder(wooOrder(orderFixture('pt-009-prices-incl-tax')));
    expect(notes).toContainEqual(
      expect.objectContaining({
        level: 'info',
        code: 'rounding-net-moved',
        message:
          'Rounding: net of "T-shirt algodão orgânico" (23% VAT) set to 24.36 instead of 24.37 so the document total equals the order total 38.45 ' +
          '(WooCommerce rounded the tax per line or on unrounded nets; the document rounds it once per rate)',
      }),
    );
  });

  it('CIVA art. 16(1): an unreachable total is issued at the nearest reachable total, never with a 0% line, and the difference is reported', () => {
    const { request, totalDifference, hold, notes } = documentForOrder(wooOrder(orderFixture('pt-025-single-rate-unreachable-total')));
    expect(request.Document.Lines.every((line) => String(line.TaxValue) === '23')).toBe(true);
    expect(request.Document.TaxExemptionReasonCode).toBeUndefined();
    expect(hold).toBe(false);
    expect(formatDecimal(add(computeTotals(request.Document.Lines).amount, parseDecimal(totalDifference as string)), 2)).toBe('12.33');
    expect(notes.some((n) => n.level === 'warning' && n.message.includes('Round tax at subtotal level'))).toBe(true);
  });

  it('holds it instead per setting (unreachableTotal: hold)', () => {
    const { hold, notes } = documentForOrder(wooOrder(orderFixture('pt-025-single-rate-unreachable-total')), { unreachableTotal: 'hold' });
    expect(hold).toBe(true);
    expect(notes.some((n) => /Held: the document total would differ from the shop's by/.test(n.message))).toBe(true);
  });

  it('adds the 0% rounding line only where an accountant opted in, with the code they chose', () => {
    const { request } = documentForOrder(wooOrder(orderFixture('pt-025-single-rate-unreachable-total')), { roundingLine: { enabled: true, exemptionCode: 'M01' } });
    expect(request.Document.Lines.at(-1)).toEqual({
      Code: 'ACERTO',
      Description: 'Acerto de arredondamento',
      UnitPrice: '0.01',
      Quantity: '1',
      Unit: 'UN',
      Type: 'S',
      TaxValue: '0',
      ProductDiscount: '0',
    });
    expect(request.Document.TaxExemptionReasonCode).toBe('M01');
  });

  it('refuses an order whose lines do not add up to its total (more than rounding)', () => {
    const order = { ...orderFixture('pt-001-mainland-23-single'), total: '40.00' };
    expect(() => documentForOrder(wooOrder(order))).toThrow(/^Order #5001: the lines add up to 36.04 but the order total 40.00; the difference 3.96 is more than rounding/);
  });
});

describe('orders that are not orders yet', () => {
  it.each(['checkout-draft', 'draft', 'auto-draft'])('refuses status %s', (status) => {
    const order = { ...orderFixture('pt-001-mainland-23-single'), status };
    expect(() => documentForOrder(wooOrder(order))).toThrow(`Order #5001: status "${status}" is a cart, not an order: no document`);
  });
});

describe('the EUR 1000 identification rule binds Portuguese consumers only', () => {
  it('does not hold an export to a foreign consumer', () => {
    const order = orderFixture('pt-018-consumer-over-1000-no-nif');
    order.billing = { ...(order.billing as object), country: 'US', postcode: '19107' };
    order.shipping = { ...(order.shipping as object), country: 'US', postcode: '19107' };
    expect(documentForOrder(wooOrder(order)).hold).toBe(false);
  });
});
