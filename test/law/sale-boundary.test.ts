import { documentForSale } from '../../law/order-to-document';
import { creditNoteForRefund } from '../../law/refund-to-credit-note';
import { waybillForSale } from '../../law/order-to-waybill';
import { OrderMappingError } from '../../law/mapping-errors';
import { mappingText } from '../../law/mapping-messages';
import { SaleSchema } from '../../law/sale-schema';
import { platformOf } from '../../platforms/registry';
import { parseMappingSettings } from '../../law/mapping-settings';
import type { Sale } from '../../law/sale';
import { wooOrder } from '../support/payloads';
import { buildOrder } from './support/woo-cart';
import { address, refund } from './support/neutral-sale';

/**
 * The neutral sale is admitted at every door of the law (law/sale-schema.ts): the library's entry
 * points, the connector's registry (every platform adapter's output, checked in one place) and, through
 * the library, the n8n node. A sale that breaks sale.ts's contract is refused with the fields named
 * (`sale-invalid`, `refund-invalid`), in both languages, and nothing is issued.
 */


function sale(over: Partial<Sale> = {}): Sale {
  return {
    platform: 'shopify',
    id: '5500001123456789012',
    number: '1042',
    status: 'paid',
    payment: { state: 'paid', method: 'shopify_payments', title: 'Cartão', onDelivery: false },
    currency: 'EUR',
    pricesIncludeTax: true,
    created: '2026-11-19T09:58:00Z',
    paid: '2026-11-19T10:00:00Z',
    total: '24.00',
    billing: address(),
    lines: [
      { id: '13001', kind: 'product', name: 'Caneca de grés', sku: 'CAN-01', productId: '7700', quantity: 2, subtotal: '19.51', total: '19.51', taxes: [{ rateId: 'PT-23', amount: '4.49' }], taxClass: '', nature: 'goods', attributes: [] },
    ],
    discounts: [],
    taxRates: [{ id: 'PT-23', label: 'IVA', percent: 23, code: '', compound: false, tax: '4.49' }],
    customerNote: '',
    taxNumbers: [],
    attributes: [],
    ...over,
  };
}


const line = sale().lines[0];
const BAD_SALES: { case: string; sale: Sale; field: string }[] = [
  { case: 'an amount that is no decimal text', sale: sale({ total: '24,00 €' }), field: 'total' },
  { case: 'a line amount that is no number at all', sale: sale({ lines: [{ ...line, total: 'NaN' }] }), field: 'lines.0.total' },
  { case: 'a negative quantity', sale: sale({ lines: [{ ...line, quantity: -2 }] }), field: 'lines.0.quantity' },
  { case: 'a quantity that is not finite', sale: sale({ lines: [{ ...line, quantity: Number.POSITIVE_INFINITY }] }), field: 'lines.0.quantity' },
  { case: 'a currency that is no ISO 4217 code', sale: sale({ currency: 'EURO' }), field: 'currency' },
  { case: 'a payment time that is no date', sale: sale({ paid: 'yesterday' }), field: 'paid' },
  { case: 'a payment day that does not exist', sale: sale({ paid: '2026-02-30T10:00:00Z' }), field: 'paid' },
  { case: 'an id that cannot make an ExternalId', sale: sale({ id: 'gid://shopify/Order/5500001123456789012' }), field: 'id' },
  { case: 'a country that is no ISO code', sale: sale({ billing: address({ country: 'Portugal' }) }), field: 'billing.country' },
  { case: 'a rate above 100 %', sale: sale({ taxRates: [{ ...sale().taxRates[0], percent: 123 }] }), field: 'taxRates.0.percent' },
  { case: 'a tax on a rate the sale does not list', sale: sale({ lines: [{ ...line, taxes: [{ rateId: 'PT-99', amount: '4.49' }] }] }), field: 'lines.0.taxes.0.rateId' },
  { case: 'a payment state the law does not know', sale: { ...sale(), payment: { ...sale().payment, state: 'authorized' } } as unknown as Sale, field: 'payment.state' },
];

describe('the neutral sale is admitted at the law\'s doors (law/sale-schema.ts)', () => {
  it('a sale that keeps the contract passes, and is issued', () => {
    expect(SaleSchema.safeParse(sale()).success).toBe(true);
    expect(documentForSale(sale(), {}, { issueDate: '2026-11-20' }).hold).toBe(false);
  });

  it.each(BAD_SALES)('$case: refused (sale-invalid, naming $field) by the invoice, the credit note and the waybill alike; nothing issued', ({ sale: bad, field }) => {
    const loadAddress = { addressDetail: 'Armazém 1', city: 'Maia', postalCode: '4470-001', countryCode: 'PT' };
    for (const door of [
      () => documentForSale(bad, {}, { issueDate: '2026-11-20' }),
      () => creditNoteForRefund(bad, refund(), 'FR 2026/10', {}, { issueDate: '2026-11-20' }),
      () => waybillForSale(bad, { waybill: { loadAddress } }, new Date('2026-11-20T10:00:00Z')),
    ]) {
      let thrown: unknown;
      try {
        door();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(OrderMappingError);
      const error = thrown as OrderMappingError;
      expect(error.code).toBe('sale-invalid');
      expect(error.params).toMatchObject({ fields: expect.stringContaining(field) });
      expect(error.message).toContain('is not a sale the invoicing law can read');
      expect(error.text('pt')).toContain('não é uma venda que as regras de faturação consigam ler');
      expect(error.text('pt')).toContain(`"${field}"`);
    }
  });

  it.each([
    { case: 'an amount that is no decimal text', refund: refund({ amount: 'doze euros' }), field: 'amount' },
    { case: 'a refund line of a negative quantity', refund: refund({ lines: [{ ...refund().lines[0], quantity: -1 }] }), field: 'lines.0.quantity' },
    { case: 'a refund time that is no date', refund: refund({ created: '20/11/2026' }), field: 'created' },
  ])('a refund with $case: refused (refund-invalid, naming $field), no credit note', ({ refund: bad, field }) => {
    expect(() => creditNoteForRefund(sale(), bad, 'FR 2026/10', {}, { issueDate: '2026-11-20' })).toThrow(expect.objectContaining({ code: 'refund-invalid', params: expect.objectContaining({ fields: expect.stringContaining(field) }) }));
    // An earlier refund is admitted too: it counts against the invoice (CIVA art. 78(2)).
    expect(() => creditNoteForRefund(sale(), refund(), 'FR 2026/10', {}, { issueDate: '2026-11-20' }, [{ ...bad, id: 'early' }])).toThrow(expect.objectContaining({ code: 'refund-invalid' }));
  });

  it('the connector\'s registry admits every adapter\'s sale in one place: a WooCommerce order whose line has a negative quantity is refused there, before the connector reads it', () => {
    const order = buildOrder({ id: 8801, items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate: '23' }], billing: { first_name: 'Maria', last_name: 'Silva', address_1: 'Rua Augusta 100', city: 'Lisboa', postcode: '1100-053', country: 'PT', email: 'maria@example.pt' }, dateCreatedGmt: '2026-11-19T10:00:00', datePaidGmt: '2026-11-19T10:00:00' });
    const raw = wooOrder(order);
    const settings = parseMappingSettings({});
    const woo = platformOf({ platform: 'woocommerce' });
    expect(woo.saleOf(raw, settings).id).toBe('8801');
    const broken = { ...raw, line_items: raw.line_items.map((item) => ({ ...item, quantity: -1 })) };
    expect(() => woo.saleOf(broken, settings)).toThrow(expect.objectContaining({ code: 'sale-invalid', params: expect.objectContaining({ platform: 'woocommerce', fields: 'lines.0.quantity' }) }));
    expect(mappingText('en', { code: 'sale-invalid', params: { platform: 'woocommerce', fields: 'lines.0.quantity', problems: 'lines.0.quantity must not be negative' } })).toBe(
      "The order, as read from woocommerce, is not a sale the invoicing law can read (lines.0.quantity must not be negative): nothing was issued. Correct these fields of the order in the shop; if they look right there, the platform's reading of the order is wrong: report it with the order.",
    );
  });
});

describe('CIVA art. 29(7), 78(2): a credit note names the buyer its invoice carried', () => {
  const spanish = address({ firstName: 'Lucía', lastName: 'García', line1: 'Calle Mayor 5', city: 'Madrid', postcode: '28013', country: 'ES' });
  it.each([
    {
      case: 'an invoice to the final consumer (VIES said the EU VAT number was invalid): credited to the final consumer, taxed as invoiced',
      sale: sale({ billing: spanish, taxNumbers: [{ value: 'ESB12345678', source: '_billing_nif', businessField: false }] }),
      invoiceBuyer: { nif: '999999990', countryCode: 'ES' },
      client: { NIF: '999999990', CountryCode: 'ES' },
      note: true,
    },
    {
      case: 'an invoice to the final consumer, a company NIF added to the order since: the credit note keeps the final consumer',
      sale: sale({ billing: address({ company: 'Costa & Filhos, Lda.' }), taxNumbers: [{ value: '509442013', source: '_billing_nif', businessField: false }] }),
      invoiceBuyer: { nif: '999999990' },
      client: { NIF: '999999990', CountryCode: 'PT' },
      note: true,
    },
    {
      case: 'an invoice to a NIF the order has since changed: the invoice\'s NIF',
      sale: sale({ taxNumbers: [{ value: '232013969', source: '_billing_nif', businessField: false }] }),
      invoiceBuyer: { nif: '509442013', countryCode: 'PT' },
      client: { NIF: '509442013', CountryCode: 'PT' },
      note: true,
    },
    {
      case: 'the same buyer as the invoice: as the order reads, nothing noted',
      sale: sale({ taxNumbers: [{ value: '509442013', source: '_billing_nif', businessField: false }] }),
      invoiceBuyer: { nif: '509442013', countryCode: 'PT' },
      client: { NIF: '509442013', CountryCode: 'PT' },
      note: false,
    },
    {
      case: 'no invoice buyer known (a library caller who does not say): the order\'s buyer, as before',
      sale: sale({ taxNumbers: [{ value: '509442013', source: '_billing_nif', businessField: false }] }),
      invoiceBuyer: undefined,
      client: { NIF: '509442013', CountryCode: 'PT' },
      note: false,
    },
  ])('$case', ({ sale: sold, invoiceBuyer, client, note }) => {
    const credit = creditNoteForRefund(sold, refund(), 'FR 2026/10', {}, { issueDate: '2026-11-20', ...(invoiceBuyer ? { invoiceBuyer } : {}) });
    expect(credit.request.Client).toMatchObject(client);
    // Taxed as the invoice was: the refunded mug at 23 %, no exemption code.
    expect(credit.request.Document.Lines.map((l) => l.TaxValue)).toEqual(['23']);
    expect(credit.request.Document.TaxExemptionReasonCode).toBeUndefined();
    expect(credit.notes.some((n) => n.code === 'credit-note-invoice-buyer')).toBe(note);
  });
});
