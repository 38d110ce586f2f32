import { META } from '../../connector/shop/order-meta';
import { orderPagePath } from '../../connector/words';
import { englishWords } from '../support/english-words';
import { eventually, portugueseOrder, startHarness, type Harness } from './support/harness';

/**
 * The console's search against the fake shop searching like a real WooCommerce 10.0.2
 * (docs/real-shop-findings.md, issue 19): `#<digits>` asked as the digits, the shop's 20 most recent
 * of N said as such, and `search` never sent with `include`.
 */
describe("the console's search asks the shop what a real WooCommerce answers (issue 19)", () => {
  let h: Harness;
  const auth = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };
  const search = (q: string, lang: 'pt' | 'en' = 'pt'): Promise<Response> =>
    fetch(`${h.connector?.origin}/console/shop1/search?${new URLSearchParams({ q, lang }).toString()}`, { headers: auth, redirect: 'manual' });
  const textOf = (html: string): string => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('"#<number>" of an order the connector never handled opens its page: the shop is asked for the digits, as it finds nothing for "#22"', async () => {
    const order = h.woo.putOrder(portugueseOrder());
    const orderId = Number(order.id);
    const before = h.woo.orderListings.length;
    const response = await search(`#${orderId}`);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(orderPagePath('shop1', orderId));
    const asked = h.woo.orderListings.slice(before).map((q) => q.search).filter(Boolean);
    expect(asked).toEqual([String(orderId)]);
  });

  it('more orders match than the shop answers: the 20 most recent are listed and the page says of how many, in pt and en', async () => {
    const placed = Array.from({ length: 25 }, () => h.woo.putOrder(portugueseOrder({ billing: { first_name: 'Rita', last_name: 'Quintela', address_1: 'Rua Augusta 10', city: 'Lisboa', postcode: '1100-053', country: 'PT', email: 'rita@example.pt' } })));
    const newest = placed.map((order) => Number(order.id)).sort((a, b) => b - a).slice(0, 20);
    const pt = await (await search('quintela')).text();
    expect([...pt.matchAll(/data-order="(\d+)"/g)].map((m) => Number(m[1]))).toEqual(newest);
    const said = textOf(/<div class="item calm" id="search-more">(.*?)<\/div>/s.exec(pt)?.[1] ?? '');
    expect(said).toBe('A loja encontrou 25 encomendas com estes dados do cliente; mostram-se as 20 mais recentes. Acrescente uma palavra (o apelido, a localidade, o e-mail) para restringir a pesquisa.');
    expect(englishWords(said)).toEqual([]);
    const en = textOf(await (await search('Quintela', 'en')).text());
    expect(en).toContain('The shop found 25 orders with these customer details; the 20 most recent are shown. Add a word (the surname, the town, the e-mail) to narrow the search.');
    // Two orders: both listed, nothing said about more.
    for (const order of placed.slice(0, 2)) h.woo.editOrder(Number(order.id), { billing: { ...(order.billing as object), last_name: 'Quintela Vaz' } });
    const two = await (await search('Quintela Vaz')).text();
    expect([...two.matchAll(/data-order="(\d+)"/g)]).toHaveLength(2);
    expect(two).not.toContain('search-more');
  });

  it('the help text promises no "name or e-mail only": the shop also matches company, phone, address and items', async () => {
    const pt = await (await fetch(`${h.connector?.origin}/console/shop1?lang=pt`, { headers: auth })).text();
    const help = /<input class="search"[^>]* title="([^"]*)"/.exec(pt)?.[1] ?? '';
    expect(help).toBe('Procure pelo número da encomenda (ex.: 5012), pelo número do documento (ex.: FR A/12) ou por dados do cliente: nome, empresa, e-mail, telefone, morada ou um artigo comprado.');
    expect(englishWords(help)).toEqual([]);
  });

  it('a document number is found in the history, its customer named by include=; no call ever sends search= with include= (posts-storage shops drop include)', async () => {
    const order = portugueseOrder({ billing: { first_name: 'Joana', last_name: 'Quaresma', address_1: 'Rua do Ouro 5', city: 'Lisboa', postcode: '1100-060', country: 'PT', email: 'joana.q@example.pt' } });
    await h.deliver(order);
    const number = String(await eventually('the invoice on the order', () => h.woo.meta(Number(order.id), META.documentNumber)));
    // The job writes the order's story (and the number's index) when its run ends, just after the meta.
    await eventually('the number in the story', async () => (await h.connector?.history.orderOfNumber('shop1', number)) === Number(order.id));
    const before = h.woo.orderListings.length;
    const byNumber = await search(number.toLowerCase());
    expect(byNumber.headers.get('location')).toBe(orderPagePath('shop1', Number(order.id)));
    const listings = h.woo.orderListings.slice(before);
    expect(listings.some((q) => q.include !== undefined)).toBe(true);
    expect(h.woo.orderListings.filter((q) => q.search !== undefined && q.include !== undefined)).toEqual([]);
  });
});
