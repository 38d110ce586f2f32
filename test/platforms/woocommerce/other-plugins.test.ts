import { OTHER_SYSTEM_META_KEYS, otherSystemDocument, readableValue, unserializePhp } from '../../../platforms/woocommerce/other-plugins';

describe("other plugins' documents on an order", () => {
  it.each([
    ['InvoiceXpress', 'hd_wc_ie_plus_invoice_id'],
    ['InvoiceXpress', 'hd_wc_ie_plus_invoice_receipt_id'],
    ['InvoiceXpress', 'hd_wc_ie_plus_simplified_invoice_id'],
    ['InvoiceXpress', 'hd_wc_ie_plus_vat_moss_invoice_id'],
    ['Moloni On', '_molonion_sent'],
    ['Moloni', '_moloni_sent'],
    ['Vendus', '_vendus_plugin_invoices_data'],
    ['Vendus', '_vp_invoices_data'],
  ])('%s: %s is a built-in key', (system, key) => {
    expect(OTHER_SYSTEM_META_KEYS).toContainEqual(expect.objectContaining({ system, key }));
    expect(otherSystemDocument([{ key, value: '4411' }], [])).toEqual({ system, key, value: '4411' });
  });

  it("Moloni On's discard (-1) counts; its not-sent (0, empty) does not", () => {
    expect(otherSystemDocument([{ key: '_molonion_sent', value: '-1' }], [])).toEqual({ system: 'Moloni On', key: '_molonion_sent', value: '-1' });
    expect(otherSystemDocument([{ key: '_molonion_sent', value: '0' }, { key: '_moloni_sent', value: '' }], [])).toBeUndefined();
  });

  it("InvoiceXpress: the document's number from its sequence_number meta, not the internal id", () => {
    const meta = [
      { key: 'hd_wc_ie_plus_invoice_receipt_id', value: '88123401' },
      { key: 'hd_wc_ie_plus_invoice_receipt_sequence_number', value: 'FR 2026/318' },
    ];
    expect(otherSystemDocument(meta, [])).toEqual({ system: 'InvoiceXpress', key: 'hd_wc_ie_plus_invoice_receipt_id', value: 'FR 2026/318' });
    expect(otherSystemDocument(meta.slice(0, 1), [])?.value).toBe('88123401');
  });

  it('Vendus: a PHP-serialized record shows its number (as text or as the JSON WooCommerce answers)', () => {
    const serialized = 'a:3:{s:2:"id";i:7781;s:6:"number";s:14:"FT 01P2026/123";s:2:"nc";a:1:{s:2:"id";i:7790;}}';
    expect(otherSystemDocument([{ key: '_vendus_plugin_invoices_data', value: serialized }], [])?.value).toBe('FT 01P2026/123');
    expect(otherSystemDocument([{ key: '_vendus_plugin_invoices_data', value: { id: 7781, number: 'FT 01P2026/123' } }], [])?.value).toBe('FT 01P2026/123');
    // A record without a number shows its id, never 60 raw characters.
    expect(readableValue('a:2:{s:2:"id";i:7781;s:4:"date";s:10:"2026-11-02";}')).toBe('7781');
  });

  it('reads PHP strings by their UTF-8 byte length, nested arrays, objects, booleans and null', () => {
    expect(unserializePhp('s:8:"Conceição";')).toBeUndefined(); // 11 bytes, not 8
    expect(unserializePhp('s:11:"Conceição";')).toBe('Conceição');
    expect(unserializePhp('a:2:{i:0;b:1;i:1;N;}')).toEqual({ 0: true, 1: null });
    expect(unserializePhp('O:8:"stdClass":1:{s:6:"number";s:3:"A/1";}')).toEqual({ number: 'A/1' });
    expect(unserializePhp('d:1.5;')).toBe(1.5);
    expect(unserializePhp('a:1:{s:2:"id";i:1;')).toBeUndefined();
    expect(unserializePhp('FT 2026/77')).toBeUndefined();
  });

  it("a tenant's own key: any value other than empty or 0, shortened", () => {
    const long = 'x'.repeat(80);
    expect(otherSystemDocument([{ key: '_my_erp', value: long }], ['_my_erp'])?.value).toBe(`${'x'.repeat(57)}...`);
    expect(otherSystemDocument([{ key: '_my_erp', value: 'FT 2026/77' }], ['_my_erp'])).toEqual({ system: '_my_erp', key: '_my_erp', value: 'FT 2026/77' });
  });
});
