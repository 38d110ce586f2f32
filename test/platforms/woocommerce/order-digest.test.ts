import fixture from '../../fixtures/orders/pt-002-mixed-23-13-6-incl.json';
import { orderDigest } from '../../../connector/shop/order-meta';
import { woocommerce } from '../../../platforms/woocommerce/adapter';

/** The fixture order as a real shop has it after our writes: our marker and document meta beside another plugin's, the links, a modified stamp. */
function orderWithOurWrites(modified: string, ours: unknown): Record<string, unknown> {
  return {
    ...fixture,
    date_modified: modified,
    date_modified_gmt: modified,
    meta_data: [
      { id: 11, key: '_billing_nif', value: '232013969' },
      { id: 12, key: '_magnifinance_issuing_invoice', value: ours },
      { id: 13, key: '_wc_order_attribution_source_type', value: 'typein' },
    ],
    _links: { self: [{ href: `https://shop.example/wp-json/wc/v3/orders/${String(fixture.id)}` }] },
  };
}

describe('the digest of a WooCommerce order, as markers already written on real orders carry it', () => {
  it('is the pinned digest, whatever our own writes changed', () => {
    expect(orderDigest(orderWithOurWrites('2026-01-02T10:00:00', { documentId: 1 }), woocommerce.withoutOurWrites)).toBe('PbKGmYYczQ_X0u3CRp3BIN');
    expect(orderDigest(orderWithOurWrites('2026-03-04T11:22:33', { documentId: 2, at: 5 }), woocommerce.withoutOurWrites)).toBe('PbKGmYYczQ_X0u3CRp3BIN');
  });

  it("connector/ names no WooCommerce field: the order is digested whole without its platform's view", () => {
    const order = orderWithOurWrites('2026-01-02T10:00:00', { documentId: 1 });
    expect(orderDigest(order)).not.toBe('PbKGmYYczQ_X0u3CRp3BIN');
    expect(orderDigest(woocommerce.withoutOurWrites?.(order))).toBe('PbKGmYYczQ_X0u3CRp3BIN');
  });

  it('is the text a replacer leaving our writes out gives, on orders of every shape', () => {
    const leftOut = new Set(['date_modified', 'date_modified_gmt', '_links']);
    const reference = (order: unknown): string | undefined =>
      JSON.stringify(order, function (this: unknown, key: string, value: unknown) {
        if (this !== order) return value;
        if (leftOut.has(key)) return undefined;
        return key === 'meta_data' && Array.isArray(value) ? value.filter((entry: { key?: unknown }) => typeof entry?.key !== 'string' || !entry.key.startsWith('_magnifinance_')) : value;
      });
    const full = orderWithOurWrites('2026-01-02T10:00:00', { documentId: 1 });
    const shapes: unknown[] = [
      full,
      { ...full, meta_data: 'not a list' },
      { ...full, meta_data: [null, 7, { key: 3 }, { value: 'no key' }, { key: '_magnifinance_buyer', value: '{}' }] },
      { _links: {}, id: 1, date_modified_gmt: null, zeta: [1, { date_modified: 'kept below the top' }], alpha: 'á — 漢字' },
      { date_modified: 'x' },
      {},
      [full],
      'text',
      null,
    ];
    for (const order of shapes) expect(JSON.stringify(woocommerce.withoutOurWrites?.(order))).toBe(reference(order));
  });
});
