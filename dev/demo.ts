/**
 * `npm run demo`: the connector's main job end to end on this machine, for an agency's two client
 * shops side by side: one on WooCommerce, one on Shopify. Starts the sandbox (the invoicing service
 * emulator), a fake WooCommerce shop, a fake Shopify store and the connector with the two tenants
 * (Redis at REDIS_URL), sends real-shaped signed orders to each and a refund on each, and prints
 * each invoice and credit note number and PDF link as it lands on its order (WooCommerce's order
 * meta, Shopify's app metafields). Exits 0 when every document landed, 1 with the reason otherwise. Leaves nothing behind
 * in Redis (its keys live under a unique prefix that is deleted at the end). Without a Redis at
 * REDIS_URL it starts a private redis-server (dev/private-redis.ts), or names the install line.
 * It lives in dev/, outside the published package, because it uses the test suite's fake shops.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import IORedis from 'ioredis';
import pino from 'pino';
import { startSandbox } from '../sandbox/server';
import { DEMO_ACCOUNT, type AccountOption } from '../sandbox/options';
import { buildOrder, buildRefund, type Cart } from '../test/law/support/woo-cart';
import { sendWooWebhook, startFakeWooCommerce, type JsonObject } from '../test/support/fake-woocommerce';
import { FakeShopify, type JsonObject as ShopifyJson } from '../test/support/fake-shopify';
import { bag, MULTI_CURRENCY_TAXES_EXCLUDED, sweaterAndShippingRefund, TAXES_INCLUDED } from '../test/platforms/shopify/fixtures/orders';
import { parseConfig } from '../connector/config/load-config';
import { platformOf } from '../platforms/registry';
import { startConnector, type RunningConnector } from '../connector/main/runtime';
import { META } from '../connector/shop/order-meta';
import { redisForRun, RedisUnavailableError, type RedisForRun } from './private-redis';

/**
 * The real service wants Get Document at least 10 s after the create, and the connector never asks
 * sooner than its configured delay. For the demo the sandbox finalizes after 2 s and the connector
 * is configured to wait exactly that: the same rule, a shorter wait (refused against the real service).
 */
const FINALIZE_DELAY_MS = 2_000;
const DEADLINE_MS = 90_000;
const WEBHOOK_SECRET = randomBytes(16).toString('hex');
/** The Shopify client's own invoicing account (an agency's clients each have theirs). */
const SHOPIFY_CLIENT_ACCOUNT: AccountOption = {
  email: 'loja-shopify@example.com',
  token: 'sandbox-token-shopify',
  taxId: '514200006',
  companyName: 'Têxteis da Loja, Lda.',
  address: 'Rua de Santa Catarina 1',
  city: 'Porto',
  postCode: '4000-447',
};

const today = new Date().toISOString().slice(0, 19);
const CUSTOMERS: Omit<Cart, 'id'>[] = [
  {
    items: [
      { name: 'Caneca de cerâmica azul', sku: 'CAN-AZ', productId: 101, price: '12.50', quantity: 2, rate: '23' },
      { name: 'Livro "Os Lusíadas"', sku: 'LIV-LUS', productId: 102, price: '18.90', quantity: 1, rate: '6' },
    ],
    shipping: [{ title: 'CTT Expresso', methodId: 'flat_rate', cost: '4.50', rate: '23' }],
    billing: { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua das Flores 12', city: 'Porto', postcode: '4050-262', country: 'PT', email: 'maria.silva@example.pt', phone: '912345678' },
    meta: [{ key: '_billing_nif', value: '232013969' }],
  },
  {
    items: [{ name: 'Azeite virgem extra 750 ml', sku: 'AZ-750', productId: 103, price: '9.95', quantity: 3, rate: '6' }],
    // Shipping at the goods' rate, as WooCommerce charges it with the shipping tax class "based on cart items" (CIVA art. 16(5)(b)).
    shipping: [{ title: 'Entrega local', methodId: 'flat_rate', cost: '3.00', rate: '6' }],
    billing: { first_name: 'João', last_name: 'Pereira', address_1: 'Av. da Liberdade 200', city: 'Lisboa', postcode: '1250-147', country: 'PT', email: 'joao.pereira@example.pt' },
  },
  {
    items: [
      { name: 'Cadeira de jardim', sku: 'CAD-J', productId: 104, price: '45.00', quantity: 2, rate: '23' },
      { name: 'Almofada', sku: 'ALM', productId: 105, price: '12.00', quantity: 2, rate: '23' },
    ],
    coupons: [{ code: 'VERAO10', type: 'percent', amount: '10' }],
    billing: { first_name: 'Ana', last_name: 'Costa', company: 'Costa & Filhos, Lda.', address_1: 'Rua do Comércio 5', city: 'Braga', postcode: '4700-001', country: 'PT', email: 'ana@costaefilhos.pt' },
    meta: [{ key: '_billing_nif', value: '509442013' }],
  },
  {
    items: [{ name: 'Vinho do Porto Tawny 10 anos', sku: 'VP-10', productId: 106, price: '24.90', quantity: 1, rate: '23' }],
    billing: { first_name: 'Rui', last_name: 'Santos', address_1: 'Rua Direita 8', city: 'Coimbra', postcode: '3000-123', country: 'PT', email: 'rui.santos@example.pt' },
  },
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function deletePrefix(url: string, prefix: string): Promise<number> {
  const redis = new IORedis(url, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1_000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

const say = (line = ''): void => void process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<number> {
  let redis: RedisForRun;
  try {
    redis = await redisForRun();
  } catch (error) {
    if (!(error instanceof RedisUnavailableError)) throw error;
    process.stderr.write(`demo: ${error.message}\n`);
    return 1;
  }
  try {
    return await runDemo(redis.url, redis.private);
  } finally {
    await redis.stop();
  }
}

/** One document the demo waits for: where it lands, and how to read it there. */
interface Landing {
  shop: 'WooCommerce' | 'Shopify';
  order: string;
  what: string;
  /** The number and PDF link once they are on the order. */
  read(): { number: string; pdfUrl: string } | undefined;
  /** Runs once the document landed (the refund after its order's invoice). */
  after?: () => Promise<Landing | undefined>;
}

/** The Shopify fixtures as orders paid a moment ago (after the go-live cut-off). */
function paidNow(order: ShopifyJson): ShopifyJson {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const copy = structuredClone(order);
  Object.assign(copy, { createdAt: now, processedAt: now });
  for (const transaction of copy.transactions as ShopifyJson[]) transaction.processedAt = now;
  return copy;
}

function metafield(store: FakeShopify, orderGid: string, key: string): string | undefined {
  const order = store.orders.get(orderGid);
  const found = ((order?.metafields ?? []) as ShopifyJson[]).find((m) => m.key === key);
  return typeof found?.value === 'string' ? found.value : undefined;
}

async function runDemo(redisUrl: string, privateRedis: boolean): Promise<number> {
  const prefix = `mf-demo-${randomBytes(4).toString('hex')}`;
  const started = Date.now();
  const sandbox = await startSandbox({ port: 0, finalizeDelayMs: FINALIZE_DELAY_MS, accounts: [DEMO_ACCOUNT, SHOPIFY_CLIENT_ACCOUNT] });
  const shop = await startFakeWooCommerce();
  // The app's token may read B2B companies (read_companies): the second Shopify order is bought for one,
  // and Shopify answers ACCESS_DENIED for its company without that scope (docs/shopify.md).
  const store = new FakeShopify({ shopDomain: 'loja-demo.myshopify.com', shopName: 'Loja Demo Shopify', retryDelayMs: () => 200, scopes: ['read_orders', 'write_orders', 'read_companies'] });
  await store.start();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const goLiveAt = new Date(Date.now() - 3_600_000).toISOString();
  const config = parseConfig(
    {
      server: { host: '127.0.0.1', port, publicUrl: origin, linkSecret: randomBytes(16).toString('hex'), shutdownTimeoutMs: 5_000 },
      redis: { url: redisUrl, prefix },
      admin: { username: 'admin', password: randomBytes(8).toString('hex') },
      sweep: { everyMinutes: 0 },
      pipeline: { finalizeDelayMs: FINALIZE_DELAY_MS, minFinalizeDelayMs: FINALIZE_DELAY_MS, finalizePollBackoffMs: 500, backoffMs: 500 },
      tenants: [
        {
          id: 'loja-demo',
          shop: { url: shop.origin, consumerKey: shop.consumerKey, consumerSecret: shop.consumerSecret, webhookSecret: WEBHOOK_SECRET },
          invoicing: { email: DEMO_ACCOUNT.email, token: DEMO_ACCOUNT.token, baseUrl: sandbox.baseUrl },
          // The demo's orders are made just before the connector starts: go live an hour earlier.
          settings: { triggerStatuses: ['processing', 'completed'], goLiveAt },
        },
        {
          // The agency's other client: a Shopify store (its custom app's token and client secret) with its own invoicing account.
          id: 'loja-shopify',
          platform: 'shopify',
          shopify: { shopDomain: store.shopDomain, adminUrl: store.url, accessToken: store.accessToken, clientSecret: store.clientSecret },
          invoicing: { email: SHOPIFY_CLIENT_ACCOUNT.email, token: SHOPIFY_CLIENT_ACCOUNT.token, baseUrl: sandbox.baseUrl },
          settings: { goLiveAt, mapping: { externalIdPrefix: 'shopify-', shopTimeZone: 'Europe/Lisbon' } },
        },
      ],
    },
    'demo',
    {},
  );
  let connector: RunningConnector | undefined;
  try {
    connector = await startConnector(config, { role: 'all', logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }) });
    const webhookUrl = `${origin}/webhooks/woocommerce/loja-demo`;
    for (const topic of ['order.created', 'order.updated']) shop.addWebhook({ topic, status: 'active', delivery_url: webhookUrl, secret: WEBHOOK_SECRET });
    // The connector subscribes the Shopify store to its topics itself, through the GraphQL Admin API (its webhook watch).
    const shopifyTenant = config.tenants.find((tenant) => tenant.id === 'loja-shopify');
    const subscribed = shopifyTenant ? await platformOf(shopifyTenant).createShop(shopifyTenant).ensureWebhooks?.(origin, shopifyTenant.id) : undefined;

    say('MagniFinance connector demo: two client shops, one deployment');
    say(`  invoicing service  ${sandbox.baseUrl}  (sandbox; one account per client: ${DEMO_ACCOUNT.email}, ${SHOPIFY_CLIENT_ACCOUNT.email})`);
    say(`  WooCommerce shop   ${shop.origin}  (fake WooCommerce REST v3, OAuth 1.0a checked)`);
    say(`  Shopify store      ${store.url}  (fake Shopify GraphQL Admin API, ${store.shopDomain}; ${subscribed?.recreated.length ?? 0} webhook subscriptions made by the connector)`);
    say(`  connector          ${origin}  (Redis ${redisUrl.replace(/\/\/[^@]*@/, '//***@')}${privateRedis ? ', a private redis-server started for this run' : ''}, key prefix ${prefix})`);
    say(`  finalize delay     ${FINALIZE_DELAY_MS / 1000} s here; the real service needs 10 s and the connector refuses less against it`);
    say();

    const orders: JsonObject[] = CUSTOMERS.map((customer, index) =>
      shop.putOrder(buildOrder({ id: 1001 + index, currency: 'EUR', status: 'processing', datePaidGmt: today, dateCreatedGmt: today, ...customer }) as JsonObject),
    );
    say(`WooCommerce: ${orders.length} signed order.created webhooks (as WooCommerce sends them: wp_json_encode body, X-WC-Webhook-Signature)...`);
    for (const order of orders) {
      const sentAt = Date.now();
      const answer = await sendWooWebhook({ url: webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.created', payload: order, source: `${shop.origin}/` });
      const billing = order.billing as Record<string, string>;
      say(`  order #${String(order.id)}  ${`${billing.first_name} ${billing.last_name}`.padEnd(22)} ${String(order.total).padStart(8)} EUR  -> ${answer.status} in ${Date.now() - sentAt} ms`);
      if (answer.status !== 202) throw new Error(`the connector answered ${answer.status}: ${answer.body}`);
    }
    const shopifyOrders = [paidNow(TAXES_INCLUDED), paidNow(MULTI_CURRENCY_TAXES_EXCLUDED)];
    say(`Shopify: ${shopifyOrders.length} paid orders; the store signs orders/paid with the app's client secret (X-Shopify-Hmac-Sha256)...`);
    for (const order of shopifyOrders) {
      store.addOrder(order);
      await store.settled();
      const paid = store.deliveries.filter((d) => d.topic === 'orders/paid' && JSON.parse(d.body).id === Number(order.legacyResourceId));
      const total = (order.totalPriceSet as { shopMoney: { amount: string } }).shopMoney.amount;
      const buyer = (order.purchasingEntity as { company?: { name: string } } | null)?.company?.name ?? `${String((order.billingAddress as ShopifyJson).firstName)} ${String((order.billingAddress as ShopifyJson).lastName)}`;
      say(`  order ${String(order.name)}  ${buyer.padEnd(22)} ${total.padStart(8)} EUR  -> ${paid.map((d) => d.statuses.join(',')).join(' ') || 'not delivered'}`);
      if (!paid.some((d) => d.state === 'delivered')) throw new Error(`the connector did not take Shopify's orders/paid for ${String(order.name)}`);
    }
    say();
    say('Waiting for the documents to land on the orders...');

    const wooInvoice = (id: number, after?: Landing['after']): Landing => ({
      shop: 'WooCommerce',
      order: `#${id}`,
      what: 'invoice',
      read: () => {
        const number = shop.meta(id, META.documentNumber);
        return typeof number === 'string' ? { number, pdfUrl: String(shop.meta(id, META.pdfUrl)) } : undefined;
      },
      after,
    });
    const wooRefund = async (): Promise<Landing> => {
      const orderId = Number(orders[0].id);
      const refund = shop.addRefund(orderId, buildRefund(shop.order(orderId) as Record<string, unknown>, { id: 2001, items: [{ index: 0, quantity: 1 }], reason: 'Caneca partida na entrega' }) as JsonObject);
      say(`  WooCommerce  #${orderId}  refund #${String(refund.id)} of ${String(refund.amount)} EUR -> order.updated webhook`);
      const answer = await sendWooWebhook({ url: webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: shop.order(orderId), source: `${shop.origin}/` });
      if (answer.status !== 202) throw new Error(`the connector answered ${answer.status} to the refund: ${answer.body}`);
      return {
        shop: 'WooCommerce',
        order: `#${orderId}`,
        what: `credit note for refund #${String(refund.id)}`,
        read: () => {
          const credit = shop.meta(orderId, `${META.creditNotePrefix}${String(refund.id)}`) as Record<string, string> | undefined;
          return credit?.number ? { number: credit.number, pdfUrl: credit.pdfUrl } : undefined;
        },
      };
    };
    const shopifyInvoice = (order: ShopifyJson, after?: Landing['after']): Landing => ({
      shop: 'Shopify',
      order: String(order.name),
      what: 'invoice',
      read: () => {
        const number = metafield(store, String(order.id), 'magnifinance_document_number');
        return number ? { number, pdfUrl: String(metafield(store, String(order.id), 'magnifinance_pdf_url')) } : undefined;
      },
      after,
    });
    const shopifyRefund = async (): Promise<Landing> => {
      const order = shopifyOrders[0];
      // One sweater and the shipping back to the card (Shopify's refunds/create and orders/updated follow).
      const base = sweaterAndShippingRefund(order);
      const transaction = { ...(base.transactions as ShopifyJson[])[0], amountSet: bag('49.81') };
      const refund = store.refund(String(order.id), { ...base, orderAdjustments: [], totalRefundedSet: bag('49.81'), transactions: [transaction] });
      say(`  Shopify      ${String(order.name)}  refund #${String(refund.legacyResourceId)} of 49.81 EUR -> refunds/create webhook`);
      const key = `magnifinance_credit_note_${String(refund.legacyResourceId)}`;
      return {
        shop: 'Shopify',
        order: String(order.name),
        what: `credit note for refund #${String(refund.legacyResourceId)}`,
        read: () => {
          const value = metafield(store, String(order.id), key);
          const credit = value ? (JSON.parse(value) as { number?: string; pdfUrl?: string }) : undefined;
          return credit?.number ? { number: credit.number, pdfUrl: String(credit.pdfUrl) } : undefined;
        },
      };
    };

    const pending: Landing[] = [
      ...orders.map((order, index) => wooInvoice(Number(order.id), index === 0 ? wooRefund : undefined)),
      ...shopifyOrders.map((order, index) => shopifyInvoice(order, index === 0 ? shopifyRefund : undefined)),
    ];
    const landed: Landing[] = [];
    const deadline = Date.now() + DEADLINE_MS;
    while (pending.length > 0) {
      if (Date.now() > deadline) {
        throw new Error(`not everything landed within ${DEADLINE_MS / 1000} s. Still waiting for:\n  ${pending.map((p) => `${p.shop} ${p.order}: ${p.what}`).join('\n  ')}`);
      }
      for (const landing of [...pending]) {
        const document = landing.read();
        if (!document) continue;
        pending.splice(pending.indexOf(landing), 1);
        landed.push(landing);
        const where = landing.shop === 'Shopify' ? '  (order metafields)' : '  (order meta)';
        say(`  ${landing.shop.padEnd(11)}  ${landing.order.padEnd(5)}  ${(landing.what === 'invoice' ? 'invoice' : 'credit note').padEnd(11)} ${document.number.padEnd(8)} PDF ${document.pdfUrl}${where}`);
        const next = await landing.after?.();
        if (next) pending.push(next);
      }
      await sleep(100);
    }
    await shop.settle();
    await store.settled();
    const documents = ((await (await fetch(`${sandbox.origin}/_sandbox/documents`)).json()) as { documents: unknown[] }).documents;
    const invoices = landed.filter((l) => l.what === 'invoice').length;
    const credits = landed.length - invoices;
    say();
    say(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s: 2 shops, ${invoices} invoices and ${credits} credit notes, ${documents.length} documents on the service (one per order and purpose).`);
    say(`Each order also got a private note; the PDF links are the connector's stable links (they fetch a fresh download URL).`);
    return 0;
  } finally {
    await connector?.close();
    await shop.close();
    await store.close();
    await sandbox.close();
    await deletePrefix(redisUrl, prefix).catch(() => 0);
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
