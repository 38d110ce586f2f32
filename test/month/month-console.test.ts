import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { MagniFinanceClient } from '../../client/rest-client';
import { parseConfig } from '../../connector/config/load-config';
import { ConnectorMetrics } from '../../connector/core/metrics';
import { startConnector, type RunningConnector } from '../../connector/main/runtime';
import { META } from '../../connector/shop/order-meta';
import { localDateTime } from '../../law/shop-date';
import { englishWords } from '../support/english-words';
import { TEST_ACCOUNT } from '../support/sandbox';
import { CHROMIUM, launchChromium } from '../connector/support/console-browser';
import { sendWooWebhook } from '../support/fake-woocommerce';
import ExcelJS from 'exceljs';
import IORedis from 'ioredis';
import { eventually, portugueseOrder, quietLogger, REDIS_URL, startHarness, WEBHOOK_SECRET, type Harness } from '../connector/support/harness';

/**
 * The month page of the console and the read-only accountant role: the accountant signs in, sees
 * every page (the shop, an order, the month), uploads the month's SAF-T and reads the pack; every
 * change is refused to them with 403 (the same requests pass for the admin). A screenshot of the
 * month page at 1280 and 390 px, Portuguese and English: UPDATE_SCREENSHOTS=1 writes them into docs/screenshots.
 */
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '../../docs/screenshots') : join(tmpdir(), 'magnifinance-month-screenshots');
/** The sample files, to look at (pdftoppm, libreoffice). */
const SAMPLES = join(tmpdir(), 'magnifinance-month-files');
const basic = (user: string, password: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const ADMIN = basic('admin', 'admin-pw');
const ACCOUNTANT = { ...basic('contabilista', 'conta-pw-2026'), 'accept-language': 'pt-PT' };

describe('the console month page and the read-only accountant', () => {
  let h: Harness;
  let connector: RunningConnector;
  let origin: string;
  let month: string;
  const orders: number[] = [];

  beforeAll(async () => {
    h = await startHarness({ role: 'none', settings: { language: 'pt' } });
    const config = parseConfig({ ...h.rawConfig, admin: { username: 'admin', password: 'admin-pw', accountant: { username: 'contabilista', password: 'conta-pw-2026' } } }, 'test', {});
    connector = await startConnector(config, { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    origin = connector.origin as string;
    for (let i = 0; i < 3; i += 1) {
      const order = h.woo.putOrder(portugueseOrder());
      orders.push(Number(order.id));
      await sendWooWebhook({ url: `${origin}/webhooks/woocommerce/shop1`, secret: WEBHOOK_SECRET, topic: 'order.created', payload: h.woo.order(Number(order.id)), source: `${h.woo.origin}/` });
    }
    for (const id of orders) await eventually(`order ${id} invoiced`, () => h.woo.meta(id, META.documentNumber));
    month = localDateTime(new Date(), 'Europe/Lisbon').date.slice(0, 7);
  }, 120_000);
  afterAll(async () => {
    await connector.close();
    await h.close();
  });

  it('lets the accountant see every page and refuses every change with 403, which the admin may make', async () => {
    for (const path of ['/console', '/console/shop1', `/console/shop1/orders/${orders[0]}`, `/console/shop1/month/${month}`, `/admin/api/orders/shop1/${orders[0]}`, `/admin/api/month/shop1/${month}`]) {
      expect({ path, status: (await fetch(`${origin}${path}`, { headers: ACCOUNTANT })).status }).toEqual({ path, status: 200 });
    }
    const shopPage = await (await fetch(`${origin}/console/shop1`, { headers: ACCOUNTANT })).text();
    const token = /name="csrf" value="([^"]+)"/.exec(shopPage)?.[1] as string;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const writes: [string, string, Record<string, string>, string][] = [
      ['POST', `/console/shop1/orders/${orders[0]}/retry`, form, new URLSearchParams({ csrf: token, purpose: 'invoice' }).toString()],
      ['POST', `/console/shop1/orders/${orders[0]}/credit-note`, form, new URLSearchParams({ csrf: token }).toString()],
      ['POST', '/console/shop1/sweep', form, new URLSearchParams({ csrf: token }).toString()],
      ['POST', '/admin/api/sweep', { 'content-type': 'application/json' }, JSON.stringify({ tenant: 'shop1' })],
      ['POST', `/admin/api/orders/shop1/${orders[0]}/dismiss`, { 'content-type': 'application/json' }, JSON.stringify({ purpose: 'invoice', reason: 'no reason' })],
      ['POST', '/admin/api/reload', { 'content-type': 'application/json' }, '{}'],
    ];
    for (const [method, path, headers, body] of writes) {
      const answer = await fetch(`${origin}${path}`, { method, headers: { ...ACCOUNTANT, ...headers }, body, redirect: 'manual' });
      expect({ path, status: answer.status, text: await answer.text() }).toEqual({ path, status: 403, text: expect.stringContaining('contabilista') });
    }
    // The same sweep is the admin's to run: the refusal is the role's, not the route's.
    expect((await fetch(`${origin}/admin/api/sweep`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'shop1' }) })).status).toBe(200);
    // Nothing the accountant tried reached the service: one document per order, as before.
    expect((await h.documents()).filter((d) => d.status !== 'draft')).toHaveLength(orders.length);
  });

  it("reconciles the SAF-T the accountant uploads in the console, in Portuguese, and the page is shot at 1280 and 390 px in both languages", async () => {
    // A sale invoiced by hand in the back-office: the SAF-T has it, the connector does not.
    const client = new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: h.sandbox.baseUrl, retry: false });
    const today = localDateTime(new Date(), 'Europe/Lisbon').date;
    const created = await client.createDocument({ IsToClose: true, Client: { NIF: '999999990', Name: 'Cliente ao balcão', CountryCode: 'PT' }, Document: { Type: 'T', Date: today, DueDate: `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`, Lines: [{ Code: 'BAL-1', Description: 'Venda ao balcão', UnitPrice: 40, Quantity: 1, Unit: 'UN', Type: 'P', TaxValue: 23, ProductDiscount: 0 }] } });
    h.sandbox.store.clock.advance(60_000);
    const byHand = (await client.getDocument(created.documentId)).documentNumber as string;
    const saft = Buffer.from(await (await fetch(`${h.sandbox.origin}/_sandbox/saft?accountTaxId=${TEST_ACCOUNT.taxId}&month=${month}&encoding=windows-1252`)).arrayBuffer());
    const page = await (await fetch(`${origin}/console/shop1/month/${month}`, { headers: ACCOUNTANT })).text();
    const token = /name="csrf" value="([^"]+)"/.exec(page)?.[1] as string;
    const body = new FormData();
    body.set('csrf', token);
    body.set('saft', new Blob([new Uint8Array(saft)], { type: 'application/xml' }), 'SAFT.xml');
    const answer = await fetch(`${origin}/console/shop1/month/${month}`, { method: 'POST', headers: ACCOUNTANT, body });
    const text = await answer.text();
    expect(answer.status).toBe(200);
    expect(text).toContain(`O documento ${byHand} de `);
    expect(text).toContain('não foi emitido pelo conector');
    expect(text).toContain(`SAF-T ${TEST_ACCOUNT.taxId}`);
    // A forged upload (no token) is refused.
    const forged = new FormData();
    forged.set('saft', new Blob([new Uint8Array(saft)]), 'SAFT.xml');
    expect((await fetch(`${origin}/console/shop1/month/${month}`, { method: 'POST', headers: ACCOUNTANT, body: forged })).status).toBe(403);

    if (!existsSync(CHROMIUM)) return;
    const browser: Browser = await launchChromium();
    try {
      mkdirSync(SHOTS, { recursive: true });
      const file = join(tmpdir(), `month-saft-${process.pid}.xml`);
      writeFileSync(file, saft);
      // Desktop and phone, Portuguese and English: the page after the upload, nothing wider than the screen.
      for (const [lang, width] of [['pt', 1280], ['pt', 390], ['en', 1280], ['en', 390]] as const) {
        const context = await browser.newContext({ httpCredentials: { username: 'contabilista', password: 'conta-pw-2026' }, viewport: { width, height: 900 }, locale: lang === 'pt' ? 'pt-PT' : 'en-GB' });
        const tab = await context.newPage();
        await tab.goto(`${origin}/console/shop1/month/${month}?lang=${lang}`);
        await tab.setInputFiles('input[name="saft"]', file);
        await Promise.all([tab.waitForNavigation(), tab.click('#saft button')]);
        const seen = (await tab.evaluate('document.body.innerText')) as string;
        if (lang === 'pt') expect(englishWords(seen)).toEqual([]);
        else expect(seen).toContain('Need your attention');
        expect({ lang, width, scrollWidth: (await tab.evaluate('document.documentElement.scrollWidth')) as number }).toEqual({ lang, width, scrollWidth: expect.any(Number) });
        expect((await tab.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(width);
        await tab.screenshot({ path: join(SHOTS, `console-month-${lang}-${width}.png`), fullPage: true });
        await context.close();
      }
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('gives the accountant the month as CSV, XLSX (read back) and a one-page PDF, in their language', async () => {
    const get = async (format: string, lang: string) => {
      const answer = await fetch(`${origin}/console/shop1/month/${month}/pack.${format}?lang=${lang}`, { headers: ACCOUNTANT });
      expect({ format, status: answer.status }).toEqual({ format, status: 200 });
      expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="shop1-${month}.${format}"`);
      return Buffer.from(await answer.arrayBuffer());
    };
    const csv = (await get('csv', 'pt')).toString('utf8');
    expect(csv.startsWith('\ufeffO mês ')).toBe(true);
    expect(csv).toContain('IVA por taxa e região');
    const numbers = await Promise.all(orders.map(async (id) => (await connector.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.documentNumber as string));
    for (const number of numbers) expect(csv).toContain(`${number},FR,`);
    const xlsx = await get('xlsx', 'en');
    mkdirSync(SAMPLES, { recursive: true });
    writeFileSync(join(SAMPLES, 'month-sample.xlsx'), xlsx);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(join(SAMPLES, 'month-sample.xlsx'));
    expect(book.worksheets.map((w) => w.name)).toEqual(expect.arrayContaining(['Summary', 'VAT', 'Exemption codes', 'Documents', `OSS ${month}`]));
    const vat = book.getWorksheet('VAT');
    const normal = vat?.getRows(2, vat.rowCount - 1)?.find((row) => String(row.getCell(2).value).startsWith('3 - base at the normal rate'));
    expect(typeof normal?.getCell(3).value).toBe('number');
    const documents = book.getWorksheet('Documents');
    expect(documents?.rowCount).toBeGreaterThanOrEqual(orders.length + 1);
    const pdf = await get('pdf', 'pt');
    writeFileSync(join(SAMPLES, 'month-sample.pdf'), pdf);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(1);
  });

  it('lets the accountant close the month (their one write, kept in Redis under the prefix); a document dated in it afterwards goes to a person, and only the admin reopens it', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const tokenOf = async (headers: Record<string, string>): Promise<string> => /name="csrf" value="([^"]+)"/.exec(await (await fetch(`${origin}/console/shop1/month/${month}`, { headers })).text())?.[1] as string;
    const post = async (path: string, headers: Record<string, string>) => fetch(`${origin}/console/shop1/month/${month}/${path}`, { method: 'POST', headers: { ...headers, ...form }, body: new URLSearchParams({ csrf: await tokenOf(headers) }).toString(), redirect: 'manual' });
    expect((await fetch(`${origin}/console/shop1/month/${month}/close`, { method: 'POST', headers: { ...ACCOUNTANT, ...form }, body: 'csrf=forged', redirect: 'manual' })).status).toBe(403);
    expect((await post('close', ACCOUNTANT)).status).toBe(303);
    const redis = new IORedis(REDIS_URL);
    try {
      expect(JSON.parse((await redis.hget(`${h.prefix}:month:closed:shop1`, month)) ?? '{}')).toMatchObject({ month, by: 'contabilista' });
    } finally {
      redis.disconnect();
    }
    const closedPage = await (await fetch(`${origin}/console/shop1/month/${month}`, { headers: ACCOUNTANT })).text();
    expect(closedPage).toContain('Fechado por contabilista a ');
    // Reopening is not the accountant's.
    const refused = await post('reopen', ACCOUNTANT);
    expect({ status: refused.status, text: await refused.text() }).toEqual({ status: 403, text: expect.stringContaining('contabilista') });

    // A sale of the closed month invoiced afterwards: issued (the law dates it today), and a person is told.
    const late = Number(h.woo.putOrder(portugueseOrder()).id);
    await sendWooWebhook({ url: `${origin}/webhooks/woocommerce/shop1`, secret: WEBHOOK_SECRET, topic: 'order.created', payload: h.woo.order(late), source: `${h.woo.origin}/` });
    const ref = { tenant: 'shop1', orderId: late, purpose: 'invoice' };
    await eventually('the late invoice flagged for a person', async () => (await connector.ledger.get(ref))?.problem?.includes('"month-closed"'));
    const entry = await connector.ledger.get(ref);
    expect(entry).toMatchObject({ state: 'written-back', documentDate: expect.stringMatching(new RegExp(`^${month}-`)) });
    expect(JSON.parse(entry?.problem ?? '{}')).toMatchObject({ code: 'month-closed', number: entry?.documentNumber, month, by: 'contabilista' });
    expect((await connector.ledger.attentionPage({ tenant: 'shop1', offset: 0, limit: 50 })).members).toContain(`shop1:${late}:invoice`);
    const orderPage = await (await fetch(`${origin}/console/shop1/orders/${late}`, { headers: ACCOUNTANT })).text();
    expect(orderPage).toContain('mês que contabilista já tinha fechado');
    // The month's pack names it too.
    const pack = (await (await fetch(`${origin}/admin/api/month/shop1/${month}`, { headers: ADMIN })).json()) as { findings: { code: string; params: Record<string, unknown> }[]; signOff?: { by: string } };
    expect(pack.signOff).toMatchObject({ by: 'contabilista' });
    expect(pack.findings.filter((f) => f.code === 'document-after-sign-off').map((f) => f.params.order)).toEqual([late]);

    // The admin reopens it: the page says so, and the key is gone.
    expect((await post('reopen', ADMIN)).status).toBe(303);
    expect(await (await fetch(`${origin}/console/shop1/month/${month}`, { headers: ACCOUNTANT })).text()).toContain('O mês está aberto.');
  }, 120_000);
});
