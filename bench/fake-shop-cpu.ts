import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { WooRest } from '../platforms/woocommerce/woo-rest';
import { startFakeWooCommerce, type JsonObject } from '../test/support/fake-woocommerce';
import { BENCH_SECRET, orderTemplate, signedOrder } from './connector-support';

/**
 * The end-to-end bench's own machinery per order, without the connector (bench/connector-e2e.ts
 * runs it in its own process beside the connector): the fake WooCommerce answering an order's
 * shop calls (the order read, the marker and the write-back PUTs, the note POST, the notes read,
 * OAuth-signed by the real client) and sending the two order.updated echoes, and the sender posting
 * the signed order.created. The client and the webhook receiver run in a process of their own; only
 * this process's CPU (user + system) is counted, per order.
 *
 *   node -r ts-node/register/transpile-only bench/fake-shop-cpu.ts   (FAKE_ORDERS=2000, FAKE_ROUNDS=3)
 */

interface Start {
  origin: string;
  consumerKey: string;
  consumerSecret: string;
  first: number;
  orders: number;
}

const TEMPLATE_ID = 900_000_000;

/** The child: a webhook receiver that answers 202 and, per order, the connector's five shop calls. */
function client(): void {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(202).end());
  }).listen(0, '127.0.0.1', () => process.send?.({ port: (receiver.address() as AddressInfo).port }));
  process.on('message', (start: Start) => {
    const rest = new WooRest({ url: start.origin, consumerKey: start.consumerKey, consumerSecret: start.consumerSecret, timeoutMs: 10_000 });
    const order = async (id: number): Promise<void> => {
      await rest.send('GET', `orders/${id}`);
      await rest.send('PUT', `orders/${id}`, {}, { meta_data: [{ key: '_magnifinance_claim', value: `claim-${id}` }] }, 'errors');
      await rest.send('GET', `orders/${id}/notes`, { type: 'any' });
      await rest.send('PUT', `orders/${id}`, {}, { meta_data: [{ key: '_magnifinance_document_number', value: `FR A/${id}` }, { key: '_magnifinance_document_id', value: String(id) }] }, 'errors');
      await rest.send('POST', `orders/${id}/notes`, {}, { note: `MagniFinance: Fatura-recibo FR A/${id} emitida (documento ${id}).`, customer_note: false });
    };
    let next = 0;
    void Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < start.orders) await order(start.first + next++);
      }),
    ).then(() => process.send?.('done'));
  });
}

async function measure(): Promise<void> {
  const child = fork(__filename, ['client'], { execArgv: process.execArgv });
  const messages: unknown[] = [];
  const waiters: ((message: unknown) => void)[] = [];
  child.on('message', (message) => (waiters.length > 0 ? waiters.shift()?.(message) : messages.push(message)));
  const nextMessage = (): Promise<unknown> => (messages.length > 0 ? Promise.resolve(messages.shift()) : new Promise((resolve) => waiters.push(resolve)));
  const { port } = (await nextMessage()) as { port: number };
  const webhookUrl = `http://127.0.0.1:${port}/webhooks/woocommerce/bench`;
  const shop = await startFakeWooCommerce();
  shop.addWebhook({ topic: 'order.updated', status: 'active', delivery_url: webhookUrl, secret: BENCH_SECRET });
  const template = orderTemplate(Number(process.env.FAKE_ORDER_BYTES ?? 6144));
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 64 });
  const orders = Number(process.env.FAKE_ORDERS ?? 2000);
  let first = 1;
  const round = async (count: number): Promise<number> => {
    const bodies = Array.from({ length: count }, (_, i) => signedOrder(template, first + i));
    for (const body of bodies) shop.putOrder(JSON.parse(body.body) as JsonObject);
    const before = process.cpuUsage();
    child.send({ origin: shop.origin, consumerKey: shop.consumerKey, consumerSecret: shop.consumerSecret, first: TEMPLATE_ID + first, orders: count } satisfies Start);
    // The sender, as bench/connector-e2e.ts posts the order.created deliveries.
    let next = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < bodies.length) {
          const item = bodies[next++];
          const response = await pool.request({ path: '/webhooks/woocommerce/bench', method: 'POST', headers: { 'content-type': 'application/json', 'x-wc-webhook-topic': 'order.created', 'x-wc-webhook-signature': item.signature }, body: item.body });
          await response.body.text();
        }
      }),
    );
    await nextMessage();
    await shop.settle();
    const used = process.cpuUsage(before);
    first += count;
    return (used.user + used.system) / 1000 / count;
  };
  await round(500);
  for (let n = 0; n < Number(process.env.FAKE_ROUNDS ?? 3); n++) {
    const cpuMs = await round(orders);
    const calls = Object.entries(shop.requests.slice(-orders * 5).reduce<Record<string, number>>((counts, r) => ({ ...counts, [`${r.method} ${r.status}`]: (counts[`${r.method} ${r.status}`] ?? 0) + 1 }), {}));
    console.log(JSON.stringify({ orders, shopAndSenderCpuMsPerOrder: Number(cpuMs.toFixed(3)), calls: Object.fromEntries(calls) }));
  }
  await pool.close();
  await shop.close();
  child.kill();
}

if (process.argv[2] === 'client') client();
else void measure();
