/**
 * How long the month pack takes for a month of N orders (default 10,000), standalone:
 * `npx ts-node --transpile-only bench/month-pack.ts [N]`. Real parts: the fake WooCommerce over
 * HTTP holding N orders, the sandbox over HTTP holding one closed invoice-receipt per order, our
 * ledger in real Redis (each order's entry as the pipeline leaves it: written-back with the
 * document's id and number), and the sandbox's SAF-T of the month. Prints the time to read the
 * SAF-T alone, the pack the first time (one Get Document per document), and again (cached).
 */
import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { MagniFinanceClient } from '../client/rest-client';
import { Ledger } from '../connector/core/ledger';
import { monthPack } from '../connector/month/month-pack';
import { readSaft } from '../connector/month/saft-reader';
import { ShopMonthOrders } from '../connector/month/shop-orders';
import { WooShop } from '../platforms/woocommerce/woo-shop';
import { localDateTime } from '../law/shop-date';
import { buildOrder } from '../test/law/support/woo-cart';
import { startFakeWooCommerce } from '../test/support/fake-woocommerce';
import { startSandbox } from '../sandbox/server';
import { DEMO_ACCOUNT } from '../sandbox/options';

const N = Number(process.argv[2] ?? 10_000);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

async function main(): Promise<void> {
  const prefix = `bench-month-${randomBytes(4).toString('hex')}`;
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', accounts: [DEMO_ACCOUNT], finalizeDelayMs: 0 });
  const woo = await startFakeWooCommerce({});
  const redis = new IORedis(REDIS_URL);
  const ledger = new Ledger(redis, prefix);
  const client = new MagniFinanceClient({ email: DEMO_ACCOUNT.email, token: DEMO_ACCOUNT.token, baseUrl: sandbox.baseUrl, retry: false });
  const today = localDateTime(new Date(), 'Europe/Lisbon').date;
  const due = `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`;
  const now = new Date().toISOString().slice(0, 19);
  try {
    const ids = Array.from({ length: N }, (_, i) => 100_000 + i);
    const seedStart = Date.now();
    for (const id of ids) {
      woo.putOrder(buildOrder({
        id, currency: 'EUR', status: id % 3 === 0 ? 'completed' : 'processing',
        items: [{ name: 'Caneca', sku: 'CAN', productId: 11, price: '12.50', quantity: 2, rate: '23' }, { name: 'Livro', sku: 'LIV', productId: 12, price: '18.90', quantity: 1, rate: '6' }],
        shipping: [{ title: 'CTT', methodId: 'flat_rate', cost: '4.50', rate: '23' }],
        billing: { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua 1', city: 'Porto', postcode: '4050-262', country: 'PT', email: 'm@example.pt' },
        meta: [], datePaidGmt: now, dateCreatedGmt: now,
      }) as never);
    }
    await inParallel(ids, 32, async (id) => {
      const created = await client.createDocument({ IsToClose: true, Client: { NIF: '999999990', Name: 'Maria Silva', CountryCode: 'PT' }, Document: { Type: 'T', Date: today, DueDate: due, ExternalId: `wc-${id}`, Lines: [
        { Code: 'CAN', Description: 'Caneca', UnitPrice: '10.16', Quantity: 2, Unit: 'UN', Type: 'P', TaxValue: 23, ProductDiscount: 0 },
        { Code: 'LIV', Description: 'Livro', UnitPrice: '17.83', Quantity: 1, Unit: 'UN', Type: 'P', TaxValue: 6, ProductDiscount: 0 },
        { Code: 'PORTES', Description: 'CTT', UnitPrice: '3.66', Quantity: 1, Unit: 'UN', Type: 'S', TaxValue: 23, ProductDiscount: 0 },
      ] } });
      const number = (await client.getDocument(created.documentId)).documentNumber;
      await ledger.record({ tenant: 'shop1', orderId: id, purpose: 'invoice' }, { state: 'written-back', documentId: created.documentId, documentNumber: number ?? undefined, documentType: 'T', documentDate: today });
    });
    const seeded = Date.now() - seedStart;
    const saft = Buffer.from(await (await fetch(`${sandbox.origin}/_sandbox/saft?month=${today.slice(0, 7)}`)).arrayBuffer());
    const readStart = Date.now();
    const file = readSaft(saft);
    const readMs = Date.now() - readStart;
    const shop = new WooShop({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, webhookSecret: 'x', timeoutMs: 30_000 } as never);
    const input = {
      tenant: 'shop1', month: today.slice(0, 7), timeZone: 'Europe/Lisbon', companyTaxId: DEMO_ACCOUNT.taxId,
      triggerStatuses: ['processing', 'completed'], listedStatuses: ['processing', 'completed', 'refunded', 'cancelled'],
      shop: new ShopMonthOrders(shop), ledger, redis, prefix, reader: { getDocument: (id: number) => client.getDocument(id) }, dispatchRegion: undefined,
    };
    const listStart = Date.now();
    await input.shop.ordersModifiedSince(Date.now() - 86_400_000 * 40, input.listedStatuses);
    const listMs = Date.now() - listStart;
    const cold = await monthPack({ ...input, saft: readSaft(saft) });
    const warmStart = Date.now();
    const warm = await monthPack({ ...input, saft: readSaft(saft) });
    const warmWithRead = Date.now() - warmStart;
    const attention = warm.findings.filter((f) => f.code !== 'cancelled-document').length;
    process.stdout.write(
      `month pack, ${N} orders (${file.documents.length} documents in a ${(saft.length / 1e6).toFixed(1)} MB SAF-T; seeding took ${(seeded / 1000).toFixed(1)} s)\n` +
        `  read the SAF-T:                         ${readMs} ms\n` +
        `  list the shop's orders alone:            ${listMs} ms\n` +
        `  pack, first time (Get Document each):   ${cold.computeMs} ms\n` +
        `  pack, again (lines cached):             ${warm.computeMs} ms (${warmWithRead} ms with the SAF-T read)\n` +
        `  findings: ${attention} (expected 0); orders of the month ${warm.orders.ofMonth}\n`,
    );
  } finally {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
    await woo.close();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
