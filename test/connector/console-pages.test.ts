import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { META } from '../../connector/shop/order-meta';
import { englishWords } from '../support/english-words';
import { CHROMIUM, heldOrder, launchChromium } from './support/console-browser';
import { eventually, portugueseOrder, startHarness, type Harness } from './support/harness';
import { describeWithRedisServer, ownRedisServer, type OwnRedisServer } from './support/redis-servers';

/**
 * Every console page, in Portuguese and English, on a desktop (1280 px) and a phone (390 px): no
 * English sentence on a Portuguese page (englishWords on what the reader sees, document.body.innerText),
 * nothing wider than the screen, and a screenshot of each. `UPDATE_SCREENSHOTS=1 npx jest
 * test/connector/console-pages.test.ts` writes them into docs/images (console-<page>-<lang>-<width>.png).
 */
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '../../docs/images') : join(tmpdir(), 'magnifinance-console-screenshots');
const haveChromium = existsSync(CHROMIUM);
const describeInBrowser = haveChromium ? describe : describe.skip;
const WIDTHS = [1280, 390] as const;
const LANGS = ['pt', 'en'] as const;
const AUTH = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

/**
 * Opens `path` in both languages at both widths: the Portuguese text holds no English, nothing
 * overflows the phone's width, and each view is saved as console-<name>-<lang>-<width>.png.
 */
async function everyView(browser: Browser, origin: string, path: string, name: string, expectStatus = 200): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  const problems: string[] = [];
  mkdirSync(SHOTS, { recursive: true });
  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ httpCredentials: { username: 'admin', password: 'admin-pw' }, viewport: { width, height: width > 600 ? 900 : 844 }, isMobile: width < 600, locale: lang === 'pt' ? 'pt-PT' : 'en-GB' });
      const page: Page = await context.newPage();
      const answer = await page.goto(`${origin}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
      const text = (await page.evaluate('document.body.innerText')) as string;
      texts[`${lang}-${width}`] = text;
      await page.screenshot({ path: join(SHOTS, `console-${name}-${lang}-${width}.png`), fullPage: true });
      // Every view is taken before anything is judged, so a failure still leaves all the pictures.
      if (answer?.status() !== expectStatus) problems.push(`${lang} ${width}: HTTP ${answer?.status()}`);
      const english = lang === 'pt' ? englishWords(text) : [];
      if (english.length > 0) problems.push(`${lang} ${width}: English words ${english.join(' ')} in: ${text}`);
      const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      if (scrollWidth > width) problems.push(`${lang} ${width}: ${scrollWidth} px wide`);
      await context.close();
    }
  }
  expect({ page: name, problems }).toEqual({ page: name, problems: [] });
  return texts;
}

describeInBrowser('every console page in Portuguese and English, desktop and phone (issue 19)', () => {
  let h: Harness;
  let browser: Browser;
  let origin: string;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    h = await startHarness({ settings: { language: 'pt' } });
    origin = h.connector?.origin as string;
    browser = await launchChromium();
    // A shop's ordinary day: two invoices, one credited in full from the console, one held, one failed.
    const invoiced = portugueseOrder({ billing: { first_name: 'Joana', last_name: 'Antunes', address_1: 'Rua do Ouro 5', city: 'Lisboa', postcode: '1100-060', country: 'PT', email: 'joana@example.pt' } });
    const credited = portugueseOrder();
    const held = heldOrder();
    const failed = portugueseOrder({ currency: 'USD' });
    for (const order of [invoiced, credited, held, failed]) await h.deliver(order);
    Object.assign(ids, { invoiced: Number(invoiced.id), credited: Number(credited.id), held: Number(held.id), failed: Number(failed.id) });
    await eventually('invoiced', () => h.woo.meta(ids.invoiced, META.documentNumber) && h.woo.meta(ids.credited, META.documentNumber));
    await eventually('held', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: ids.held, purpose: 'invoice' }))?.state === 'held');
    await eventually('failed', async () => (await h.connector?.queue.getFailedCount()) === 1);
    const token = /name="csrf" value="([^"]+)"/.exec(await (await fetch(`${origin}/console/shop1`, { headers: AUTH })).text())?.[1] as string;
    const asked = await fetch(`${origin}/console/shop1/orders/${ids.credited}/credit-note`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf: token }).toString(), redirect: 'manual' });
    expect(asked.status).toBe(303);
    await eventually('the credit note on the order', () => h.woo.meta(ids.credited, META.cancellation));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h.close();
  });

  it('all shops: the shop, its address and its problems', async () => {
    const texts = await everyView(browser, origin, '/console', 'all-shops');
    expect(texts['pt-1280']).toContain('Precisam da sua atenção');
    expect(texts['pt-1280']).toContain(new URL(h.woo.origin).host);
  });

  it('the shop: waiting cards, figures with the orders behind a red one, recent documents with customers', async () => {
    const texts = await everyView(browser, origin, '/console/shop1', 'shop');
    expect(texts['pt-1280']).toContain('Joana Antunes');
    expect(texts['pt-1280']).toContain('Paradas por erro');
    expect(texts['pt-1280']).toMatch(new RegExp(`Encomendas paradas por erro: #${ids.failed}`));
    expect(texts['en-1280']).toContain('Waiting for the number or a new attempt');
  }, 60_000);

  it('the order page of a held order', async () => {
    const texts = await everyView(browser, origin, `/console/shop1/orders/${ids.held}`, 'order-held');
    expect(texts['pt-1280']).toContain('Rever e emitir');
  }, 60_000);

  it('the order page of an invoice credited in full from the console', async () => {
    const texts = await everyView(browser, origin, `/console/shop1/orders/${ids.credited}`, 'order-credited');
    expect(texts['pt-1280']).toContain('creditada');
    expect(texts['en-1280']).toContain('credited');
  }, 60_000);

  it('the preview before "issue now" and before a credit note', async () => {
    const held = await everyView(browser, origin, `/console/shop1/orders/${ids.held}/preview?purpose=invoice`, 'preview-issue');
    expect(held['pt-1280']).toContain('Confirmar e emitir');
    // The buyer the document carries: the company, the person beside it (issue 31.5).
    expect(held['pt-1280']).toContain('Costa & Filhos, Lda. (Rui Costa)');
    const credit = await everyView(browser, origin, `/console/shop1/orders/${ids.invoiced}/preview?purpose=cancellation`, 'preview-credit-note');
    expect(credit['pt-1280']).toContain('Nota de crédito');
  }, 60_000);

  it('the not-invoiced list\'s preview of the chosen orders', async () => {
    const texts = await everyView(browser, origin, `/console/shop1/not-invoiced/preview?order=${ids.held}`, 'not-invoiced-preview');
    expect(texts['pt-1280']).toContain('Confirmar e emitir (1)');
  }, 60_000);

  it('search results', async () => {
    const texts = await everyView(browser, origin, '/console/shop1/search?q=Silva', 'search');
    expect(texts['pt-1280']).toContain(`#${ids.credited}`);
  }, 60_000);
});

describeWithRedisServer('console-pages.test.ts', 'the Redis-down page')('Redis down: every console page says what is wrong and what to do, in the reader\'s language (issue 19)', () => {
  let redis: OwnRedisServer;
  let h: Harness;
  let browser: Browser;
  beforeAll(async () => {
    redis = await ownRedisServer();
    h = await startHarness({ role: 'serve', redisUrl: `redis://127.0.0.1:${redis.port}`, registerWebhooks: false });
    if (haveChromium) browser = await launchChromium();
    await redis.stop('nosave');
  });
  afterAll(async () => {
    await browser?.close();
    await h.close().catch(() => undefined);
    await redis.destroy();
  });

  it.each(['/console', '/console/shop1', '/console/shop1/orders/5001', '/console/shop1/orders/5001/preview?purpose=invoice'])('%s: 503, a page in Portuguese, not JSON', async (path) => {
    const answer = await fetch(`${h.connector?.origin}${path}`, { headers: { ...AUTH, 'accept-language': 'pt-PT' } });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toContain('text/html');
    const text = await answer.text();
    expect(text).toContain('O Redis do conector não responde');
    expect(text).toContain('redis-cli ping');
  });

  (haveChromium ? it : it.skip)('in a browser, both languages, desktop and phone', async () => {
    const texts = await everyView(browser, h.connector?.origin as string, '/console/shop1', 'redis-down', 503);
    expect(texts['en-1280']).toContain("The connector's Redis does not answer");
  }, 60_000);
});
