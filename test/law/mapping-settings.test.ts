import { MappingSettingsSchema } from '../../law/mapping-settings';
import { externalIdForOrder, externalIdForRefund, externalIdForWaybill } from '../../law/external-id';
import { OrderMappingError } from '../../law/mapping-errors';

describe('mapping settings: {} gives the defaults', () => {
  const defaults = MappingSettingsSchema.parse({});
  it.each<[string, unknown]>([
    ['nifMetaKeys', ['_billing_nif', '_billing_vat', 'billing_nif', 'vat_number', '_vat_number', '_billing_vat_number', 'billing_vat']],
    ['unit', 'UN'],
    ['documentType', 'T'],
    ['unpaidDocumentType', 'I'],
    ['exemptionCode', undefined],
    ['identifiedBuyerFrom', '1000'],
    // DL 28/2019 revoked the former CIVA art. 36(15): issued, not held.
    ['holdUnidentifiedConsumerInvoices', false],
    ['dueDays', 30],
    ['externalIdPrefix', 'wc-'],
    ['shopTimeZone', 'Europe/Lisbon'],
    ['taxInclusiveUnitPrice', 'unrounded'],
    ['includeFreeShipping', false],
  ])('%s', (key, value) => {
    expect(defaults[key as keyof typeof defaults]).toEqual(value);
  });

  it('fills nested defaults', () => {
    expect(defaults.simplifiedInvoice).toEqual({ sellerIsRetailer: true, retailConsumerLimit: '1000', otherLimit: '100', fallbackType: 'T' });
    expect(defaults.waybill).toEqual({ type: 'W', leadTimeMinutes: 60 });
    expect(defaults.lineTypes).toEqual({
      default: 'P',
      goodsProductIds: [],
      serviceProductIds: [],
      goodsSkuPrefixes: [],
      serviceSkuPrefixes: [],
      goodsCategories: [],
      serviceCategories: [],
      shopProductTypes: {},
      servicesWhenOrderNeedsNoProcessing: true,
    });
    // CIVA art. 16(1): no 0% rounding line unless an accountant opts in with a code of their choice.
    expect(defaults.roundingLine).toEqual({ enabled: false, code: 'ACERTO', description: 'Acerto de arredondamento' });
    expect(defaults.unreachableTotal).toBe('issue-nearest');
  });

  it('refuses an opted-in rounding line without the exemption code an accountant chose', () => {
    const result = MappingSettingsSchema.safeParse({ roundingLine: { enabled: true } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['roundingLine', 'exemptionCode'], message: expect.stringContaining('the code your accountant chose') });
  });

  it('keeps defaults for the nested fields not given', () => {
    expect(MappingSettingsSchema.parse({ simplifiedInvoice: { otherLimit: 50 } }).simplifiedInvoice).toEqual({
      sellerIsRetailer: true,
      retailConsumerLimit: '1000',
      otherLimit: '50',
      fallbackType: 'T',
    });
  });
});

describe('mapping settings: bad values are refused with the field named', () => {
  it.each<[string, unknown, RegExp]>([
    ['exemptionCode', 'M99', /exemptionCode \(one code for every 0% line\) was removed: .*exemptions\.regime: 'M10'.*exemptions\.byProduct/],
    ['exemptions', { regime: 'M07' }, /Invalid option/],
    ['exemptions', { byProduct: [{ code: 'M05' }] }, /must be one of M01, M02, M04, M06, M07/],
    ['exemptions', { byProduct: [{ code: 'M08' }] }, /must be one of/],
    ['shopTimeZone', 'Europe/Lisboa', /IANA time zone/],
    ['dueDays', 0, /dueDays|>=1|too small/i],
    ['externalIdPrefix', 'loja norte', /letters, digits/],
    ['documentType', 'C', /documentType|Invalid option/],
    ['euroRates', { USD: '1,08' }, /decimal like 1000/],
  ])('%s = %p', (key, value, message) => {
    const result = MappingSettingsSchema.safeParse({ [key]: value });
    expect(result.success).toBe(false);
    const text = result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    expect(text).toContain(key);
    expect(text).toMatch(message);
  });
});

describe('ExternalId: prefix + order id, at most 50 characters', () => {
  const settings = { externalIdPrefix: 'shop-' };
  it.each([
    ['order', () => externalIdForOrder(5001, settings), 'shop-5001'],
    ['refund', () => externalIdForRefund(5001, 77, settings), 'shop-5001-R77'],
    ['waybill', () => externalIdForWaybill(5001, settings), 'shop-5001-W'],
  ])('%s', (_name, make, expected) => {
    expect(make()).toBe(expected);
  });

  it('refuses an id over 50 characters, naming the order', () => {
    const long = { externalIdPrefix: 'p'.repeat(30) };
    expect(() => externalIdForRefund('1'.repeat(12), '9'.repeat(8), long)).toThrow(OrderMappingError);
    expect(() => externalIdForRefund('1'.repeat(12), '9'.repeat(8), long)).toThrow(/longer than 50 characters/);
  });
});
