import { parseDecimal } from '../../client/money';
import { MappingSettingsInput } from '../../law/mapping-settings';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { creditNoteForRefund } from '../../platforms/woocommerce/documents';
import { DispatchRegion, ratesInForce, regionOfAddress, regionsWithRate } from '../../law/vat-rates';
import { buildOrder, buildRefund, Cart } from './support/woo-cart';
import { wooOrder, wooRefund, wooRefunds } from '../support/payloads';

/** Rates as data (vat-rates.ts), where the goods ship from (supply-place.ts), OSS. */

const lisbon = { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua Augusta 100', city: 'Lisboa', postcode: '1100-053', country: 'PT' };
const funchal = { ...lisbon, city: 'Funchal', postcode: '9000-055' };
const pontaDelgada = { ...lisbon, city: 'Ponta Delgada', postcode: '9500-050' };
const madrid = { ...lisbon, city: 'Madrid', postcode: '28013', country: 'ES' };
const paris = { ...lisbon, city: 'Paris', postcode: '75001', country: 'FR' };

function cart(rate: string, billing: Cart['billing'], day = '2026-03-10', extra: Partial<Cart> = {}): Cart {
  return {
    id: 7100,
    items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate }],
    billing,
    dateCreatedGmt: `${day}T10:00:00`,
    ...extra,
  };
}

describe('rates as data with validity dates (CIVA art. 18; Ofício-Circulado 25045/2024)', () => {
  it.each<[DispatchRegion, string, string[]]>([
    ['mainland', '2026-03-10', ['23', '13', '6']],
    ['azores', '2026-03-10', ['16', '9', '4']],
    ['madeira', '2026-03-10', ['22', '12', '4']],
    // DLR 6/2024/M: Madeira's reduced rate is 4 % from 1 October 2024, 5 % the day before.
    ['madeira', '2024-09-30', ['22', '12', '5']],
    ['madeira', '2024-10-01', ['22', '12', '4']],
    // DLR 15-A/2021/A: the Azores' rates from 1 July 2021; earlier days are not in the table.
    ['azores', '2021-07-01', ['16', '9', '4']],
    ['azores', '2021-06-30', []],
  ])('%s on %s: %j', (region, day, rates) => {
    expect(ratesInForce(region, day).map((r) => r.percent)).toEqual(rates);
  });

  it.each([
    ['5', '2026-03-10', []],
    ['5', '2024-09-30', ['madeira']],
    ['21', '2026-03-10', []],
    ['4', '2026-03-10', ['madeira', 'azores']],
    ['23', '2026-03-10', ['mainland']],
  ])('%s%% on %s is the rate of %j', (rate, day, regions) => {
    expect(regionsWithRate(parseDecimal(rate), day).sort()).toEqual([...regions].sort());
  });

  it.each([
    ['PT', '9000-055', 'madeira'],
    ['PT', '9400-010', 'madeira'],
    ['PT', '9500-050', 'azores'],
    ['PT', '9900-014', 'azores'],
    ['PT', '1100-053', 'mainland'],
    ['ES', '28013', undefined],
    ['PT', '', undefined],
  ])('the region of a store address %s %s is %s', (country, postcode, region) => {
    expect(regionOfAddress(country, postcode)).toBe(region);
  });
});

describe('CIVA art. 18(9): a rate not in force in Portugal on the sale date never passes silently', () => {
  it.each([
    ['5 % in 2026 (Madeira until 2024-09-30)', '5', funchal, { dispatchRegion: 'madeira' as const }],
    ['21 % (Spain)', '21', madrid, {}],
    ['20 % (France)', '20', paris, {}],
    ['19 % (Germany)', '19', { ...lisbon, country: 'DE', postcode: '10115' }, {}],
  ])('Lei 47/2020 (OSS): %s is refused before anything is sent, naming OSS and the country', (_name, rate, billing, settings) => {
    const order = buildOrder(cart(rate, billing));
    const country = billing.country === 'PT' ? 'Portugal' : billing.country;
    expect(() => documentForOrder(wooOrder(order), settings)).toThrow(
      new RegExp(`is taxed at ${rate}%, which is no Portuguese VAT rate in force on 2026-03-10 .*buyer's country \\(${country}\\).*OSS \\(CIVA art\\. 6-A, RITI art\\. 10, Lei 47/2020\\).*nothing was sent`),
    );
  });

  it('CIVA art. 18(9): a credit note takes the rates of the sale it corrects (Madeira 5 % in September 2024)', () => {
    const order = buildOrder(cart('5', funchal, '2024-09-20'));
    const refund = buildRefund(order, { id: 1, items: [{ index: 0, quantity: 1 }] });
    const note = creditNoteForRefund(wooOrder(order), wooRefund(refund), 'FT 1/1', { dispatchRegion: 'madeira' }, { issueDate: '2026-03-10' });
    expect(note.hold).toBe(false);
    expect(note.request.Document.Lines[0].TaxValue).toBe('5');
  });
});

describe('CIVA art. 6(1): goods take the VAT of the region they ship from, not the buyer postcode', () => {
  it.each<[string, string, Cart['billing'], MappingSettingsInput, boolean]>([
    ['a mainland shop shipping to Funchal charges 23 %', '23', funchal, { dispatchRegion: 'mainland' }, false],
    ['an Azores shop shipping to Lisbon charges 16 %', '16', lisbon, { dispatchRegion: 'azores' }, false],
    ['a Madeira shop charges 22 % to a Lisbon buyer', '22', lisbon, { dispatchRegion: 'madeira' }, false],
    ['a mainland shop charging Madeira 22 % by the buyer postcode is held', '22', funchal, { dispatchRegion: 'mainland' }, true],
    ['a mainland shop charging the Azores 16 % by the buyer postcode is held', '16', pontaDelgada, { dispatchRegion: 'mainland' }, true],
    ['an Azores shop charging 23 % to a Lisbon buyer is held', '23', lisbon, { dispatchRegion: 'azores' }, true],
    ['the store address decides when dispatchRegion is not set', '16', lisbon, { storeAddressRegion: 'azores' }, false],
    ['dispatchRegion wins over the store address', '23', lisbon, { storeAddressRegion: 'azores', dispatchRegion: 'mainland' }, false],
    ['neither set: mainland', '22', funchal, {}, true],
  ])('%s', (_name, rate, billing, settings, held) => {
    const { hold, notes, request } = documentForOrder(wooOrder(buildOrder(cart(rate, billing))), settings);
    expect(hold).toBe(held);
    expect(request.Document.Lines[0].TaxValue).toBe(rate);
    const text = notes.map((n) => n.message).join('\n');
    if (held) expect(text).toMatch(/Held: Line "Caneca" carries \d+%, the VAT of .* goods are taxed where their transport begins \(CIVA art\. 6\(1\)\).*buyer's postcode does not decide the rate/);
  });

  it('CIVA art. 16(5)(b): shipping follows the goods: Madeira 22 % shipping from a mainland shop is held', () => {
    const order = buildOrder(cart('23', funchal, '2026-03-10', { shipping: [{ title: 'CTT', cost: '4.00', rate: '22' }] }));
    const { hold, notes } = documentForOrder(wooOrder(order), { dispatchRegion: 'mainland' });
    expect(hold).toBe(true);
    expect(notes.map((n) => n.message).join('\n')).toMatch(/Line "CTT" carries 22%/);
  });

  it.each<[string, Cart['billing'], NonNullable<Cart['meta']>, boolean]>([
    ['CIVA art. 6(6)(b): a service to a consumer takes the shop region (Azores 16 % to a Lisbon consumer)', lisbon, [], false],
    ['CIVA art. 6(6)(a): a service to a Portuguese business takes its region (Azores business, 16 %)', { ...pontaDelgada, company: 'Açor Lda' }, [{ key: '_billing_nif', value: '503504564' }], false],
  ])('%s', (_name, billing, meta, held) => {
    const order = buildOrder({ ...cart('16', billing), meta });
    const { hold } = documentForOrder(wooOrder(order), { dispatchRegion: 'azores', lineTypes: { default: 'S' } });
    expect(hold).toBe(held);
  });

  it('CIVA art. 6(6)(a): a mainland shop service to an Azores business at 16 % is issued; to an Azores consumer it is held', () => {
    const business = buildOrder({ ...cart('16', { ...pontaDelgada, company: 'Açor Lda' }), meta: [{ key: '_billing_nif', value: '503504564' }] });
    expect(documentForOrder(wooOrder(business), { lineTypes: { default: 'S' } }).hold).toBe(false);
    const consumer = buildOrder(cart('16', pontaDelgada));
    expect(documentForOrder(wooOrder(consumer), { lineTypes: { default: 'S' } }).hold).toBe(true);
  });
});

describe('CIVA art. 6-A, RITI art. 10 (OSS registration)', () => {
  it.each<[string, Cart['billing'], boolean, boolean]>([
    ['registered: goods to a consumer in France at 23 % are held', paris, true, true],
    ['not registered: under the threshold the sale is Portuguese', paris, false, false],
    ['registered: goods to a consumer in Portugal are not OSS', lisbon, true, false],
    ['registered: goods to the Canary Islands are outside the EU VAT territory, not OSS', { ...madrid, postcode: '35001', city: 'Las Palmas' }, true, false],
  ])('%s', (_name, billing, registered, held) => {
    const { hold, notes } = documentForOrder(wooOrder(buildOrder(cart('23', billing))), { oss: { registered } });
    expect(hold).toBe(held);
    if (held) expect(notes.map((n) => n.message).join('\n')).toMatch(/registered in OSS: goods sent to a consumer in FR are taxed in FR/);
  });
});

describe('holdReasons: only the reasons that made hold true (the n8n node lists them)', () => {
  it('a held order lists its reason and deadline, not its other warnings; an issued one none', () => {
    const held = documentForOrder(wooOrder(buildOrder(cart('22', funchal))), { dispatchRegion: 'mainland' }, { issueDate: '2026-03-10' });
    expect(held.hold).toBe(true);
    expect(held.holdReasons).toHaveLength(2);
    expect(held.holdReasons[0]).toMatch(/^Held: Line "Caneca" carries 22%/);
    expect(held.holdReasons[1]).toMatch(/^Deadline for this invoice: 2026-03-10 \(/);
    expect(held.notes.length).toBeGreaterThan(held.holdReasons.length);
    expect(documentForOrder(wooOrder(buildOrder(cart('23', lisbon)))).holdReasons).toEqual([]);
  });

  it('a held credit note lists its reasons', () => {
    const order = buildOrder(cart('23', lisbon));
    const refund = buildRefund(order, { id: 1, items: [{ index: 0, quantity: 1 }] });
    const again = creditNoteForRefund(wooOrder(order), wooRefund({ ...refund, id: 2 }), 'FT 1/1', {}, { issueDate: '2026-03-12' }, wooRefunds([refund]));
    expect(again.hold).toBe(true);
    expect(again.holdReasons.every((r) => r.startsWith('Held: Refund 2 would credit'))).toBe(true);
  });
});

