import type { ChildProcess } from 'node:child_process';
import { woocommerce } from '../../platforms/woocommerce/adapter';
import { rmSync } from 'node:fs';
import type { LedgerEntry } from '../../connector/core/ledger';
import { invoiceRequest } from '../../connector/pipeline/document-requests';
import { shopToday } from '../../connector/pipeline/issue-date';
import { buildTenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { describeWithRedisServer, ownRedisServer, type OwnRedisServer } from './support/redis-servers';
import { exited, spawnWorker, writeConfigFile } from './support/worker-process';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

async function ledgerOf(h: Harness, orderId: number): Promise<Record<string, LedgerEntry>> {
  return (await h.connector?.ledger.forOrder('shop1', orderId)) ?? {};
}

async function deliverMany(h: Harness, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const order = portugueseOrder();
    ids.push(Number(order.id));
    expect((await h.deliver(order)).status).toBe(202);
  }
  return ids;
}

describe('the invoicing service is slow, fails with 5xx or never answers: still one document per order', () => {
  it.each([
    ['300 ms latency on every call', { latencyMs: 300 }],
    ['40% of calls answered 500 without doing anything', { errorRate: 0.4, seed: 11 }],
  ])('%s -> every order written back, one document each', async (_name, faults) => {
    const h = await startHarness({ sandbox: faults });
    try {
      const ids = await deliverMany(h, 5);
      for (const id of ids) await eventually(`order ${id} written back`, async () => (await ledgerOf(h, id)).invoice?.state === 'written-back', 30_000);
      for (const id of ids) {
        expect(await h.documentsOf(id)).toHaveLength(1);
        expect(h.woo.meta(id, META.documentNumber)).toEqual(expect.any(String));
      }
    } finally {
      await h.close();
    }
  });

  it('30% of calls carried out but never answered -> every order written back with one document, no person needed', async () => {
    const h = await startHarness({ sandbox: { timeoutRate: 0.3, seed: 5, timeoutHoldMs: 5_000 } });
    try {
      const ids = await deliverMany(h, 6);
      for (const id of ids) await eventually(`order ${id} written back`, async () => (await ledgerOf(h, id)).invoice?.state === 'written-back', 50_000);
      // The faults really happened: some calls timed out on the connector's side.
      expect(await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_documents_failed_total')).toContain('reason="TransportTimeoutError"');
      for (const id of ids) {
        const docs = (await h.documentsOf(id)).filter((d) => d.status !== 'draft');
        expect(docs).toHaveLength(1);
        expect(h.woo.meta(id, META.documentNumber)).toBe(docs[0].number);
      }
      const attention = (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN })).json()) as { orderId: number }[];
      expect(attention).toEqual([]);
    } finally {
      await h.close();
    }
  }, 60_000);
});

describe("a draft's answer is lost and the buyer's data changes before the retry", () => {
  it('a fresh draft is saved and closed by its id: one numbered document with the new data, the lost draft never numbered, no person needed', async () => {
    const h = await startHarness({ sandbox: { timeoutRate: 1, timeoutHoldMs: 5_000 } });
    try {
      const order = portugueseOrder();
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBe(202);
      // The draft reached the service; its answer never came back.
      await eventually('the first draft stored on the service', async () => (await h.documents()).some((d) => d.document.ExternalId === `wc-${id}.d1`));
      expect((await ledgerOf(h, id)).invoice?.state).toBe('drafting');
      // The shop owner corrects the buyer's NIF; the service answers again.
      h.woo.putOrder({ ...order, meta_data: [{ id: 9000, key: '_billing_nif', value: '123456789' }] });
      await fetch(`${h.sandbox.origin}/_sandbox/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ timeoutRate: 0 }) });
      const entry = await eventually('written back', async () => {
        const invoice = (await ledgerOf(h, id)).invoice;
        return invoice?.state === 'written-back' ? invoice : undefined;
      }, 40_000);
      const all = await h.documents();
      const lost = all.filter((d) => d.document.ExternalId === `wc-${id}.d1`);
      expect(lost).toHaveLength(1);
      expect(lost[0].status).toBe('draft');
      expect(lost[0].number).toBeUndefined();
      const numbered = await h.documentsOf(id);
      expect(numbered).toHaveLength(1);
      expect(numbered[0].id).toBe(entry.documentId);
      expect(numbered[0].status).toBe('closed');
      expect(h.woo.meta(id, META.documentNumber)).toBe(numbered[0].number);
      expect(entry.alertAt).toBeUndefined();
      const attention = (await (await fetch(`${h.connector?.origin}/admin/api/attention`, { headers: ADMIN })).json()) as { orderId: number }[];
      expect(attention.map((a) => a.orderId)).not.toContain(id);
    } finally {
      await h.close();
    }
  }, 60_000);

  it("a close whose answer was lost is repeated by id: the service's DocumentIsClosed proves it closed, one document", async () => {
    const h = await startHarness();
    try {
      const order = portugueseOrder();
      const id = Number(order.id);
      h.woo.putOrder(order);
      // What a lost close leaves: the ledger knows the draft's id, the service has closed it.
      const runtime = buildTenantRuntime(h.config.tenants[0]);
      const built = invoiceRequest(woocommerce.saleOf(order, runtime.mapping), runtime.mapping, { issueDate: shopToday(Date.now(), runtime.mapping.shopTimeZone) });
      if (built.kind !== 'document') throw new Error('an invoice is a document');
      const draft = await runtime.invoicing.saveDraft({ ...built.request, Document: { ...built.request.Document, ExternalId: `wc-${id}.d1` } });
      await runtime.invoicing.closeDraft(draft.documentId, built.request);
      await h.connector?.ledger.record({ tenant: 'shop1', orderId: id, purpose: 'invoice' }, { state: 'draft', documentId: draft.documentId, draftAttempt: 1, externalId: `wc-${id}`, documentType: 'T' });

      expect((await h.deliver(order)).status).toBe(202);
      const entry = await eventually('written back', async () => {
        const invoice = (await ledgerOf(h, id)).invoice;
        return invoice?.state === 'written-back' ? invoice : undefined;
      }, 30_000);
      const docs = await h.documentsOf(id);
      expect(docs).toHaveLength(1);
      expect(entry.documentId).toBe(draft.documentId);
      expect(h.woo.meta(id, META.documentNumber)).toBe(docs[0].number);
    } finally {
      await h.close();
    }
  }, 60_000);
});

describe('the shop fails (reading the order, writing back): retried without re-issuing', () => {
  it('503 on the first GETs of the order -> issued once the shop answers', async () => {
    const h = await startHarness();
    try {
      h.woo.failNext(3, 503, 'GET');
      const [id] = await deliverMany(h, 1);
      await eventually('written back', async () => (await ledgerOf(h, id)).invoice?.state === 'written-back');
      expect(await h.documentsOf(id)).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it('503 on the first PUTs and POSTs -> meta and one note land, one document', async () => {
    const h = await startHarness();
    try {
      h.woo.failNext(2, 503, 'PUT');
      h.woo.failNext(2, 500, 'POST');
      const [id] = await deliverMany(h, 1);
      await eventually('written back', async () => (await ledgerOf(h, id)).invoice?.state === 'written-back');
      expect(await h.documentsOf(id)).toHaveLength(1);
      expect(h.woo.notes(id)).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it("a note carried out whose answer is lost (the gateway's 504) -> the retry lists the order's notes, finds it: one note, listed only then", async () => {
    const h = await startHarness();
    try {
      h.woo.failNext(1, 504, 'POST', { path: /^\/orders\/\d+\/notes$/, carriedOut: true });
      const [id] = await deliverMany(h, 1);
      await eventually('written back', async () => (await ledgerOf(h, id)).invoice?.state === 'written-back');
      expect(await h.documentsOf(id)).toHaveLength(1);
      expect(h.woo.notes(id).map((note) => note.note)).toEqual([expect.stringContaining('MagniFinance:')]);
      // One listing before the first invoice (the earlier-document check), one by the retry that
      // did not know whether its note had landed; a run that knows posts without listing.
      const calls = h.woo.requests.filter((r) => r.path === `/orders/${id}/notes`).map((r) => `${r.method} ${r.status}`);
      expect(calls).toEqual(['GET 200', 'POST 504', 'GET 200']);
    } finally {
      await h.close();
    }
  });

  it('the shop refuses writes for longer than all attempts -> nothing closed (the issuing marker cannot land), failed list, replayed by the admin retry', async () => {
    const h = await startHarness({ pipeline: { attempts: 2, backoffMs: 50 } });
    try {
      h.woo.failNext(1_000, 503, 'PUT');
      const [id] = await deliverMany(h, 1);
      const failed = await eventually('a failed job', async () => {
        const list = (await (await fetch(`${h.connector?.origin}/admin/api/failed`, { headers: ADMIN })).json()) as { id: string; step: string }[];
        return list.find((job) => job.id === `invoice.shop1.${id}`);
      });
      expect(failed.step).toBe('issue');
      const view = (await (await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${id}`, { headers: ADMIN })).json()) as { ledger: Record<string, LedgerEntry> };
      // Only a draft exists: a document is never closed before the order knows of it.
      expect(view.ledger.invoice).toMatchObject({ state: 'draft', lastError: expect.stringContaining('503') });
      expect(view.ledger.invoice.closingAt).toBeUndefined();
      expect((await h.documents()).filter((d) => d.document.ExternalId?.startsWith(`wc-${id}`) && d.status !== 'draft')).toEqual([]);
      h.woo.clearFailures();
      const retry = await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${id}/retry`, { method: 'POST', headers: ADMIN });
      expect(await retry.json()).toEqual({ retried: [`invoice.shop1.${id}`], enqueued: [] });
      await eventually('written back after retry', async () => (await ledgerOf(h, id)).invoice?.state === 'written-back');
      expect(await h.documentsOf(id)).toHaveLength(1);
      expect(h.woo.meta(id, META.documentNumber)).toBe((await ledgerOf(h, id)).invoice?.documentNumber);
    } finally {
      await h.close();
    }
  });
});

describe('a worker process killed mid-pipeline and restarted', () => {
  let h: Harness;
  let worker: ChildProcess | undefined;
  beforeAll(async () => {
    // HTTP in this process, workers in a child; a longer finalize delay leaves room to kill after the create.
    h = await startHarness({ role: 'serve', pipeline: { finalizeDelayMs: 1_500, minFinalizeDelayMs: 1_500, jobLockMs: 1_500 } });
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await h.close();
  });

  it('SIGKILL after the create, restart: one document, and the write-back lands', async () => {
    const configPath = writeConfigFile(h.rawConfig, 'kill-test');
    worker = spawnWorker(configPath);
    const order = portugueseOrder();
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);
    const created = await eventually('the create recorded', async () => {
      const entry = (await ledgerOf(h, id)).invoice;
      return entry?.state === 'created' ? entry : undefined;
    }, 60_000);
    worker.kill('SIGKILL');
    await exited(worker);
    expect(await h.documentsOf(id)).toHaveLength(1);
    expect(h.woo.meta(id, META.documentNumber)).toBeUndefined();

    worker = spawnWorker(configPath);
    await eventually('written back by the new worker', async () => (await ledgerOf(h, id)).invoice?.state === 'written-back', 60_000);
    const docs = await h.documentsOf(id);
    expect(docs).toHaveLength(1);
    expect(docs[0].id).toBe(created.documentId);
    expect(h.woo.meta(id, META.documentNumber)).toBe(docs[0].number);
    expect(h.woo.notes(id)).toHaveLength(1);
    worker.kill('SIGTERM');
    expect(await exited(worker)).toBe(0);
    worker = undefined;
    rmSync(configPath, { force: true });
  }, 120_000);
});

/** Until a worker process is connected to the documents queue (BullMQ lists its workers). */
async function workerRunning(h: Harness): Promise<void> {
  const queue = h.connector?.queue;
  if (!queue) throw new Error('no queue to watch');
  await eventually('a worker process running', async () => (await queue.getWorkers()).length > 0, 120_000);
}

describe('a worker process killed while its create is in flight', () => {
  it('SIGKILL mid-create, restart: the order is not held for a long lock; one numbered document, written back', async () => {
    const h = await startHarness({ role: 'serve', pipeline: { finalizeDelayMs: 500, minFinalizeDelayMs: 500, jobLockMs: 1_500 } });
    let worker: ChildProcess | undefined;
    const configPath = writeConfigFile(h.rawConfig, 'kill-mid-create');
    try {
      // Every answer takes 4 s: the worker is killed while its draft create is on the wire.
      await fetch(`${h.sandbox.origin}/_sandbox/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: 4_000 }) });
      worker = spawnWorker(configPath);
      // A worker process starts in seconds, or in tens of seconds on a loaded machine: wait for it, not for a guess.
      await workerRunning(h);
      const order = portugueseOrder();
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBe(202);
      await eventually('the draft create sent', async () => (await ledgerOf(h, id)).invoice?.state === 'drafting', 30_000);
      worker.kill('SIGKILL');
      await exited(worker);
      await fetch(`${h.sandbox.origin}/_sandbox/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: 0 }) });
      worker = spawnWorker(configPath);
      await workerRunning(h);
      const restarted = Date.now();
      // The lock of the killed worker (10 s, no longer renewed) expires; before, it held the order 120 s.
      await eventually('written back by the new worker', async () => (await ledgerOf(h, id)).invoice?.state === 'written-back', 25_000);
      process.stderr.write(`kill mid-create: written back ${Date.now() - restarted} ms after the restart\n`);
      const numbered = (await h.documentsOf(id)).filter((d) => d.status === 'closed');
      expect(numbered).toHaveLength(1);
      expect(h.woo.meta(id, META.documentNumber)).toBe(numbered[0].number);
      worker.kill('SIGTERM');
      expect(await exited(worker)).toBe(0);
      worker = undefined;
    } finally {
      worker?.kill('SIGKILL');
      rmSync(configPath, { force: true });
      await h.close();
    }
  }, 90_000);
});

describeWithRedisServer('resilience.test.ts', 'the Redis restart test')('Redis restarted (append-only file on): nothing lost, nothing doubled', () => {
  let redis: OwnRedisServer;
  let port: number;
  let h: Harness;

  beforeAll(async () => {
    redis = await ownRedisServer(['--appendonly', 'yes', '--appendfsync', 'always']);
    port = redis.port;
    h = await startHarness({ redisUrl: `redis://127.0.0.1:${port}`, pipeline: { finalizeDelayMs: 1_000, minFinalizeDelayMs: 1_000 }, redis: { enqueueTimeoutMs: 1_000 } });
  });
  afterAll(async () => {
    await h.close();
    await redis.destroy();
  });

  it('an order mid-pipeline finishes after the restart; one refused while Redis is down is caught by the sweep', async () => {
    const before = portugueseOrder();
    const beforeId = Number(before.id);
    expect((await h.deliver(before)).status).toBe(202);
    await eventually('create recorded', async () => (await ledgerOf(h, beforeId)).invoice?.state === 'created');

    await redis.stop();
    const during = portugueseOrder();
    const duringId = Number(during.id);
    h.woo.putOrder(during);
    const refused = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.created', payload: h.woo.order(duringId) });
    expect(refused.status).toBe(503);

    await redis.start();
    await eventually('the mid-pipeline order written back', async () => (await ledgerOf(h, beforeId)).invoice?.state === 'written-back', 30_000);
    const sweep = await eventually('sweep accepted', async () => {
      const response = await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN });
      return response.status === 200 ? ((await response.json()) as { enqueued: string[] }[]) : undefined;
    });
    expect(sweep[0].enqueued).toContain(`invoice.shop1.${duringId}`);
    await eventually('the refused order written back', async () => (await ledgerOf(h, duringId)).invoice?.state === 'written-back', 30_000);
    expect(await h.documentsOf(beforeId)).toHaveLength(1);
    expect(await h.documentsOf(duringId)).toHaveLength(1);
  }, 90_000);
});
