import { englishWords } from '../support/english-words';
import { META } from '../../connector/shop/order-meta';
import { eventually, portugueseOrder, startHarness, type Harness } from './support/harness';

/**
 * The notes on a Portuguese shop's orders are in Portuguese by default (tenant setting `language`):
 * the shop owner reads the private ones, WooCommerce e-mails the customer note to the buyer.
 */
describe('notes on the order in the shop\'s language (settings.language, default pt)', () => {
  let h: Harness;
  beforeAll(async () => {
    // The harness writes English unless told; this tenant leaves the setting at its default.
    h = await startHarness({ settings: { language: undefined, customerNote: true } });
  });
  afterAll(async () => h.close());

  it('issued: the private note and the customer note in Portuguese', async () => {
    const order = portugueseOrder();
    const id = Number(order.id);
    await h.deliver(order);
    const number = await eventually('the number on the order', () => h.woo.meta(id, META.documentNumber) as string | undefined);
    await eventually('both notes', () => h.woo.notes(id).length >= 2);
    const notes = h.woo.notes(id);
    expect(notes.find((n) => !n.customer_note)?.note).toMatch(new RegExp(`^MagniFinance: Fatura-recibo ${number} emitida \\(documento \\d+\\)\\. PDF: http://connector\\.test/documents/shop1/\\d+/pdf\\?`));
    expect(notes.find((n) => n.customer_note)?.note).toMatch(new RegExp(`^A sua fatura-recibo ${number}: http://connector\\.test/`));
  });

  it('waiting for a person: why and what to do in Portuguese, the order page and its button, no route', async () => {
    const order = portugueseOrder({ currency: 'USD' });
    const id = Number(order.id);
    await h.deliver(order);
    const note = await eventually('the attention note', () => h.woo.notes(id).find((n) => n.note.startsWith('Conector MagniFinance: a fatura desta encomenda precisa da sua atenção.'))?.note);
    expect(note).toContain('Porquê: Não é possível emitir um documento para a encomenda tal como está. A encomenda está em USD e não se conhece a EuroRate: defina euroRates.USD nas definições de mapeamento');
    expect(englishWords(note)).toEqual([]);
    expect(note).toContain(
      'O que fazer: Corrija a encomenda no WooCommerce (ou as definições de mapeamento da loja) e guarde-a: o conector tenta de novo na próxima atualização da encomenda e na próxima sincronização; para tentar já, carregue em «Tentar de novo» na página da encomenda no conector. Nada foi emitido.',
    );
    expect(note).toContain(`Página da encomenda: http://connector.test/console/shop1/orders/${id}`);
    expect(note).not.toContain('/admin/api');
    // The ledger and the admin API keep the English words.
    expect((await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.detail).toMatch(/^The order cannot be turned into a document as it stands\. /);
  });
});
