import { vatNumberToCheck } from '../../law/buyer-identity';
import { wooSale } from './support/sale';
import { placeForVat } from '../../law/countries';
import { MappingSettingsInput, parseMappingSettings } from '../../law/mapping-settings';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import type { VatNumberVerdict } from '../../law/vat-number';
import { buildOrder, Cart } from './support/woo-cart';
import { wooOrder } from '../support/payloads';

/** RITI art. 14, CIVA art. 1(2) and 14: the EU VAT territory by postcode; M16 only with a VIES-valid number. */

describe('CIVA art. 1(2): places outside the EU VAT territory, by country and postcode', () => {
  it.each([
    ['ES', '35001', 'outside', 'ES', /Canary Islands/],
    ['ES', '38001', 'outside', 'ES', /Canary Islands/],
    ['ES', '51001', 'outside', 'ES', /Ceuta/],
    ['ES', '52001', 'outside', 'ES', /Melilla/],
    ['FI', '22100', 'outside', 'FI', /Åland/],
    ['AX', '22100', 'outside', 'AX', /Åland/],
    ['GR', '630 86', 'outside', 'GR', /Mount Athos/],
    ['DE', '78266', 'outside', 'DE', /Büsingen/],
    ['DE', '27498', 'outside', 'DE', /Heligoland/],
    ['IT', '23041', 'outside', 'IT', /Livigno/],
    ['IT', '22061', 'outside', 'IT', /Campione/],
    ['FR', '97100', 'outside', 'FR', /overseas department/],
    // Monaco is inside the French VAT territory; Northern Ireland follows EU rules for goods (XI).
    ['MC', '98000', 'EU', 'FR', /part of the FR VAT territory/],
    ['GB', 'BT1 5GS', 'EU', 'XI', /Northern Ireland/],
    ['GB', 'SW1A 1AA', 'outside', 'GB', undefined],
    ['ES', '28013', 'EU', 'ES', undefined],
    ['DE', '10115', 'EU', 'DE', undefined],
    ['IT', '22100', 'EU', 'IT', undefined],
    ['PT', '9000-055', 'PT', 'PT', undefined],
  ])('%s %s is %s (%s)', (country, postcode, territory, member, why) => {
    const place = placeForVat(country, postcode);
    expect([place.territory, place.country]).toEqual([territory, member]);
    if (why) expect(place.why).toMatch(why);
    else expect(place.why).toBeUndefined();
  });
});

const valid = (countryCode: string, number: string): VatNumberVerdict => ({ countryCode, number, valid: true });

function untaxedOrder(billing: Cart['billing'], meta: { key: string; value: string }[] = []): Record<string, unknown> {
  return buildOrder({
    id: 7300,
    items: [{ name: 'Rolha de cortiça', sku: 'ROL', productId: 1, price: '100.00', quantity: 1 }],
    billing: { first_name: 'Ana', last_name: 'Ruiz', address_1: 'Calle Mayor 1', city: 'X', ...billing },
    meta,
    dateCreatedGmt: '2026-03-10T10:00:00',
  });
}

describe('RITI art. 14 / CIVA art. 14: goods at 0 % by where they go', () => {
  it.each<[string, Cart['billing'], { key: string; value: string }[], VatNumberVerdict | undefined, MappingSettingsInput, string | RegExp, boolean]>([
    ['RITI art. 14: goods to a Spanish business, VIES-valid: M16', { country: 'ES', postcode: '28013', company: 'Ruiz SL' }, [{ key: '_billing_vat', value: 'ESB12345678' }], valid('ES', 'B12345678'), {}, 'M16', false],
    ['CIVA art. 14: goods to a business in the Canary Islands are an export: M05, never M16', { country: 'ES', postcode: '35001', company: 'Ruiz SL' }, [{ key: '_billing_vat', value: 'ESB12345678' }], undefined, {}, 'M05', false],
    ['CIVA art. 14: goods to a consumer in Ceuta: M05', { country: 'ES', postcode: '51001' }, [], undefined, {}, 'M05', false],
    ['CIVA art. 14: goods to Livigno: M05', { country: 'IT', postcode: '23041' }, [], undefined, {}, 'M05', false],
    ['Windsor Framework: goods to a Northern Ireland business (XI), VIES-valid: M16', { country: 'GB', postcode: 'BT1 5GS', company: 'Belfast Ltd' }, [{ key: '_billing_vat', value: 'XI123456789' }], valid('GB', '123456789'), {}, 'M16', false],
    ['Windsor Framework: goods to a Northern Ireland consumer are no export: refused without a regime', { country: 'GB', postcode: 'BT1 5GS' }, [], undefined, {}, /goods to a consumer in XI are taxed/, false],
    ['CIVA art. 14: goods to a business in London: M05', { country: 'GB', postcode: 'SW1A 1AA', company: 'London Ltd' }, [{ key: '_billing_vat', value: 'GB123456789' }], undefined, {}, 'M05', false],
    ['Monaco is France: goods to a Monaco business with a French VAT number, VIES-valid: M16', { country: 'MC', postcode: '98000', company: 'Monaco SAM' }, [{ key: '_billing_vat', value: 'FR12345678901' }], valid('FR', '12345678901'), {}, 'M16', false],
    ['RITI art. 14(1)(a): M16 without a VIES answer is held', { country: 'ES', postcode: '28013', company: 'Ruiz SL' }, [{ key: '_billing_vat', value: 'ESB12345678' }], undefined, {}, 'M16', true],
    ['RITI art. 14(1)(a): viesRequiredForM16: false issues on the format alone', { country: 'ES', postcode: '28013', company: 'Ruiz SL' }, [{ key: '_billing_vat', value: 'ESB12345678' }], undefined, { viesRequiredForM16: false }, 'M16', false],
  ])('%s', (_name, billing, meta, verdict, settings, expected, held) => {
    const order = untaxedOrder(billing, meta);
    if (expected instanceof RegExp) {
      expect(() => documentForOrder(wooOrder(order), settings, undefined, verdict)).toThrow(expected);
      return;
    }
    const { request, hold, notes } = documentForOrder(wooOrder(order), settings, undefined, verdict);
    expect(request.Document.TaxExemptionReasonCode).toBe(expected);
    expect(hold).toBe(held);
    if (held) expect(notes.map((n) => n.message).join('\n')).toMatch(/needs the buyer's VAT number ESB12345678 valid in VIES \(RITI art\. 14\(1\)\(a\), Lei 49\/2020\)/);
  });

  it('Monaco is France: a Monaco consumer at 23 % is a Portuguese sale (not registered in OSS)', () => {
    const order = buildOrder({ id: 7301, items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate: '23' }], billing: { country: 'MC', postcode: '98000' }, dateCreatedGmt: '2026-03-10T10:00:00' });
    expect(documentForOrder(wooOrder(order)).hold).toBe(false);
  });
});

describe('RITI art. 14(1)(a), Reg. 282/2011 art. 18(1)(a): VIES is asked for every M16 and M40 candidate, only those', () => {
  const settings = parseMappingSettings({});
  it.each<[string, Cart['billing'], string, unknown]>([
    ['goods to a Spanish business', { country: 'ES', postcode: '28013' }, 'ESB12345678', { countryCode: 'ES', number: 'B12345678' }],
    ['goods to a Northern Ireland business (asked as XI)', { country: 'GB', postcode: 'BT1 5GS' }, 'XI123456789', { countryCode: 'GB', number: '123456789' }],
    ['goods to the Canary Islands (an export)', { country: 'ES', postcode: '35001' }, 'ESB12345678', undefined],
    ['goods that stay in Portugal', { country: 'PT', postcode: '1100-053' }, 'ESB12345678', undefined],
  ])('%s', (_name, billing, vat, expected) => {
    const order = wooSale(untaxedOrder(billing, [{ key: '_billing_vat', value: vat }]));
    expect(vatNumberToCheck(order, settings)).toEqual(expected);
  });

  // Issue 26.1 reversed the old rule here ("a service to an EU business needs no VIES answer"):
  it('Reg. 282/2011 art. 18(1)(a): a service to an EU business (an M40 candidate) asks VIES too', () => {
    const order = wooSale(untaxedOrder({ country: 'ES', postcode: '28013' }, [{ key: '_billing_vat', value: 'ESB12345678' }]));
    expect(vatNumberToCheck(order, parseMappingSettings({ lineTypes: { default: 'S' } }))).toEqual({ countryCode: 'ES', number: 'B12345678' });
  });
});
