import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { z } from 'zod';
import { META } from '../../connector/shop/order-meta';
import { DOCUMENT_TYPE_NAMES } from '../../messages/document-types';
import { havePhp, PLUGIN_DIR, PLUGIN_FILE, poEntries, sourceStrings } from './support';

/**
 * The companion WordPress plugin (wordpress/magnifinance-invoices) without a shop: php-cli loads it
 * with small stand-ins of the WordPress and WooCommerce functions it calls
 * (test/wordpress/harness/wordpress-stubs.php), fires the hooks WooCommerce fires, and prints what
 * the plugin wrote. The same screens on a real WordPress + WooCommerce: real-lab.test.ts.
 */
const HARNESS = join(__dirname, 'harness', 'run.php');
if (!havePhp) process.stderr.write('WordPress plugin test skipped: php is not installed (Debian: apt-get install php-cli; CI installs it)\n');
const describeWithPhp = havePhp ? describe : describe.skip;

interface Order {
  id: number;
  customer_id: number;
  billing_email: string;
  billing_first_name: string;
  currency: string;
  meta: { key: string; value: unknown }[];
}

type Argument = { order: number } | { post: number } | string | number | Record<string, unknown>;
type Step =
  | { kind: 'action'; name: string; args: Argument[] }
  | { kind: 'filter'; name: string; value: Argument; args?: Argument[] }
  | { kind: 'metaBox'; id: string; args: [Argument] };

interface Scenario {
  locale: 'en_US' | 'pt_PT';
  user: { id: number; caps: string[] };
  orders: Order[];
  steps: Step[];
  post?: Record<string, string>;
  mailAccepts?: boolean;
}

const ResultSchema = z.object({
  steps: z.array(z.object({ output: z.string(), value: z.record(z.string(), z.unknown()).nullable() })),
  mails: z.array(z.object({ to: z.string(), subject: z.string(), message: z.string(), headers: z.string() })),
  notes: z.record(z.string(), z.array(z.string())),
  metaBoxes: z.record(z.string(), z.object({ title: z.string(), screen: z.string(), context: z.string() })),
  declared: z.array(z.object({ feature: z.string(), file: z.string(), compatible: z.boolean() })),
  localeSwitches: z.array(z.string()),
});
type Result = z.infer<typeof ResultSchema>;

function run(scenario: Scenario): Result {
  const php = spawnSync('php', ['-d', 'error_reporting=E_ALL', '-d', 'display_errors=stderr', HARNESS, PLUGIN_FILE], { input: JSON.stringify(scenario), encoding: 'utf8' });
  // A notice or warning from the plugin is a failure, as it would be in a shop's log.
  if (php.status !== 0 || php.stderr !== '') throw new Error(`php exited ${php.status}: ${php.stderr}`);
  return ResultSchema.parse(JSON.parse(php.stdout));
}

const PDF = 'https://faturas.example.pt/documents/loja/17/pdf?exp=1767225600&sig=abc';
const CREDIT_PDF = 'https://faturas.example.pt/documents/loja/20/pdf?exp=1767225600&sig=def';
const BUYER = 7;
const OTHER_BUYER = 8;
const MANAGER = { id: 1, caps: ['edit_shop_orders'] };

/** The meta the connector writes on an invoiced order (connector/pipeline/write-back.ts), with a refund's credit note and a waybill. */
function invoicedMeta(overrides: Partial<Record<'number' | 'pdf' | 'type' | 'state', string>> = {}): Order['meta'] {
  return [
    { key: META.documentId, value: '17' },
    { key: META.documentNumber, value: overrides.number ?? 'FR A/17' },
    { key: META.documentType, value: overrides.type ?? 'T' },
    { key: META.documentState, value: overrides.state ?? 'closed' },
    { key: META.pdfUrl, value: overrides.pdf ?? PDF },
    { key: META.coveredTotal, value: '44.71' },
    { key: `${META.creditNotePrefix}2001`, value: { number: 'NC A/3', documentId: '20', type: 'C', pdfUrl: CREDIT_PDF, amount: '10.00' } },
    { key: META.waybill, value: JSON.stringify({ number: 'GT A/5', documentId: '21', type: 'W', pdfUrl: 'https://faturas.example.pt/documents/loja/21/pdf' }) },
  ];
}

function order(id: number, meta: Order['meta'], overrides: Partial<Order> = {}): Order {
  return { id, customer_id: BUYER, billing_email: 'ana@example.pt', billing_first_name: 'Ana', currency: 'EUR', meta, ...overrides };
}

const invoiced = order(101, invoicedMeta());
const notYet = order(102, [{ key: '_billing_nif', value: '123456789' }]);

describeWithPhp('the companion WordPress plugin, loaded by php-cli with stand-ins for WordPress and WooCommerce', () => {
  it('declares itself compatible with WooCommerce’s order tables (HPOS)', () => {
    const result = run({ locale: 'en_US', user: MANAGER, orders: [], steps: [] });
    expect(result.declared).toEqual([{ feature: 'custom_order_tables', file: 'magnifinance-invoices.php', compatible: true }]);
  });

  describe('the orders list’s column', () => {
    const cell = (hook: string, subject: Argument, scenario: Partial<Scenario> = {}): string =>
      run({ locale: 'en_US', user: MANAGER, orders: [invoiced, notYet], ...scenario, steps: [{ kind: 'action', name: hook, args: ['magnifinance_invoice', subject] }] }).steps[0]?.output ?? '';
    const HPOS = 'manage_woocommerce_page_wc-orders_custom_column';
    const POSTS = 'manage_shop_order_posts_custom_column';

    it('comes after the total, on the HPOS list and on the posts list', () => {
      const columns = { cb: '<input type="checkbox" />', order_number: 'Order', order_date: 'Date', order_status: 'Status', order_total: 'Total', origin: 'Origin' };
      for (const name of ['manage_woocommerce_page_wc-orders_columns', 'manage_edit-shop_order_columns']) {
        const result = run({ locale: 'pt_PT', user: MANAGER, orders: [], steps: [{ kind: 'filter', name, value: columns }] });
        expect(Object.entries(result.steps[0]?.value ?? {})).toEqual([...Object.entries(columns).slice(0, 5), ['magnifinance_invoice', 'Fatura'], ['origin', 'Origin']]);
      }
    });

    it('shows the invoice’s number linked to its PDF and the credit note’s, the same on both lists', () => {
      const hpos = cell(HPOS, { order: 101 });
      expect(hpos).toContain(`<a href="${PDF.replace(/&/g, '&#038;')}" target="_blank" rel="noopener noreferrer" title="Download the invoice FR A/17 (PDF)"><span class="magnifinance-invoices-number">FR A/17</span></a>`);
      expect(hpos).toContain(`<a href="${CREDIT_PDF.replace(/&/g, '&#038;')}"`);
      expect(hpos).toContain('NC A/3</span></a> <small>(Credit note)</small>');
      expect(hpos).not.toContain('GT A/5'); // the waybill is on the order screen, not in the list
      expect(cell(POSTS, 101)).toBe(hpos);
    });

    it('shows a dash and says "no invoice yet" to a screen reader for an order without our meta', () => {
      expect(cell(HPOS, { order: 102 })).toBe('<span aria-hidden="true">&ndash;</span><span class="screen-reader-text">No invoice yet</span>');
      expect(cell(POSTS, 102, { locale: 'pt_PT' })).toContain('Ainda sem fatura');
      expect(cell(HPOS, { order: 102 }, { orders: [order(102, [{ key: META.documentNumber, value: '' }])] })).toContain('No invoice yet');
    });

    it('marks a cancelled invoice, and writes nothing in other columns or for someone who may not manage orders', () => {
      const cancelled = order(101, invoicedMeta({ state: 'cancelled' }));
      expect(cell(HPOS, { order: 101 }, { orders: [cancelled], locale: 'pt_PT' })).toContain('FR A/17</span></a> <small>(anulada)</small>');
      expect(run({ locale: 'en_US', user: MANAGER, orders: [invoiced], steps: [{ kind: 'action', name: HPOS, args: ['order_total', { order: 101 }] }] }).steps[0]?.output).toBe('');
      expect(cell(HPOS, { order: 101 }, { user: { id: BUYER, caps: [] } })).toBe('');
    });

    it('escapes what it reads: a number with markup, a javascript: link, a quote that would leave the href', () => {
      const hostile = order(101, invoicedMeta({ number: 'FR A/1<script>alert(1)</script>', pdf: 'javascript:alert(document.cookie)' }));
      const html = cell(HPOS, { order: 101 }, { orders: [hostile] });
      expect(html).toContain('FR A/1&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).not.toMatch(/<script|javascript:/i);
      expect(html).not.toContain(`title="Download the invoice FR A/1<`);
      const quoted = order(101, invoicedMeta({ pdf: 'https://faturas.example.pt/x" onmouseover="alert(1)' }));
      const quotedHtml = cell(HPOS, { order: 101 }, { orders: [quoted] });
      expect(quotedHtml).toContain('<a href="https://faturas.example.pt/x%20onmouseover=alert(1)" target="_blank"');
      expect(quotedHtml).not.toContain('" onmouseover');
    });
  });

  describe('the order screen’s box', () => {
    const box = (subject: Argument, scenario: Partial<Scenario> = {}): Result =>
      run({ locale: 'en_US', user: MANAGER, orders: [invoiced, notYet], ...scenario, steps: [{ kind: 'metaBox', id: 'magnifinance-invoices', args: [subject] }] });

    it('is beside the order on the order screen, and lists every document with its type, state, amount and PDF', () => {
      const result = box({ order: 101 }, { locale: 'pt_PT' });
      expect(result.metaBoxes['magnifinance-invoices']).toEqual({ title: 'Fatura MagniFinance', screen: 'woocommerce_page_wc-orders', context: 'side' });
      const html = result.steps[0]?.output ?? '';
      const number = (text: string): string => `<span class="magnifinance-invoices-number" style="white-space:nowrap">${text}</span>`;
      expect(html).toContain(`<li><strong>Fatura-recibo</strong> ${number('FR A/17')}<br><a href=`);
      expect(html).toContain(`<li><strong>Nota de crédito</strong> ${number('NC A/3')}<br><small>reembolso n.º 2001 &middot; <span class="woocommerce-Price-amount amount">10,00`);
      expect(html).toContain(`<li><strong>Guia de transporte</strong> ${number('GT A/5')}<br><a href=`);
      expect(html).toContain(`title="Descarregar a fatura FR A/17 (PDF)">Descarregar (PDF)</a>`);
      expect(html).toContain('escolha «Reenviar a fatura por e-mail» nas ações da encomenda');
      expect(html).toMatch(/<input type="hidden" id="magnifinance_invoices_nonce" name="magnifinance_invoices_nonce" value="[0-9a-f]{10}" \/>/);
    });

    it('draws the same for the posts storage, where WordPress passes the post', () => {
      expect(box({ post: 101 }).steps[0]?.output).toBe(box({ order: 101 }).steps[0]?.output);
    });

    it('says how the number arrives on an order without our meta, and offers no resend', () => {
      const html = box({ order: 102 }, { locale: 'pt_PT' }).steps[0]?.output;
      expect(html).toBe('<p>Ainda sem fatura: o conector MagniFinance escreve aqui o número e a ligação para o PDF quando a emitir.</p>');
    });

    it('names each type of document as the connector’s catalogue does (messages/document-types.ts)', () => {
      for (const [letter, names] of Object.entries(DOCUMENT_TYPE_NAMES)) {
        for (const [locale, name] of [['en_US', names.en], ['pt_PT', names.pt]] as const) {
          const html = box({ order: 101 }, { locale, orders: [order(101, invoicedMeta({ type: letter }))] }).steps[0]?.output;
          expect(html).toContain(`<li><strong>${name}</strong> <span class="magnifinance-invoices-number" style="white-space:nowrap">FR A/17</span>`);
        }
      }
    });

    it('is not added for someone who may not manage orders', () => {
      const result = box({ order: 101 }, { user: { id: BUYER, caps: ['read'] } });
      expect(result.metaBoxes).toEqual({});
      expect(result.steps[0]?.output).toBe('');
    });
  });

  describe('the order action "Resend the invoice by e-mail"', () => {
    const offered = (orders: Order[], user = MANAGER): Record<string, unknown> | null =>
      run({ locale: 'en_US', user, orders, steps: [{ kind: 'filter', name: 'woocommerce_order_actions', value: { send_order_details: 'Send order details to customer' }, args: [{ order: orders[0]?.id ?? 0 }] }] }).steps[0]?.value ?? null;
    /** The nonce the box printed in the order's form for this user and order, as the browser posts it back. */
    const nonceFromBox = (orderId: number, user = MANAGER): string => {
      const html = run({ locale: 'en_US', user, orders: [order(orderId, invoicedMeta())], steps: [{ kind: 'metaBox', id: 'magnifinance-invoices', args: [{ order: orderId }] }] }).steps[0]?.output ?? '';
      return /name="magnifinance_invoices_nonce" value="([0-9a-f]+)"/.exec(html)?.[1] ?? '';
    };
    const resend = (orders: Order[], post: Record<string, string>, scenario: Partial<Scenario> = {}): Result =>
      run({ locale: 'pt_PT', user: MANAGER, orders, post, ...scenario, steps: [{ kind: 'action', name: 'woocommerce_order_action_magnifinance_resend_invoice', args: [{ order: orders[0]?.id ?? 0 }] }] });

    it('is offered when the order has an invoice with a PDF link, to someone who may manage orders', () => {
      expect(offered([invoiced])).toEqual({ send_order_details: 'Send order details to customer', magnifinance_resend_invoice: 'Resend the invoice by e-mail' });
      expect(offered([notYet])).toEqual({ send_order_details: 'Send order details to customer' });
      expect(offered([order(101, invoicedMeta({ pdf: '' }))])).toEqual({ send_order_details: 'Send order details to customer' });
      expect(offered([invoiced], { id: BUYER, caps: [] })).toEqual({ send_order_details: 'Send order details to customer' });
    });

    it('sends the buyer one e-mail in the shop’s language with the PDF links, escaped, and notes it on the order', () => {
      const hostileName = order(101, invoicedMeta(), { billing_first_name: '<script>alert(1)</script>Ana' });
      const result = resend([hostileName], { magnifinance_invoices_nonce: nonceFromBox(101) });
      expect(result.mails).toHaveLength(1);
      const mail = result.mails[0];
      expect(mail?.to).toBe('ana@example.pt');
      expect(mail?.subject).toBe('A sua fatura FR A/17 da encomenda n.º 101');
      expect(mail?.headers).toContain('text/html; charset=UTF-8');
      expect(mail?.message).toContain('<h1>Fatura FR A/17</h1>');
      expect(mail?.message).toContain('<p>Olá &lt;script&gt;alert(1)&lt;/script&gt;Ana,</p>');
      expect(mail?.message).not.toContain('<script');
      expect(mail?.message).toContain(`<li><a href="${PDF.replace(/&/g, '&#038;')}">Descarregar a fatura FR A/17 (PDF)</a></li>`);
      expect(mail?.message).toContain(`<li><a href="${CREDIT_PDF.replace(/&/g, '&#038;')}">Descarregar a nota de crédito NC A/3 (PDF)</a></li>`);
      expect(mail?.message).not.toContain('GT A/5');
      expect(result.localeSwitches).toEqual(['site', 'restore']);
      expect(result.notes['101']).toEqual(['Fatura FR A/17 reenviada por e-mail para ana@example.pt.']);
    });

    it('sends nothing without the box’s nonce, with another order’s or another user’s, and says so on the order', () => {
      const refused = 'A fatura não foi reenviada: não foi possível confirmar o pedido. Recarregue a encomenda e tente de novo.';
      const posts: Record<string, string>[] = [{}, { magnifinance_invoices_nonce: nonceFromBox(999) }, { magnifinance_invoices_nonce: nonceFromBox(101, { id: 2, caps: ['edit_shop_orders'] }) }];
      for (const post of posts) {
        const result = resend([invoiced], post);
        expect(result.mails).toEqual([]);
        expect(result.notes['101']).toEqual([refused]);
      }
    });

    it('does nothing for someone who may not manage orders, even with a nonce', () => {
      const buyer = { id: BUYER, caps: [] };
      const result = resend([invoiced], { magnifinance_invoices_nonce: nonceFromBox(101, buyer) }, { user: buyer });
      expect(result.mails).toEqual([]);
      expect(result.notes['101']).toEqual([]);
    });

    it('says why on the order when there is no address, no PDF, or WordPress does not send', () => {
      const post = { magnifinance_invoices_nonce: nonceFromBox(101) };
      expect(resend([order(101, invoicedMeta(), { billing_email: 'not an address' })], post).notes['101']).toEqual(['A fatura não foi reenviada: a encomenda não tem um endereço de e-mail de faturação válido.']);
      expect(resend([order(101, invoicedMeta({ pdf: '' }))], post).notes['101']).toEqual(['A fatura não foi reenviada: a encomenda ainda não tem uma fatura com ligação para o PDF.']);
      const refused = resend([invoiced], post, { mailAccepts: false, locale: 'en_US' });
      expect(refused.mails).toHaveLength(1);
      expect(refused.notes['101']).toEqual(['The invoice FR A/17 was not sent again: WordPress could not send the e-mail.']);
    });
  });

  describe('the buyer’s My Account', () => {
    const account = (user: number, orders: Order[], locale: Scenario['locale'] = 'pt_PT'): { column: string; details: string } => {
      const result = run({
        locale,
        user: { id: user, caps: user > 0 ? ['read'] : [] },
        orders,
        steps: [
          { kind: 'action', name: 'woocommerce_my_account_my_orders_column_magnifinance-invoice', args: [{ order: orders[0]?.id ?? 0 }] },
          { kind: 'action', name: 'woocommerce_order_details_after_order_table', args: [{ order: orders[0]?.id ?? 0 }] },
        ],
      });
      return { column: result.steps[0]?.output ?? '', details: result.steps[1]?.output ?? '' };
    };

    it('adds an "Invoice" column before the actions of the orders list', () => {
      const columns = { 'order-number': 'Order', 'order-date': 'Date', 'order-status': 'Status', 'order-total': 'Total', 'order-actions': 'Actions' };
      const result = run({ locale: 'pt_PT', user: { id: BUYER, caps: [] }, orders: [], steps: [{ kind: 'filter', name: 'woocommerce_account_orders_columns', value: columns }] });
      expect(Object.keys(result.steps[0]?.value ?? {})).toEqual(['order-number', 'order-date', 'order-status', 'order-total', 'magnifinance-invoice', 'order-actions']);
      expect(result.steps[0]?.value?.['magnifinance-invoice']).toBe('Fatura');
    });

    it('gives the buyer the invoice’s and the credit note’s PDF, in the list and on the order’s page', () => {
      const { column, details } = account(BUYER, [invoiced]);
      expect(column).toContain(`<a href="${PDF.replace(/&/g, '&#038;')}" target="_blank" rel="noopener noreferrer" title="Descarregar a fatura FR A/17 (PDF)"><span class="magnifinance-invoices-number">FR A/17</span></a>`);
      expect(column).toContain('title="Descarregar a nota de crédito NC A/3 (PDF)"');
      expect(column).not.toContain('GT A/5');
      expect(details).toContain('<h2 class="woocommerce-order-details__title">Fatura</h2>');
      expect(details).toContain('<li>Fatura-recibo <a href=');
      expect(details).toContain('<li>Nota de crédito <a href=');
      expect(details).not.toContain('2001'); // the shop's refund id means nothing to the buyer
      expect(details).toContain('>Descarregar (PDF)</a>');
      expect(details).not.toContain('GT A/5');
    });

    it('shows another customer’s order, a guest’s order, or any order to a visitor nothing', () => {
      expect(account(OTHER_BUYER, [invoiced])).toEqual({ column: '', details: '' });
      expect(account(0, [invoiced])).toEqual({ column: '', details: '' });
      expect(account(0, [order(101, invoicedMeta(), { customer_id: 0 })])).toEqual({ column: '', details: '' });
    });

    it('says when the invoice was cancelled, or the credit note is the cancelled order’s', () => {
      const cancelledInPlace = order(101, invoicedMeta({ state: 'cancelled' }));
      expect(account(BUYER, [cancelledInPlace]).details).toContain('FR A/17</span></a> (anulada)');
      const creditedWhole = order(101, [...invoicedMeta(), { key: META.cancellation, value: { action: 'credit-note', number: 'NC A/4', documentId: '22', type: 'C', pdfUrl: CREDIT_PDF } }]);
      expect(account(BUYER, [creditedWhole]).details).toContain('NC A/4</span></a> (encomenda cancelada)');
    });

    it('shows nothing on an order without our meta, and escapes a hostile number', () => {
      expect(account(BUYER, [notYet])).toEqual({ column: '', details: '' });
      const { column, details } = account(BUYER, [order(101, invoicedMeta({ number: '<img src=x onerror=alert(1)>' }))], 'en_US');
      expect(column + details).not.toContain('<img');
      expect(details).toContain('&lt;img src=x onerror=alert(1)&gt;');
    });
  });

  describe('its words, English and Portuguese', () => {
    const po = poEntries(join(PLUGIN_DIR, 'languages', 'magnifinance-invoices-pt_PT.po'));
    const pot = poEntries(join(PLUGIN_DIR, 'languages', 'magnifinance-invoices.pot'));

    it('has every string of the source in the template and translated in the Portuguese .po', () => {
      const strings = [...sourceStrings()].sort();
      expect(strings.length).toBeGreaterThan(20);
      expect([...pot.keys()].sort()).toEqual(strings);
      expect([...po.keys()].sort()).toEqual(strings);
      expect(strings.filter((text) => (po.get(text) ?? '') === '')).toEqual([]);
    });

    it('ships the same translations in the .l10n.php file WordPress loads', () => {
      const php = spawnSync('php', ['-r', 'echo json_encode((require $argv[1])["messages"]);', join(PLUGIN_DIR, 'languages', 'magnifinance-invoices-pt_PT.l10n.php')], { encoding: 'utf8' });
      expect(php.stderr).toBe('');
      expect(z.record(z.string(), z.string()).parse(JSON.parse(php.stdout))).toEqual(Object.fromEntries(po));
    });
  });
});
