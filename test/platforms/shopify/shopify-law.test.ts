import { OrderMappingError } from '../../../law/mapping-errors';
import { MappingSettingsSchema } from '../../../law/mapping-settings';
import { documentForSale } from '../../../law/order-to-document';
import { creditNoteForRefund } from '../../../law/refund-to-credit-note';
import type { Sale } from '../../../law/sale';
import { shopify } from '../../../platforms/shopify/adapter';
import { ShopifyAdminClient } from '../../../platforms/shopify/admin-client';
import { readShopifyOrder, readShopifyRefund } from '../../../platforms/shopify/order-query';
import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { bag, EXPORT_WITH_DUTIES, GIFT_CARD_TIP_CASH, MULTI_CURRENCY_TAXES_EXCLUDED, sweaterAndShippingRefund, TAXES_INCLUDED } from './fixtures/orders';

/**
 * Shopify orders through the Shopify adapter (the platform's saleOf / refundOf) into the law's
 * document requests: what the connector's worker sends to the invoicing service for a Shopify store.
 */

const store = new FakeShopify();
let client: ShopifyAdminClient;
const mapping = MappingSettingsSchema.parse({ shopTimeZone: 'Europe/Lisbon', externalIdPrefix: 'shopify-' });
const issue = { issueDate: '2026-11-27', invoiceDate: '2026-11-27' };

beforeAll(async () => {
  await store.start();
  client = new ShopifyAdminClient({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken });
  for (const order of [TAXES_INCLUDED, MULTI_CURRENCY_TAXES_EXCLUDED, GIFT_CARD_TIP_CASH, EXPORT_WITH_DUTIES]) store.addOrder(order);
});
afterAll(() => store.close());

async function saleOf(order: JsonObject): Promise<Sale> {
  return shopify.saleOf(await readShopifyOrder(client, String(order.legacyResourceId)), mapping);
}

describe('a Shopify sale through the law', () => {
  it('taxes included, a code and shipping: an invoice-receipt at the charged rates for the buyer\'s NIF, not held', async () => {
    const doc = documentForSale(await saleOf(TAXES_INCLUDED), mapping, issue);
    expect(doc.hold).toBe(false);
    expect(doc.request.Client).toMatchObject({ NIF: '509442013', Name: 'Maria Silva', CountryCode: 'PT' });
    expect(doc.request.Document).toMatchObject({ Type: 'T', ExternalId: 'shopify-5962412736508', Description: 'Encomenda #1001 de 2026-11-20' });
    expect(doc.request.Document.Lines.map((l) => [l.Description, l.Quantity, l.TaxValue, l.ProductDiscount])).toEqual([
      ['Camisola de lã - M', '2', '23', '9.98'],
      ['Os Lusíadas', '1', '6', '0'],
      ['CTT Expresso', '1', '23', '0'],
    ]);
  });

  it('a B2B company: its tax registration is the NIF, the company is the legal name', async () => {
    const doc = documentForSale(await saleOf(MULTI_CURRENCY_TAXES_EXCLUDED), mapping, issue);
    expect(doc.hold).toBe(false);
    expect(doc.request.Client).toMatchObject({ NIF: '507957547', LegalName: 'Tecidos do Norte, Lda.' });
  });

  it('an export with duties: 0 % with the export\'s exemption (M05), duties a line of their own', async () => {
    const doc = documentForSale(await saleOf(EXPORT_WITH_DUTIES), mapping, issue);
    expect(doc.request.Document.TaxExemptionReasonCode).toBe('M05');
    expect(doc.request.Document.Lines.map((l) => [l.Description, l.UnitPrice, l.TaxValue])).toEqual([
      ['Cadeira de cortiça', '100', '0'],
      ['International', '10', '0'],
      ['Direitos aduaneiros: Cadeira de cortiça', '8', '0'],
    ]);
  });

  it('a gift card sold (no VAT when sold) is refused until the accountant names its reason: the order goes to a person', async () => {
    const sale = await saleOf(GIFT_CARD_TIP_CASH);
    expect(() => documentForSale(sale, mapping, issue)).toThrow(OrderMappingError);
    expect(() => documentForSale(sale, mapping, issue)).toThrow(/"Cartão-presente 25 €" has 0% VAT but no exemption reason applies/);
  });

  it('a refund of a sweater and the shipping: a credit note of those lines against the invoice', async () => {
    // Without the merchant's goodwill adjustment: 44.91 + 4.90 back to the card.
    const base = sweaterAndShippingRefund();
    const transaction = { ...(base.transactions as JsonObject[])[0], amountSet: bag('49.81') };
    const refunded = store.refund(String(TAXES_INCLUDED.id), { ...base, orderAdjustments: [], totalRefundedSet: bag('49.81'), transactions: [transaction] });
    const sale = await saleOf(TAXES_INCLUDED);
    const refund = shopify.refundOf(await readShopifyRefund(client, String(refunded.id)), sale);
    expect(refund.amount).toBe('49.81');
    const note = creditNoteForRefund(sale, refund, 'FR 2026/1', mapping, issue);
    expect(note.request.Document).toMatchObject({ Type: 'C', DocumentReference: 'FR 2026/1', ExternalId: `shopify-5962412736508-R${refund.id}` });
    expect(note.request.Document.Lines.map((l) => [l.Description, l.Quantity, l.TaxValue])).toEqual([
      ['Camisola de lã - M', '1', '23'],
      ['CTT Expresso', '1', '23'],
    ]);
  });

  it('a goodwill amount refunded beyond the items (an order adjustment without tax) goes to a person: its rate is the accountant\'s call', async () => {
    const refunded = store.refund(String(TAXES_INCLUDED.id), sweaterAndShippingRefund());
    const sale = await saleOf(TAXES_INCLUDED);
    const refund = shopify.refundOf(await readShopifyRefund(client, String(refunded.id)), sale);
    expect(refund.lines.map((l) => [l.kind, l.total])).toEqual([
      ['product', '36.51'],
      ['shipping', '3.98'],
      ['fee', '1.00'],
    ]);
    expect(() => creditNoteForRefund(sale, refund, 'FR 2026/1', mapping, issue)).toThrow(/"Acerto do reembolso" has 0% VAT but no exemption reason applies/);
  });
});
