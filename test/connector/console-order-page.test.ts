import { existsSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { META } from '../../connector/shop/order-meta';
import { BUTTONS } from '../../connector/words';
import { CHROMIUM, heldOrder, launchChromium } from './support/console-browser';
import { eventually, portugueseOrder, startHarness, type Harness } from './support/harness';

/**
 * The order page as a Portuguese shop owner meets it (issue 19): found by order number, customer name
 * or document number; its documents, history and link to wp-admin; a credit note for the whole
 * invoice issued only after its preview is confirmed, its number landing on the shop's order; and a
 * held order's "issue now" that shows the document before anything is issued.
 */
const describeInBrowser = existsSync(CHROMIUM) ? describe : describe.skip;

describeInBrowser('the order page: search, documents, history, a credit note after its preview (issue 19)', () => {
  let h: Harness;
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    // A Portuguese shop: its notes in Portuguese.
    h = await startHarness({ settings: { language: 'pt' } });
    browser = await launchChromium();
    context = await browser.newContext({ httpCredentials: { username: 'admin', password: 'admin-pw' }, locale: 'pt-PT', viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await h.close();
  });

  const invoiced = async (order: ReturnType<typeof portugueseOrder>): Promise<string> => {
    await h.deliver(order);
    return String(await eventually('the invoice on the order', () => h.woo.meta(Number(order.id), META.documentNumber)));
  };

  it('finds an order by its number, its customer and its document number; shows its documents, wp-admin link and history', async () => {
    const order = portugueseOrder({ billing: { first_name: 'Joana', last_name: 'Antunes', address_1: 'Rua do Ouro 5', city: 'Lisboa', postcode: '1100-060', country: 'PT', email: 'joana@example.pt' } });
    const orderId = Number(order.id);
    const number = await invoiced(order);
    const page = await context.newPage();
    const origin = h.connector?.origin as string;

    // By order number, from the shop page's search box: straight to its page.
    await page.goto(`${origin}/console/shop1`);
    await page.getByRole('searchbox').fill(String(orderId));
    await page.getByRole('button', { name: 'Procurar' }).click();
    await page.waitForURL(`**/console/shop1/orders/${orderId}`);
    await page.getByRole('heading', { name: `Encomenda #${orderId} · Joana Antunes` }).waitFor();
    const documents = page.locator('#documents');
    await documents.getByText(number).waitFor();
    await documents.getByText('Fatura-recibo').waitFor();
    // The shop's total, as an owner reads it: 54,05 € (2 × 12,50 + 18,90 + 4,50 shipping, with VAT).
    const total = (await documents.locator('td.num').first().textContent()) as string;
    expect(total).toMatch(/^\d{1,3}(?:\u00a0\d{3})*,\d{2}\u00a0€$/);
    expect(await documents.getByRole('link', { name: 'PDF' }).getAttribute('href')).toContain('http://connector.test/');
    expect(await page.getByRole('link', { name: /Abrir a encomenda no WooCommerce/ }).getAttribute('href')).toBe(`${h.woo.origin}/wp-admin/admin.php?page=wc-orders&action=edit&id=${orderId}`);

    // By customer name (asked to the shop: the connector stores no names), any case.
    await page.getByRole('searchbox').fill('antunes');
    await page.getByRole('button', { name: 'Procurar' }).click();
    await page.waitForURL(`**/console/shop1/orders/${orderId}`);

    // By document number.
    await page.getByRole('searchbox').fill(number.toLowerCase());
    await page.getByRole('button', { name: 'Procurar' }).click();
    await page.waitForURL(`**/console/shop1/orders/${orderId}`);

    // A name many orders share: a list, each linking to its page.
    const other = portugueseOrder({ billing: { first_name: 'Ana', last_name: 'Antunes', address_1: 'Rua A 1', city: 'Porto', postcode: '4000-001', country: 'PT', email: 'ana@example.pt' } });
    await invoiced(other);
    await page.getByRole('searchbox').fill('Antunes');
    await page.getByRole('button', { name: 'Procurar' }).click();
    const results = page.locator('#search-results');
    await results.getByRole('link', { name: `#${orderId}` }).waitFor();
    await results.getByRole('link', { name: `#${String(other.id)}` }).waitFor();
    await results.getByText('Ana Antunes', { exact: true }).waitFor();
    await page.goto(`${origin}/console/shop1/search?q=ninguem-com-este-nome`);
    await page.getByText('Nenhuma encomenda encontrada.').waitFor();
    await page.close();
  });

  it('a credit note for the whole invoice: preview, confirm, its number on the order in the shop and on the page', async () => {
    const order = portugueseOrder();
    const orderId = Number(order.id);
    const invoiceNumber = await invoiced(order);
    const page = await context.newPage();
    const origin = h.connector?.origin as string;
    await page.goto(`${origin}/console/shop1/orders/${orderId}`);
    await page.getByRole('button', { name: BUTTONS.creditNote.pt }).click();

    // The preview: the document that would be issued, and nothing issued yet.
    const preview = page.locator('#preview');
    await preview.getByRole('heading', { name: 'Reveja o documento antes de o emitir' }).waitFor();
    await preview.getByText(`Nota de crédito · corrige a ${invoiceNumber}`).waitFor();
    await preview.getByText('Caneca de cerâmica').waitFor();
    await preview.getByText('Maria Silva').waitFor();
    await preview.getByText('232013969').waitFor();
    expect(await preview.locator('.document-total').textContent()).toMatch(/\u00a0€$/);
    await h.woo.settle();
    expect((await h.documentsOf(orderId)).filter((doc) => doc.document.Type === 'C')).toHaveLength(0);

    await preview.getByRole('button', { name: BUTTONS.confirmIssue.pt }).click();
    await page.waitForURL(`**/console/shop1/orders/${orderId}?flash=*`);
    await page.locator('.flash.ok').waitFor();
    const cancellation = (await eventually('the credit note on the shop order', () => h.woo.meta(orderId, META.cancellation))) as { number: string; action: string };
    expect(cancellation.action).toBe('credit-note');
    const credit = (await h.documentsOf(orderId)).filter((doc) => doc.document.Type === 'C');
    expect(credit).toHaveLength(1);
    expect(credit[0].document.DocumentReference).toContain(invoiceNumber);

    await page.goto(`${origin}/console/shop1/orders/${orderId}`);
    const documents = page.locator('#documents');
    await documents.getByText(cancellation.number).waitFor();
    await documents.locator('tr[data-purpose="cancellation"]').getByText(`corrige a ${invoiceNumber}`).waitFor();
    await documents.locator('tr[data-purpose="invoice"]').getByText('creditada').waitFor();
    // The history says who asked; the order's note too.
    await page.locator('#history').getByText(`admin reviu e pediu uma nota de crédito da fatura ${invoiceNumber} inteira`).waitFor();
    expect(h.woo.notes(orderId).some((note) => note.note.includes(`admin reviu na consola e pediu uma nota de crédito da fatura ${invoiceNumber} inteira`))).toBe(true);
    // Asked again (a second tab, a double click): refused, never a second credit note.
    expect(await page.getByRole('button', { name: BUTTONS.creditNote.pt }).count()).toBe(0);
    await page.goto(`${origin}/console/shop1`);
    const token = /name="csrf" value="([^"]+)"/.exec(await page.content())?.[1] as string;
    const again = await fetch(`${origin}/console/shop1/orders/${orderId}/credit-note`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'pt-PT' },
      body: new URLSearchParams({ csrf: token }).toString(),
      redirect: 'manual',
    });
    expect(again.status).toBe(303);
    await page.goto(`${origin}${String(again.headers.get('location'))}`);
    await page.locator('.flash.err').getByText('já foi creditada', { exact: false }).waitFor();
    await h.woo.settle();
    expect((await h.documentsOf(orderId)).filter((doc) => doc.document.Type === 'C')).toHaveLength(1);
    await page.close();
  }, 60_000);

  it('"issue now" on a held order shows the document and the hold before anything is issued; the note says who decided', async () => {
    const order = heldOrder();
    const orderId = Number(order.id);
    await h.deliver(order);
    await eventually('held', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId, purpose: 'invoice' }))?.state === 'held');
    const page = await context.newPage();
    await page.goto(`${h.connector?.origin}/console/shop1/orders/${orderId}`);
    await page.locator('#waiting').getByRole('button', { name: BUTTONS.issueNow.pt }).click();
    const preview = page.locator('#preview');
    await preview.getByText('Porque foi retida').waitFor();
    // The buyer as the document carries it: the company, the person beside it (issue 31.5).
    await preview.getByText('Costa & Filhos, Lda. (Rui Costa)').waitFor();
    await preview.getByText('Caneca de cerâmica').waitFor();
    await h.woo.settle();
    expect(await h.documentsOf(orderId)).toHaveLength(0);
    await preview.getByRole('button', { name: BUTTONS.confirmIssue.pt }).click();
    await page.locator('.flash.ok').waitFor();
    await eventually('issued after the confirmation', () => h.woo.meta(orderId, META.documentNumber));
    expect(h.woo.notes(orderId).some((note) => note.note.startsWith('Conector MagniFinance: admin reviu na consola a fatura retida'))).toBe(true);
    await page.reload();
    await page.locator('#history').getByText('admin reviu o documento e mandou emiti-lo').waitFor();
    await page.close();
  }, 60_000);
});
