import IORedis from 'ioredis';
import { woocommerce } from '../../platforms/woocommerce/adapter';
import { spawnSync } from 'node:child_process';
import type { LedgerEntry } from '../../connector/core/ledger';
import { invoiceRequest } from '../../connector/pipeline/document-requests';
import { parseProblem } from '../../connector/pipeline/problems';
import { shopToday } from '../../connector/pipeline/issue-date';
import { buildTenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { issuingKeyForPurpose, issuingMarker, META } from '../../connector/shop/order-meta';
import { sendWooWebhook, type JsonObject, type JsonValue } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, REDIS_URL, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { describeWithRedisServer, ownRedisServer, type OwnRedisServer } from './support/redis-servers';
import { wooMeta } from '../support/payloads';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

async function ledgerOf(h: Harness, orderId: number): Promise<Record<string, LedgerEntry>> {
  return (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
}

/** Closed (numbered) documents of the order: drafts are not documents. */
async function numberedOf(h: Harness, orderId: number) {
  return (await h.documentsOf(orderId)).filter((d) => d.status !== 'draft');
}

/** The shop owner adds the buyer's NIF in the admin (the order's other meta stays), and WooCommerce sends order.updated. */
async function addBuyerNif(h: Harness, orderId: number, nif: string): Promise<void> {
  const current = h.woo.order(orderId) as JsonObject;
  const meta = [...((current.meta_data ?? []) as JsonValue[]), { id: 90_000 + (orderId % 10_000), key: '_billing_nif', value: nif }];
  const edited = h.woo.editOrder(orderId, { meta_data: meta });
  const answer = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: edited });
  expect(answer.status).toBeLessThan(300);
}

async function attentionOrders(h: Harness): Promise<number[]> {
  const list = (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN })).json()) as { orderId: number }[];
  return list.map((item) => item.orderId);
}

describeWithRedisServer('never-twice.test.ts', 'the Redis wipe test')('Redis emptied (FLUSHDB) while orders wait the 10 s before Get Document, then the buyer NIF is added', () => {
  let redis: OwnRedisServer;
  let h: Harness;

  beforeAll(async () => {
    // A private server: FLUSHDB empties only it. A 4 s finalize delay stands for the service's 10 s.
    redis = await ownRedisServer();
    h = await startHarness({ redisUrl: `redis://127.0.0.1:${redis.port}`, pipeline: { finalizeDelayMs: 4_000, minFinalizeDelayMs: 4_000 } });
  });
  afterAll(async () => {
    await h.close();
    await redis.destroy();
  });

  it('orders caught at every step (drafting, draft, closing, created) by the FLUSHDB, the NIF then added: never a second document, nobody asked', async () => {
    // Every service call takes 400 ms, so the orders are spread over the steps when Redis is emptied,
    // and workers from before the wipe write stray fields into the emptied ledger as they go on.
    await fetch(`${h.sandbox.origin}/_sandbox/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: 400 }) });
    const ids: number[] = [];
    try {
      for (let i = 0; i < 16; i++) {
        const order = portugueseOrder();
        ids.push(Number(order.id));
        expect((await h.deliver(order)).status).toBe(202);
      }
      const stepsAtWipe = await eventually('orders spread over the steps', async () => {
        const states = await Promise.all(ids.map(async (id) => (await ledgerOf(h, id)).invoice?.state ?? 'none'));
        return states.includes('created') && states.some((state) => state === 'drafting' || state === 'draft') ? states : undefined;
      }, 20_000);
      expect(spawnSync('redis-cli', ['-p', String(redis.port), 'flushdb']).stdout.toString()).toContain('OK');
      process.stderr.write(`never-twice: FLUSHDB with the orders at ${JSON.stringify(stepsAtWipe)}\n`);
      for (const id of ids) await addBuyerNif(h, id, '123456789');
    } finally {
      await fetch(`${h.sandbox.origin}/_sandbox/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: 0 }) });
    }
    for (const id of ids) await eventually(`order ${id} written back`, async () => (await ledgerOf(h, id)).invoice?.state === 'written-back', 60_000);
    for (const id of ids) expect(await numberedOf(h, id)).toHaveLength(1);
    expect(await attentionOrders(h)).toEqual([]);
  }, 120_000);

  it('every order heals by itself: one numbered document per order (the first), written back, nobody asked to attach anything', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const order = portugueseOrder();
      ids.push(Number(order.id));
      expect((await h.deliver(order)).status).toBe(202);
    }
    const created = new Map<number, number>();
    for (const id of ids) {
      const entry = await eventually(`order ${id} closed`, async () => {
        const invoice = (await ledgerOf(h, id)).invoice;
        return invoice?.state === 'created' ? invoice : undefined;
      }, 30_000);
      created.set(id, entry.documentId as number);
      // The order already knows the draft it closed.
      expect(issuingMarker(wooMeta(h.woo.order(id)?.meta_data), 'invoice')).toMatchObject({ documentId: entry.documentId, externalId: `wc-${id}` });
    }
    expect(spawnSync('redis-cli', ['-p', String(redis.port), 'flushdb']).stdout.toString()).toContain('OK');
    expect(await ledgerOf(h, ids[0])).toEqual({});

    // The NIF changes the Client block: the service's duplicate check (ExternalId + client) would not stop a second close.
    for (const id of ids) await addBuyerNif(h, id, '123456789');

    for (const id of ids) await eventually(`order ${id} written back`, async () => (await ledgerOf(h, id)).invoice?.state === 'written-back', 40_000);
    for (const id of ids) {
      const numbered = await numberedOf(h, id);
      expect(numbered).toHaveLength(1);
      expect(numbered[0].id).toBe(created.get(id));
      expect(h.woo.meta(id, META.documentNumber)).toBe(numbered[0].number);
    }
    expect(await attentionOrders(h)).toEqual([]);
    // Every order's ledger was rebuilt from its marker (a rebuild may be counted twice when two runs of an order meet it; it is idempotent).
    const restored = /magnifinance_ledgers_restored_total\{tenant="shop1"\} (\d+)/.exec((await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_ledgers_restored_total')) ?? '');
    expect(Number(restored?.[1])).toBeGreaterThanOrEqual(ids.length);
  }, 120_000);
});

describe('the ledger is gone and our document meta was removed from the order (the issuing marker stays)', () => {
  it('the buyer NIF added afterwards: the same document is found again and written back, never a second one', async () => {
    const h = await startHarness();
    try {
      const order = portugueseOrder();
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBe(202);
      const first = await eventually('written back', async () => {
        const invoice = (await ledgerOf(h, id)).invoice;
        return invoice?.state === 'written-back' ? invoice : undefined;
      }, 30_000);
      await h.woo.settle();
      // An expired ledger, and someone removed the number from the order.
      const ref = { tenant: 'shop1', orderId: id, purpose: 'invoice' };
      const redis = new IORedis(REDIS_URL);
      await redis.del(h.connector?.ledger.key(ref) ?? '');
      await redis.quit();
      const kept = ((h.woo.order(id) as JsonObject).meta_data as unknown as { key: string }[]).filter((m) => m.key === issuingKeyForPurpose('invoice'));
      h.woo.editOrder(id, { meta_data: kept as unknown as JsonValue });
      await addBuyerNif(h, id, '123456789');

      await eventually('written back again', () => h.woo.meta(id, META.documentNumber), 30_000);
      const numbered = await numberedOf(h, id);
      expect(numbered).toHaveLength(1);
      expect(numbered[0].id).toBe(first.documentId);
      expect(h.woo.meta(id, META.documentNumber)).toBe(first.documentNumber);
      // The invoice went to 232013969; the removal took the order's NIF with it and the order now
      // names 123456789: what a person is told is that change (issue 30.5: the invoice stays, a
      // credit note and a new invoice are the owner's choice), and nothing else.
      const told = await eventually('the NIF added after the invoice told', async () => {
        const invoice = (await ledgerOf(h, id)).invoice;
        return parseProblem(invoice?.problem)?.code === 'buyer-changed' ? invoice : undefined;
      }, 30_000);
      expect(told.state).toBe('written-back');
      expect(parseProblem(told.problem)).toMatchObject({ code: 'buyer-changed', number: first.documentNumber, invoiceNif: '232013969', orderNif: '123456789' });
      expect(await attentionOrders(h)).toEqual([id]);
      expect(await numberedOf(h, id)).toHaveLength(1);
    } finally {
      await h.close();
    }
  }, 60_000);
});

describe('an unclosed draft of a lost ledger holds the draft ExternalId', () => {
  it('the new draft steps over it (DocumentIsADuplicate on a draft has no legal weight): one numbered document, no person', async () => {
    const h = await startHarness();
    try {
      const order = portugueseOrder();
      const id = Number(order.id);
      h.woo.putOrder(order);
      // What a wipe between the draft's answer and the marker leaves: draft wc-<id>.d1 on the service, nothing anywhere else.
      const runtime = buildTenantRuntime(h.config.tenants[0]);
      const built = invoiceRequest(woocommerce.saleOf(order, runtime.mapping), runtime.mapping, { issueDate: shopToday(Date.now(), runtime.mapping.shopTimeZone) });
      if (built.kind !== 'document') throw new Error('an invoice is a document');
      const orphan = await runtime.invoicing.saveDraft({ ...built.request, Document: { ...built.request.Document, ExternalId: `wc-${id}.d1` } });

      expect((await h.deliver(order)).status).toBe(202);
      const entry = await eventually('written back', async () => {
        const invoice = (await ledgerOf(h, id)).invoice;
        return invoice?.state === 'written-back' ? invoice : undefined;
      }, 30_000);
      expect(entry.draftAttempt).toBe(2);
      const numbered = await numberedOf(h, id);
      expect(numbered).toHaveLength(1);
      expect(numbered[0].id).not.toBe(orphan.documentId);
      expect((await h.documents()).find((d) => d.id === orphan.documentId)?.status).toBe('draft');
      expect(await attentionOrders(h)).toEqual([]);
    } finally {
      await h.close();
    }
  }, 60_000);
});

describe('the attention list after a bad day: every entry reachable (admin API pages, console pages per shop)', () => {
  it('650 entries of another shop newer than 150 of shop1: the API pages past 100 with X-Total-Count and Link; the console shows shop1 in pages of 100', async () => {
    const h = await startHarness();
    try {
      const ledger = h.connector?.ledger;
      if (!ledger) throw new Error('no connector');
      const base = Date.now() - 1_000_000;
      for (let i = 0; i < 150; i++) {
        const ref = { tenant: 'shop1', orderId: 10_000 + i, purpose: 'invoice' };
        await ledger.record(ref, { state: 'held', detail: 'test hold', action: 'look' });
        await ledger.markAttention(ref, base + i);
      }
      for (let i = 0; i < 650; i++) await ledger.markAttention({ tenant: 'other', orderId: 20_000 + i, purpose: 'invoice' }, base + 10_000 + i);

      const first = await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN });
      expect(first.headers.get('x-total-count')).toBe('800');
      expect((await first.json()) as unknown[]).toHaveLength(100);
      expect(first.headers.get('link')).toBe('</admin/api/attention?offset=100&limit=100>; rel="next"');
      const shopPages: number[] = [];
      for (let offset = 0; ; offset += 60) {
        const page = await fetch(`${h.connector?.origin}/admin/api/attention?tenant=shop1&limit=60&offset=${offset}`, { headers: ADMIN });
        expect(page.headers.get('x-total-count')).toBe('150');
        shopPages.push(...((await page.json()) as { orderId: number }[]).map((item) => item.orderId));
        if (!page.headers.get('link')) break;
      }
      expect(new Set(shopPages).size).toBe(150);
      expect((await fetch(`${h.connector?.origin}/admin/api/attention?limit=1e2`, { headers: ADMIN })).status).toBe(400);

      const console1 = await (await fetch(`${h.connector?.origin}/console/shop1?lang=en`, { headers: ADMIN })).text();
      expect(console1).toContain('Need your attention (150)');
      expect(console1.match(/class="item"/g)).toHaveLength(100);
      expect(console1).toContain('href="/console/shop1?waitingFrom=100#waiting"');
      const console2 = await (await fetch(`${h.connector?.origin}/console/shop1?lang=en&waitingFrom=100`, { headers: ADMIN })).text();
      expect(console2.match(/class="item"/g)).toHaveLength(50);
      // The oldest shop1 entry, far behind 650 newer entries of the other shop, is on the second page.
      expect(console2).toContain('data-order="10000"');
    } finally {
      await h.close();
    }
  }, 60_000);
});

describe('a waybill whose ledger is lost after its create, then the buyer NIF changes', () => {
  it('no second waybill: the marker rebuilds the ledger at "creating", and the retry is caught (duplicate) or not sent (buyer changed); a person attaches it (waybills have no draft to close by id)', async () => {
    const h = await startHarness({
      settings: { waybill: true, mapping: { waybill: { loadAddress: { addressDetail: 'Armazém 3, Zona Industrial', city: 'Maia', postalCode: '4470-000', countryCode: 'PT' } } } },
    });
    try {
      const order = portugueseOrder();
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBe(202);
      await eventually('waybill written back', async () => (await ledgerOf(h, id)).waybill?.state === 'written-back', 30_000);
      await h.woo.settle();
      expect(issuingMarker(wooMeta(h.woo.order(id)?.meta_data), 'waybill')).toMatchObject({ externalId: expect.any(String), clientKey: expect.any(String) });
      const redis = new IORedis(REDIS_URL);
      await redis.del(h.connector?.ledger.key({ tenant: 'shop1', orderId: id, purpose: 'waybill' }) ?? '');
      await redis.quit();
      const kept = ((h.woo.order(id) as JsonObject).meta_data as unknown as { key: string }[]).filter((m) => m.key !== META.waybill);
      h.woo.editOrder(id, { meta_data: kept as unknown as JsonValue });
      await addBuyerNif(h, id, '123456789');
      const entry = await eventually('the waybill waits for a person', async () => {
        const waybill = (await ledgerOf(h, id)).waybill;
        return waybill?.state === 'duplicate-unknown-id' ? waybill : undefined;
      }, 30_000);
      // Whether the waybill's Client block changed or not, nothing is created blind: a person attaches the one waybill.
      expect(entry.problem).toContain('"code":"unknown-id"');
      expect((await numberedOf(h, id)).filter((d) => d.kind === 'waybill' || d.document.Type === 'W')).toHaveLength(1);
    } finally {
      await h.close();
    }
  }, 60_000);
});

describe('a worker from before the wipe writes a stray field: the ledger exists again, but without its state', () => {
  it('the order\'s marker wins over the partial ledger: the same draft is closed by id, no second document with the new NIF, no person', async () => {
    const h = await startHarness({ pipeline: { finalizeDelayMs: 1_500, minFinalizeDelayMs: 1_500 } });
    try {
      const order = portugueseOrder();
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBe(202);
      const created = await eventually('closed', async () => {
        const invoice = (await ledgerOf(h, id)).invoice;
        return invoice?.state === 'created' ? invoice : undefined;
      }, 30_000);
      // What the fault run met: FLUSHDB, then the worker that was closing records `closingAt` again.
      const redis = new IORedis(REDIS_URL);
      const key = h.connector?.ledger.key({ tenant: 'shop1', orderId: id, purpose: 'invoice' }) ?? '';
      await redis.del(key, `${key}:lock`);
      await redis.hset(key, 'purpose', 'invoice', 'updatedAt', String(Date.now()), 'closingAt', String(Date.now()));
      await redis.quit();
      await addBuyerNif(h, id, '123456789');
      await eventually('written back', async () => (await ledgerOf(h, id)).invoice?.state === 'written-back', 30_000);
      const numbered = await numberedOf(h, id);
      expect(numbered).toHaveLength(1);
      expect(numbered[0].id).toBe(created.documentId);
      expect(await attentionOrders(h)).toEqual([]);
    } finally {
      await h.close();
    }
  }, 60_000);
});
