import IORedis from 'ioredis';
import { parseConfig } from '../../connector/config/load-config';
import { ConnectorMetrics } from '../../connector/core/metrics';
import { startConnector } from '../../connector/main/runtime';
import { OrderHistory } from '../../connector/history/order-history';
import { META } from '../../connector/shop/order-meta';
import { deleteKeys, eventually, portugueseOrder, quietLogger, rawTestConfig, REDIS_URL, startHarness, type Harness } from './support/harness';

/**
 * What a person does from the admin API or the console lands in the order's history with who did it
 * (issue 19), and the console's credit note for the whole invoice is guarded by the ledger.
 */
describe('actions of a person: recorded in the order history with who; the credit note never twice', () => {
  let h: Harness;
  let redis: IORedis;
  let history: OrderHistory;
  const auth = (user = 'admin', password = 'admin-pw') => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
  beforeAll(async () => {
    h = await startHarness();
    redis = new IORedis(REDIS_URL);
    history = new OrderHistory(redis, h.prefix);
  });
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

  const tokenOf = async (): Promise<string> => /name="csrf" value="([^"]+)"/.exec(await (await fetch(`${h.connector?.origin}/console/shop1`, { headers: auth() })).text())?.[1] as string;
  const form = async (path: string, fields: Record<string, string>) =>
    fetch(`${h.connector?.origin}${path}`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' }, body: new URLSearchParams({ csrf: await tokenOf(), ...fields }).toString(), redirect: 'manual' });

  it('the admin API retry and dismiss are recorded with the user who sent them', async () => {
    const order = portugueseOrder({ currency: 'USD' });
    const orderId = Number(order.id);
    await h.deliver(order);
    await eventually('refused', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId, purpose: 'invoice' }))?.action !== undefined);
    expect((await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${orderId}/retry`, { method: 'POST', headers: auth() })).status).toBe(202);
    const dismissed = await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${orderId}/dismiss`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ purpose: 'invoice', reason: 'Fatura FT A/90 emitida à mão' }),
    });
    expect(dismissed.status).toBe(200);
    const actions = (await history.of('shop1', orderId)).filter((event) => event.kind === 'action');
    expect(actions).toEqual([
      expect.objectContaining({ kind: 'action', action: 'retry', by: 'admin' }),
      expect.objectContaining({ kind: 'action', action: 'dismiss', by: 'admin', purpose: 'invoice', detail: 'Fatura FT A/90 emitida à mão' }),
    ]);
  });

  it('a credit note for the whole invoice: refused without an invoice; issued once; a second ask is refused and issues nothing', async () => {
    const none = await form('/console/shop1/orders/987654/credit-note', {});
    expect(none.status).toBe(303);
    const refused = await (await fetch(`${h.connector?.origin}${String(none.headers.get('location'))}`, { headers: { ...auth(), 'accept-language': 'en' } })).text();
    expect(refused).toContain('order 987654 has no invoice issued by the connector to credit.');

    const order = portugueseOrder();
    const orderId = Number(order.id);
    await h.deliver(order);
    const invoice = String(await eventually('invoiced', () => h.woo.meta(orderId, META.documentNumber)));
    const asked = await form(`/console/shop1/orders/${orderId}/credit-note?lang=pt`, { total: '56.32' });
    expect(asked.status).toBe(303);
    // The flash says what was asked, a credit note of the whole invoice (issue 31.5: it said "a emitir de novo (anulação)").
    const flash = await (await fetch(`${h.connector?.origin}${String(asked.headers.get('location'))}&lang=pt`, { headers: auth() })).text();
    expect(flash).toContain('Feito: a nota de crédito da fatura inteira está a ser emitida');
    expect(flash).not.toContain('anulação');
    const credited = (await eventually('credited', () => h.woo.meta(orderId, META.cancellation))) as { number: string };
    const again = await form(`/console/shop1/orders/${orderId}/credit-note`, {});
    const page = await (await fetch(`${h.connector?.origin}${String(again.headers.get('location'))}`, { headers: { ...auth(), 'accept-language': 'en' } })).text();
    expect(page).toContain(`invoice ${invoice} is already credited or cancelled: no second credit note is issued.`);
    await h.woo.settle();
    expect((await h.documentsOf(orderId)).filter((doc) => doc.document.Type === 'C').map((doc) => doc.number)).toEqual([credited.number]);
    const actions = (await history.of('shop1', orderId)).filter((event) => event.kind === 'action');
    expect(actions).toEqual([expect.objectContaining({ action: 'credit-note', by: 'admin', detail: invoice })]);
    // The note on the order (the tenant writes in English here) says who asked, and the total they saw.
    expect(h.woo.notes(orderId).some((note) => note.note === `MagniFinance connector: admin reviewed in the console and asked for a credit note for the whole invoice ${invoice} (€56.32).`)).toBe(true);
  });

  it('a cancelled order whose cancellation waits: the order page offers the shop\'s cancellation rule; previewed, then issued', async () => {
    const order = portugueseOrder();
    const orderId = Number(order.id);
    await h.deliver(order);
    const invoice = String(await eventually('invoiced', () => h.woo.meta(orderId, META.documentNumber)));
    // Cancelled in WooCommerce while the connector did not hear of it (a lost delivery, before the sweep).
    h.woo.editOrder(orderId, { status: 'cancelled' }, { fire: false });
    const orderPage = await (await fetch(`${h.connector?.origin}/console/shop1/orders/${orderId}?lang=en`, { headers: auth() })).text();
    expect(orderPage).toContain('Apply the cancellation rule');
    // onCancelled: credit-note here, so the rule and the credit note are one button.
    expect(orderPage).not.toContain('Credit note for the whole invoice');
    const preview = await (await fetch(`${h.connector?.origin}/console/shop1/orders/${orderId}/preview?purpose=cancellation&policy=1&lang=en`, { headers: auth() })).text();
    expect(preview).toContain(`corrects ${invoice}`);
    expect(preview).toContain(`action="/console/shop1/orders/${orderId}/cancellation"`);
    expect((await form(`/console/shop1/orders/${orderId}/cancellation`, {})).status).toBe(303);
    expect(((await eventually('credited', () => h.woo.meta(orderId, META.cancellation))) as { action: string }).action).toBe('credit-note');
    expect((await history.of('shop1', orderId)).filter((event) => event.kind === 'action')).toEqual([expect.objectContaining({ action: 'cancellation', by: 'admin', detail: invoice })]);
  });

  it('recent documents past 50: pages of 50 with the next and previous links; customers asked to the shop in one include= call', async () => {
    const ledger = h.connector?.ledger;
    if (!ledger) throw new Error('no connector');
    const order = portugueseOrder({ billing: { first_name: 'Rita', last_name: 'Paging', address_1: 'Rua 1', city: 'Faro', postcode: '8000-001', country: 'PT', email: 'rita@example.pt' } });
    const named = Number(order.id);
    await h.deliver(order);
    await eventually('invoiced', () => h.woo.meta(named, META.documentNumber));
    // 55 more documents, as the write-back records them (the ledger and the recent list), older than the named one.
    const before = Date.now() - 3_600_000;
    for (let i = 0; i < 55; i += 1) {
      const ref = { tenant: 'shop1', orderId: 800_000 + i, purpose: 'invoice' };
      await ledger.record(ref, { state: 'written-back', documentId: 900_000 + i, documentNumber: `FR P/${i + 1}`, documentType: 'T', total: '1660.50' });
      await ledger.markWrittenBack(ref, before + i);
    }
    const total = await ledger.recentCount('shop1');
    const lists = () => h.woo.requests.filter((request) => request.method === 'GET' && /\/orders$/.test(request.path)).length;
    const listsBefore = lists();
    const first = await (await fetch(`${h.connector?.origin}/console/shop1?lang=pt`, { headers: auth() })).text();
    expect(lists() - listsBefore).toBe(1);
    const recent = first.slice(first.indexOf('id="recent"'));
    expect(recent).toContain(`A mostrar 1–50 de ${total}`);
    expect(recent).toContain('href="/console/shop1?recentFrom=50#recent"');
    expect(recent).toContain('Rita Paging');
    // 1 660,50 € with no-break spaces, so an amount never splits over two lines on a phone.
    expect(recent).toContain('1\u00a0660,50\u00a0€');
    expect(recent.match(/<tr data-order=/g)).toHaveLength(50);
    const second = await (await fetch(`${h.connector?.origin}/console/shop1?lang=pt&recentFrom=50`, { headers: auth() })).text();
    const rest = second.slice(second.indexOf('id="recent"'));
    expect(rest.match(/<tr data-order=/g)).toHaveLength(total - 50);
    expect(rest).toContain('href="/console/shop1?recentFrom=0#recent"');
  });

  it('onCancelled: cancel still issues a credit note when a person asks for one (not a cancellation in place)', async () => {
    const cancelShop = await startHarness({ settings: { onCancelled: 'cancel' } });
    try {
      const order = portugueseOrder();
      const orderId = Number(order.id);
      await cancelShop.deliver(order);
      await eventually('invoiced', () => cancelShop.woo.meta(orderId, META.documentNumber));
      const token = /name="csrf" value="([^"]+)"/.exec(await (await fetch(`${cancelShop.connector?.origin}/console/shop1`, { headers: auth() })).text())?.[1] as string;
      const asked = await fetch(`${cancelShop.connector?.origin}/console/shop1/orders/${orderId}/credit-note`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf: token }).toString(), redirect: 'manual' });
      expect(asked.status).toBe(303);
      const meta = (await eventually('credited', () => cancelShop.woo.meta(orderId, META.cancellation))) as { action: string };
      expect(meta.action).toBe('credit-note');
      expect(cancelShop.woo.meta(orderId, META.documentState)).toBe('closed');
    } finally {
      await cancelShop.close();
    }
  });
});

describe('the all-shops page: names and addresses, shops with problems first', () => {
  it('a shop with an order waiting comes before a quiet one, under its name from the tenants file, with its address', async () => {
    const prefix = `mft-shops-${Date.now()}`;
    const raw = rawTestConfig({ prefix, wooOrigin: 'https://loja-calma.example.pt', consumerKey: 'ck', consumerSecret: 'cs', baseUrl: 'http://127.0.0.1:9/api/v1.1' });
    const [first] = raw.tenants as Record<string, unknown>[];
    raw.tenants = [
      { ...first, id: 'calma', name: 'A Loja Calma' },
      { ...first, id: 'aflita', shop: { ...(first.shop as object), url: 'https://aflita.example.pt' }, invoicing: { ...(first.invoicing as object), email: 'outra@example.pt' } },
    ];
    const connector = await startConnector(parseConfig(raw, 'test', {}), { role: 'serve', port: 0, logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
    try {
      await connector.ledger.record({ tenant: 'aflita', orderId: 7, purpose: 'invoice' }, { state: 'held', action: 'check it', detail: 'held' });
      await connector.ledger.markAttention({ tenant: 'aflita', orderId: 7, purpose: 'invoice' });
      const page = await (await fetch(`${connector.origin}/console?lang=pt`, { headers: { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` } })).text();
      const rows = [...page.matchAll(/<tr data-tenant="([^"]+)">/g)].map((match) => match[1]);
      expect(rows).toEqual(['aflita', 'calma']);
      // Named from the tenants file, or by the shop's host; each with the shop's address.
      expect(page).toContain('<b>A Loja Calma</b>');
      expect(page).toContain('<b>aflita.example.pt</b>');
      expect(page).toContain('href="https://loja-calma.example.pt" rel="noopener">https://loja-calma.example.pt ↗</a>');
    } finally {
      await connector.close();
      await deleteKeys(REDIS_URL, prefix);
    }
  });
});
