/**
 * `npm run demo`: the connector's main job end to end on this machine. Starts the sandbox (the
 * invoicing service emulator), a fake WooCommerce shop and the connector (Redis at REDIS_URL),
 * sends real-shaped signed order webhooks, and prints each invoice number and PDF link as it lands
 * on the order. Exits 0 when everything landed, 1 with the reason otherwise. Leaves nothing behind
 * in Redis (its keys live under a unique prefix that is deleted at the end). Without a Redis at
 * REDIS_URL it starts a private redis-server (dev/private-redis.ts), or names the install line.
 * It lives in dev/, outside the published package, because it uses the test suite's fake shop.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import IORedis from 'ioredis';
import pino from 'pino';
import { startSandbox } from '../sandbox/server';
import { DEMO_ACCOUNT } from '../sandbox/options';
import { buildOrder, buildRefund, type Cart } from '../test/law/support/woo-cart';
import { sendWooWebhook, startFakeWooCommerce, type JsonObject } from '../test/support/fake-woocommerce';
import { parseConfig } from '../connector/config/load-config';
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

async function runDemo(redisUrl: string, privateRedis: boolean): Promise<number> {
  const prefix = `mf-demo-${randomBytes(4).toString('hex')}`;
  const started = Date.now();
  const sandbox = await startSandbox({ port: 0, finalizeDelayMs: FINALIZE_DELAY_MS });
  const shop = await startFakeWooCommerce();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
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
          settings: { triggerStatuses: ['processing', 'completed'], goLiveAt: new Date(Date.now() - 3_600_000).toISOString() },
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

    say('MagniFinance connector demo');
    say(`  invoicing service  ${sandbox.baseUrl}  (sandbox; account ${DEMO_ACCOUNT.email})`);
    say(`  shop               ${shop.origin}  (fake WooCommerce REST v3, OAuth 1.0a checked)`);
    say(`  connector          ${origin}  (Redis ${redisUrl.replace(/\/\/[^@]*@/, '//***@')}${privateRedis ? ', a private redis-server started for this run' : ''}, key prefix ${prefix})`);
    say(`  finalize delay     ${FINALIZE_DELAY_MS / 1000} s here; the real service needs 10 s and the connector refuses less against it`);
    say();

    const orders: JsonObject[] = CUSTOMERS.map((customer, index) =>
      shop.putOrder(buildOrder({ id: 1001 + index, currency: 'EUR', status: 'processing', datePaidGmt: today, dateCreatedGmt: today, ...customer }) as JsonObject),
    );
    say(`Sending ${orders.length} signed order.created webhooks (as WooCommerce does: wp_json_encode body, X-WC-Webhook-Signature)...`);
    for (const order of orders) {
      const sentAt = Date.now();
      const answer = await sendWooWebhook({ url: webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.created', payload: order, source: `${shop.origin}/` });
      const billing = order.billing as Record<string, string>;
      say(`  order #${String(order.id)}  ${`${billing.first_name} ${billing.last_name}`.padEnd(14)} ${String(order.total).padStart(8)} EUR  -> ${answer.status} in ${Date.now() - sentAt} ms`);
      if (answer.status !== 202) throw new Error(`the connector answered ${answer.status}: ${answer.body}`);
    }
    say();
    say('Waiting for the invoices to land on the orders...');

    const pending = new Map(orders.map((order) => [Number(order.id), `invoice`]));
    const refundOrderId = Number(orders[0].id);
    let refundSent = false;
    const deadline = Date.now() + DEADLINE_MS;
    while (pending.size > 0) {
      if (Date.now() > deadline) {
        const stuck = await Promise.all([...pending.keys()].map(async (id) => `#${id}: ${JSON.stringify(await connector?.ledger.forOrder('loja-demo', id))}`));
        throw new Error(`not everything landed within ${DEADLINE_MS / 1000} s. Still waiting for:\n  ${stuck.join('\n  ')}`);
      }
      for (const [id, what] of [...pending]) {
        if (what === 'invoice') {
          const number = shop.meta(id, META.documentNumber);
          if (typeof number === 'string') {
            say(`  #${id}  invoice ${number.padEnd(10)} PDF ${String(shop.meta(id, META.pdfUrl))}`);
            pending.delete(id);
          }
        } else {
          const credit = shop.meta(id, `${META.creditNotePrefix}${what}`) as Record<string, string> | undefined;
          if (credit?.number) {
            say(`  #${id}  credit note ${credit.number.padEnd(6)} for refund #${what}  PDF ${credit.pdfUrl}`);
            pending.delete(id);
          }
        }
      }
      if (!refundSent && shop.meta(refundOrderId, META.documentNumber) && !pending.has(refundOrderId)) {
        refundSent = true;
        const refund = shop.addRefund(refundOrderId, buildRefund(shop.order(refundOrderId) as Record<string, unknown>, { id: 2001, items: [{ index: 0, quantity: 1 }], reason: 'Caneca partida na entrega' }) as JsonObject);
        say(`  #${refundOrderId}  refund #${String(refund.id)} of ${String(refund.amount)} EUR -> order.updated webhook`);
        const answer = await sendWooWebhook({ url: webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: shop.order(refundOrderId), source: `${shop.origin}/` });
        if (answer.status !== 202) throw new Error(`the connector answered ${answer.status} to the refund: ${answer.body}`);
        pending.set(refundOrderId, String(refund.id));
      }
      await sleep(100);
    }
    await shop.settle();
    const documents = ((await (await fetch(`${sandbox.origin}/_sandbox/documents`)).json()) as { documents: unknown[] }).documents;
    say();
    say(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${orders.length} invoices and 1 credit note, ${documents.length} documents on the service (one per order and purpose).`);
    say(`Each order also got a private note; the PDF links are the connector's stable links (they fetch a fresh download URL).`);
    return 0;
  } finally {
    await connector?.close();
    await shop.close();
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
