import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Locator } from 'playwright-core';
import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** `UPDATE_SCREENSHOTS=1 npx jest test/connector/not-invoiced.test.ts` refreshes the ones in docs/images. */
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '../../docs/images') : join(tmpdir(), 'magnifinance-console-screenshots');
const describeInBrowser = existsSync(CHROMIUM) ? describe : describe.skip;
const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };

async function shot(locator: Locator, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await locator.screenshot({ path: join(SHOTS, `${name}.png`) });
}

function wooDate(offsetMs: number): string {
  return new Date(Date.now() + offsetMs).toISOString().slice(0, 19);
}

describeInBrowser('a shop switching from another plugin: the not-invoiced list, its bulk "issue", and the webhook health, in a real browser', () => {
  let h: Harness;
  let browser: Browser;
  beforeAll(async () => {
    // Went live an hour ago: yesterday's orders were invoiced by the old plugin.
    h = await startHarness({ settings: { goLiveAt: new Date(Date.now() - 3_600_000).toISOString() } });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  });
  afterAll(async () => {
    await browser?.close();
    await h.close();
  });

  it('only the new order is invoiced; the rest are listed with why; the chosen ones are issued; another system\'s never', async () => {
    const yesterday = wooDate(-86_400_000);
    const beforeA = portugueseOrder({ datePaidGmt: yesterday, dateCreatedGmt: yesterday, status: 'completed' });
    const beforeB = portugueseOrder({ datePaidGmt: yesterday, dateCreatedGmt: yesterday });
    const invoiceXpress = portugueseOrder({ meta: [{ key: '_billing_nif', value: '232013969' }, { key: 'hd_wc_ie_plus_invoice_receipt_id', value: '88123401' }] });
    const moloni = portugueseOrder({ meta: [{ key: '_billing_nif', value: '232013969' }, { key: '_moloni_sent', value: '512334' }] });
    const held = portugueseOrder({ billing: { company: 'Empresa Exemplo, Lda.', first_name: 'Rui', last_name: 'Costa', address_1: 'Av. da Liberdade 1', city: 'Lisboa', postcode: '1250-096', country: 'PT', email: 'rui@empresa.pt' }, meta: [{ key: '_billing_nif', value: '123456788' }] });
    const fresh = portugueseOrder();
    for (const order of [beforeA, beforeB, invoiceXpress, moloni, held, fresh]) await h.deliver(order, order === beforeA ? 'order.updated' : 'order.created');
    await eventually('the new order invoiced', () => h.woo.meta(Number(fresh.id), META.documentNumber));
    await eventually('the held order held', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: Number(held.id), purpose: 'invoice' }))?.state === 'held');
    // A sweep changes nothing: the same rules.
    expect((await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: '{}' })).status).toBe(200);
    await h.woo.settle();
    for (const order of [beforeA, beforeB, invoiceXpress, moloni, held]) expect(await h.documentsOf(Number(order.id))).toHaveLength(0);

    const api = (await (await fetch(`${h.connector?.origin}/admin/api/not-invoiced/shop1`, { headers: ADMIN })).json()) as { orderId: number; kind: string; issuable: boolean }[];
    const kinds = Object.fromEntries(api.map((row) => [row.orderId, row.kind]));
    expect(kinds).toEqual({
      [Number(beforeA.id)]: 'before-go-live',
      [Number(beforeB.id)]: 'before-go-live',
      [Number(invoiceXpress.id)]: 'other-system',
      [Number(moloni.id)]: 'other-system',
      [Number(held.id)]: 'held',
    });

    const context = await browser.newContext({ httpCredentials: { username: 'admin', password: 'admin-pw' }, locale: 'pt-PT', viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${h.connector?.origin}/console/shop1`);
    const section = page.locator('#not-invoiced');
    await section.getByText('Encomendas por faturar (5)').waitFor();
    await section.getByText('já tem um documento de outro sistema (InvoiceXpress: hd_wc_ie_plus_invoice_receipt_id = 88123401)').waitFor();
    // No box to tick for another system's document.
    expect(await section.locator(`tr[data-order="${String(moloni.id)}"] input[type=checkbox]`).count()).toBe(0);
    await shot(section, 'console-not-invoiced');

    await section.locator(`input[value="${String(beforeA.id)}"]`).check();
    await section.locator(`input[value="${String(held.id)}"]`).check();
    await section.getByRole('button', { name: 'Rever e emitir as escolhidas' }).click();
    // Nothing is issued before the person has seen both documents and confirmed.
    const preview = page.locator('#preview');
    await preview.locator(`.preview[data-order="${String(beforeA.id)}"]`).getByText('Caneca de cerâmica').waitFor();
    await preview.locator(`.preview[data-order="${String(held.id)}"]`).getByText('Porque foi retida').waitFor();
    await h.woo.settle();
    expect(await h.documentsOf(Number(beforeA.id))).toHaveLength(0);
    await preview.getByRole('button', { name: 'Confirmar e emitir (2)' }).click();
    await page.getByText(`#${String(beforeA.id)} ✓`).waitFor();
    await eventually('the chosen old order invoiced', () => h.woo.meta(Number(beforeA.id), META.documentNumber));
    await eventually('the released hold invoiced', () => h.woo.meta(Number(held.id), META.documentNumber));
    // Each order's note says who decided, after seeing the document.
    expect(h.woo.notes(Number(held.id)).some((note) => note.note.startsWith('MagniFinance connector: admin reviewed the held invoice in the console and decided to issue it.'))).toBe(true);
    expect(h.woo.notes(Number(beforeA.id)).some((note) => note.note.startsWith('MagniFinance connector: admin reviewed the invoice in the console and decided to issue it.'))).toBe(true);
    expect(h.woo.meta(Number(beforeB.id), META.documentNumber)).toBeUndefined();

    // The admin API refuses another system's order, and says why.
    const refused = (await (await fetch(`${h.connector?.origin}/admin/api/not-invoiced/shop1/issue`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ orderIds: [Number(moloni.id)] }) })).json()) as { ok: boolean; detail: string }[];
    expect(refused).toEqual([{ orderId: Number(moloni.id), ok: false, detail: expect.stringContaining('never issued here: already has a document from another system (Moloni: _moloni_sent = 512334)') }]);
    await h.woo.settle();
    expect(await h.documentsOf(Number(moloni.id))).toHaveLength(0);
    await page.goto(`${h.connector?.origin}/console/shop1`);
    await section.getByText('Encomendas por faturar (3)').waitFor();
    await context.close();
  }, 60_000);

  it('webhook health: a wrong secret and a foreign topic, with the likely cause; a disabled webhook', async () => {
    for (let i = 0; i < 2; i += 1) {
      expect((await sendWooWebhook({ url: h.webhookUrl, secret: 'old-secret', topic: 'order.created', payload: h.woo.putOrder(portugueseOrder()), source: `${h.woo.origin}/` })).status).toBe(401);
    }
    expect((await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'coupon.created', payload: { id: 3, code: 'NATAL' }, source: `${h.woo.origin}/` })).status).toBe(202);
    // The connector's own webhooks are those delivering to server.publicUrl (the tests' http://connector.test).
    for (const [topic, status] of [['order.created', 'active'], ['order.updated', 'disabled']] as const) {
      h.woo.addWebhook({ topic, status, delivery_url: 'http://connector.test/webhooks/woocommerce/shop1', secret: WEBHOOK_SECRET });
    }
    expect((await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: '{}' })).status).toBe(200);

    const context = await browser.newContext({ httpCredentials: { username: 'admin', password: 'admin-pw' }, locale: 'en-GB', viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${h.connector?.origin}/console/shop1`);
    const health = page.locator('#health');
    await health.locator('tr[data-reason="bad-signature"]').waitFor();
    await health.getByText("the webhook's Secret in WooCommerce differs from this tenant's shop.webhookSecret", { exact: false }).waitFor();
    await health.locator('tr[data-reason="unknown-topic"]').waitFor();
    await health.getByText('Webhooks not active on the shop', { exact: false }).waitFor();
    await shot(health, 'console-webhook-health');
    await context.close();
  });
});
