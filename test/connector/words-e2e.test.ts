import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HistoryEvent } from '../../connector/history/order-history';
import { META } from '../../connector/shop/order-meta';
import { TEST_ACCOUNT } from '../support/sandbox';
import { englishWords } from '../support/english-words';
import IORedis from 'ioredis';
import { eventually, portugueseOrder, REDIS_URL, startHarness, type Harness } from './support/harness';

/**
 * Issue 19, end to end, for a Portuguese shop: what the shop owner reads on the order (the notes),
 * in the alert digest, and the order's story, all from codes in the shop's language: no English, the
 * order's page in the console and its button, never an admin API route.
 */
const PAGE = (id: number) => `http://connector.test/console/shop1/orders/${id}`;

/** A chat-style incoming webhook that records every digest. */
async function startReceiver(): Promise<{ url: string; received: { text: string; attention: string; orders: { orderId: number; link: string }[] }[]; close(): Promise<void> }> {
  const received: { text: string; attention: string; orders: { orderId: number; link: string }[] }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push(JSON.parse(body) as (typeof received)[number]);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** What the owner reads: no English sentence, the order's page, the button; no route. */
function expectOwnerWords(text: string, orderId: number, button: string): void {
  expect(englishWords(text)).toEqual([]);
  expect(text).toContain(PAGE(orderId));
  expect(text).toContain(button);
  expect(text).not.toContain('/admin/api');
}

describe('a Portuguese shop: an order held by the mapping, fixed and issued; its notes, the alert and its story', () => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    h = await startHarness({ settings: { language: 'pt' }, tenant: { alerts: { digestSeconds: 1, webhook: { url: receiver.url } } } });
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  it('a company with a NIF that is not valid: held, told in Portuguese with the order page and «Tentar de novo»; corrected, issued; the story in order', async () => {
    const order = portugueseOrder({ billing: { first_name: 'Rui', last_name: 'Costa', company: 'Costa & Filhos, Lda.', address_1: 'Rua do Ouro 100', city: 'Lisboa', postcode: '1100-060', country: 'PT', email: 'rui@costafilhos.pt' }, meta: [{ key: '_billing_nif', value: '509442014' }] });
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);

    const note = await eventually('the attention note', () => h.woo.notes(id).find((n) => n.note.startsWith('Conector MagniFinance: a fatura desta encomenda precisa da sua atenção.'))?.note);
    expectOwnerWords(note, id, '«Tentar de novo»');
    expect(note).toContain('Nada foi emitido: o conector reteve a encomenda.');
    expect(note).toContain('509442014');
    expect(note).toContain('Costa & Filhos, Lda.');
    expect(await h.documentsOf(id)).toHaveLength(0);

    // The alert digest: in Portuguese, each order linked to its page, the list to the shop's page.
    const digest = await eventually('the alert digest', () => receiver.received.find((m) => m.orders.some((o) => o.orderId === id)));
    expect(englishWords(digest.text.replace(/«[^»]*»/g, ' '))).toEqual([]);
    expect(digest.orders.find((o) => o.orderId === id)?.link).toBe(PAGE(id));
    expect(digest.text).toContain(`Página da encomenda: ${PAGE(id)}`);
    expect(digest.attention).toBe('http://connector.test/console/shop1');
    expect(digest.text).not.toContain('/admin/api');

    // The owner corrects the NIF in WooCommerce and saves the order: the update issues it.
    const fixed = { ...order, meta_data: [{ id: 9000, key: '_billing_nif', value: '509442013' }] };
    expect((await h.deliver(fixed, 'order.updated')).status).toBe(202);
    const number = await eventually('the number on the order', () => h.woo.meta(id, META.documentNumber) as string | undefined);
    const issued = await eventually('the issued note', () => h.woo.notes(id).find((n) => n.note.startsWith('MagniFinance: ') && n.note.includes(number))?.note);
    expect(englishWords(issued)).toEqual([]);

    // The story, oldest first: received -> problem (held) -> its note -> received -> document -> its note.
    const events = await eventually('the issued note in the story', async () => {
      const all = (await h.connector?.history.of('shop1', id)) ?? [];
      return all.some((e) => e.kind === 'note' && e.text.includes(number)) ? all : undefined;
    });
    const kinds = events.map((e) => e.kind);
    const first = (kind: HistoryEvent['kind'], from = 0) => kinds.indexOf(kind, from);
    const problem = first('problem');
    const document = first('document');
    expect(first('received')).toBe(0);
    expect(problem).toBeGreaterThan(0);
    expect(events[problem]).toMatchObject({ kind: 'problem', purpose: 'invoice', problem: expect.stringContaining('"code":"held"') });
    expect(events[problem + 1]).toMatchObject({ kind: 'note', customer: false, text: note });
    expect(first('received', problem)).toBeGreaterThan(problem);
    expect(document).toBeGreaterThan(first('received', problem));
    expect(events[document]).toMatchObject({ kind: 'document', purpose: 'invoice', number, type: 'T' });
    const issuedNote = events.findIndex((e) => e.kind === 'note' && e.text.includes(number));
    expect(issuedNote).toBeGreaterThan(document);
    // Each call to the service is told with its answer.
    expect(events.filter((e) => e.kind === 'attempt').map((e) => (e.kind === 'attempt' ? `${e.step}:${e.ok}` : ''))).toEqual(expect.arrayContaining(['draft:true', 'close:true', 'get-document:true', 'write-back:true']));
    // The document number finds the order (the console's search).
    expect(await h.connector?.history.orderOfNumber('shop1', number.toLowerCase())).toBe(id);
  }, 60_000);
});

describe("a story that cannot be written never stops a document", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { language: 'pt' } });
  });
  afterAll(async () => h.close());

  it("the order's history key holds something else (WRONGTYPE on every write): the invoice is issued and written back all the same", async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    const redis = new IORedis(REDIS_URL);
    try {
      await redis.set(`${h.prefix}:history:shop1:${id}`, 'not a list');
      await redis.set(`${h.prefix}:document-numbers:shop1`, 'not a hash');
      expect((await h.deliver(order)).status).toBe(202);
      const number = await eventually('the number on the order', () => h.woo.meta(id, META.documentNumber) as string | undefined);
      await eventually('written back', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.state === 'written-back');
      expect(await h.documentsOf(id)).toHaveLength(1);
      expect(h.woo.notes(id).some((n) => n.note.includes(number))).toBe(true);
      expect(await redis.get(`${h.prefix}:history:shop1:${id}`)).toBe('not a list');
      // Not even a retry: the job ran through and completed (removed on completion) without a failed attempt.
      const seen: string[] = [];
      await eventually('the job completed (removed on completion)', async () => {
        const job = await h.connector?.queue.getJob(`invoice.shop1.${id}`);
        if (job && (job.attemptsMade > 0 || job.failedReason)) seen.push(`${job.attemptsMade}: ${job.failedReason}`);
        return !job;
      }, 5_000);
      expect(seen).toEqual([]);
      expect((await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.lastError ?? '').toBe('');
    } finally {
      redis.disconnect();
    }
  }, 60_000);
});

describe('a Portuguese shop: a document the service refuses', () => {
  let h: Harness;
  beforeAll(async () => {
    // The account has only series A for invoice-receipts; the shop's settings name series LOJA.
    h = await startHarness({ settings: { language: 'pt', series: 'LOJA' }, sandbox: { accounts: [{ ...TEST_ACCOUNT, series: { T: ['A'] } }] } });
  });
  afterAll(async () => h.close());

  it("SerieDataNotMatch: the note words the service's answer in Portuguese, names the order page and «Tentar de novo»; the story has the refused attempt", async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    expect((await h.deliver(order)).status).toBe(202);
    const note = await eventually('the attention note', () => h.woo.notes(id).find((n) => n.note.startsWith('Conector MagniFinance: a fatura desta encomenda precisa da sua atenção.'))?.note);
    expectOwnerWords(note, id, '«Tentar de novo»');
    expect(note).toContain('A MagniFinance não aceitou o documento, por isso nada foi emitido. A MagniFinance respondeu que a série indicada não existe na conta para este tipo de documento (SerieDataNotMatch).');
    expect(note.replace(/«Tentar de novo»/g, '')).not.toContain('«');

    const events = await eventually('the problem in the story', async () => {
      const all = (await h.connector?.history.of('shop1', id)) ?? [];
      return all.some((e) => e.kind === 'problem') ? all : undefined;
    });
    const refused = events.find((e) => e.kind === 'attempt' && !e.ok);
    expect(refused).toMatchObject({ kind: 'attempt', purpose: 'invoice', ok: false, error: expect.stringContaining('SerieDataNotMatch') });
    expect(JSON.parse((refused as { answer: string }).answer)).toMatchObject({ from: 'service', issues: [{ type: 'SerieDataNotMatch', field: 'DocumentDetailSerie' }] });
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(['received', 'attempt', 'problem', 'note']));
    expect(events.findIndex((e) => e.kind === 'problem')).toBeGreaterThan(events.indexOf(refused as HistoryEvent));
  }, 60_000);
});
