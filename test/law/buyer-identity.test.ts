import { checkVatNumber } from '../../law/buyer-identity';
import { wooSale } from './support/sale';
import { MappingSettingsSchema } from '../../law/mapping-settings';
import type { VatNumberRegistry } from '../../law/vat-number';
import { documentForOrder } from '../../platforms/woocommerce/documents';
import { orderFixture } from './support/fixtures';
import { mappingSettings, wooOrder } from '../support/payloads';

function withNif(meta: { key: string; value: unknown }[], billing: Record<string, string> = {}) {
  const order = orderFixture('pt-001-mainland-23-single') as Record<string, unknown> & { billing: Record<string, string> };
  order.meta_data = meta.map((m, i) => ({ id: i + 1, ...m }));
  order.billing = { ...order.billing, ...billing };
  return order;
}

describe('NIF: read from the configured meta keys, Portuguese NIFs checked', () => {
  it.each([
    ['_billing_nif', '234567899', '234567899', 'PT', undefined],
    ['_billing_vat', 'PT 512 345 678', '512345678', 'PT', undefined],
    ['billing_nif', '512.345.678', '512345678', 'PT', undefined],
    ['vat_number', 'pt512345678', '512345678', 'PT', undefined],
    ['_vat_number', 512345678, '512345678', 'PT', undefined],
    ['_billing_nif', '123456780', '999999990', 'PT', /NIF 123456780 invalid: consumer NIF 999999990 used/],
    ['_billing_nif', '812345670', '999999990', 'PT', /invalid/],
    ['_billing_nif', '12345', '999999990', 'PT', /NIF 12345 invalid/],
    ['_billing_nif', '999999990', '999999990', 'PT', /Consumer NIF 999999990 given/],
    ['unknown_key', '234567899', '999999990', 'PT', /No NIF on the order/],
  ])('%s = %p -> %s', (key, value, nif, country, note) => {
    const { request, notes } = documentForOrder(wooOrder(withNif([{ key, value }])));
    expect([request.Client.NIF, request.Client.CountryCode]).toEqual([nif, country]);
    if (note) expect(notes.map((n) => n.message).join('\n')).toMatch(note);
  });

  it('takes the first non-empty key in the configured order', () => {
    const order = withNif([
      { key: '_billing_nif', value: '' },
      { key: 'vat_number', value: '234567899' },
      { key: 'nif_custom', value: '512345678' },
    ]);
    expect(documentForOrder(wooOrder(order)).request.Client.NIF).toBe('234567899');
    expect(documentForOrder(wooOrder(order), { nifMetaKeys: ['nif_custom'] }).request.Client.NIF).toBe('512345678');
  });
});

describe('NIF: foreign VAT numbers are kept with their country', () => {
  const spain = { country: 'ES', postcode: '28013', city: 'Madrid' };
  it.each([
    ['ESB12345678', spain, 'B12345678', 'ES'],
    ['es b-12345678', spain, 'B12345678', 'ES'],
    ['DE123456789', { country: 'DE', postcode: '10115' }, '123456789', 'DE'],
    ['EL123456789', { country: 'GR', postcode: '10431' }, '123456789', 'GR'],
    ['FRXX999999999', { country: 'FR', postcode: '75001' }, 'XX999999999', 'FR'],
    ['B12345678', spain, 'B12345678', 'ES'],
    ['12-3456789', { country: 'US', postcode: '19107' }, '123456789', 'US'],
  ])('%s', (value, billing, nif, country) => {
    const { request } = documentForOrder(wooOrder(withNif([{ key: '_billing_vat', value }], billing)));
    expect([request.Client.NIF, request.Client.CountryCode]).toEqual([nif, country]);
  });

  it('uses the VAT country even when the billing country differs, and says so', () => {
    const { request, notes } = documentForOrder(wooOrder(withNif([{ key: '_billing_vat', value: 'ESB12345678' }])));
    expect(request.Client.CountryCode).toBe('ES');
    expect(notes.map((n) => n.message)).toContain('VAT number country ES differs from the billing country PT');
  });
});

describe('exemption codes for 0% lines', () => {
  const untaxed = (billing: Record<string, string>, meta: { key: string; value: unknown }[] = [], shippingCountry?: string) => {
    const order = withNif(meta, billing) as unknown as Record<string, unknown> & { line_items: { taxes: unknown[] }[]; shipping_lines: { taxes: unknown[] }[]; shipping: Record<string, string> };
    order.line_items.forEach((l) => (l.taxes = []));
    order.shipping_lines.forEach((l) => (l.taxes = []));
    order.tax_lines = [];
    order.total = '29.30';
    if (shippingCountry) order.shipping = { ...order.shipping, country: shippingCountry };
    return order;
  };
  it.each([
    ['EU B2B with a VAT number: M16', { country: 'ES', postcode: '28013' }, [{ key: '_billing_vat', value: 'ESB12345678' }], 'ES', {}, 'M16'],
    ['export outside the EU: M05', { country: 'BR', postcode: '01000-000' }, [], 'BR', {}, 'M05'],
    ['shipped outside the EU though billed in Portugal: M05', {}, [], 'AO', {}, 'M05'],
    ['CIVA art. 53: goods to an EU consumer under the small-business regime: M10', { country: 'FR', postcode: '75001' }, [], 'FR', { exemptions: { regime: 'M10' } }, 'M10'],
    ['CIVA art. 53: an EU VAT number but goods stay in Portugal, small-business regime: M10', { country: 'ES', postcode: '28013' }, [{ key: '_billing_vat', value: 'ESB12345678' }], 'PT', { exemptions: { regime: 'M10' } }, 'M10'],
    ['the removed exemptionCode: M10 is read as the regime', { country: 'FR', postcode: '75001' }, [], 'FR', { exemptionCode: 'M10' }, 'M10'],
  ])('%s', (_name, billing, meta, shippingCountry, settings, code) => {
    const { request } = documentForOrder(wooOrder(untaxed(billing, meta, shippingCountry)), settings);
    expect(request.Document.TaxExemptionReasonCode).toBe(code);
  });

  it.each([
    // [name, billing, meta, shipping country, settings, code or error]
    ['RITI art. 14: goods to an EU business (M16)', { country: 'DE', postcode: '10115' }, [{ key: '_billing_vat', value: 'DE123456789' }], 'DE', {}, 'M16'],
    ['CIVA art. 14: goods exported to a consumer (M05)', { country: 'US', postcode: '19107' }, [], 'US', {}, 'M05'],
    ['CIVA art. 6(6)(a): services to a business in another EU state, reverse charge (M40)', { country: 'DE', postcode: '10115' }, [{ key: '_billing_vat', value: 'DE123456789' }], 'DE', { lineTypes: { default: 'S' } }, 'M40'],
    ['CIVA art. 6(6)(a): services to a business outside the EU, reverse charge (M40)', { country: 'US', postcode: '19107', company: 'Acme Inc' }, [{ key: '_billing_vat', value: '12-3456789' }], 'US', { lineTypes: { default: 'S' } }, 'M40'],
    ['CIVA art. 6(6): a non-EU tax number alone (no company) is no business: no M40', { country: 'US', postcode: '19107' }, [{ key: '_billing_vat', value: '12-3456789' }], 'US', { lineTypes: { default: 'S' } }, /service to a consumer or a Portuguese business/],
    ['CIVA art. 6(6)(a): services by product id override, shipping follows them (M40)', { country: 'ES', postcode: '28013' }, [{ key: '_billing_vat', value: 'B12345678' }], 'ES', { lineTypes: { serviceProductIds: [11] } }, 'M40'],
    ['CIVA art. 6(7)+ (M44): a service the accountant placed outside Portugal, to a consumer abroad: the product\'s code', { country: 'US', postcode: '19107' }, [], 'US', { lineTypes: { default: 'S' }, exemptions: { byProduct: [{ code: 'M44', productIds: [11, 12] }] } }, 'M44'],
    ['CIVA art. 6(7)+ (M44): not for a buyer in Portugal', {}, [], 'PT', { lineTypes: { default: 'S' }, exemptions: { byProduct: [{ code: 'M44', productIds: [11, 12] }] } }, /M44 .* the buyer is in Portugal/],
    ['CIVA art. 9 (M07): an exempt service by SKU prefix, shipping follows it', {}, [], 'PT', { lineTypes: { default: 'S' }, exemptions: { byProduct: [{ code: 'M07', skuPrefixes: ['CAN', 'LIV'] }] } }, 'M07'],
    ['CIVA art. 36(5)(e): a per-product code never covers goods that stay in Portugal', {}, [], 'PT', { exemptions: { byProduct: [{ code: 'M07', productIds: [11, 12] }] } }, /goods that stay in Portugal are taxed \(CIVA art\. 6\(1\)\); a per-product code does not cover them/],
    ['CIVA art. 36(5)(e): nor goods to an EU consumer', { country: 'FR', postcode: '75001' }, [], 'FR', { exemptions: { byProduct: [{ code: 'M99', productIds: [11, 12] }] } }, /goods to a consumer in FR are taxed/],
    ['CIVA art. 6(6)(b): services to a consumer abroad without a configured code: refused', { country: 'US', postcode: '19107' }, [], 'US', { lineTypes: { default: 'S' } }, /service to a consumer or a Portuguese business/],
  ])('%s', (_name, billing, meta, shippingCountry, settings, expected) => {
    const order = untaxed(billing, meta, shippingCountry);
    if (expected instanceof RegExp) {
      expect(() => documentForOrder(wooOrder(order), mappingSettings(settings))).toThrow(expected);
      return;
    }
    const { request, notes } = documentForOrder(wooOrder(order), mappingSettings(settings));
    expect(request.Document.TaxExemptionReasonCode).toBe(expected);
    expect(notes.map((n) => n.message).join('\n')).toContain(`(${expected})`);
  });

  it('the service takes one exemption code per document: goods exported (M05) with services to that business (M40) are refused, naming both', () => {
    const order = untaxed({ country: 'US', postcode: '19107', company: 'Acme Inc' }, [{ key: '_billing_vat', value: '12-3456789' }], 'US') as unknown as { line_items: Record<string, unknown>[]; total: string };
    order.line_items.push({ ...order.line_items[0], id: 9901, product_id: 777, sku: 'CONSULT', name: 'Consultoria' });
    order.total = String((Number(order.total) + Number(order.line_items[0].total)).toFixed(2));
    expect(() => documentForOrder(wooOrder(order), { lineTypes: { serviceProductIds: [777] } })).toThrow(
      /0% lines need different exemption codes and a document carries only one: .*M05 \(export of goods to US \(CIVA art\. 14\)\).*"Consultoria" M40/,
    );
  });

  it('CIVA art. 36(5)(e): fails naming the order, the lines and the reason when no exemption applies', () => {
    expect(() => documentForOrder(wooOrder(untaxed({})))).toThrow(
      'Order #5001: "Caneca de cerâmica", "CTT Expresso" have 0% VAT but no exemption reason applies (goods that stay in Portugal are taxed (CIVA art. 6(1)); a per-product code does not cover them unless its basis is a domestic regime (exemptions.byProduct, or exemptions.byFee for a fee: M01, M11, M12, M13, M14, M15, M19, M21, M25, M99; M30, M31, M32, M33, M34, M43 for a Portuguese business buyer), or the shop is in a regime (exemptions.regime)). ' +
        "A document must state the real reason of each exemption (CIVA art. 36(5)(e)): correct the shop's tax for this line, or set the reason your accountant chose (exemptions.regime for the shop, exemptions.byProduct for the product, exemptions.byFee for a fee)",
    );
  });
});

describe('client fields the service would refuse are left off with a warning', () => {
  it.each([
    ['a Portuguese post code without its 3 digits', { postcode: '1100' }, 'PostCode', /Post code "1100" is not a Portuguese post code/],
    ['an e-mail without a domain', { email: 'maria@' }, 'Email', /E-mail "maria@" is not usable/],
  ])('%s', (_name, billing, field, note) => {
    const { request, notes } = documentForOrder(wooOrder(withNif([], billing)));
    expect(request.Client).not.toHaveProperty(field);
    expect(notes.map((n) => n.message).join('\n')).toMatch(note);
  });

  it('normalises a Portuguese post code written without the hyphen', () => {
    expect(documentForOrder(wooOrder(withNif([], { postcode: '1100053' }))).request.Client.PostCode).toBe('1100-053');
  });
});

describe('CIVA art. 36(5)(a): a company buyer with an invalid NIF is held, never invoiced to the consumer NIF', () => {
  it.each([
    ['billing company with an invalid NIF: held', [{ key: '_billing_nif', value: '123456780' }], { company: 'Livraria Aurora Lda' }, true],
    ['an invalid number in a VAT-number field: held', [{ key: '_billing_vat', value: '123456780' }], {}, true],
    ['a private buyer with an invalid NIF: consumer NIF, issued', [{ key: '_billing_nif', value: '123456780' }], {}, false],
    ['a company with a valid NIF: issued', [{ key: '_billing_nif', value: '512345678' }], { company: 'Livraria Aurora Lda' }, false],
  ])('%s', (_name, meta, billing, held) => {
    const { hold, notes } = documentForOrder(wooOrder(withNif(meta, billing)));
    expect(hold).toBe(held);
    if (held) expect(notes.map((n) => n.message).join('\n')).toMatch(/is not valid \(CIVA art\. 36\(5\)\(a\): a company's invoice must carry its NIF\); correct it on the order/);
  });

  it('the hold can be turned off (holdCompanyWithInvalidNif: false): the consumer NIF with a warning', () => {
    const { hold, request, notes } = documentForOrder(wooOrder(withNif([{ key: '_billing_nif', value: '123456780' }], { company: 'Livraria Aurora Lda' })), { holdCompanyWithInvalidNif: false });
    expect(hold).toBe(false);
    expect(request.Client.NIF).toBe('999999990');
    expect(notes.some((n) => n.level === 'warning' && /invalid: consumer NIF/.test(n.message))).toBe(true);
  });
});

describe("a line's rate comes from the order's tax lines by rate id, never from its rounded tax (issue 9.7)", () => {
  /** pt-001 plus one more line at 23% whose tax rounds to zero (`taxes[].total` as WooCommerce stores it per line). */
  function withTinyLine(net: string, tax: string) {
    const order = orderFixture('pt-001-mainland-23-single') as Record<string, unknown> & { line_items: Record<string, unknown>[] };
    order.line_items = [
      ...order.line_items,
      { id: 1009, name: 'Amostra', product_id: 19, variation_id: 0, quantity: 1, tax_class: '', subtotal: net, subtotal_tax: tax, total: net, total_tax: tax, taxes: [{ id: 100, total: tax, subtotal: tax }], meta_data: [], sku: 'AMO-1', price: Number(net) },
    ];
    order.total = (Number(order.total) + Number(net) + Number(tax)).toFixed(2);
    return order;
  }

  it.each([
    ['CIVA art. 18(1)(c): a 0.01 line whose 23% tax rounds to 0.00 is a 23% line', '0.01', '0', '23'],
    ['CIVA art. 18(1)(c): a 0.02 line (tax 0.0046 stored as 0.00) stays at 23%', '0.02', '0.00', '23'],
    ['a 10.00 line with no tax although 23% is listed: exempted by WooCommerce, 0%', '10.00', '0', '0'],
  ])('%s', (_name, net, tax, rate) => {
    const order = withTinyLine(net, tax);
    const settings = rate === '0' ? { exemptions: { regime: 'M10' } } : {};
    const { request } = documentForOrder(wooOrder(order), settings);
    const line = request.Document.Lines.find((l) => l.Code === 'AMO-1');
    expect(String(line?.TaxValue)).toBe(rate);
    if (rate !== '0') expect(request.Document.TaxExemptionReasonCode).toBeUndefined();
  });
});

describe('RITI art. 14 (M16): EU VAT numbers typed without their country prefix are read with the billing country and checked against its format', () => {
  function euOrder(value: string, billing: Record<string, string> = {}) {
    const order = orderFixture('pt-005-eu-b2b-es-vat') as Record<string, unknown> & { billing: Record<string, string>; shipping: Record<string, string> };
    order.meta_data = [{ id: 1, key: '_billing_vat', value }];
    order.billing = { ...order.billing, ...billing };
    if (billing.country) order.shipping = { ...order.shipping, country: billing.country };
    return order;
  }
  it.each([
    // [typed, billing, NIF, country, exemption code]
    ['B12345678', { country: 'ES' }, 'B12345678', 'ES', 'M16'],
    ['b-1234567-8', { country: 'ES' }, 'B12345678', 'ES', 'M16'],
    ['123456789', { country: 'DE', postcode: '10115' }, '123456789', 'DE', 'M16'],
    ['123456789', { country: 'GR', postcode: '10431' }, '123456789', 'GR', 'M16'],
    ['123456789B01', { country: 'NL', postcode: '1011' }, '123456789B01', 'NL', 'M16'],
    ['U12345678', { country: 'AT', postcode: '1010' }, 'U12345678', 'AT', 'M16'],
    ['ESB12345678', { country: 'ES' }, 'B12345678', 'ES', 'M16'],
  ])('RITI art. 14: %s billed to %j is an EU VAT number', (value, billing, nif, country, code) => {
    const { request, hold, notes } = documentForOrder(wooOrder(euOrder(value, billing)), undefined, undefined, { countryCode: country, number: nif, valid: true });
    expect([request.Client.NIF, request.Client.CountryCode, request.Document.TaxExemptionReasonCode, hold]).toEqual([nif, country, code, false]);
    if (!value.toUpperCase().startsWith(country === 'GR' ? 'EL' : country)) {
      expect(notes.map((n) => n.message)).toContain(`VAT number ${nif} read as ${country === 'GR' ? 'EL' : country}${nif} (billing country ${country}, no prefix typed)`);
    }
  });

  it.each([
    ['B1234', { country: 'ES' }, 'ES'],
    ['12345678', { country: 'DE', postcode: '10115' }, 'DE'],
    ['ESX1', { country: 'ES' }, 'ES'],
    ['DE12345', { country: 'ES' }, 'DE'],
  ])('RITI art. 14 / CIVA art. 36(5)(a): a company whose VAT number %s (billing %j) lacks the %s format is held, never given M16', (value, billing, country) => {
    // 0% lines (the shop exempted the buyer): refused with the reason a person must fix.
    expect(() => documentForOrder(wooOrder(euOrder(value, billing)))).toThrow(`does not have the format of ${country} VAT numbers (RITI art. 14`);
    // Taxed lines: held with that reason.
    const { hold, notes } = documentForOrder(wooOrder(withNif([{ key: '_billing_vat', value }], billing)));
    expect(hold).toBe(true);
    expect(notes.map((n) => n.message).join('\n')).toContain(`does not have the format of ${country} VAT numbers (RITI art. 14`);
  });

  it('a private buyer with a malformed EU number gets the consumer NIF with a warning (holdCompanyWithInvalidNif: false)', () => {
    const order = euOrder('B1234');
    const result = documentForOrder(wooOrder(order), { holdCompanyWithInvalidNif: false, exemptions: { regime: 'M10' } });
    expect([result.hold, result.request.Client.NIF]).toEqual([false, '999999990']);
    expect(result.notes.some((n) => n.level === 'warning' && /B1234 does not have the format of ES VAT numbers: consumer NIF/.test(n.message))).toBe(true);
  });
});

describe('RITI art. 14: a VAT registry (VIES) can confirm the number before mapping (the seam, with a local stand-in registry)', () => {
  // A local stand-in for VIES: the numbers it knows, answered like a registry would.
  const registered = new Set(['ES:B12345678']);
  const registry: VatNumberRegistry = async (countryCode, number) => ({ countryCode, number, valid: registered.has(`${countryCode}:${number}`) });
  const euOrder = (value: string, company: string) => {
    const order = orderFixture('pt-005-eu-b2b-es-vat') as Record<string, unknown> & { billing: Record<string, string> };
    order.meta_data = [{ id: 1, key: '_billing_vat', value }];
    order.billing = { ...order.billing, company };
    return order;
  };

  it.each([
    // [typed, company, M16 issued, hold or refusal]
    ['B12345678', 'Construcciones García SL', 'M16', /confirmed valid by the VAT registry/],
    ['ESB87654321', 'Otra Empresa SL', undefined, /VIES\) says VAT number ESB87654321 of Otra Empresa SL is not valid \(RITI art\. 14/],
  ])('RITI art. 14: %s', async (value, company, code, message) => {
    const order = euOrder(value, company);
    const verdict = await checkVatNumber(wooSale(order), MappingSettingsSchema.parse({}), registry);
    expect(verdict).toBeDefined();
    if (code) {
      const { request, notes } = documentForOrder(wooOrder(order), {}, undefined, verdict);
      expect(request.Document.TaxExemptionReasonCode).toBe(code);
      expect(notes.map((n) => n.message).join('\n')).toMatch(message);
    } else {
      // The shop gave the lines 0%: refused with the registry's reason, never M16.
      expect(() => documentForOrder(wooOrder(order), {}, undefined, verdict)).toThrow(message);
    }
  });

  it('no EU VAT number on the order: nothing to ask', async () => {
    const order = wooSale(orderFixture('pt-001-mainland-23-single'));
    let asked = 0;
    const verdict = await checkVatNumber(order, MappingSettingsSchema.parse({}), async () => {
      asked += 1;
      return undefined;
    });
    expect([verdict, asked]).toEqual([undefined, 0]);
  });
});
