import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { creditNoteRequest, withInvoiceReferenceRate, withReferenceRate } from '../../connector/pipeline/document-requests';
import { EcbRateSource, ExchangeRatesSettingsSchema } from '../../connector/rates/ecb-rates';
import { parseMappingSettings } from '../../law/mapping-settings';
import { documentForSale } from '../../law/order-to-document';
import { parseWooRefund } from '../../platforms/woocommerce/order-schema';
import { saleRefundOfWooRefund } from '../../platforms/woocommerce/refund-to-sale-refund';
import { wooSale } from '../law/support/sale';
import { buildOrder, buildRefund, type Cart } from '../law/support/woo-cart';
import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { wooRefundJson } from '../support/payloads';
import { eventually, portugueseOrder, startHarness, WEBHOOK_SECRET } from './support/harness';

/**
 * Issue 26 (item 3): a credit note's exchange rate is its invoice's, the ECB reference rate of the day
 * the invoice's tax became due (CIVA art. 8(1), 18(9); the credit note corrects that invoice, art.
 * 29(7), 78(2)), as its VAT rates already are; never the ECB rate of the day the credit note is issued.
 * Read from a local stand-in of the ECB's rates file (same XML shape).
 */
const ECB_FILE = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube>
    <Cube time="2026-06-01"><Cube currency="USD" rate="1.2500"/></Cube>
    <Cube time="2026-03-10"><Cube currency="USD" rate="1.0850"/></Cube>
    <Cube time="2026-03-06"><Cube currency="USD" rate="1.0800"/></Cube>
  </Cube>
</gesmes:Envelope>`;

const RATE = { '2026-03-06': '0.9259259259', '2026-03-10': '0.9216589862', '2026-06-01': '0.8000000000' } as const;

describe('CIVA art. 8(1), 18(9), 29(7): a credit note carries the exchange rate of its invoice\'s tax day', () => {
  let server: Server;
  let source: EcbRateSource;
  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/xml' }).end(ECB_FILE));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    source = new EcbRateSource(ExchangeRatesSettingsSchema.parse({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref-hist-90d.xml` }));
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  const cart = (extra: Partial<Cart>): Cart => ({
    id: 8200,
    currency: 'USD',
    items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate: '23' }],
    billing: { first_name: 'Ann', last_name: 'Lee', address_1: 'Rua 1', city: 'Lisboa', postcode: '1100-053', country: 'PT' },
    dateCreatedGmt: '2026-03-08T10:00:00',
    ...extra,
  });
  const settings = parseMappingSettings({ euroRates: { USD: '0.5' }, invoiceUnpaidStatuses: ['on-hold'] });

  it.each<[string, Partial<Cart>, string | undefined, keyof typeof RATE]>([
    ['art. 8(1)(c), 18(9), 29(7): paid on Sunday 2026-03-08, invoiced 2026-03-10: the payment day\'s rate (the ECB\'s of 2026-03-06)', { datePaidGmt: '2026-03-08T10:00:00' }, '2026-03-10', '2026-03-06'],
    ['art. 8(1)(b), 18(9), 29(7): unpaid, invoiced in time on 2026-03-10: the invoice day\'s rate', { datePaidGmt: null }, '2026-03-10', '2026-03-10'],
    ['art. 8(1), 29(7): the invoice\'s date unknown to the caller: the sale\'s day', { datePaidGmt: '2026-03-08T10:00:00' }, undefined, '2026-03-06'],
  ])('%s', async (_name, extra, invoiceDate, taxDay) => {
    const order = buildOrder(cart(extra));
    const sale = wooSale(order, settings);
    const refund = saleRefundOfWooRefund(parseWooRefund(buildRefund(order, { id: 8201, items: [{ index: 0, quantity: 1 }] }), 8200), 8200);
    // The credit note is issued on 2026-06-01, when the ECB quotes another rate.
    const issue = { issueDate: '2026-06-01', ...(invoiceDate ? { invoiceDate } : {}) };
    const rated = await withInvoiceReferenceRate(source, sale, settings, invoiceDate);
    expect(rated.note).toBeUndefined();
    const credit = creditNoteRequest(sale, refund, 'FT 2026/7', rated.settings, issue);
    if (credit.kind !== 'document') throw new Error('no credit note');
    expect(credit.request.Document.EuroRate).toBe(RATE[taxDay]);
    expect(credit.request.Document.EuroRate).not.toBe(RATE['2026-06-01']);
    expect(credit.notes.map((n) => n.message)).toContain(`Order in USD: EuroRate ${RATE[taxDay]}, the ECB reference rate of ${taxDay}`);
    if (invoiceDate) {
      // The very rate the invoice carried, composed as the pipeline composes it.
      const invoice = documentForSale(sale, (await withReferenceRate(source, sale, settings, invoiceDate)).settings, { issueDate: invoiceDate });
      expect(credit.request.Document.EuroRate).toBe(invoice.request.Document.EuroRate);
    }
  });
});

describe('CIVA art. 8(1)(c), 18(9), 29(7), through the pipeline: the credit note of an order paid ten days ago carries its invoice\'s ECB rate, not today\'s', () => {
  it('invoice and credit note both at the ECB rate of the payment day; the static rate never used', async () => {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const paidAt = Date.now() - 10 * 86_400_000;
    const file = ECB_FILE.replace('<Cube time="2026-06-01"><Cube currency="USD" rate="1.2500"/></Cube>', `<Cube time="${day(Date.now())}"><Cube currency="USD" rate="1.2500"/></Cube><Cube time="${day(paidAt)}"><Cube currency="USD" rate="1.0800"/></Cube>`);
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/xml' }).end(file));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref-hist-90d.xml`;
    const h = await startHarness({ settings: { mapping: { euroRates: { USD: '0.5' } } }, tenant: { exchangeRates: { url } } });
    try {
      const paid = new Date(paidAt).toISOString().slice(0, 19);
      const order = portugueseOrder({ currency: 'USD', datePaidGmt: paid, dateCreatedGmt: paid });
      const id = Number(order.id);
      await h.deliver(order);
      await eventually('invoice number', () => h.woo.meta(id, META.documentNumber) as string | undefined, 30_000);
      const refund = h.woo.addRefund(id, wooRefundJson(buildRefund(h.woo.order(id), { id: 931, items: [{ index: 0, quantity: 1 }] })));
      await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(id) });
      await eventually('the credit note written back', async () => (await h.connector?.ledger.forOrder('shop1', id))?.[`credit-note-${String(refund.id)}`]?.state === 'written-back', 30_000);
      const docs = await h.documentsOf(id);
      const invoice = docs.find((d) => d.document.Type !== 'C');
      const credit = docs.find((d) => d.document.Type === 'C');
      expect(invoice?.document.EuroRate).toBe(RATE['2026-03-06']);
      expect(credit?.document.EuroRate).toBe(invoice?.document.EuroRate);
    } finally {
      await h.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
