import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { eventually, portugueseOrder, startHarness, type Harness } from './support/harness';

/**
 * The console as its user meets it: Debian's Chromium driven by Playwright, logged in with the
 * admin credentials. Screenshots of each page are taken on every run (see SHOTS).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** `UPDATE_SCREENSHOTS=1 npx jest test/connector/console.test.ts` refreshes the ones in docs/. */
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '../../docs/images') : join(tmpdir(), 'magnifinance-console-screenshots');
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) process.stderr.write(`console browser test skipped: no Chromium at ${CHROMIUM} (Debian/Ubuntu: apt-get install chromium)\n`);
const describeInBrowser = haveChromium ? describe : describe.skip;

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

describeInBrowser('the operator console in a real browser (issue 12)', () => {
  let h: Harness;
  let browser: Browser;
  beforeAll(async () => {
    h = await startHarness();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await h.close();
  });

  it('log in, see a document land, see a failure with its reason, fix it, press retry, see it invoiced', async () => {
    const context = await browser.newContext({ httpCredentials: { username: 'admin', password: 'admin-pw' }, locale: 'pt-PT', viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const origin = h.connector?.origin as string;

    // A paid order lands: it shows under recent documents with its number and a PDF link.
    const good = portugueseOrder();
    await h.deliver(good);
    await eventually('the good order written back', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: Number(good.id), purpose: 'invoice' }))?.state === 'written-back');
    await page.goto(`${origin}/console/shop1`);
    const recent = page.locator('#recent');
    await recent.getByText(`#${String(good.id)}`).waitFor();
    const invoice = await h.connector?.ledger.get({ tenant: 'shop1', orderId: Number(good.id), purpose: 'invoice' });
    await recent.getByText(invoice?.documentNumber as string).waitFor();
    const pdf = await recent.getByRole('link', { name: 'PDF' }).first().getAttribute('href');
    // The link is on the connector's public URL; here that name does not resolve, so ask the connector itself.
    const { pathname, search } = new URL(pdf as string);
    expect((await fetch(`${origin}${pathname}${search}`, { redirect: 'manual' })).status).toBe(302);

    // An order the mapping refuses: it waits for a person, with why and what to do, in Portuguese.
    const broken = portugueseOrder({ currency: 'USD' });
    const brokenId = Number(broken.id);
    await h.deliver(broken);
    await eventually('the broken order flagged', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: brokenId, purpose: 'invoice' }))?.action !== undefined);
    await page.goto(`${origin}/console/shop1`);
    const item = page.locator(`#waiting .item[data-order="${brokenId}"]`);
    await item.getByText('não se conhece a EuroRate').waitFor();
    await item.getByText('O que fazer:').waitFor();
    // The purpose and state in the reader's words, not the ledger's.
    await item.getByText('Fatura').waitFor();
    await item.getByText('Estado: por corrigir').waitFor();
    await shot(page, 'console-shop-waiting');

    // The overview shows the shop with one order waiting.
    await page.goto(`${origin}/console`);
    const row = page.locator('tr[data-tenant="shop1"]');
    // One order waits for a person; its job failed for good (the refusal), so "with an error" says 1 too.
    expect(await row.locator('td.warn').allTextContents()).toEqual(['1', '1']);
    await shot(page, 'console-overview');

    // The shop owner fixes the order, then presses retry: the invoice lands and the item is gone.
    h.woo.editOrder(brokenId, { currency: 'EUR' });
    await page.goto(`${origin}/console/shop1`);
    await page.locator(`#waiting .item[data-order="${brokenId}"]`).getByRole('button', { name: 'Tentar de novo' }).click();
    await page.locator('.flash.ok').waitFor();
    await eventually('the fixed order written back', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: brokenId, purpose: 'invoice' }))?.state === 'written-back');
    await page.goto(`${origin}/console/shop1?lang=en`);
    await page.locator('#recent').getByText(`#${brokenId}`).waitFor();
    expect(await page.locator(`#waiting .item[data-order="${brokenId}"]`).count()).toBe(0);
    await page.getByText('No order needs your attention. All caught up.').waitFor();
    await shot(page, 'console-shop-fixed');

    // An order handled outside the connector (invoiced by hand): marked as handled with how, it leaves the list.
    const byHand = portugueseOrder({ currency: 'USD' });
    const byHandId = Number(byHand.id);
    await h.deliver(byHand);
    await eventually('the second broken order flagged', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: byHandId, purpose: 'invoice' }))?.action !== undefined);
    await page.goto(`${origin}/console/shop1?lang=pt`);
    const handled = page.locator(`#waiting .item[data-order="${byHandId}"]`);
    await handled.getByRole('textbox', { name: 'Como foi tratada (ex.: fatura FT A/12 emitida à mão)' }).fill('Fatura FT A/90 emitida à mão em dólares');
    await handled.getByRole('button', { name: 'Marcar como tratada' }).click();
    await page.locator('.flash.ok').waitFor();
    await shot(page, 'console-shop-handled');
    expect(await page.locator(`#waiting .item[data-order="${byHandId}"]`).count()).toBe(0);
    expect((await h.connector?.ledger.get({ tenant: 'shop1', orderId: byHandId, purpose: 'invoice' }))?.detail).toContain('Fatura FT A/90 emitida à mão em dólares');

    // Readable on a phone: nothing wider than the screen.
    const phone = await browser.newContext({ httpCredentials: { username: 'admin', password: 'admin-pw' }, viewport: { width: 390, height: 844 }, isMobile: true, locale: 'pt-PT' });
    const small = await phone.newPage();
    await small.goto(`${origin}/console/shop1`);
    expect(await small.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot(small, 'console-phone');
    await phone.close();
    await context.close();
  });
});

describe('the console refuses what a browser should not be tricked into (issue 12)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());
  const auth = `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`;

  it('asks for the admin login', async () => {
    const response = await fetch(`${h.connector?.origin}/console`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Basic');
  });

  it.each([
    ['no token', {}, 'the form has no token'],
    ['a wrong token', { csrf: 'forged' }, 'does not match'],
  ])('a form post with %s is refused with 403 and changes nothing', async (_name, fields, message) => {
    const response = await fetch(`${h.connector?.origin}/console/shop1/sweep`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields as Record<string, string>).toString(),
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(message);
    expect(await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_jobs_enqueued_total')).not.toContain('source="sweep"');
  });

  it('a post from another site is refused even with the right token', async () => {
    const page = await (await fetch(`${h.connector?.origin}/console/shop1`, { headers: { authorization: auth } })).text();
    const token = /name="csrf" value="([^"]+)"/.exec(page)?.[1] as string;
    expect(token).toBeTruthy();
    const forged = await fetch(`${h.connector?.origin}/console/shop1/sweep`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams({ csrf: token }).toString(),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    const own = await fetch(`${h.connector?.origin}/console/shop1/sweep`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: token }).toString(),
      redirect: 'manual',
    });
    expect(own.status).toBe(303);
  });

  it('the root URL is a status page, not 404, and says nothing about shops', async () => {
    const response = await fetch(`${h.connector?.origin}/`, { headers: { 'accept-language': 'en' } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('The connector is running.');
    expect(text).not.toContain('shop1');
  });

  it('our own write-back echo is counted as ignored, not as refused', async () => {
    const order = portugueseOrder();
    await h.deliver(order);
    await eventually('written back', async () => h.woo.meta(Number(order.id), '_magnifinance_document_number') !== undefined);
    const echo = await h.deliver(h.woo.order(Number(order.id)) as typeof order, 'order.updated');
    expect(JSON.parse(echo.body)).toEqual({ ignored: 'nothing-to-issue' });
    expect(await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_webhooks_ignored_total')).toContain('reason="nothing-to-issue"');
    expect(await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_webhooks_refused_total')).not.toContain('nothing-to-issue');
  });
});
