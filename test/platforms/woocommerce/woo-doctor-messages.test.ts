import { WOO_DOCTOR, wooSays } from '../../../platforms/woocommerce/doctor/woo-doctor-messages';
import { englishWords } from '../../support/english-words';

/**
 * WooCommerce's words for the doctor (the catalogue pattern): counts by plural rules, rates as each
 * language writes a percentage, WooCommerce's own menu labels, and Portuguese without English.
 * The doctor's checks against the fake shop (test/connector/doctor.test.ts) word the common cases;
 * these are the forms a shop rarely shows there.
 */
describe("WooCommerce's doctor words", () => {
  it.each([
    ['nif-found, one order', () => wooSays('nif-found', { keys: ['_billing_nif'], found: 1, orders: 1 }), '_billing_nif found on the last order', '_billing_nif encontrado na última encomenda'],
    ['nif-found, two keys', () => wooSays('nif-found', { keys: ['_billing_nif', 'vat_number'], found: 3, orders: 20 }), '_billing_nif, vat_number found on 3 of the last 20 orders', '_billing_nif, vat_number encontrados em 3 das últimas 20 encomendas'],
    [
      'nif-missing, one order',
      () => wooSays('nif-missing', { orders: 1, keys: ['_billing_nif'], lookalikes: [] }),
      "the last order has no NIF under _billing_nif. Buyers' NIFs would be left off their invoices",
      'a última encomenda não tem NIF em _billing_nif. Os NIF dos compradores ficariam fora das faturas',
    ],
    ['product-webhook-missing, one minute', () => wooSays('product-webhook-missing', { topic: 'product.updated', url: 'https://c/webhooks/woocommerce/t', minutes: 1 }), /\(up to 1 minute\)$/, /\(até 1 minuto\)$/],
    [
      'rate-other, a decimal rate',
      () => wooSays('rate-other', { postcode: '9000-001', paid: '5.5000', rateId: 7, normal: '23', held: true, region: 'mainland', fromSetting: false }),
      'a buyer at postcode 9000-001 pays 5.5% (rate id 7), not the 23% of mainland Portugal: the shop dispatches from mainland Portugal (its store address); such orders are held',
      'um comprador com o código postal 9000-001 paga 5,5 % (taxa 7), e não os 23 % de Portugal continental: a loja expede de Portugal continental (a sua morada); essas encomendas ficam retidas',
    ],
    ['add-webhook-fix, a topic without a menu label', () => wooSays('add-webhook-fix', { topic: 'order.deleted', url: 'https://c/w' }), /Topic order\.deleted, Delivery URL https:\/\/c\/w,/, /Tópico order\.deleted, URL de entrega https:\/\/c\/w,/],
  ] as const)('%s', (_case, say, en, pt) => {
    const said = say();
    if (typeof en === 'string') expect(said.en).toBe(en);
    else expect(said.en).toMatch(en);
    if (typeof pt === 'string') expect(said.pt).toBe(pt);
    else expect(said.pt).toMatch(pt);
  });

  it('every entry without parameters reads in Portuguese with no English word', () => {
    const fixedOnes = Object.keys(WOO_DOCTOR.entries).filter((code) => WOO_DOCTOR.read({ code, params: {} }) !== undefined);
    expect(fixedOnes.length).toBeGreaterThan(20);
    // Names, not prose (as the doctor's own test reads its report): API calls ("PUT orders/0"), codes ("invalid-payload", "rest_no_route").
    const prose = (text: string): string =>
      text
        .replace(/\b(?:GET|PUT) [\w/-]+/g, ' ')
        .replace(/\b\w+_\w+\b/g, ' ')
        .replace(/\b\w+(?:-\w+)+\b/g, ' ');
    for (const code of fixedOnes) {
      const message = WOO_DOCTOR.read({ code, params: {} });
      expect([code, message && englishWords(prose(WOO_DOCTOR.text('pt', message)))]).toEqual([code, []]);
    }
  });
});
