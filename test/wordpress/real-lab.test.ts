import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WooCommerceRestApi from '@woocommerce/woocommerce-rest-api';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { z } from 'zod';
import { parseConfig } from '../../connector/config/load-config';
import { ConnectorMetrics } from '../../connector/core/metrics';
import { startConnector, type RunningConnector } from '../../connector/main/runtime';
import { META } from '../../connector/shop/order-meta';
import { deleteKeys, eventually, quietLogger, rawTestConfig, REDIS_URL, WEBHOOK_SECRET } from '../connector/support/harness';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox';
import { PLUGIN_DIR } from './support';

/**
 * The companion plugin in a REAL WordPress 6.8 + WooCommerce 10 (../shared/woocommerce-lab;
 * WC_LAB_CREDENTIALS=<lab dir>/credentials.json, run as a user who may write in the lab's folder;
 * skipped otherwise, CI has no lab). Nothing is faked: the plugin is copied into the shop and
 * activated on the Plugins screen, the connector (on the sandbox) invoices real orders and credits a
 * real refund through WooCommerce's webhooks and writes its meta back, and Chromium looks at wp-admin's
 * orders list, the order screen (and its "resend" action, whose e-mail the lab captures) and the
 * buyer's My Account. Runs on a lab with HPOS (the default) and on one started with WC_LAB_HPOS=0.
 * WP_PLUGIN_SCREENSHOTS=<folder> keeps the screenshots (docs/screenshots/ comes from there).
 */
const credentialsPath = process.env.WC_LAB_CREDENTIALS;
const describeWithLab = credentialsPath ? describe : describe.skip;
const CHROMIUM = '/usr/bin/chromium';

const LabSchema = z.object({
  site_url: z.string(),
  admin_url: z.string(),
  admin_user: z.string(),
  admin_password: z.string(),
  consumer_key: z.string(),
  consumer_secret: z.string(),
  lab_api: z.string(),
  dir: z.string(),
  products: z.record(z.string(), z.number()),
});
const MetaListSchema = z.array(z.object({ key: z.string(), value: z.unknown() }));
const OrderSchema = z.object({ id: z.number(), meta_data: MetaListSchema, refunds: z.array(z.object({ id: z.number() })) });
const CreditNoteSchema = z.object({ number: z.string(), pdfUrl: z.string() });
const MailSchema = z.object({ to: z.union([z.string(), z.array(z.string())]), subject: z.string(), bytes: z.number() });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeWithLab('the companion plugin in a real WordPress + WooCommerce (the lab), with the connector writing the meta', () => {
  // Read in beforeAll: a describe.skip's body still runs, and CI has no lab to read.
  let lab: z.infer<typeof LabSchema>;
  const inLab = (...parts: string[]): string => join(lab.dir, ...parts);
  const run = randomBytes(4).toString('hex');
  const prefix = `mft-wp-${run}`;
  const shots = process.env.WP_PLUGIN_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'mft-wp-shots-'));
  const pluginTarget = (): string => inLab('wordpress', 'wp-content', 'plugins', 'magnifinance-invoices');
  const phpErrorLog = (): string => inLab('logs', 'php-error.log');
  const mailLog = (): string => inLab('logs', 'mail.jsonl');
  const buyer = { email: `ana.${run}@example.pt`, username: `ana-${run}`, password: `Pw-${randomBytes(8).toString('hex')}` };
  const other = { email: `rui.${run}@example.pt`, username: `rui-${run}`, password: `Pw-${randomBytes(8).toString('hex')}` };
  const lisboa = { address_1: 'Rua Augusta 10', city: 'Lisboa', postcode: '1100-053', country: 'PT' };
  let rest: WooCommerceRestApi;
  let hpos = true;
  let sandbox: RunningSandbox;
  let connector: RunningConnector;
  let browser: Browser;
  let admin: BrowserContext;
  const hookIds: number[] = [];
  const customerIds: number[] = [];
  const orders = { paid: 0, waiting: 0, others: 0 };
  let invoice = { number: '', pdfUrl: '' };
  let creditNote = { number: '', pdfUrl: '' };
  let othersInvoice = { number: '', pdfUrl: '' };
  let phpLogStart = 0;

  const metaOf = async (id: number): Promise<{ key: string; value: unknown }[]> => OrderSchema.parse((await rest.get(`orders/${id}`)).data).meta_data;
  const runQueue = async (): Promise<void> => void (await fetch(`${lab.lab_api}/run-queue`, { method: 'POST' }));
  const invoiceOf = async (id: number): Promise<{ number: string; pdfUrl: string }> =>
    eventually(`the connector's invoice written back on order ${id}`, async () => {
      await runQueue();
      const meta = await metaOf(id);
      const number = meta.find((m) => m.key === META.documentNumber)?.value;
      const pdfUrl = meta.find((m) => m.key === META.pdfUrl)?.value;
      return typeof number === 'string' && typeof pdfUrl === 'string' ? { number, pdfUrl } : undefined;
    }, 90_000);
  const ordersListUrl = (): string => (hpos ? `${lab.admin_url}admin.php?page=wc-orders` : `${lab.admin_url}edit.php?post_type=shop_order`);
  const orderScreenUrl = (id: number): string => (hpos ? `${lab.admin_url}admin.php?page=wc-orders&action=edit&id=${id}` : `${lab.admin_url}post.php?post=${id}&action=edit`);
  const listRow = (page: Page, id: number) => page.locator(hpos ? `tr#order-${id}` : `tr#post-${id}`);
  const logIn = async (context: BrowserContext, user: string, password: string): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(`${lab.site_url}/wp-login.php`);
    await page.fill('#user_login', user);
    await page.fill('#user_pass', password);
    await Promise.all([page.waitForURL((url) => !url.pathname.endsWith('/wp-login.php')), page.click('#wp-submit')]);
    return page;
  };
  /**
   * A Portuguese shop. Settings > General offers only installed languages and the lab (offline) has
   * no WordPress language pack, so the locale is set with WordPress's own `locale` filter, in a
   * must-use plugin of this run's that afterAll removes: WordPress's words stay English, ours follow.
   */
  const localePlugin = (): string => inLab('wordpress', 'wp-content', 'mu-plugins', `mft-test-locale-${run}.php`);
  const setShopLocale = (locale: string | undefined): void => {
    if (locale === undefined) rmSync(localePlugin(), { force: true });
    else writeFileSync(localePlugin(), `<?php\n// A test of the MagniFinance plugin (test/wordpress/real-lab.test.ts); removed when it ends.\nadd_filter( 'locale', function () { return '${locale}'; } );\n`);
  };
  const shot = async (page: Page, name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<void> => {
    await page.screenshot({ path: join(shots, `${name}.png`), ...(clip ? { clip } : {}) });
  };

  beforeAll(async () => {
    lab = LabSchema.parse(JSON.parse(readFileSync(credentialsPath ?? '', 'utf8')));
    mkdirSync(shots, { recursive: true });
    phpLogStart = existsSync(phpErrorLog()) ? statSync(phpErrorLog()).size : 0;
    rest = new WooCommerceRestApi({ url: lab.site_url, consumerKey: lab.consumer_key, consumerSecret: lab.consumer_secret, version: 'wc/v3', timeout: 30_000 });
    const status = (await rest.get('system_status')).data as { settings: { order_datastore?: string } };
    hpos = status.settings.order_datastore !== 'WC_Order_Data_Store_CPT';

    // The plugin as a shop owner installs it: its folder in wp-content/plugins.
    rmSync(pluginTarget(), { recursive: true, force: true });
    cpSync(PLUGIN_DIR, pluginTarget(), { recursive: true });

    // The connector, on the sandbox, receiving the shop's webhooks.
    sandbox = await startTestSandbox();
    const port = await freePort();
    const raw = rawTestConfig({ prefix, wooOrigin: lab.site_url, consumerKey: lab.consumer_key, consumerSecret: lab.consumer_secret, baseUrl: sandbox.baseUrl });
    raw.server = { ...(raw.server as Record<string, unknown>), port, publicUrl: `http://127.0.0.1:${port}` };
    connector = await startConnector(parseConfig(raw, 'lab', {}), { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    for (const topic of ['order.created', 'order.updated']) {
      const hook = await rest.post('webhooks', { name: `plugin ${run} ${topic}`, topic, status: 'active', delivery_url: `${connector.origin ?? ''}/webhooks/woocommerce/shop1`, secret: WEBHOOK_SECRET });
      hookIds.push((hook.data as { id: number }).id);
    }

    // Two registered buyers; the first has an order paid (invoiced, then partly refunded) and one not paid yet.
    for (const person of [buyer, other]) {
      const created = (await rest.post('customers', { ...person, first_name: person === buyer ? 'Ana' : 'Rui', last_name: 'Conceição' })).data as { id: number };
      customerIds.push(created.id);
    }
    const place = async (customer: number, firstName: string, email: string, paid: boolean): Promise<number> => {
      const billing = { first_name: firstName, last_name: 'Conceição', ...lisboa, email };
      const created = (
        await rest.post('orders', {
          customer_id: customer,
          payment_method: 'bacs',
          set_paid: paid,
          billing,
          shipping: billing,
          line_items: [{ product_id: lab.products['TSHIRT-LX'], quantity: 2 }],
        })
      ).data as { id: number };
      return created.id;
    };
    orders.paid = await place(customerIds[0] ?? 0, 'Ana', buyer.email, true);
    orders.waiting = await place(customerIds[0] ?? 0, 'Ana', buyer.email, false);
    orders.others = await place(customerIds[1] ?? 0, 'Rui', other.email, true);
    invoice = await invoiceOf(orders.paid);
    othersInvoice = await invoiceOf(orders.others);
    const refund = (await rest.post(`orders/${orders.paid}/refunds`, { amount: '5.00', reason: 'Artigo com defeito', api_refund: false })).data as { id: number };
    creditNote = await eventually('the credit note written back', async () => {
      await runQueue();
      const value = (await metaOf(orders.paid)).find((m) => m.key === `${META.creditNotePrefix}${refund.id}`)?.value;
      const parsed = CreditNoteSchema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    }, 90_000);

    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  }, 300_000);

  afterAll(async () => {
    if (lab) setShopLocale(undefined);
    await browser?.close();
    for (const id of hookIds) await rest.delete(`webhooks/${id}`, { force: true }).catch(() => undefined);
    for (const id of Object.values(orders)) if (id) await rest.delete(`orders/${id}`, { force: true }).catch(() => undefined);
    for (const id of customerIds) await rest.delete(`customers/${id}`, { force: true }).catch(() => undefined);
    await connector?.close();
    await sandbox?.close();
    await deleteKeys(REDIS_URL, prefix);
  });

  it('activates on the Plugins screen, and WordPress logs no PHP notice from it on any screen below', async () => {
    const page = await logIn(admin, lab.admin_user, lab.admin_password);
    await page.goto(`${lab.admin_url}plugins.php`);
    const row = page.locator('tr[data-plugin="magnifinance-invoices/magnifinance-invoices.php"]');
    await expect(row.count()).resolves.toBe(1);
    // Active from an earlier run: deactivated first, so that this run activates it.
    if ((await row.locator('.deactivate a').count()) > 0) await Promise.all([page.waitForURL(/deactivate=true/), row.locator('.deactivate a').click()]);
    await Promise.all([page.waitForURL(/activate=true/), row.locator('.activate a').click()]);
    expect(await row.getAttribute('class')).toMatch(/\bactive\b/);
    await page.close();
  }, 60_000);

  it("the orders list's column: the invoice's number linked to the connector's PDF link, the credit note's, a dash for an order not invoiced", async () => {
    const page = await admin.newPage();
    await page.goto(ordersListUrl());
    await expect(page.locator('thead th#magnifinance_invoice').innerText()).resolves.toBe('Invoice');
    const cell = listRow(page, orders.paid).locator('td.column-magnifinance_invoice');
    const links = await cell.locator('a').evaluateAll((anchors) => anchors.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links).toEqual([
      [invoice.number, invoice.pdfUrl],
      [creditNote.number, creditNote.pdfUrl],
    ]);
    await expect(listRow(page, orders.waiting).locator('td.column-magnifinance_invoice').innerText()).resolves.toMatch(/^–\s*No invoice yet$/);
    const table = await page.locator('table.wp-list-table').boundingBox();
    await shot(page, `orders-list-${hpos ? 'hpos' : 'posts'}-en`, { x: 160, y: 0, width: 1120, height: Math.min(900, Math.ceil((table?.y ?? 0) + (table?.height ?? 600) + 10)) });
    await page.close();
  }, 60_000);

  it("the connector's PDF link the plugin shows opens the document", async () => {
    const first = await fetch(invoice.pdfUrl, { redirect: 'manual' });
    expect(first.status).toBe(302);
    const pdf = await fetch(first.headers.get('location') ?? '');
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  }, 30_000);

  it("the order screen's box lists the invoice and the credit note; the order action resends the invoice to the buyer and notes it", async () => {
    const page = await admin.newPage();
    await page.setViewportSize({ width: 1280, height: 1150 }); // the box is the fourth in the side column
    await page.goto(orderScreenUrl(orders.paid));
    const box = page.locator('#magnifinance-invoices');
    await expect(box.locator('h2').innerText()).resolves.toBe('MagniFinance invoice');
    const text = await box.locator('.inside').innerText();
    expect(text).toContain(`Invoice-receipt ${invoice.number}`);
    expect(text).toMatch(new RegExp(`Credit note ${creditNote.number.replace('/', '\\/')}\\s+refund #\\d+ · 5,00\\s€\\s+Download \\(PDF\\)`));
    await expect(box.locator('a').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')))).resolves.toEqual([invoice.pdfUrl, creditNote.pdfUrl]);
    const where = await box.boundingBox();
    await shot(page, `order-screen-${hpos ? 'hpos' : 'posts'}-en`, { x: 160, y: 0, width: 1120, height: Math.min(1150, Math.ceil((where?.y ?? 0) + (where?.height ?? 300) + 20)) });

    const mailsBefore = existsSync(mailLog()) ? readFileSync(mailLog(), 'utf8').split('\n').filter(Boolean).length : 0;
    await page.selectOption('select[name="wc_order_action"]', 'magnifinance_resend_invoice');
    await Promise.all([page.waitForLoadState('load'), page.waitForURL(/message=|&action=edit/), page.click('button.wc-reload')]);
    await expect(page.locator('#woocommerce-order-notes').innerText()).resolves.toContain(`Invoice ${invoice.number} sent again by e-mail to ${buyer.email}.`);
    const mails = readFileSync(mailLog(), 'utf8').split('\n').filter(Boolean).slice(mailsBefore).map((line) => MailSchema.parse(JSON.parse(line)));
    const ours = mails.filter((mail) => mail.subject.startsWith('Your invoice'));
    expect(ours).toHaveLength(1);
    expect(ours[0]?.to).toEqual(buyer.email);
    expect(ours[0]?.subject).toBe(`Your invoice ${invoice.number} for order #${orders.paid}`);
    await page.close();
  }, 90_000);

  it("the buyer's My Account: the invoice and credit note to download in the orders list and on the order's page; another customer's order shows nothing", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await logIn(context, buyer.username, buyer.password);
    await page.goto(`${lab.site_url}/my-account/orders/`);
    await expect(page.locator('th.woocommerce-orders-table__header-magnifinance-invoice').innerText()).resolves.toBe('Invoice');
    const rowOf = (id: number) => page.locator('tr.woocommerce-orders-table__row').filter({ has: page.locator(`a[href*="/view-order/${id}/"]`) });
    await expect(rowOf(orders.paid).locator('td.woocommerce-orders-table__cell-magnifinance-invoice a').evaluateAll((anchors) => anchors.map((a) => [a.textContent, a.getAttribute('href')]))).resolves.toEqual([
      [invoice.number, invoice.pdfUrl],
      [creditNote.number, creditNote.pdfUrl],
    ]);
    await expect(rowOf(orders.waiting).locator('td.woocommerce-orders-table__cell-magnifinance-invoice').innerText()).resolves.toBe('');
    await expect(rowOf(orders.others).count()).resolves.toBe(0);
    await shot(page, 'my-account-orders-en');

    await page.goto(`${lab.site_url}/my-account/view-order/${orders.paid}/`);
    const section = page.locator('section.woocommerce-magnifinance-invoices');
    await expect(section.innerText()).resolves.toMatch(new RegExp(`Invoice-receipt ${invoice.number.replace('/', '\\/')} · Download \\(PDF\\)\\s+Credit note ${creditNote.number.replace('/', '\\/')} · Download \\(PDF\\)$`));
    await section.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shot(page, 'my-account-view-order-en');

    await page.goto(`${lab.site_url}/my-account/view-order/${orders.others}/`);
    await expect(page.locator('section.woocommerce-magnifinance-invoices').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(othersInvoice.number);
    await context.close();
  }, 90_000);

  it('speaks Portuguese when the shop does (WordPress has no Portuguese language pack in the lab: its own words stay English)', async () => {
    setShopLocale('pt_PT');
    const page = await admin.newPage();
    await page.goto(ordersListUrl());
    await expect(page.locator('thead th#magnifinance_invoice').innerText()).resolves.toBe('Fatura');
    await expect(listRow(page, orders.waiting).locator('td.column-magnifinance_invoice').innerText()).resolves.toMatch(/Ainda sem fatura$/);
    const table = await page.locator('table.wp-list-table').boundingBox();
    await shot(page, `orders-list-${hpos ? 'hpos' : 'posts'}-pt`, { x: 160, y: 0, width: 1120, height: Math.min(900, Math.ceil((table?.y ?? 0) + (table?.height ?? 600) + 10)) });
    await page.setViewportSize({ width: 1280, height: 1150 });
    await page.goto(orderScreenUrl(orders.paid));
    const box = page.locator('#magnifinance-invoices');
    await expect(box.locator('h2').innerText()).resolves.toBe('Fatura MagniFinance');
    await expect(box.locator('.inside').innerText()).resolves.toContain(`Fatura-recibo ${invoice.number}`);
    const where = await box.boundingBox();
    await shot(page, `order-screen-${hpos ? 'hpos' : 'posts'}-pt`, { x: 160, y: 0, width: 1120, height: Math.min(1150, Math.ceil((where?.y ?? 0) + (where?.height ?? 300) + 20)) });
    await page.close();

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const buyerPage = await logIn(context, buyer.username, buyer.password);
    await buyerPage.goto(`${lab.site_url}/my-account/orders/`);
    await expect(buyerPage.locator('th.woocommerce-orders-table__header-magnifinance-invoice').innerText()).resolves.toBe('Fatura');
    await shot(buyerPage, 'my-account-orders-pt');
    await buyerPage.goto(`${lab.site_url}/my-account/view-order/${orders.paid}/`);
    const section = buyerPage.locator('section.woocommerce-magnifinance-invoices');
    await expect(section.innerText()).resolves.toMatch(new RegExp(`^Fatura\\s+Fatura-recibo ${invoice.number.replace('/', '\\/')} · Descarregar \\(PDF\\)\\s+Nota de crédito`));
    await section.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shot(buyerPage, 'my-account-view-order-pt');
    await context.close();
  }, 90_000);

  it('left no PHP notice, warning or error of the plugin in the shop\'s log', () => {
    const log = existsSync(phpErrorLog()) ? readFileSync(phpErrorLog(), 'utf8').slice(phpLogStart) : '';
    expect(log.split('\n').filter((line) => line.includes('magnifinance-invoices'))).toEqual([]);
  });
});
