import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { MagniFinanceClient } from '../../client/rest-client';
import { Ledger } from '../../connector/core/ledger';
import { monthPack, type MonthPack } from '../../connector/month/month-pack';
import { ShopMonthOrders } from '../../connector/month/shop-orders';
import { packText } from '../../connector/month/month-render';
import { packPdf } from '../../connector/month/month-files';
import { pdfPageTexts } from './pdf-text';
import { SHOPIFY_TRIGGER_STATUSES } from '../../connector/config/shopify-tenant';
import { localDateTime } from '../../law/shop-date';
import { ShopifyShop } from '../../platforms/shopify/shopify-shop';
import { FakeShopify } from '../support/fake-shopify';
import { startTestSandbox, TEST_ACCOUNT, type RunningSandbox } from '../support/sandbox';
import { REDIS_URL } from '../connector/support/harness';
import { sweaterAndShippingRefund, TAXES_INCLUDED } from '../platforms/shopify/fixtures/orders';

/**
 * A Shopify store's month: a refund counts in the month it was made, which the pack reads from the
 * Shop port's neutral refund date (Shopify's Refund.createdAt), not in every month its order is
 * listed. The fake store over HTTP, the sandbox's document, real Redis.
 */

const ZONE = 'Europe/Lisbon';

function previousMonth(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return m === 1 ? `${year - 1}-12` : `${year}-${String(m - 1).padStart(2, '0')}`;
}

describe('a Shopify refund is counted in the month it was made', () => {
  const store = new FakeShopify({ retryDelayMs: () => 5 });
  let sandbox: RunningSandbox;
  let redis: IORedis;
  const prefix = `mft-${randomBytes(6).toString('hex')}`;
  const orderId = Number(TAXES_INCLUDED.legacyResourceId);
  const today = localDateTime(new Date(), ZONE).date;
  const month = today.slice(0, 7);
  const before = previousMonth(month);
  /** A day of the month before, at noon in Lisbon (no zone edge). */
  const earlierDay = `${before}-15`;
  let refundNow = 0;
  let refundEarlier = 0;
  let shop: ShopifyShop;

  beforeAll(async () => {
    await store.start();
    sandbox = await startTestSandbox();
    redis = new IORedis(REDIS_URL);
    shop = new ShopifyShop({ shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecrets: [store.clientSecret], timeoutMs: 5_000, sale: { currency: 'shop', nifSources: [{ from: 'attribute', key: 'nif' }] } });
    store.addOrder({ ...TAXES_INCLUDED, createdAt: `${earlierDay}T11:00:00Z`, processedAt: `${earlierDay}T11:00:00Z` });
    // One refund made last month, one today; neither has its credit note.
    refundEarlier = Number(store.refund(String(TAXES_INCLUDED.id), { ...sweaterAndShippingRefund(), createdAt: `${earlierDay}T12:00:00Z` }).legacyResourceId);
    refundNow = Number(store.refund(String(TAXES_INCLUDED.id), sweaterAndShippingRefund()).legacyResourceId);
    // The order's invoice, issued on the sandbox and kept in the ledger as the pipeline keeps it.
    const client = new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: sandbox.baseUrl, retry: false });
    const created = await client.createDocument({
      IsToClose: true,
      Client: { NIF: '999999990', Name: 'Cliente', CountryCode: 'PT' },
      Document: { Type: 'T', Date: today, DueDate: `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`, Lines: [{ Code: 'CAM-1', Description: 'Camisola', UnitPrice: 40.6, Quantity: 1, Unit: 'UN', Type: 'P', TaxValue: 23, ProductDiscount: 0 }] },
    });
    sandbox.store.clock.advance(60_000);
    const number = (await client.getDocument(created.documentId)).documentNumber ?? '';
    await new Ledger(redis, prefix).record({ tenant: 'loja', orderId, purpose: 'invoice' }, { state: 'written-back', documentId: created.documentId, documentNumber: number });
  }, 60_000);
  afterAll(async () => {
    await store.close();
    await sandbox.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  function packOf(of: string): Promise<MonthPack> {
    const client = new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: sandbox.baseUrl, retry: false });
    return monthPack({
      tenant: 'loja',
      month: of,
      timeZone: ZONE,
      companyTaxId: undefined,
      triggerStatuses: SHOPIFY_TRIGGER_STATUSES,
      listedStatuses: [...SHOPIFY_TRIGGER_STATUSES, 'refunded', 'cancelled'],
      shop: new ShopMonthOrders(shop),
      ledger: new Ledger(redis, prefix),
      redis,
      prefix,
      reader: { getDocument: (id) => client.getDocument(id) },
      dispatchRegion: undefined,
    });
  }

  it("reads each refund's day from the store (Shopify's createdAt)", async () => {
    const month = new ShopMonthOrders(shop);
    expect(await month.refundDate(orderId, refundEarlier)).toBe(Date.parse(`${earlierDay}T12:00:00Z`));
    const made = await month.refundDate(orderId, refundNow);
    expect(made).toBeDefined();
    expect(localDateTime(new Date(made ?? 0), ZONE).date).toBe(today);
    // A refund the store does not have gives no day.
    expect(await month.refundDate(orderId, 999_999)).toBeUndefined();
  });

  it('counts the refund made this month in this month only, and last month\'s in last month only', async () => {
    const refundFindings = (pack: MonthPack) => pack.findings.filter((f) => f.code === 'refund-without-credit-note').map((f) => f.params);
    expect(refundFindings(await packOf(month))).toEqual([expect.objectContaining({ order: orderId, refund: refundNow, day: today, currency: 'EUR' })]);
    const earlier = await packOf(before);
    expect(refundFindings(earlier)).toEqual([expect.objectContaining({ order: orderId, refund: refundEarlier, day: earlierDay })]);
    // Shopify has no tax report per rate: the pack says so, it is no difference.
    expect(earlier.shopReport).toEqual({ status: 'no-report', platform: 'shopify' });
    expect(packText(earlier, 'pt')).toContain('O Shopify não tem um relatório de impostos por taxa que se possa comparar');
    // And so does the PDF the accountant opens first, in either language.
    const pdfText = async (lang: 'pt' | 'en') => pdfPageTexts(await packPdf(earlier, lang, 'Loja')).join(' ');
    const pt = await pdfText('pt');
    expect(pt).toContain('O relatório de impostos do Shopify');
    expect(pt).toContain('O Shopify não tem um relatório de impostos por taxa que se possa comparar');
    expect(await pdfText('en')).toContain("Shopify has no tax report per rate to compare with: the month's figures are our documents'");
  }, 30_000);
});
