import { computeTotals } from '../../../client/totals';
import { formatDecimal } from '../../../client/money';
import { mappingText } from '../../../law/mapping-messages';
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

// A store that sells to B2B companies grants read_companies: Shopify's Company and CompanyLocation need it.
const store = new FakeShopify({ scopes: ['read_orders', 'write_orders', 'read_companies'] });
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

  it('a gift card sold is no supply (CIVA art. 7(13)-(14)): the invoice covers the mug, the card is left out by the law\'s voucher rule; the tip holds the order', async () => {
    const doc = documentForSale(await saleOf(GIFT_CARD_TIP_CASH), mapping, issue);
    expect(doc.request.Document.Lines.map((l) => [l.Description, l.TaxValue])).toEqual([['Caneca azulejo', '23']]);
    expect(formatDecimal(computeTotals(doc.request.Document.Lines).amount, 2)).toBe('11.98');
    expect(doc.notes.map((n) => n.message).join('\n')).toMatch(/"Cartão-presente 25 €" is a gift card sold for 25\.00 without VAT: a multi-purpose voucher's sale is no supply/);
    // Only the tip (no consideration for the supply) goes to a person.
    expect(doc.holds.map((h) => h.code)).toEqual(['donation-left-out', 'invoice-deadline']);
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

  it('a goodwill amount refunded beyond the items (an order adjustment without tax) has no rate of its own: held by default, in words that say what to do', async () => {
    const refunded = store.refund(String(TAXES_INCLUDED.id), sweaterAndShippingRefund());
    const sale = await saleOf(TAXES_INCLUDED);
    const refund = shopify.refundOf(await readShopifyRefund(client, String(refunded.id)), sale);
    expect(refund.lines.map((l) => [l.kind, l.total])).toEqual([
      ['product', '36.51'],
      ['shipping', '3.98'],
    ]);
    expect(refund.withoutLines).toEqual({ amount: '1.00' });
    const note = creditNoteForRefund(sale, refund, 'FR 2026/1', mapping, issue);
    expect(note.hold).toBe(true);
    expect(note.holds.map((h) => h.code)).toEqual(['refund-without-lines-held']);
    const words = mappingText('pt', note.holds[0]);
    expect(words).toMatch(/devolve 1,00 € que a loja registou à parte dos artigos e dos portes reembolsados/);
    expect(words).toMatch(/refundWithoutLines: "proportional"/);
    expect(words).not.toMatch(/WooCommerce/);
  });

  it('refundWithoutLines: proportional: the goodwill amount is credited across the invoice\'s rates in proportion to what each sold, issued', async () => {
    const refunded = store.refund(String(TAXES_INCLUDED.id), sweaterAndShippingRefund());
    const sale = await saleOf(TAXES_INCLUDED);
    const refund = shopify.refundOf(await readShopifyRefund(client, String(refunded.id)), sale);
    const proportional = MappingSettingsSchema.parse({ ...mapping, refundWithoutLines: 'proportional' });
    const note = creditNoteForRefund(sale, refund, 'FR 2026/1', proportional, issue);
    expect(note.hold).toBe(false);
    const lines = note.request.Document.Lines;
    expect(lines.slice(0, 2).map((l) => l.Description)).toEqual(['Camisola de lã - M', 'CTT Expresso']);
    // The 1.00 over the order's two rates (23 % and 6 %), each share at its rate.
    expect(lines.slice(2).map((l) => l.TaxValue).sort()).toEqual(['23', '6']);
    expect(formatDecimal(computeTotals(lines).amount, 2)).toBe(refund.amount);
  });
});
