import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import WooCommerceRestApi from '@woocommerce/woocommerce-rest-api';
import { parseConfig } from '../../connector/config/load-config';
import { customerName } from '../../connector/console/order-page';
import { wpAdminOrderUrl } from '../../platforms/woocommerce/admin-links';
import { ConnectorMetrics } from '../../connector/core/metrics';
import { startConnector, type RunningConnector } from '../../connector/main/runtime';
import { META } from '../../connector/shop/order-meta';
import { WooShop } from '../../platforms/woocommerce/woo-shop';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox';
import { deleteKeys, eventually, quietLogger, rawTestConfig, REDIS_URL, WEBHOOK_SECRET } from './support/harness';

/**
 * What the console asks the shop (issue 19), against a REAL WordPress + WooCommerce when one runs
 * (../shared/woocommerce-lab; WC_LAB_CREDENTIALS=<lab dir>/credentials.json; skipped otherwise, CI
 * has no lab): GET orders?search=<text> (the customer search), GET orders?include=<ids> (the names of
 * a page of documents) and the wp-admin link of an order. Run on a lab with HPOS (the default) and on
 * one started with WC_LAB_HPOS=0 (orders as posts): where the two differ, the test says which is which.
 * Findings, with how each was seen: docs/real-shop-findings.md.
 */
const credentialsPath = process.env.WC_LAB_CREDENTIALS;
const describeWithLab = credentialsPath ? describe : describe.skip;

interface LabCredentials {
  rest_base: string;
  consumer_key: string;
  consumer_secret: string;
  site_url: string;
  lab_api: string;
  admin_user: string;
  admin_password: string;
  products: Record<string, number>;
}

interface Address {
  first_name: string;
  last_name: string;
  company?: string;
  address_1: string;
  address_2?: string;
  city: string;
  postcode: string;
  country: string;
  email?: string;
  phone?: string;
}

type Key = 'joao' | 'maria' | 'ana' | 'rui' | 'joana' | 'deleted' | 'trashed';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeWithLab("the console's questions to a real WooCommerce 10 (the lab): search=, include=, the wp-admin link", () => {
  const lab = JSON.parse(readFileSync(credentialsPath ?? '/dev/null', 'utf8') || '{}') as LabCredentials;
  /** A word of this run only, in every order's address_2: a search for it finds exactly this run's orders. */
  const tag = `Porta${randomBytes(4).toString('hex')}`;
  const prefix = `mft-labc-${randomBytes(4).toString('hex')}`;
  let rest: WooCommerceRestApi;
  let shop: WooShop;
  let hpos = true;
  const ids = {} as Record<Key, number>;
  const addresses = {} as Record<Key, { billing: Address; shipping: Address; items: string[] }>;

  const place = async (key: Key, billing: Address, shipping: Address = billing, product = 'TSHIRT-LX'): Promise<void> => {
    const withTag = (address: Address): Address => ({ ...address, address_2: tag });
    const created = (await rest.post('orders', { status: 'processing', billing: withTag(billing), shipping: withTag(shipping), line_items: [{ product_id: lab.products[product], quantity: 1 }] })).data as {
      id: number;
      line_items: { name: string }[];
      tax_lines: { rate_code: string }[];
      shipping_lines: { method_title: string }[];
    };
    ids[key] = created.id;
    // Every item of the order is searched by its name, its tax lines too (the rate code, "PT-IVA 23%-1"):
    // a search for an id such as 23 also finds every order taxed at 23 %.
    const items = [...created.line_items.map((line) => line.name), ...created.tax_lines.map((line) => line.rate_code), ...created.shipping_lines.map((line) => line.method_title)];
    addresses[key] = { billing: withTag(billing), shipping: withTag(shipping), items };
  };
  const lisboa = { address_1: 'Rua Augusta 10', city: 'Lisboa', postcode: '1100-053', country: 'PT' };
  /** The orders of this run a search finds (other tests leave orders in the lab), in the shop's order. */
  const found = async (params: Record<string, string>): Promise<Key[]> => {
    const { orders } = await shop.listOrderPage({ per_page: '100', ...params });
    const keyOf = new Map(Object.entries(ids).map(([key, id]) => [id, key as Key]));
    return (orders as { id: number }[]).flatMap((order) => keyOf.get(order.id) ?? []);
  };
  const search = (term: string): Promise<Key[]> => found({ search: term });

  beforeAll(async () => {
    rest = new WooCommerceRestApi({ url: lab.site_url, consumerKey: lab.consumer_key, consumerSecret: lab.consumer_secret, version: 'wc/v3', timeout: 30_000 });
    shop = new WooShop({ url: lab.site_url, consumerKey: lab.consumer_key, consumerSecret: lab.consumer_secret, webhookSecret: WEBHOOK_SECRET, timeoutMs: 30_000 });
    const status = (await rest.get('system_status')).data as { settings: { order_datastore?: string } };
    hpos = status.settings.order_datastore !== 'WC_Order_Data_Store_CPT';
    // Created one after the other: ids and creation dates grow together.
    await place('joao', { first_name: 'João', last_name: 'Conceição', company: 'Padaria Lusitana, Lda', ...lisboa, email: `joao.conceicao@${tag}.example.pt`, phone: '912345678' });
    await place('maria', { first_name: 'Maria', last_name: 'da Silva', ...lisboa, email: 'maria.silva@example.com' });
    await place('ana', { first_name: 'Ana', last_name: 'Costa', company: 'Conceição & Filhos', ...lisboa, email: 'geral@filhos.example' });
    await place('rui', { first_name: 'Rui', last_name: 'Gomes', ...lisboa, email: 'rui@example.com' }, { first_name: 'Teresa', last_name: 'Gomes', address_1: 'Rua B 2', city: 'Porto', postcode: '4000-001', country: 'PT' });
    await place('joana', { first_name: 'JOANA', last_name: 'conceicao', ...lisboa, email: 'JOANA@EXAMPLE.COM' }, undefined, 'BOOK-LUS');
    await place('deleted', { first_name: 'Zé', last_name: 'Apagado', ...lisboa, email: 'ze@example.com' });
    await place('trashed', { first_name: 'Zé', last_name: 'NoLixo', ...lisboa, email: 'lixo@example.com' });
    await rest.delete(`orders/${ids.deleted}`, { force: true });
    await rest.delete(`orders/${ids.trashed}`);
  }, 120_000);

  afterAll(async () => {
    for (const id of Object.values(ids)) await rest.delete(`orders/${id}`, { force: true }).catch(() => undefined);
  });

  it('search= finds the customer by first name, last name, "first last", company, e-mail, phone or the shipping name, by part of a word, in any case and with or without accents', async () => {
    const cases: [string, Key[]][] = [
      ['João', ['joao']],
      ['joao', ['joao']],
      ['JOÃO', ['joao']],
      ['João Conceição', ['joao']],
      ['joao conceicao', ['joao']],
      ['Padaria Lusitana', ['joao']],
      [`joao.conceicao@${tag}.example.pt`, ['joao']],
      ['joao.conceicao@', ['joao']],
      ['example.pt', ['joao']],
      ['912345678', ['joao']],
      ['Maria da Silva', ['maria']],
      ['Mari', ['maria']],
      ['Teresa Gomes', ['rui']],
      // Newest first: the company of one, the last name of another, unaccented and in capitals or not.
      ['Conceição', ['joana', 'ana', 'joao']],
      ['CONCEICAO', ['joana', 'ana', 'joao']],
      ['Jo', ['joana', 'joao']],
      ['joana@example.com', ['joana']],
    ];
    const seen: [string, Key[]][] = [];
    for (const [term] of cases) seen.push([term, await search(term)]);
    expect(seen).toEqual(cases);
  }, 60_000);

  it('search= matches the text as the address index holds it: "last first", words across an empty field, a deleted or trashed order and "#<id>" find nothing; runs of spaces count as one', async () => {
    expect(await search('Conceição João')).toEqual([]);
    expect(await search('Gomes Teresa')).toEqual([]);
    // Maria has no company: her index reads "Maria da Silva  Rua Augusta 10 …" (two spaces).
    expect(await search('Silva Rua')).toEqual([]);
    expect(await search('Maria   da  Silva')).toEqual(['maria']);
    expect(await search('  joão conceição  ')).toEqual(['joao']);
    expect(await search('Apagado')).toEqual([]);
    expect(await search('NoLixo')).toEqual([]);
    expect(await found({ search: 'NoLixo', status: 'trash' })).toEqual(['trashed']);
    expect(await search(`#${ids.joao}`)).toEqual([]);
  }, 60_000);

  it('search= with a number finds the order of that id (also written 0<id>), beside every order whose address or items (their names, tax rate codes, shipping methods) hold those digits', async () => {
    const index = (key: Key): string => {
      const { billing, shipping, items } = addresses[key];
      const line = (a: Address): string => [a.first_name, a.last_name, a.company, a.address_1, a.address_2, a.city, '', a.postcode, a.country, a.email, a.phone].map((v) => v ?? '').join(' ');
      return `${line(billing)} ${line(shipping)} ${items.join(' ')}`;
    };
    // The id (also written 0<id>), a deleted order's id, and the digits of a VAT rate (every order taxed at 23 %).
    const terms = [String(ids.joao), `0${ids.joao}`, String(ids.deleted), '23'];
    for (const term of terms) {
      const expected = (['joana', 'rui', 'ana', 'maria', 'joao'] as Key[]).filter((key) => String(ids[key]) === term.replace(/^0+/, '') || index(key).includes(term));
      expect(await search(term)).toEqual(expected);
    }
    expect(await search('23')).toEqual(expect.arrayContaining(['rui', 'ana', 'maria', 'joao']));
  }, 60_000);

  it('results come newest first (ties by id, newest first too); X-WP-Total counts every match and per_page pages them', async () => {
    const first = await shop.listOrderPage({ search: tag, per_page: '2' });
    expect(first.total).toBe(5);
    expect(first.totalPages).toBe(3);
    expect((first.orders as { id: number }[]).map((o) => o.id)).toEqual([ids.joana, ids.rui]);
    expect(await search(tag)).toEqual(['joana', 'rui', 'ana', 'maria', 'joao']);
    const none = await shop.listOrderPage({ search: `${tag}x`, per_page: '20' });
    expect(none).toEqual({ orders: [], total: 0, totalPages: 0 });
  });

  it('include= answers the orders of those ids that exist and are not in the bin, newest first whatever order was asked; unknown, deleted and trashed ids are simply absent; per_page still pages', async () => {
    const asked = [ids.joao, ids.deleted, ids.joana, ids.trashed, 999_999_999, ids.maria];
    const all = await shop.listOrderPage({ include: asked.join(','), per_page: String(asked.length) });
    expect((all.orders as { id: number }[]).map((o) => o.id)).toEqual([ids.joana, ids.maria, ids.joao]);
    expect(all.total).toBe(3);
    const paged = await shop.listOrderPage({ include: asked.join(','), per_page: '2' });
    expect(paged).toMatchObject({ total: 3, totalPages: 2 });
    expect((paged.orders as { id: number }[]).map((o) => o.id)).toEqual([ids.joana, ids.maria]);
    // The bin: only with status=trash; "any,trash" is "any".
    expect(await found({ include: String(ids.trashed), status: 'trash' })).toEqual(['trashed']);
    expect(await found({ include: `${ids.trashed},${ids.joao}`, status: 'any,trash' })).toEqual(['joao']);
    // orderby=include keeps the order asked.
    expect(await found({ include: `${ids.joana},${ids.joao},${ids.ana}`, orderby: 'include' })).toEqual(['joana', 'joao', 'ana']);
  });

  it('search= with include=: with HPOS both apply (the ids found among those asked); on orders stored as posts include is dropped and the search answers alone', async () => {
    const both = await found({ search: 'Conceição', include: `${ids.ana},${ids.maria}` });
    const disjoint = await found({ search: 'João', include: `${ids.ana},${ids.maria}` });
    if (hpos) {
      expect(both).toEqual(['ana']);
      expect(disjoint).toEqual([]);
    } else {
      expect(both).toEqual(['joana', 'ana', 'joao']);
      expect(disjoint).toEqual(['joao']);
    }
  });

  it("what else search= reads depends on the storage: the transaction id with HPOS only; with posts storage, when no address or item matched, WordPress's post search (the order's title \"Order – <date>\" and the customer's note)", async () => {
    await rest.put(`orders/${ids.maria}`, { customer_note: `Entregar ao porteiro ${tag}nota`, transaction_id: `TX-${tag}` });
    const byTransaction = await search(`TX-${tag}`);
    const byNote = await search(`${tag}nota`);
    const byTitle = await search('Order');
    if (hpos) {
      expect([byTransaction, byNote, byTitle]).toEqual([['maria'], [], []]);
    } else {
      expect([byTransaction, byNote, byTitle]).toEqual([[], ['maria'], ['joana', 'rui', 'ana', 'maria', 'joao']]);
    }
  });

  it("the console's reading of a real order: the head parses and the name is first and last name with the company", async () => {
    const { orders: heads, unusable } = await shop.listOrders({ ids: [ids.joao, ids.maria], perPage: 2 });
    expect(unusable).toEqual([]);
    expect(heads.map(customerName)).toEqual(['Maria da Silva', 'João Conceição (Padaria Lusitana, Lda)']);
    expect(heads[1]).toMatchObject({ id: ids.joao, status: 'processing', currency: 'EUR', total: expect.stringMatching(/^\d+\.\d{2}$/), createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/) });
  });

  it("the console's wp-admin link opens the order with either storage (WooCommerce redirects it to post.php on a shop without HPOS); logged out it goes through wp-login and back", async () => {
    const site = lab.site_url.replace(/\/+$/, '');
    const login = await fetch(`${site}/wp-login.php`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'wordpress_test_cookie=WP%20Cookie%20check' },
      body: new URLSearchParams({ log: lab.admin_user, pwd: lab.admin_password, 'wp-submit': 'Log In', testcookie: '1' }).toString(),
    });
    expect(login.status).toBe(302);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const visit = async (url: string, withCookie = true): Promise<{ status: number; location: string | null; text: string }> => {
      const response = await fetch(url, { redirect: 'manual', headers: withCookie ? { cookie } : {} });
      return { status: response.status, location: response.headers.get('location'), text: await response.text() };
    };
    const hposUrl = wpAdminOrderUrl(lab.site_url, ids.joao);
    const postsUrl = `${site}/wp-admin/post.php?post=${ids.joao}&action=edit`;
    const [first, second] = [await visit(hposUrl), await visit(postsUrl)];
    if (hpos) {
      expect(first).toMatchObject({ status: 200, text: expect.stringContaining(`<title>Edit order #${ids.joao} `) });
      expect(second).toMatchObject({ status: 301, location: hposUrl });
    } else {
      expect(first).toMatchObject({ status: 301, location: `${site}/wp-admin/post.php?action=edit&post=${ids.joao}` });
      expect(second).toMatchObject({ status: 200, text: expect.stringContaining('<title>Edit order &#8220;Order &ndash;') });
    }
    const gone = await visit(hpos ? wpAdminOrderUrl(lab.site_url, ids.deleted) : `${site}/wp-admin/post.php?action=edit&post=${ids.deleted}`);
    expect(gone).toMatchObject({ status: 500, text: expect.stringMatching(/You attempted to edit an (order|item) that does not exist/) });
    const binned = await visit(hpos ? wpAdminOrderUrl(lab.site_url, ids.trashed) : `${site}/wp-admin/post.php?action=edit&post=${ids.trashed}`);
    expect(binned).toMatchObject({ status: 500, text: expect.stringContaining('You cannot edit this item because it is in the Trash') });
    const anonymous = await visit(hposUrl, false);
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`${site}/wp-login.php?redirect_to=${encodeURIComponent(hposUrl)}&reauth=1`);
  }, 60_000);

  describe('the console itself, on the connector, against the lab', () => {
    let sandbox: RunningSandbox;
    let connector: RunningConnector;
    const hookIds: number[] = [];
    const invoiced: number[] = [];
    const auth = `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`;
    const consoleGet = (path: string): Promise<Response> => fetch(`${connector.origin ?? ''}${path}`, { redirect: 'manual', headers: { authorization: auth } });

    beforeAll(async () => {
      sandbox = await startTestSandbox();
      const port = await freePort();
      const raw = rawTestConfig({ prefix, wooOrigin: lab.site_url, consumerKey: lab.consumer_key, consumerSecret: lab.consumer_secret, baseUrl: sandbox.baseUrl });
      raw.server = { ...(raw.server as Record<string, unknown>), port, publicUrl: `http://127.0.0.1:${port}` };
      connector = await startConnector(parseConfig(raw, 'lab', {}), { role: 'all', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
      // WooCommerce pings the URL when an active webhook is saved: the connector must answer 200.
      for (const topic of ['order.created', 'order.updated']) {
        const hook = await rest.post('webhooks', { name: `console ${topic}`, topic, status: 'active', delivery_url: `${connector.origin ?? ''}/webhooks/woocommerce/shop1`, secret: WEBHOOK_SECRET });
        hookIds.push((hook.data as { id: number }).id);
      }
    }, 120_000);

    afterAll(async () => {
      for (const id of hookIds) await rest.delete(`webhooks/${id}`, { force: true }).catch(() => undefined);
      for (const id of invoiced) await rest.delete(`orders/${id}`, { force: true }).catch(() => undefined);
      await connector?.close();
      await sandbox?.close();
      await deleteKeys(REDIS_URL, prefix);
    });

    it('a search by a name written without accents lists the real orders with their accented names, newest first; one match, or an order number the connector never saw, goes straight to its page', async () => {
      const list = await consoleGet(`/console/shop1/search?q=${encodeURIComponent('conceicao')}`);
      expect(list.status).toBe(200);
      const html = await list.text();
      const rows = [...html.matchAll(/<tr data-order="(\d+)"><td[^>]*><a[^>]*>#\d+<\/a><\/td><td[^>]*>([^<]*)<\/td>/g)].map((m) => [Number(m[1]), m[2]]);
      const ours = rows.filter(([id]) => Object.values(ids).includes(id as number));
      expect(ours).toEqual([
        [ids.joana, 'JOANA conceicao'],
        [ids.ana, 'Ana Costa (Conceição &amp; Filhos)'],
        [ids.joao, 'João Conceição (Padaria Lusitana, Lda)'],
      ]);
      const one = await consoleGet(`/console/shop1/search?q=${encodeURIComponent(`CONCEICAO@${tag}`)}`);
      expect(one.status).toBe(303);
      expect(one.headers.get('location')).toBe(`/console/shop1/orders/${ids.joao}`);
      // An order number the connector never saw: the shop's search finds the order of that id.
      const byNumber = await consoleGet(`/console/shop1/search?q=${ids.joao}`);
      expect(byNumber.status).toBe(303);
      expect(byNumber.headers.get('location')).toBe(`/console/shop1/orders/${ids.joao}`);
    }, 60_000);

    it("recent documents: the customers' names come from the shop (one include= call), accents kept; an order moved to the bin loses its name (–)", async () => {
      const runQueue = async (): Promise<void> => void (await fetch(`${lab.lab_api}/run-queue`, { method: 'POST' }));
      const billing = { first_name: 'Inês', last_name: 'Conceição', company: 'Padaria Lusitana, Lda', ...lisboa, email: `ines@${tag}.example.pt` };
      for (const [i, item] of (['TSHIRT-LX', 'BOOK-LUS'] as const).entries()) {
        const created = (
          await rest.post('orders', {
            payment_method: 'bacs',
            set_paid: true,
            billing: i === 0 ? billing : { ...billing, first_name: 'Tomás', company: '' },
            shipping: billing,
            line_items: [{ product_id: lab.products[item], quantity: 1 }],
            meta_data: [{ key: '_billing_nif', value: '232013969' }],
          })
        ).data as { id: number };
        invoiced.push(created.id);
      }
      for (const id of invoiced) {
        await eventually('the invoice written back on the shop', async () => {
          await runQueue();
          const order = (await rest.get(`orders/${id}`)).data as { meta_data: { key: string; value: unknown }[] };
          return order.meta_data.some((m) => m.key === META.documentNumber);
        }, 60_000);
      }
      const customers = async (): Promise<Record<number, string>> => {
        const response = await consoleGet('/console/shop1');
        expect(response.status).toBe(200);
        const recent = /<section id="recent">([\s\S]*?)<\/section>/.exec(await response.text())?.[1] ?? '';
        return Object.fromEntries([...recent.matchAll(/<tr data-order="(\d+)"><td[^>]*><a[^>]*>#\d+<\/a><\/td><td[^>]*>([^<]*)<\/td>/g)].map((m) => [Number(m[1]), m[2]]));
      };
      expect(await customers()).toEqual({ [invoiced[0]]: 'Inês Conceição (Padaria Lusitana, Lda)', [invoiced[1]]: 'Tomás Conceição' });
      await rest.delete(`orders/${invoiced[1]}`);
      expect(await customers()).toEqual({ [invoiced[0]]: 'Inês Conceição (Padaria Lusitana, Lda)', [invoiced[1]]: '–' });
    }, 120_000);
  });
});
