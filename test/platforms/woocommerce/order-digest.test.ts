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
});
