import { MagniFinanceClient } from '../../client/rest-client';
import { Ledger } from '../../connector/core/ledger';
import { boxDifferences, boxesOf } from '../../connector/month/vat-boxes';
import { tenantMonthPack } from '../../connector/month/month-service';
import { readSaft } from '../../connector/month/saft-reader';
import { buildTenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { localDateTime } from '../../law/shop-date';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { runCli, writeConfigFile } from '../connector/support/worker-process';
import { buildRefund, eventually, portugueseOrder, REDIS_URL, startHarness, type Harness } from '../connector/support/harness';
import { TEST_ACCOUNT } from '../support/sandbox';
import { wooRefundJson } from '../support/payloads';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' };
/** Orders the shop sells in the month (the end-to-end asks for 500; MONTH_ORDERS=500 runs that). */
const ORDERS = Number(process.env.MONTH_ORDERS ?? 60);

/**
 * The accountant's month end to end: a month of orders on the fake shop, invoiced by the connector
 * on the sandbox over HTTP, with real Redis; the sandbox exports the month's SAF-T as its user would;
 * the pack finds exactly the differences made on purpose, and its VAT boxes equal the SAF-T's to
 * the cent once the documents it names are set aside.
 */
describe("the accountant's month reconciles the shop, our documents and the sandbox's SAF-T", () => {
  let h: Harness;
  let month: string;
  const invoiced: number[] = [];
  let neverInvoiced = 0;
  let refundedWithoutNote = { order: 0, refund: 0 };
  let byHand = '';
  let cancelled = '';

  beforeAll(async () => {
    h = await startHarness();
    for (let i = 0; i < ORDERS; i += 1) {
      const order = h.woo.putOrder(portugueseOrder(i % 3 === 0 ? { status: 'completed' } : {}));
      invoiced.push(Number(order.id));
    }
    const sweep = await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ tenant: 'shop1' }) });
    expect(sweep.status).toBe(200);
    const ledger = h.connector?.ledger as Ledger;
    for (const id of invoiced) await eventually(`order ${id} invoiced`, async () => (await ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.state === 'written-back', 120_000);
    // A refund the connector hears of (its credit note follows), and one whose webhook the shop never sent.
    const refunded = invoiced[1];
    h.woo.addRefund(refunded, wooRefundJson(buildRefund(h.woo.order(refunded), { id: 9101, dateGmt: new Date().toISOString().slice(0, 19), items: [{ index: 0, quantity: 1 }] })));
    await eventually('the credit note', async () => (await ledger.get({ tenant: 'shop1', orderId: refunded, purpose: 'credit-note-9101' }))?.state === 'written-back', 60_000);
    for (const hook of h.hooks) hook.status = 'disabled';
    refundedWithoutNote = { order: invoiced[2], refund: 9102 };
    h.woo.addRefund(invoiced[2], wooRefundJson(buildRefund(h.woo.order(invoiced[2]), { id: 9102, dateGmt: new Date().toISOString().slice(0, 19), items: [{ index: 1, quantity: 1 }] })));
    // An order sold and never delivered to the connector (no webhook, no sweep since).
    neverInvoiced = Number(h.woo.putOrder(portugueseOrder()).id);
    // A document issued outside the connector, directly on the service, and one of ours cancelled there.
    const client = new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: h.sandbox.baseUrl, retry: false });
    const today = localDateTime(new Date(), 'Europe/Lisbon').date;
    month = today.slice(0, 7);
    const created = await client.createDocument({
      IsToClose: true,
      Client: { NIF: '999999990', Name: 'Cliente ao balcão', CountryCode: 'PT' },
      Document: { Type: 'T', Date: today, DueDate: `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`, Lines: [{ Code: 'BAL-1', Description: 'Venda ao balcão', UnitPrice: 40, Quantity: 1, Unit: 'UN', Type: 'P', TaxValue: 23, ProductDiscount: 0 }] },
    });
    h.sandbox.store.clock.advance(60_000);
    byHand = (await client.getDocument(created.documentId)).documentNumber ?? '';
    const victim = await ledger.get({ tenant: 'shop1', orderId: invoiced[3], purpose: 'invoice' });
    await client.cancelDocument(victim?.documentId as number);
    cancelled = victim?.documentNumber ?? '';
  }, 300_000);
  afterAll(async () => h.close());

  it('finds exactly the differences made on purpose, each with its reason and action, and the VAT boxes agree to the cent', async () => {
    const saftResponse = await fetch(`${h.sandbox.origin}/_sandbox/saft?accountTaxId=${TEST_ACCOUNT.taxId}&month=${month}`);
    expect(saftResponse.status).toBe(200);
    const saft = Buffer.from(await saftResponse.arrayBuffer());
    const redis = new IORedis(REDIS_URL);
    // The pipeline kept each numbered document's tax facts when it finalized it: the pack asks the service for none.
    expect(await redis.hlen(`${h.prefix}:month:documents:shop1`)).toBe(invoiced.length + 1);
    const pack = await tenantMonthPack(buildTenantRuntime(h.config.tenants[0]), { redis, prefix: h.prefix, ledger: new Ledger(redis, h.prefix) }, month, saft).finally(() => redis.quit());

    if (process.env.MONTH_TIMING) {
      // A figure for the notes (not asserted): the same pack again, the documents' lines now cached.
      const again = new IORedis(REDIS_URL);
      const warm = await tenantMonthPack(buildTenantRuntime(h.config.tenants[0]), { redis: again, prefix: h.prefix, ledger: new Ledger(again, h.prefix) }, month, saft).finally(() => again.quit());
      process.stderr.write(`month pack of ${ORDERS} orders: ${pack.computeMs} ms with Get Document for each document, ${warm.computeMs} ms cached; SAF-T ${saft.length} bytes\n`);
    }
    const codes = pack.findings.map((f) => f.code).filter((c) => c !== 'vat-difference').sort();
    expect(codes).toEqual(['cancelled-document', 'document-without-order', 'order-not-received', 'refund-without-credit-note']);
    expect(pack.findings).toEqual(
      expect.arrayContaining([
        { code: 'document-without-order', params: { number: byHand, day: expect.stringMatching(new RegExp(`^${month}-`)), gross: '49.20' } },
        { code: 'order-not-received', params: { order: neverInvoiced, status: 'processing', soldOn: expect.stringMatching(new RegExp(`^${month}-`)) } },
        { code: 'refund-without-credit-note', params: expect.objectContaining({ order: refundedWithoutNote.order, refund: refundedWithoutNote.refund, currency: 'EUR', day: expect.stringMatching(new RegExp(`^${month}-`)) }) },
        { code: 'cancelled-document', params: expect.objectContaining({ number: cancelled, order: invoiced[3] }) },
      ]),
    );
    // Every VAT difference is explained by the document issued by hand (the cancelled one counts on neither side).
    const differences = pack.findings.filter((f) => f.code === 'vat-difference');
    expect(differences.length).toBeGreaterThan(0);
    for (const d of differences) expect(d.params).toMatchObject({ documents: byHand });
    // Without them, our boxes and the SAF-T's are equal to the cent.
    const file = readSaft(saft);
    const named = new Set([byHand, cancelled]);
    const saftRest = boxesOf(file.documents.filter((d) => !named.has(d.number)));
    const oursRest = boxesOf(pack.documents.filter((d) => !named.has(d.number)));
    expect(boxDifferences(oursRest, saftRest)).toEqual([]);
    // The CLI says the same from the tenants file, with exit code 3 (something needs attention).
    const saftFile = join(tmpdir(), `month-saft-${process.pid}.xml`);
    writeFileSync(saftFile, saft);
    const cli = await runCli(['month', '--config', writeConfigFile(h.rawConfig, 'month'), '--tenant', 'shop1', '--month', month, '--saft', saftFile, '--lang', 'pt']);
    expect({ status: cli.status, stderr: cli.stderr }).toEqual({ status: 3, stderr: '' });
    expect(cli.stdout).toContain(`O documento ${byHand} de `);
    expect(cli.stdout).toContain(`A encomenda #${neverInvoiced} (processing`);
    expect(cli.stdout).toContain(`O reembolso #${refundedWithoutNote.refund} da encomenda #${refundedWithoutNote.order}`);
    // And the SAF-T holds every document the connector issued this month, plus the one by hand.
    expect(file.documents).toHaveLength(pack.documents.length + 1);
    expect(pack.orders.ofMonth).toBe(ORDERS + 1);
  }, 120_000);
});
