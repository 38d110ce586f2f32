import { writeRequestJson } from '../../client';
import { parseDecimal } from '../../client/money';
import { invoiceRequest, waybillRequest } from './requests';

/**
 * writeRequestJson hands a plain request to JSON.stringify and turns its decimal texts into numbers
 * after it (issue 29). These tests
 * hold every answer to the writer it had before, kept here word for word, on requests and on
 * values where JSON.stringify alone would write something else.
 */
const REFERENCE_DECIMAL_FIELDS = new Set(['UnitPrice', 'Quantity', 'TaxValue', 'ProductDiscount', 'EuroRate', 'Retention']);
const REFERENCE_DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

function referenceWrite(value: unknown, key?: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string') {
    if (key !== undefined && REFERENCE_DECIMAL_FIELDS.has(key) && REFERENCE_DECIMAL_TEXT.test(value)) return value.replace(/^(-?)0+(?=\d)/, '$1');
    return JSON.stringify(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${key ?? 'value'} is not a finite number`);
    return JSON.stringify(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : referenceWrite(item))).join(',')}]`;
  if (typeof value === 'object') {
    const parts: string[] = [];
    for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
      if (member === undefined || typeof member === 'function') continue;
      parts.push(`${JSON.stringify(name)}:${referenceWrite(member, name)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return 'null';
}

function written(write: (value: unknown, key?: string) => string, value: unknown, key?: string): string {
  try {
    return write(value, key);
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

class Amount {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}

class Lines extends Array<unknown> {
  toJSON(): string {
    return 'lines';
  }
}

const sparse: unknown[] = [1];
sparse[2] = 3;
const nullPrototype = Object.assign(Object.create(null) as object, { UnitPrice: 1 });

const REQUESTS: [string, unknown][] = [
  ['an invoice with amounts as numbers and as text', invoiceRequest()],
  ['an invoice with amounts as numbers only', { ...invoiceRequest(), Document: { ...invoiceRequest().Document, Lines: [{ Code: 'A', Description: 'Mug "blue" ☕', UnitPrice: 13.9633333333, Quantity: 3, Unit: 'UN', Type: 'P', TaxValue: 23, ProductDiscount: 0 }] } }],
  ['a waybill', waybillRequest()],
  ['a foreign-currency invoice with EuroRate and Retention as text', invoiceRequest({ Currency: 'USD', EuroRate: '0.9259259259', Retention: '11.5' })],
];

const ODD_VALUES: [string, { value: unknown; key?: string }][] = [
  ['a decimal text in a decimal field', { value: { UnitPrice: '007.50' } }],
  ['a decimal text as the top value under a decimal key', { value: '12.30', key: 'UnitPrice' }],
  ['a decimal-looking text elsewhere', { value: { Code: '12.50', Description: '-3' } }],
  ['a comma text in a decimal field (not a number)', { value: { UnitPrice: '12,5' } }],
  ['an undefined member and an undefined element', { value: { A: undefined, B: [1, undefined, 2] } }],
  ['a sparse list', { value: { Lines: sparse } }],
  ['a function member and element', { value: { f: () => 1, list: [() => 1] } }],
  ['a symbol member and element', { value: { s: Symbol('x'), list: [Symbol('y')] } }],
  ['a bigint member', { value: { units: 12n } }],
  ['NaN and Infinity', { value: { UnitPrice: NaN, Quantity: Infinity } }],
  ['an object with toJSON', { value: { UnitPrice: new Amount('1.10') } }],
  ['a Decimal of the money module', { value: { UnitPrice: parseDecimal('20.00') } }],
  ['a Date', { value: { Date: new Date(0) } }],
  ['a list with toJSON', { value: { Lines: Lines.from([1, 2]) } }],
  ['an object without a prototype', { value: { Client: nullPrototype } }],
  ['a boxed number', { value: { UnitPrice: Object(5) as unknown } }],
  ['undefined', { value: undefined }],
  ['a bare number, text, boolean, null', { value: [0, -0, 1e21, 'x\u2028', true, false, null] }],
  ['keys that need escaping and integer-like keys', { value: { 'a"b': 1, '2': 'two', '1': 'one', '\n': null } }],
  ['deep nesting', { value: { a: { b: { c: [{ d: [[{ UnitPrice: 1.5 }]] }] } } } }],
  ['decimal texts at every depth', { value: { EuroRate: '1.10', Document: { Retention: '-00.5', Lines: [{ UnitPrice: '0', Quantity: '000', TaxValue: '23.000' }] } } }],
  ['decimal texts in a list under a decimal key', { value: { UnitPrice: ['1.10', '2'], Quantity: { TaxValue: '6' } } }],
  ['a member written inside a text', { value: { Description: '"UnitPrice":"1.10"', Code: '\\"Quantity\\":\\"2\\"', UnitPrice: '3.5' } }],
  ['a key holding a quote before a decimal name', { value: { 'a"UnitPrice': '1.10', '"Quantity': '2', Quantity: '2.0' } }],
  ['a decimal name inside a longer key', { value: { XUnitPrice: '1.10', UnitPriceX: '2', Quantity_: '3' } }],
  ['a key holding a backslash', { value: { 'a\\': '1.10', UnitPrice: '1.0' } }],
  ['decimal-looking texts that are not decimal texts', { value: { UnitPrice: '+1.0', Quantity: '1.', TaxValue: '.5', ProductDiscount: '1e3', EuroRate: ' 1.0', Retention: '١' } }],
  ['a decimal text beside a non-plain value', { value: { UnitPrice: '1.10', When: new Date(0) } }],
];

describe('writeRequestJson writes what it wrote before', () => {
  it.each(REQUESTS)('%s', (_name, request) => {
    expect(writeRequestJson(request)).toBe(referenceWrite(request));
  });

  it.each(ODD_VALUES)('%s', (_name, { value, key }) => {
    expect(written(writeRequestJson, value, key)).toBe(written(referenceWrite, value, key));
  });
});
