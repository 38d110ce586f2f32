/**
 * How long the month pack takes for a month of N orders (default 10,000):
 * `npm run bench:month [-- N] [-- --cold]`. The fake WooCommerce over HTTP holding N orders, the
 * sandbox over HTTP holding one closed invoice-receipt per order, our ledger in real Redis as the
 * pipeline leaves it (the documents' tax facts kept at finalize) and the sandbox's SAF-T of the
 * month: the shop and the service run in a child process (bench/month-servers.ts), so this one
 * does only the pack's own work, as in production. Prints the load average before and after (the
 * build machine is shared), the SAF-T read alone, the shop's listing alone, and the pack with the
 * SAF-T read: the figure the issue asks under 10 s. `--cold` also times the pack with no facts
 * kept (one Get Document per document, the way a ledger from before the facts were kept is read).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import IORedis from 'ioredis';
import { MagniFinanceClient } from '../client/rest-client';
import { Ledger } from '../connector/core/ledger';
import { monthPack, type MonthPackInput } from '../connector/month/month-pack';
import { readSaft } from '../connector/month/saft-reader';
import { ShopMonthOrders } from '../connector/month/shop-orders';
import { WooShop } from '../platforms/woocommerce/woo-shop';
import { DEMO_ACCOUNT } from '../sandbox/options';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 10_000);
const COLD = args.includes('--cold');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Ready {
  month: string;
  seededMs: number;
  woo: { url: string; consumerKey: string; consumerSecret: string };
  sandbox: { baseUrl: string; origin: string };
}

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

async function main(): Promise<void> {
  const prefix = `bench-month-${randomBytes(4).toString('hex')}`;
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', `${__dirname}/month-servers.ts`, String(N), prefix], { stdio: ['pipe', 'pipe', 'inherit'] });
  const redis = new IORedis(REDIS_URL);
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as Ready));
      child.once('exit', (code) => reject(new Error(`the servers stopped (exit ${code})`)));
    });
    const saft = Buffer.from(await (await fetch(`${ready.sandbox.origin}/_sandbox/saft?month=${ready.month}`)).arrayBuffer());
    const shop = new WooShop({ url: ready.woo.url, consumerKey: ready.woo.consumerKey, consumerSecret: ready.woo.consumerSecret, webhookSecret: 'x', timeoutMs: 60_000 } as never);
    const client = new MagniFinanceClient({ email: DEMO_ACCOUNT.email, token: DEMO_ACCOUNT.token, baseUrl: ready.sandbox.baseUrl, retry: false });
    const input: MonthPackInput = {
      tenant: 'shop1',
      month: ready.month,
      timeZone: 'Europe/Lisbon',
      companyTaxId: DEMO_ACCOUNT.taxId,
      triggerStatuses: ['processing', 'completed'],
      listedStatuses: ['processing', 'completed', 'refunded', 'cancelled'],
      shop: new ShopMonthOrders(shop),
      ledger: new Ledger(redis, prefix),
      redis,
      prefix,
      reader: { getDocument: (id: number) => client.getDocument(id) },
      dispatchRegion: undefined,
    };
    const loadBefore = load();
    const readStart = Date.now();
    const file = readSaft(saft);
    const readMs = Date.now() - readStart;
    const listStart = Date.now();
    const listed = await input.shop.ordersModifiedSince(Date.parse(`${ready.month}-01T00:00:00Z`) - 3_600_000, input.listedStatuses);
    const listMs = Date.now() - listStart;
    const runs: number[] = [];
    let pack = await monthPack({ ...input, saft: file });
    for (let i = 0; i < 3; i += 1) {
      const start = Date.now();
      pack = await monthPack({ ...input, saft: readSaft(saft) });
      runs.push(Date.now() - start);
    }
    let cold: number | undefined;
    if (COLD) {
      await redis.del(`${prefix}:month:documents:shop1`);
      const start = Date.now();
      await monthPack({ ...input, saft: readSaft(saft) });
      cold = Date.now() - start;
    }
    const attention = pack.findings.filter((f) => f.code !== 'cancelled-document').length;
    process.stdout.write(
      `month pack, ${N} orders (${file.documents.length} documents in a ${(saft.length / 1e6).toFixed(1)} MB SAF-T; seeding took ${(ready.seededMs / 1000).toFixed(1)} s)\n` +
        `  load average before: ${loadBefore}; after: ${load()} (${cpus().length} cores)\n` +
        `  read the SAF-T alone:                    ${readMs} ms\n` +
        `  list the shop's ${listed.length} orders alone:       ${listMs} ms\n` +
        `  pack with the SAF-T read, three runs:    ${runs.join(' / ')} ms\n` +
        (cold === undefined ? '' : `  pack with Get Document per document:     ${cold} ms\n`) +
        `  findings: ${attention} (expected 0); orders of the month ${pack.orders.ofMonth}; documents ${pack.documents.length}\n`,
    );
  } finally {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
    child.stdin?.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
