import { commonDocumentRequest } from '../../law/request-fast-path';
import { documentForSale } from '../../law/order-to-document';
import { CreateDocumentRequestSchema } from '../../client/schemas/document';
import { orderFixture, orderFixtureNames } from './support/fixtures';
import { wooSale } from './support/sale';
import { buildOrder } from './support/woo-cart';
import { PORTUGUESE_CARTS } from './support/portuguese-carts';
import { fieldPaths, withField } from '../support/field-paths';

/**
 * The law's hand reading of the document request (law/request-fast-path.ts) gives zod's answer:
 * the same object (same keys, in the same order, undefined where zod leaves blank text out) for
 * every request the fixtures make, and no answer (zod decides and words the refusal) wherever zod
 * refuses, field by field.
 */

/** A request with every optional field of the schema filled. */
const FULL = {
  IsToClose: true,
  SendTo: 'ana@example.pt; rui@example.pt',
  Client: {
    Name: 'Ana Lima',
    NIF: '509442013',
    CountryCode: 'PT',
    Address: 'Rua da Boavista 123',
    City: 'Porto',
    PostCode: '4050-001',
    CountryName: 'Portugal',
    PhoneNumber: '+351 912 345 678',
    LegalName: 'Lima Lda',
    Email: 'ana@example.pt',
    IBAN: 'PT50000201231234567890154',
  },
  Document: {
    Type: 'C',
    Serie: 'NC',
    Id: 77,
    Date: '2026-05-01',
    DueDate: '2026-05-31',
    Description: 'Encomenda #1042 de 2026-04-30',
    DocumentReference: 'FT 2026/12',
    TaxExemptionReasonCode: 'M07',
    Currency: 'USD',
    EuroRate: '1.0842',
    Retention: 0,
    ExternalId: 'wc-1042',
    PurchaseOrder: 'PO-9',
    Lines: [
      { Code: 'CAN-01', Description: 'Caneca de grés', UnitPrice: '8.1301', Quantity: '2', Unit: 'UN', Type: 'P', TaxValue: '23', ProductDiscount: '0', CostCenter: 'loja' },
      { Code: 'LIV-02', Description: 'Livro', UnitPrice: 12.5, Quantity: 1, Unit: 'UN', Type: 'P', TaxValue: 0, ProductDiscount: 10 },
    ],
  },
};


const ODD_VALUES: [string, unknown][] = [
  ['undefined', undefined],
  ['null', null],
  ['zero', 0],
  ['a number', 42],
  ['a fraction', 1.5],
  ['a negative number', -1],
  ['above 100', 101],
  ['a tiny number', 5e-324],
  ['a huge number', 1e21],
  ['beyond safe integers', 2 ** 53],
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['true', true],
  ['false', false],
  ['the text "True"', 'True'],
  ['empty text', ''],
  ['blank text', '   '],
  ['a word', 'x'],
  ['two letters', 'ab'],
  ['a decimal text', '12.30'],
  ['a decimal comma', '12,30'],
  ['zero as text', '0'],
  ['a negative text', '-0.01'],
  ['negative zero as text', '-0.00'],
  ['just below 100', '99.999'],
  ['100 as text', '100.000'],
  ['just above 100', '100.01'],
  ['leading zeros', '007.5'],
  ['a long text', 'a'.repeat(76)],
  ['a very long text', 'a'.repeat(501)],
  ['a date', '2026-06-01'],
  ['the service echo of a date', '2026-06-01T00:00:00'],
  ['a date that is not one', '2026-02-30'],
  ['a retired exemption code', 'M08'],
  ['an exemption code', 'M99'],
  ['a country', 'ES'],
  ['a currency', 'EUR'],
  ['an e-mail address', 'rui@example.pt'],
  ['a list', []],
  ['an object', {}],
];

/**
 * zod's answer and the hand's, compared: both refuse, or both give the same object written the same
 * way. The hand gives up (zod answers) only on numbers zod reads through an exponent (`gives up`).
 */
function expectSameAnswer(input: unknown, givesUp = false): void {
  const zod = CreateDocumentRequestSchema.safeParse(input);
  const hand = commonDocumentRequest(input);
  expect({ accepted: hand !== undefined }).toEqual({ accepted: zod.success && !givesUp });
  if (zod.success && hand) {
    expect(hand).toStrictEqual(zod.data);
    expect(JSON.stringify(hand)).toBe(JSON.stringify(zod.data));
    expect(fieldPaths(hand).map((p) => p.join('.'))).toEqual(fieldPaths(zod.data).map((p) => p.join('.')));
  }
}

describe('the requests the fixtures make: zod\'s answer', () => {
  const requests: [string, unknown][] = [];
  const add = (name: string, make: () => unknown): void => {
    try {
      requests.push([name, make()]);
    } catch {
      // An order the law refuses makes no request.
    }
  };
  for (const name of orderFixtureNames()) add(`order fixture ${name}`, () => documentForSale(wooSale(orderFixture(name))).request);
  for (const [name, cart] of Object.entries(PORTUGUESE_CARTS)) add(`cart ${name}`, () => documentForSale(wooSale(buildOrder(cart))).request);
  it('covers the fixtures', () => {
    expect(requests.length).toBeGreaterThan(20);
  });
  it.each(requests)('%s', (_name, request) => {
    expect(commonDocumentRequest(request)).toBeDefined();
    expectSameAnswer(request);
  });
});

describe('each field of a full request broken in turn: zod\'s answer', () => {
  const variants: [string, unknown][] = fieldPaths(FULL).flatMap((path) => [
    [`${path.join('.')} removed`, withField(FULL, path, undefined, true)] as [string, unknown],
    ...ODD_VALUES.map(([what, value]): [string, unknown] => [`${path.join('.')} as ${what}`, withField(FULL, path, value, false)]),
  ]);
  it('covers the schema: the full request accepted, hundreds of variants refused', () => {
    expect(commonDocumentRequest(FULL)).toBeDefined();
    expect(variants.filter(([, input]) => !CreateDocumentRequestSchema.safeParse(input).success).length).toBeGreaterThan(500);
  });
  it.each(variants)('%s', (name, input) => {
    expectSameAnswer(input, /as a (tiny|huge) number$/.test(name));
  });
  it.each([
    ['an invoice without a reference', withField(withField(FULL, ['Document', 'Type'], 'T', false), ['Document', 'DocumentReference'], undefined, true)],
    ['a due date before the date', withField(FULL, ['Document', 'DueDate'], '2026-04-01', false)],
    ['a 0% line without an exemption code', withField(FULL, ['Document', 'TaxExemptionReasonCode'], '', false)],
    ['a foreign postcode on a Portuguese client', withField(FULL, ['Client', 'PostCode'], 'SW1A 1AA', false)],
    ['an unknown key beside the fields', withField(FULL, ['Document', 'Extra'], 'kept out', false)],
    ['not an object', 'request'],
  ])('%s', (_name, input) => {
    expectSameAnswer(input);
  });
});
