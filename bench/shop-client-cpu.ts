import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WooRest } from '../platforms/woocommerce/woo-rest';

/**
 * The shop client's own CPU per call (`platforms/woocommerce/woo-rest.ts`): the four calls of an
 * order in turn (the order read, a meta PUT, a note POST, the notes read), OAuth-signed over http,
 * 32 at a time, against a bare HTTP server in a process of its own that answers a 6 KB order (the
 * PUT and the GET) or a note. Only this process's CPU (user + system) is counted, so the figure is
 * the client's: signing, undici's request and its socket work, reading and parsing the answers.
 *
 *   node -r ts-node/register/transpile-only bench/shop-client-cpu.ts   (SHOP_CALLS=20000, SHOP_ROUNDS=3)
 */

const ORDER = JSON.stringify({ id: 1, status: 'processing', meta_data: Array.from({ length: 40 }, (_, i) => ({ id: i, key: `k${i}`, value: 'x'.repeat(100) })) });
const NOTE = JSON.stringify({ id: 9, note: 'MagniFinance: Fatura-recibo FR A/1 emitida (documento 1).', customer_note: false });

function serve(): void {
  createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const notes = req.url?.includes('/notes') ?? false;
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', date: new Date().toUTCString() });
      res.end(notes ? (req.method === 'GET' ? `[${NOTE}]` : NOTE) : ORDER);
    });
  }).listen(0, '127.0.0.1', function (this: ReturnType<typeof createServer>) {
    process.send?.((this.address() as AddressInfo).port);
  });
}

async function measure(): Promise<void> {
  const server = fork(__filename, ['serve'], { execArgv: process.execArgv });
  const port = await new Promise<number>((resolve) => server.once('message', (message) => resolve(Number(message))));
  const rest = new WooRest({ url: `http://127.0.0.1:${port}/`, consumerKey: 'ck_bench', consumerSecret: 'cs_bench', timeoutMs: 10_000 });
  const callOf = (i: number): Promise<unknown> => {
    const step = i % 4;
    if (step === 0) return rest.send('GET', `orders/${i}`);
    if (step === 1) return rest.send('PUT', `orders/${i}`, {}, { meta_data: [{ key: '_magnifinance_document_number', value: 'FR A/1' }] }, 'errors');
    if (step === 2) return rest.send('POST', `orders/${i}/notes`, {}, { note: 'MagniFinance: Fatura-recibo FR A/1 emitida (documento 1).', customer_note: false });
    return rest.send('GET', `orders/${i}/notes`, { type: 'any' });
  };
  const run = async (calls: number): Promise<void> => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < calls) await callOf(next++);
      }),
    );
  };
  const calls = Number(process.env.SHOP_CALLS ?? 20_000);
  await run(4_000);
  for (let round = 0; round < Number(process.env.SHOP_ROUNDS ?? 3); round++) {
    const before = process.cpuUsage();
    await run(calls);
    const used = process.cpuUsage(before);
    console.log(JSON.stringify({ calls, clientCpuMicrosPerCall: Number(((used.user + used.system) / calls).toFixed(1)) }));
  }
  server.kill();
}

if (process.argv[2] === 'serve') serve();
else void measure();
