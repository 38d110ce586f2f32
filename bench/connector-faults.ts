import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { Pool } from 'undici';
import { META } from '../connector/shop/order-meta';
import { signWooBody, startFakeWooCommerce, wpJsonEncode, type JsonObject } from '../test/support/fake-woocommerce';
import { buildOrder } from '../test/law/support/woo-cart';
import { BENCH_ADMIN_PASSWORD, BENCH_SECRET, benchConnectorConfig, freePort, nodeArgs, REPO, spawnHttp, stop, writeJson } from './connector-support';

/**
 * The bounded fault run (`npm run bench:faults`): every paid order ends invoiced, or visibly waiting
 * for a person, under real conditions. Everything runs for real: its own redis-server (append-only
 * file on) on a free port, the sandbox with injected 500s and lost answers, one connector `serve`
 * process and two `work` processes, the fake shop (echoing our write-backs as order.updated).
 *
 * Each order: paid on a day over the last five weeks, delivered out of order; order.created, then
 * two order.updated at the same moment, and a late repeat of order.created after all were sent.
 * Meanwhile a worker is kill -9'd every `killEveryMs` and restarted, and Redis is kill -9'd once
 * (halfway through the sending) and restarted from its AOF. Deliveries refused while Redis is away
 * (503) are left to the sweep, as WooCommerce would (it never retries). At three quarters of the
 * sending Redis is emptied (FLUSHDB: no AOF, a failover to a lagging replica) while orders are in
 * flight, and the shop then changes the buyer's NIF on every order that was in flight (the case the
 * service's duplicate check does not catch): none may get a second document, none may be left to a
 * person because of the wipe.
 *
 * Then the lost-ledger-and-meta variant (issue 30, point 4): on `lostMetaOrders` written-back
 * orders that were not in flight at the wipe, the ledger and the order's story are deleted (a Redis
 * lost without AOF, or the 90-day expiry), an admin deletes our `_magnifinance*` meta from the order,
 * and the buyer's NIF is added: none may get a second document (each is held for a person, who is
 * shown the document our note names).
 *
 * It ends when every order is written back or waits for a person with a reason (or at the
 * deadline) and checks: exactly one numbered document per order, 0 orders waiting because of a lost
 * answer (duplicate-unknown-id), and reports the drain time.
 */
export interface FaultRunOptions {
  orders: number;
  errorRate: number;
  timeoutRate: number;
  finalizeDelayMs: number;
  killEveryMs: number;
  deadlineMs: number;
  /** Orders delivered per second (each: created + 2 updates), as a busy shop would send them. */
  rate: number;
  /** Written-back orders whose ledger, story and our meta are then lost before the buyer's NIF is added. */
  lostMetaOrders: number;
}

interface Figures {
  orders: number;
  faults: string;
  workerKills: number;
  redisKills: number;
  webhooksSent: number;
  webhooksRefused503: number;
  sendSeconds: number;
  drainSeconds: number;
  writtenBack: number;
  waitingForPerson: number;
  waitingReasons: Record<string, number>;
  lostAnswerWaiting: number;
  numberedDocuments: number;
  ordersWithoutDocument: number;
  ordersWithMoreThanOneDocument: number;
  orphanDrafts: number;
  unsettled: number;
  /** Orders in flight (a ledger between drafting and finalized) when Redis was emptied. */
  inFlightAtWipe: number;
  /** Of those, orders whose buyer NIF the shop changed after the wipe (all of them). */
  buyerChangedAfterWipe: number;
  /** Of those, orders with more than one numbered document: must be 0. */
  secondDocumentsAfterWipe: number;
  /** Of those, orders left waiting for a person: must be 0 (they heal by themselves). */
  waitingBecauseOfWipe: number;
  /**
   * Written-back orders whose ledger, story and our meta were lost, then the buyer's NIF added:
   * `lostMetaOrders`, or every order that healed by itself when fewer did (a small run with many in
   * flight at the wipe); at least one.
   */
  lostLedgerAndMeta: number;
  /** Of those, orders with more than one numbered document: must be 0. */
  secondDocumentsAfterLostMeta: number;
  /** Of those, orders held for a person naming the earlier document (earlier-document): all of them. */
  heldWithEarlierDocument: number;
  /** Orders where one document is told in more than one of our issued notes (a note posted twice): must be 0. */
  ordersWithANoteTwice: number;
  ok: boolean;
}

/** Ledger states of an order whose document is under way (its close may have happened). */
const IN_FLIGHT = new Set(['drafting', 'draft', 'created', 'finalized']);
/** The NIF the shop changes the buyer to after the wipe (a valid Portuguese NIF, unlike the original). */
const CHANGED_NIF = '123456789';

const DAY = 86_400_000;

/** Our issued note's document id (connector/words.ts NOTES.issued: "... FR A/1 emitida (documento 4711)."). */
const ISSUED_NOTE = /^MagniFinance: .* (?:emitid[ao]|issued) \((?:documento|document) (\d{1,12})\)/;

/** Whether one document is told in more than one of our issued notes on the order. */
function noteTwice(notes: readonly { note: string }[]): boolean {
  const told = notes.map((note) => ISSUED_NOTE.exec(note.note)?.[1]).filter((id) => id !== undefined);
  return new Set(told).size < told.length;
}

function shuffle<T>(items: T[], seed: number): T[] {
  let state = seed;
  const random = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

function orderNumber(n: number, now: number): JsonObject {
  const paid = new Date(now - ((n * 7919) % (35 * DAY / 60_000)) * 60_000 - 3_600_000).toISOString().slice(0, 19);
  // Paid weeks ago, changed now (that is why it is delivered now): the sweep lists it by date_modified.
  const modified = new Date(now).toISOString().slice(0, 19);
  const order = buildOrder({
    id: 700_000_000 + n,
    currency: 'EUR',
    status: 'processing',
    items: [
      { name: 'Caneca de cerâmica', sku: 'CAN-01', productId: 11, price: '12.50', quantity: 1 + (n % 3), rate: '23' },
      { name: 'Livro: Os Lusíadas', sku: 'LIV-02', productId: 12, price: '18.90', quantity: 1, rate: '6' },
    ],
    shipping: [{ title: 'CTT Expresso', methodId: 'flat_rate', cost: '4.50', rate: '23' }],
    billing: { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua das Flores 12', city: 'Porto', postcode: '4050-262', country: 'PT', email: 'maria.silva@example.pt', phone: '912345678' },
    meta: [{ key: '_billing_nif', value: '232013969' }],
    datePaidGmt: paid,
    dateCreatedGmt: paid,
  }) as JsonObject;
  return { ...order, date_modified: modified, date_modified_gmt: modified };
}

async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir], { stdio: 'ignore' });
  const deadline = Date.now() + 30_000;
  while (!spawnSync('redis-cli', ['-p', String(port), 'ping']).stdout?.toString().includes('PONG')) {
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

export async function runFaults(options: FaultRunOptions): Promise<Figures> {
  const started = Date.now();
  const log = (text: string): void => void process.stderr.write(`[${Math.round((Date.now() - started) / 1000)} s] ${text}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'mf-faults-'));
  const redisPort = await freePort();
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  let redis = await startRedis(redisPort, dir);
  const prefix = `mf-faults-${randomBytes(3).toString('hex')}`;
  const shop = await startFakeWooCommerce({});
  const sandboxPort = await freePort();
  const connectorPort = await freePort();
  const children: ChildProcess[] = [];
  const workers: ChildProcess[] = [];
  let configPath = '';
  const spawnWorker = (): ChildProcess => {
    const child = spawn(process.execPath, nodeArgs('cli/magnifinance.ts', ['connector', 'work', '--config', configPath]), { cwd: REPO, env: { ...process.env, LOG_LEVEL: 'error' }, stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
    return child;
  };
  const probe = new IORedis(redisUrl, { maxRetriesPerRequest: null });
  probe.on('error', () => undefined);
  try {
    const sandbox = await spawnHttp('cli/magnifinance.ts', ['sandbox', '--port', String(sandboxPort), '--finalize-delay', String(options.finalizeDelayMs), '--error-rate', String(options.errorRate), '--timeout-rate', String(options.timeoutRate), '--seed', '8'], `http://127.0.0.1:${sandboxPort}/_sandbox/health`);
    children.push(sandbox);
    // A lost answer is held past the connector's 5 s timeout, then dropped.
    await fetch(`http://127.0.0.1:${sandboxPort}/_sandbox/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ timeoutHoldMs: 8_000 }) });
    const config = benchConnectorConfig({ prefix, port: connectorPort, shopUrl: shop.origin, consumerKey: shop.consumerKey, consumerSecret: shop.consumerSecret, sandboxBaseUrl: `http://127.0.0.1:${sandboxPort}/api/v1.1`, finalizeDelayMs: options.finalizeDelayMs, concurrency: 64 });
    config.redis.url = redisUrl;
    config.tenants[0].invoicing.timeoutMs = 5_000;
    configPath = writeJson('faults-connector', config);
    workers.push(spawnWorker(), spawnWorker());
    const serve = await spawnHttp('cli/magnifinance.ts', ['connector', 'serve', '--config', configPath], `http://127.0.0.1:${connectorPort}/readyz`, { LOG_LEVEL: 'error' });
    children.push(serve);
    const webhookUrl = `http://127.0.0.1:${connectorPort}/webhooks/woocommerce/bench`;
    shop.addWebhook({ topic: 'order.updated', status: 'active', delivery_url: webhookUrl, secret: BENCH_SECRET });

    const now = Date.now();
    const ids: number[] = [];
    const bodies = new Map<number, { body: string; signature: string }>();
    for (let n = 1; n <= options.orders; n++) {
      const order = orderNumber(n, now);
      shop.putOrder(order);
      const body = wpJsonEncode(order);
      bodies.set(Number(order.id), { body, signature: signWooBody(body, BENCH_SECRET) });
      ids.push(Number(order.id));
    }
    shuffle(ids, 42);

    let workerKills = 0;
    let redisKills = 0;
    let stopKilling = false;
    const killer = (async () => {
      let which = 0;
      while (!stopKilling) {
        await new Promise((resolve) => setTimeout(resolve, options.killEveryMs));
        if (stopKilling) break;
        const victim = workers[which];
        await killed(victim);
        workers[which] = spawnWorker();
        workerKills += 1;
        which = 1 - which;
      }
    })();

    const pool = new Pool(`http://127.0.0.1:${connectorPort}`, { connections: 32 });
    let sent = 0;
    let refused = 0;
    const deliver = async (id: number, topic: string): Promise<void> => {
      const item = bodies.get(id);
      if (!item) return;
      sent += 1;
      try {
        const response = await pool.request({ path: '/webhooks/woocommerce/bench', method: 'POST', headers: { 'content-type': 'application/json', 'x-wc-webhook-topic': topic, 'x-wc-webhook-signature': item.signature }, body: item.body });
        await response.body.text();
        if (response.statusCode === 503) refused += 1;
        else if (response.statusCode !== 202) throw new Error(`webhook answered ${response.statusCode}`);
      } catch (error) {
        if ((error as Error).message.startsWith('webhook answered')) throw error;
        refused += 1;
      }
    };
    let next = 0;
    let redisKilled = false;
    let wiped = false;
    const inFlight: number[] = [];
    let buyerChanges: Promise<void> = Promise.resolve();
    const wipe = async (): Promise<void> => {
      // The AOF restart of the kill above must be done: a wipe of a Redis that is away empties nothing.
      while (!spawnSync('redis-cli', ['-p', String(redisPort), 'ping']).stdout?.toString().includes('PONG')) await new Promise((resolve) => setTimeout(resolve, 100));
      const pipeline = probe.pipeline();
      for (const id of ids) pipeline.hget(`${prefix}:ledger:bench:${id}:invoice`, 'state');
      const states = (await pipeline.exec()) ?? [];
      for (const [index, id] of ids.entries()) if (IN_FLIGHT.has(String(states[index]?.[1] ?? ''))) inFlight.push(id);
      await probe.flushdb();
      log(`FLUSHDB with ${inFlight.length} orders in flight; the shop now changes their buyer's NIF`);
      buyerChanges = (async () => {
        for (const id of inFlight) {
          const current = shop.order(id) as JsonObject;
          const meta = ((current.meta_data ?? []) as { key: string; value: unknown }[]).map((m) => (m.key === '_billing_nif' ? { ...m, value: CHANGED_NIF } : m));
          const edited = shop.editOrder(id, { meta_data: meta as unknown as JsonObject[] });
          const body = wpJsonEncode(edited);
          bodies.set(id, { body, signature: signWooBody(body, BENCH_SECRET) });
          await deliver(id, 'order.updated');
        }
      })();
    };
    const sendStart = Date.now();
    const sender = async (): Promise<void> => {
      while (next < ids.length) {
        const position = next;
        const id = ids[next++];
        const due = sendStart + (position * 1000) / options.rate;
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        if (!redisKilled && next >= ids.length / 2) {
          redisKilled = true;
          log('kill -9 redis-server');
          await killed(redis);
          redisKills += 1;
          setTimeout(() => {
            void startRedis(redisPort, dir).then((child) => {
              redis = child;
              log('redis-server restarted from its AOF');
            });
          }, 2_000);
        }
        if (redisKilled && !wiped && next >= (ids.length * 3) / 4) {
          wiped = true;
          await wipe();
        }
        await deliver(id, 'order.created');
        await Promise.all([deliver(id, 'order.updated'), deliver(id, 'order.updated')]);
      }
    };
    await Promise.all(Array.from({ length: 24 }, () => sender()));
    await buyerChanges;
    log(`sent ${sent} webhooks (${refused} refused with 503 while Redis was away); late repeats next`);
    next = 0;
    const repeater = async (): Promise<void> => {
      while (next < ids.length) await deliver(ids[next++], 'order.created');
    };
    await Promise.all(Array.from({ length: 24 }, () => repeater()));
    const sendSeconds = (Date.now() - started) / 1000;
    log(`late repeats sent; draining`);

    const admin = { authorization: `Basic ${Buffer.from(`admin:${BENCH_ADMIN_PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' };
    const sweep = async (): Promise<void> => {
      try {
        await fetch(`http://127.0.0.1:${connectorPort}/admin/api/sweep`, { method: 'POST', headers: admin, body: JSON.stringify({ tenant: 'bench' }) });
      } catch {
        // Redis may still be coming back: the next sweep runs soon.
      }
    };
    await sweep();
    let lastSweep = Date.now();
    const deadline = started + options.deadlineMs;
    let settledAt = Number.NaN;
    let pending = ids.length;
    let lastProgress = Date.now();
    for (;;) {
      if (Date.now() - started > options.deadlineMs * 0.5 || countWrittenBack(shop, ids) > ids.length * 0.9) stopKilling = true;
      pending = 0;
      const pipeline = probe.pipeline();
      for (const id of ids) pipeline.hmget(`${prefix}:ledger:bench:${id}:invoice`, 'state', 'action');
      const rows = (await pipeline.exec()) ?? [];
      for (const [index, id] of ids.entries()) {
        if (shop.meta(id, META.documentNumber) !== undefined) continue;
        const [state, action] = (rows[index]?.[1] as (string | null)[] | undefined) ?? [];
        if (action && state !== 'draft') continue; // waits for a person, with the reason and the fix
        pending += 1;
      }
      if (pending === 0) {
        settledAt = Date.now();
        break;
      }
      if (Date.now() > deadline) break;
      if (Date.now() - lastProgress > 15_000) {
        log(`${pending} orders not settled yet`);
        lastProgress = Date.now();
      }
      // The periodic sweep, as every 15 min in production, here every 60 s.
      if (Date.now() - lastSweep > 60_000) {
        await sweep();
        lastSweep = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    stopKilling = true;
    await killer;
    await shop.settle();
    const drainSeconds = (settledAt - started) / 1000;
    log(`drained: ${pending} not settled`);

    // The lost-ledger-and-meta variant, on orders that healed by themselves (not in flight at the wipe).
    const healed = ids.filter((id) => !inFlight.includes(id) && shop.meta(id, META.documentNumber) !== undefined);
    const lostMeta = healed.slice(0, options.lostMetaOrders);
    for (const id of lostMeta) {
      await probe.del(`${prefix}:ledger:bench:${id}:invoice`, `${prefix}:history:bench:${id}`);
      shop.deleteMeta(id, (key) => key.startsWith('_magnifinance'));
    }
    log(`ledger, story and our meta gone on ${lostMeta.length} written-back orders; the shop now adds their buyer's NIF`);
    for (const id of lostMeta) {
      const current = shop.order(id) as JsonObject;
      const meta = ((current.meta_data ?? []) as { key: string; value: unknown }[]).map((m) => (m.key === '_billing_nif' ? { ...m, value: CHANGED_NIF } : m));
      const edited = shop.editOrder(id, { meta_data: meta as unknown as JsonObject[] });
      const body = wpJsonEncode(edited);
      bodies.set(id, { body, signature: signWooBody(body, BENCH_SECRET) });
      await deliver(id, 'order.updated');
    }
    await sweep();
    const lostDeadline = Date.now() + 120_000;
    let heldEarlier = 0;
    while (Date.now() < lostDeadline) {
      heldEarlier = 0;
      for (const id of lostMeta) if ((await probe.hget(`${prefix}:ledger:bench:${id}:invoice`, 'problem'))?.includes('"earlier-document"')) heldEarlier += 1;
      if (heldEarlier + lostMeta.filter((id) => shop.meta(id, META.documentNumber) !== undefined).length >= lostMeta.length) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    await shop.settle();
    log(`${heldEarlier} of ${lostMeta.length} held for a person with the earlier document named`);

    const documents = ((await (await fetch(`http://127.0.0.1:${sandboxPort}/_sandbox/documents`)).json()) as { documents: { status: string; document: { ExternalId?: string } }[] }).documents;
    const numbered = new Map<string, number>();
    let orphanDrafts = 0;
    for (const doc of documents) {
      if (doc.status === 'draft') orphanDrafts += 1;
      else numbered.set(doc.document.ExternalId ?? '', (numbered.get(doc.document.ExternalId ?? '') ?? 0) + 1);
    }
    let writtenBack = 0;
    let waiting = 0;
    let lostAnswer = 0;
    let none = 0;
    let many = 0;
    const reasons: Record<string, number> = {};
    const attention = new Set(await probe.zrange(`${prefix}:attention`, 0, -1));
    const wipedSet = new Set(inFlight);
    let secondAfterWipe = 0;
    let waitingAfterWipe = 0;
    let changedAfterWipe = 0;
    for (const id of ids) {
      const count = numbered.get(`wc-${id}`) ?? 0;
      if (count > 1) many += 1;
      const entry = await probe.hgetall(`${prefix}:ledger:bench:${id}:invoice`);
      if (wipedSet.has(id)) {
        if (count > 1) secondAfterWipe += 1;
        if (shop.meta(id, '_billing_nif') === CHANGED_NIF) changedAfterWipe += 1;
        if (shop.meta(id, META.documentNumber) === undefined && attention.has(`bench:${id}:invoice`)) waitingAfterWipe += 1;
      }
      if (entry.state === 'duplicate-unknown-id') lostAnswer += 1;
      if (shop.meta(id, META.documentNumber) !== undefined) {
        writtenBack += 1;
        if (count !== 1) none += count === 0 ? 1 : 0;
      } else if (entry.action && attention.has(`bench:${id}:invoice`)) {
        waiting += 1;
        const reason = (entry.detail ?? '').replace(/\d+/g, 'N').slice(0, 90);
        reasons[reason] = (reasons[reason] ?? 0) + 1;
      }
    }
    const figures: Figures = {
      orders: ids.length,
      faults: `service ${options.errorRate * 100}% errors + ${options.timeoutRate * 100}% lost answers, worker kill -9 every ${options.killEveryMs / 1000} s, 1 Redis kill -9 (AOF always), 1 Redis FLUSHDB mid-flight then the buyer's NIF changed on the orders in flight, then ${lostMeta.length} written-back orders lose their ledger, story and our meta before the buyer's NIF is added`,
      workerKills,
      redisKills,
      webhooksSent: sent,
      webhooksRefused503: refused,
      sendSeconds: Math.round(sendSeconds),
      drainSeconds: Math.round(drainSeconds),
      writtenBack,
      waitingForPerson: waiting,
      waitingReasons: reasons,
      lostAnswerWaiting: lostAnswer,
      numberedDocuments: [...numbered.entries()].filter(([key]) => key.startsWith('wc-')).reduce((sum, [, n]) => sum + n, 0),
      ordersWithoutDocument: ids.filter((id) => (numbered.get(`wc-${id}`) ?? 0) === 0 && !attention.has(`bench:${id}:invoice`)).length,
      ordersWithMoreThanOneDocument: many,
      orphanDrafts,
      unsettled: pending,
      inFlightAtWipe: inFlight.length,
      buyerChangedAfterWipe: changedAfterWipe,
      secondDocumentsAfterWipe: secondAfterWipe,
      waitingBecauseOfWipe: waitingAfterWipe,
      lostLedgerAndMeta: lostMeta.length,
      secondDocumentsAfterLostMeta: lostMeta.filter((id) => (numbered.get(`wc-${id}`) ?? 0) > 1).length,
      heldWithEarlierDocument: heldEarlier,
      ordersWithANoteTwice: ids.filter((id) => noteTwice(shop.notes(id))).length,
      ok: false,
    };
    figures.ok =
      figures.ordersWithMoreThanOneDocument === 0 &&
      figures.lostAnswerWaiting === 0 &&
      figures.unsettled === 0 &&
      figures.writtenBack + figures.waitingForPerson === ids.length &&
      none === 0 &&
      figures.inFlightAtWipe > 0 &&
      figures.secondDocumentsAfterWipe === 0 &&
      figures.waitingBecauseOfWipe === 0 &&
      figures.lostLedgerAndMeta === Math.min(options.lostMetaOrders, healed.length) &&
      figures.lostLedgerAndMeta > 0 &&
      figures.secondDocumentsAfterLostMeta === 0 &&
      figures.ordersWithANoteTwice === 0;
    return figures;
  } finally {
    // A killed worker has exited already: stop() would wait for an exit that came before.
    for (const child of children) if (child.exitCode === null && child.signalCode === null) await stop(child);
    await shop.close();
    probe.disconnect();
    spawnSync('redis-cli', ['-p', String(redisPort), 'shutdown', 'nosave']);
    await killed(redis);
    rmSync(dir, { recursive: true, force: true });
    if (configPath) rmSync(configPath, { force: true });
  }
}

function countWrittenBack(shop: { meta(id: number, key: string): unknown }, ids: number[]): number {
  let count = 0;
  for (const id of ids) if (shop.meta(id, META.documentNumber) !== undefined) count += 1;
  return count;
}

if (require.main === module) {
  runFaults({
    orders: Number(process.env.FAULT_ORDERS ?? 10_000),
    errorRate: Number(process.env.FAULT_ERROR_RATE ?? 0.03),
    timeoutRate: Number(process.env.FAULT_TIMEOUT_RATE ?? 0.01),
    finalizeDelayMs: Number(process.env.FAULT_FINALIZE_MS ?? 300),
    killEveryMs: Number(process.env.FAULT_KILL_EVERY_MS ?? 20_000),
    deadlineMs: Number(process.env.FAULT_DEADLINE_MS ?? 15 * 60_000),
    rate: Number(process.env.FAULT_RATE ?? 60),
    lostMetaOrders: Number(process.env.FAULT_LOST_META_ORDERS ?? 200),
  }).then(
    (figures) => {
      process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
      if (!figures.ok) process.exitCode = 1;
    },
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
