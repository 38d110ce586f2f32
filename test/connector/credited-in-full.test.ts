import { META } from '../../connector/shop/order-meta';
import { sendWooWebhook } from '../support/fake-woocommerce';
import { englishWords } from '../support/english-words';
import { problemWords, ProblemSchema } from '../../connector/pipeline/problems';
import { buildRefund, eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';
import { wooRefundJson } from '../support/payloads';

/**
 * CIVA art. 29(7), 78(2) after a credit note for the whole invoice (the console's, issue 19): the
 * refunds made before it keep their credit notes (it left them out), a refund made after it would
 * credit more than was invoiced, so nothing is issued and a person is told why.
 */
describe('a refund after the whole invoice was credited from the console: not credited again', () => {
  let h: Harness;
  const auth = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  const wholeCreditNote = async (orderId: number): Promise<void> => {
    const page = await (await fetch(`${h.connector?.origin}/console/shop1`, { headers: auth })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] as string;
    const answer = await fetch(`${h.connector?.origin}/console/shop1/orders/${orderId}/credit-note`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf }).toString(),
      redirect: 'manual',
    });
    expect(answer.status).toBe(303);
  };
  const refundAndTell = async (orderId: number, id: number, quantity: number) => {
    const refund = h.woo.addRefund(orderId, wooRefundJson(buildRefund(h.woo.order(orderId), { id, items: [{ index: 0, quantity }] })));
    await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'order.updated', payload: h.woo.order(orderId) });
    return refund;
  };

  it('the whole invoice credited from the console; a refund made after it: skipped for a person, no second credit note', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    const invoice = String(await eventually('invoiced', () => h.woo.meta(id, META.documentNumber)));
    await wholeCreditNote(id);
    const whole = (await eventually('the whole credit note', () => h.woo.meta(id, META.cancellation))) as { number: string };
    // The order still stands in the shop: the owner is told that, in those words, not "the order changed".
    const told = await eventually('the invoice flagged as credited while the order stands', async () => {
      const problem = (await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.problem;
      return problem?.includes('creditedBy') ? ProblemSchema.parse(JSON.parse(problem)) : undefined;
    });
    expect(told).toMatchObject({ code: 'order-changed', creditedBy: whole.number, covered: '0.00' });
    expect(problemWords('pt', told, { tenant: 'shop1', orderId: id, purpose: 'invoice' }).action).toContain('cancele a encomenda no WooCommerce');

    const late = await refundAndTell(id, 932, 1);
    const entry = await eventually('the refund skipped for a person', async () => {
      const found = await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: `credit-note-${late.id}` });
      return found?.state === 'skipped' && found.problem ? found : undefined;
    });
    const problem = ProblemSchema.parse(JSON.parse(entry.problem as string));
    expect(problem).toMatchObject({ code: 'credited-in-full', invoice, creditNote: whole.number, refundId: late.id });
    const pt = problemWords('pt', problem, { tenant: 'shop1', orderId: id, purpose: `credit-note-${late.id}` });
    expect(pt.reason).toContain(`já foi creditada na totalidade pela nota de crédito ${whole.number}`);
    expect(englishWords(`${pt.reason} ${pt.action}`)).toEqual([]);
    expect((await h.connector?.ledger.attention())?.some((member) => member.includes(`${id}`))).toBe(true);
    await h.woo.settle();
    expect((await h.documentsOf(id)).filter((doc) => doc.document.Type === 'C').map((doc) => doc.number)).toEqual([whole.number]);
  });

  it('a refund credited first: the whole-invoice credit note would credit more than was invoiced; the preview offers no confirmation and a forced ask is held, never issued', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('invoiced', () => h.woo.meta(id, META.documentNumber));
    const first = await refundAndTell(id, 941, 1);
    await eventually('the refund credited', async () => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: `credit-note-${first.id}` }))?.state === 'written-back');

    const preview = await (await fetch(`${h.connector?.origin}/console/shop1/orders/${id}/preview?purpose=cancellation&lang=pt`, { headers: auth })).text();
    expect(preview).toContain('id="binding-hold"');
    expect(preview).toContain('creditaria mais do que foi faturado');
    // Named as what it is (issue 31.5: it called the order number "O reembolso"), and the way to credit the rest is linked.
    expect(preview).toContain('A nota de crédito da fatura inteira creditaria');
    expect(preview).not.toContain('O reembolso');
    expect(preview).toContain('id="refund-the-rest"');
    expect(preview).toContain('Reembolsar o resto no WooCommerce');
    expect(preview).not.toContain(`action="/console/shop1/orders/${id}/credit-note"`);

    // Posted all the same (an old tab, a script): the pipeline holds it; a person's release never lifts this hold.
    await wholeCreditNote(id);
    const held = await eventually('the whole credit note held', async () => {
      const found = await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'cancellation' });
      return found?.state === 'held' ? found : undefined;
    });
    expect(held.documentId).toBeUndefined();
    expect(held.problem).toContain('credit-over');
    await h.woo.settle();
    expect((await h.documentsOf(id)).filter((doc) => doc.document.Type === 'C')).toHaveLength(1);
  });
});
