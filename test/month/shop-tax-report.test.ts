import IORedis from 'ioredis';
import { Ledger } from '../../connector/core/ledger';
import { monthBefore } from '../../connector/month/accountant-mail';
import { tenantMonthPack } from '../../connector/month/month-service';
import { packCsv, packPdf, packXlsx } from '../../connector/month/month-files';
import type { MonthPack } from '../../connector/month/month-pack';
import { packText } from '../../connector/month/month-render';
import { ShopMonthOrders } from '../../connector/month/shop-orders';
import type { ShopTaxRate } from '../../connector/month/shop-tax-report';
import { buildTenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { META } from '../../connector/shop/order-meta';
import { localDateTime } from '../../law/shop-date';
import ExcelJS from 'exceljs';
import { buildRefund, eventually, portugueseOrder, REDIS_URL, startHarness, type Harness } from '../connector/support/harness';
import { startFakeWooCommerce } from '../support/fake-woocommerce';
import { wooRefundJson } from '../support/payloads';
import { pdfPageTexts } from './pdf-text';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The PDFs made here, to look at (pdftoppm). */
const SAMPLES = join(tmpdir(), 'magnifinance-month-files');

/** The PDF's pages as a person reads them, the file kept under SAMPLES. */
async function pdfPages(pack: MonthPack, lang: 'pt' | 'en', name: string): Promise<string[]> {
  const pdf = await packPdf(pack, lang, 'Loja das Canecas');
  mkdirSync(SAMPLES, { recursive: true });
  writeFileSync(join(SAMPLES, `${name}.pdf`), pdf);
  return pdfPageTexts(pdf);
}

/**
 * Our VAT of the month against WooCommerce's own tax report (wc-analytics/reports/taxes, served by
 * the fake shop from its orders as WooCommerce Admin computes it: by creation date, refunds as
 * negative rows, no base): each difference is explained by the orders that make it, and never
 * shown as something to fix; a shop without the report says "not available".
 */
const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

describe("the month against WooCommerce's tax report", () => {
  let h: Harness;
  let redis: IORedis;
  const month = localDateTime(new Date(), 'Europe/Lisbon').date.slice(0, 7);
  const invoiced: number[] = [];
  let createdEarlier = 0;

  beforeAll(async () => {
    h = await startHarness({ settings: { language: 'pt' } });
    redis = new IORedis(REDIS_URL);
    for (let i = 0; i < 2; i += 1) invoiced.push(Number(h.woo.putOrder(portugueseOrder()).id));
    // Created last month, paid and invoiced in this one: WooCommerce counts it last month.
    createdEarlier = Number(h.woo.putOrder(portugueseOrder({ dateCreatedGmt: `${monthBefore(month)}-15T10:00:00` })).id);
    // On hold (a bank transfer not yet paid): no invoice, but WooCommerce's report counts it.
    h.woo.putOrder(portugueseOrder({ status: 'on-hold', datePaidGmt: null, items: [{ name: 'Caneca de cerâmica', sku: 'CAN-01', productId: 11, price: '12.50', quantity: 1, rate: '23' }] }));
    expect((await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'shop1' }) })).status).toBe(200);
    for (const id of [...invoiced, createdEarlier]) await eventually(`order ${id} invoiced`, () => h.woo.meta(id, META.documentNumber), 60_000);
    // The book of the first order is refunded this month, and credited this month.
    h.woo.addRefund(invoiced[0], wooRefundJson(buildRefund(h.woo.order(invoiced[0]), { id: 9301, dateGmt: new Date().toISOString().slice(0, 19), items: [{ index: 1, quantity: 1 }] })));
    const ledger = h.connector?.ledger as Ledger;
    await eventually('the credit note', async () => (await ledger.get({ tenant: 'shop1', orderId: invoiced[0], purpose: 'credit-note-9301' }))?.state === 'written-back', 60_000);
  }, 180_000);
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

  it('reads the report as WooCommerce Admin answers it: per rate, by creation date, refunds off the tax and out of the order count', async () => {
    const shop = new ShopMonthOrders(buildTenantRuntime(h.config.tenants[0]).shop);
    const report = await shop.taxReport?.({ from: `${month}-01T00:00:00`, to: `${month}-31T23:59:59` });
    expect(report?.available).toBe(true);
    const rows = report?.available ? report.rows : [];
    // Three orders created this month (two invoiced, one on hold); the one created last month is not here.
    expect(rows.find((r) => r.percent === '23')).toMatchObject({ orders: 3, totalTax: '17.50', orderTax: '14.38', shippingTax: '3.12', name: expect.any(String) });
    // The book's VAT of two orders, less the refund's (a row of its own, negative, not an order).
    expect(rows.find((r) => r.percent === '6')).toMatchObject({ orders: 2, totalTax: '1.13', orderTax: '1.13', shippingTax: '0.00' });
  });

  it('explains each difference by the orders that make it, never as something to fix', async () => {
    const pack = await tenantMonthPack(buildTenantRuntime(h.config.tenants[0]), { redis, prefix: h.prefix, ledger: new Ledger(redis, h.prefix) }, month);
    expect(pack.shopReport).toMatchObject({ status: 'compared', platform: 'woocommerce', from: `${month}-01T00:00:00` });
    const rates = pack.shopReport.status === 'compared' ? pack.shopReport.rates : [];
    const rate = (percent: string): ShopTaxRate | undefined => rates.find((r) => r.percent === percent);
    // 23 %: ours holds three orders' 6.79 (two of this month, one created last month); WooCommerce the two and the order on hold (3.92).
    expect(rate('23')).toMatchObject({ shopTax: '17.50', ourTax: '20.37', ourBase: '88.50', difference: '-2.87', notOurs: false, explained: [{ code: 'created-other-month', orders: [createdEarlier], tax: '-6.79' }], rest: '3.92' });
    // 6 %: the refund and its credit note fall in the same month; only the order created last month differs.
    expect(rate('6')).toMatchObject({ shopTax: '1.13', ourTax: '2.26', difference: '-1.13', explained: [{ code: 'created-other-month', orders: [createdEarlier], tax: '-1.13' }], rest: '0.00' });

    // The words: the console page, the CLI's text, the CSV and the XLSX say why, order by order.
    const page = await (await fetch(`${h.connector?.origin}/console/shop1/month/${month}?lang=pt`, { headers: ADMIN })).text();
    expect(page).toContain('O relatório de impostos do WooCommerce');
    expect(page).toContain('não são erros');
    expect(page).toContain(`encomendas criadas noutro mês e faturadas neste (#${createdEarlier})`);
    expect(page).toContain('encomendas em estados que o conector não fatura');
    const text = packText(pack, 'en');
    expect(text).toContain("WooCommerce's tax report");
    expect(text).toContain(`orders created in another month and invoiced in this one (#${createdEarlier}); WooCommerce counts them in the month they were created.`);
    expect(packCsv(pack, 'pt')).toContain(`23,17.50,3,20.37,88.50,-2.87,`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await packXlsx(pack, 'en')) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('WooCommerce');
    expect(sheet?.getRow(2).values).toEqual(expect.arrayContaining([23, 17.5, 3, 20.37, 88.5, -2.87]));

    // The PDF the accountant opens first from the e-mail: per rate WooCommerce's VAT, ours, the difference and why, on its one page.
    const pt = await pdfPages(pack, 'pt', 'shop-report-pt');
    expect(pt).toHaveLength(1);
    expect(pt[0]).toContain('O relatório de impostos do WooCommerce');
    expect(pt[0]).toContain('não são erros');
    expect(pt[0]).toMatch(/IVA 23 % 17,50 € 3 20,37 € 88,50 € -2,87 €/);
    expect(pt[0]).toMatch(/IVA 6 % 1,13 € 2 2,26 € \S+ € -1,13 €/);
    expect(pt[0]).toContain(`-6,79 €: encomendas criadas noutro mês e faturadas neste (#${createdEarlier}); o WooCommerce conta-as no mês em que foram criadas.`);
    expect(pt[0]).toContain('3,92 € sem encomenda a que se possa atribuir');
    const en = await pdfPages(pack, 'en', 'shop-report-en');
    expect(en).toHaveLength(1);
    expect(en[0]).toContain("WooCommerce's tax report");
    expect(en[0]).toMatch(/VAT 23 % €17.50 3 €20.37 €88.50 -€2.87/);
    expect(en[0]).toContain(`-€6.79: orders created in another month and invoiced in this one (#${createdEarlier}); WooCommerce counts them in the month they were created.`);
    expect(en[0]).not.toMatch(/more explanations? in the XLSX/);

    // More reasons than the page holds: the first ones, and how many more are in the XLSX and the CSV.
    const compared = pack.shopReport.status === 'compared' ? pack.shopReport : undefined;
    const crowded: MonthPack = {
      ...pack,
      shopReport: {
        ...(compared as NonNullable<typeof compared>),
        rates: rates.map((r) => (r.percent === '23' ? { ...r, explained: [...r.explained, { code: 'cancelled-document', orders: [invoiced[1]], tax: '1.00' }, { code: 'order-cancelled-in-shop', orders: [invoiced[0]], tax: '-1.00' }] } : r)),
      },
    };
    const crowdedEn = (await pdfPages(crowded, 'en', 'shop-report-crowded-en')).join(' ');
    expect(crowdedEn).toContain(`-€6.79: orders created in another month`);
    expect(crowdedEn).toContain(`€1.00: documents cancelled on MagniFinance whose orders WooCommerce still counts (#${invoiced[1]}).`);
    expect(crowdedEn).not.toContain('orders cancelled in the shop with documents of this month');
    expect(crowdedEn).toContain('And 2 more explanations in the XLSX (the "WooCommerce" sheet) and the CSV.');
    expect((await pdfPages(crowded, 'pt', 'shop-report-crowded-pt')).join(' ')).toContain('E mais 2 explicações no XLSX (folha «WooCommerce») e no CSV.');

    // A month of many rates: the comparison goes whole to a second page, and no rate is lost.
    const many: MonthPack = {
      ...crowded,
      shopReport: {
        ...(compared as NonNullable<typeof compared>),
        rates: Array.from({ length: 20 }, (_, i) => ({ ...rates[0], percent: String(30 - i), names: [], shopTax: '17.50', ourTax: '17.50', difference: '0.00', explained: [], rest: '0.00' })),
      },
    };
    const pages = await pdfPages(many, 'pt', 'shop-report-many-pt');
    expect(pages).toHaveLength(2);
    expect(pages[0]).not.toContain('O relatório de impostos do WooCommerce');
    expect(pages[1]).toContain('O relatório de impostos do WooCommerce');
    for (let i = 0; i < 20; i += 1) expect(pages[1]).toContain(`IVA ${30 - i} % 17,50 €`);
    expect(pages[1]).toContain('Igual, ao cêntimo.');
  }, 60_000);

  it('says "not available" for a shop without the analytics report', async () => {
    const older = await startFakeWooCommerce({ analytics: false, consumerKey: h.woo.consumerKey, consumerSecret: h.woo.consumerSecret });
    try {
      const tenant = { ...h.config.tenants[0], shop: { ...h.config.tenants[0].shop, url: older.origin } };
      expect(await new ShopMonthOrders(buildTenantRuntime(tenant).shop).taxReport?.({ from: `${month}-01T00:00:00`, to: `${month}-31T23:59:59` })).toEqual({ available: false, reason: 'no-route' });
      const pack = await tenantMonthPack(buildTenantRuntime(tenant), { redis, prefix: h.prefix, ledger: new Ledger(redis, h.prefix) }, month);
      expect(pack.shopReport).toEqual({ status: 'not-available', reason: 'no-route', platform: 'woocommerce' });
      expect(packText(pack, 'pt')).toContain('Este WooCommerce não tem o relatório de impostos da sua análise (wc-analytics)');
      const pdf = (await pdfPages(pack, 'pt', 'shop-report-no-route-pt')).join(' ');
      expect(pdf).toContain('O relatório de impostos do WooCommerce');
      expect(pdf).toContain('Este WooCommerce não tem o relatório de impostos da sua análise (wc-analytics)');
      expect((await pdfPages(pack, 'en', 'shop-report-no-route-en')).join(' ')).toContain('This WooCommerce has no analytics tax report (wc-analytics)');
      // A key that may not read reports (401/403), and a report that could not be read: the page's reason line, in the PDF too.
      const notAllowed: MonthPack = { ...pack, shopReport: { status: 'not-available', reason: 'not-allowed', platform: 'woocommerce' } };
      expect((await pdfPages(notAllowed, 'pt', 'shop-report-not-allowed-pt')).join(' ')).toContain('A chave REST da loja não pode ler os relatórios do WooCommerce');
      const unread: MonthPack = { ...pack, shopReport: { status: 'unread', error: 'HTTP 502', platform: 'woocommerce' } };
      expect((await pdfPages(unread, 'en', 'shop-report-unread-en')).join(' ')).toContain("Could not read WooCommerce's tax report (HTTP 502): make the pack again.");
      expect(pack.findings).toEqual([]);
    } finally {
      await older.close();
    }
  });
});
