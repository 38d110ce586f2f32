/**
 * The other side of bench/month-pack.ts, in its own process (as the shop and the service are
 * elsewhere in production, so their work does not count in the pack's time nor block its event
 * loop): the fake WooCommerce holding N orders of the month, the sandbox holding one closed
 * invoice-receipt per order, and our ledger in real Redis under PREFIX as the pipeline leaves it
 * (written-back, with each document's tax facts kept at finalize). Prints one JSON line when
 * ready, then serves until its stdin closes.
 */
import IORedis from 'ioredis';
import { MagniFinanceClient } from '../client/rest-client';
import { Ledger } from '../connector/core/ledger';
import { DocumentFacts } from '../connector/month/ledger-documents';
import { localDateTime } from '../law/shop-date';
import { DEMO_ACCOUNT } from '../sandbox/options';
import { startSandbox } from '../sandbox/server';
import { buildOrder } from '../test/law/support/woo-cart';
import { startFakeWooCommerce } from '../test/support/fake-woocommerce';

const N = Number(process.argv[2]);
const PREFIX = String(process.argv[3]);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', accounts: [DEMO_ACCOUNT], finalizeDelayMs: 0 });
  const woo = await startFakeWooCommerce({});
  const redis = new IORedis(REDIS_URL);
  const ledger = new Ledger(redis, PREFIX);
  const facts = new DocumentFacts(redis, PREFIX);
  const client = new MagniFinanceClient({ email: DEMO_ACCOUNT.email, token: DEMO_ACCOUNT.token, baseUrl: sandbox.baseUrl, retry: false });
  const today = localDateTime(new Date(), 'Europe/Lisbon').date;
  const due = `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`;
  const now = new Date().toISOString().slice(0, 19);
  const started = Date.now();
  const ids = Array.from({ length: N }, (_, i) => 100_000 + i);
  for (const id of ids) {
    woo.putOrder(
      buildOrder({
        id,
        currency: 'EUR',
        status: id % 3 === 0 ? 'completed' : 'processing',
        items: [
          { name: 'Caneca', sku: 'CAN', productId: 11, price: '12.50', quantity: 2, rate: '23' },
          { name: 'Livro', sku: 'LIV', productId: 12, price: '18.90', quantity: 1, rate: '6' },
        ],
        shipping: [{ title: 'CTT', methodId: 'flat_rate', cost: '4.50', rate: '23' }],
        billing: { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua 1', city: 'Porto', postcode: '4050-262', country: 'PT', email: 'm@example.pt' },
        meta: [],
        datePaidGmt: now,
        dateCreatedGmt: now,
      }) as never,
    );
  }
  await inParallel(ids, 16, async (id) => {
    const created = await client.createDocument({
      IsToClose: true,
      Client: { NIF: '999999990', Name: 'Maria Silva', CountryCode: 'PT' },
      Document: {
        Type: 'T',
        Date: today,
        DueDate: due,
        ExternalId: `wc-${id}`,
        Lines: [
          { Code: 'CAN', Description: 'Caneca', UnitPrice: '10.16', Quantity: 2, Unit: 'UN', Type: 'P', TaxValue: 23, ProductDiscount: 0 },
          { Code: 'LIV', Description: 'Livro', UnitPrice: '17.83', Quantity: 1, Unit: 'UN', Type: 'P', TaxValue: 6, ProductDiscount: 0 },
          { Code: 'PORTES', Description: 'CTT', UnitPrice: '3.66', Quantity: 1, Unit: 'UN', Type: 'S', TaxValue: 23, ProductDiscount: 0 },
        ],
      },
    });
    // As the pipeline's finalize step: Get Document for the number, the facts kept, then written back.
    const details = await client.getDocument(created.documentId);
    await facts.remember('shop1', created.documentId, details, undefined);
    await ledger.record({ tenant: 'shop1', orderId: id, purpose: 'invoice' }, { state: 'written-back', documentId: created.documentId, documentNumber: details.documentNumber ?? undefined, documentType: 'T', documentDate: today });
  });
  process.stdout.write(
    `${JSON.stringify({ month: today.slice(0, 7), seededMs: Date.now() - started, woo: { url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret }, sandbox: { baseUrl: sandbox.baseUrl, origin: sandbox.origin } })}\n`,
  );
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('close', resolve));
  redis.disconnect();
  await woo.close();
  await sandbox.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
