import { DECIMAL_TEXT } from '../../connector/shop/money-text';
import { FAIL, Field, isFiniteNumber, isRecord, list, loose } from '../../client/schemas/hand-proof';
import type { WooOrder } from './order-schema';

/**
 * WooOrderSchema's answer proven by hand for an order whose every field the schema reads is in its
 * plain form (amounts as decimal text, dates as WooCommerce prints them, texts as text), or
 * undefined: then zod parses it, decides and words any refusal (order-schema.ts). The shop's whole
 * order is parsed once per document, and zod's walk of its ~200 fields, with the copies and closures
 * it keeps across the service's wait, was the largest parse of the worker (issue 29, sixth pass).
 * The output is zod's: the schema's keys in the schema's order (absent optional ones left out, or
 * given the value the schema's transform gives), then every other key of the input as it is.
 * test/platforms/woocommerce/order-fast-path.test.ts holds it to zod's answer on every fixture.
 * The order's meta alone (WooOrderMetaSchema) has its hand proof here too: commonWooOrderMeta.
 * The pieces (loose, list, FAIL) are the client's (client/schemas/hand-proof.ts).
 */

export { isRecord };

const number: Field = (value) => (isFiniteNumber(value) ? value : FAIL);
const optionalNumber: Field = (value) => (value === undefined || isFiniteNumber(value) ? value : FAIL);
const numberOrZero: Field = (value) => (value === undefined ? 0 : isFiniteNumber(value) ? value : FAIL);
const text: Field = (value) => (typeof value === 'string' ? value : FAIL);
const optionalText: Field = (value) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : FAIL);
const optionalTextStrict: Field = (value) => (value === undefined || typeof value === 'string' ? value : FAIL);
const unknownValue: Field = (value) => value;
const booleanOrFalse: Field = (value) => (value === undefined ? false : typeof value === 'boolean' ? value : FAIL);
const optionalBoolean: Field = (value) => (value === undefined || typeof value === 'boolean' ? value : FAIL);
/** MoneyText: plain decimal text only (zod trims and reads PHP float prints: it decides those). */
const money: Field = (value) => (typeof value === 'string' && DECIMAL_TEXT.test(value) ? value : FAIL);
const optionalMoney: Field = (value) => (value === undefined ? undefined : money(value));
/** A line tax amount: "" is 0, as the schema reads it. */
const taxAmount: Field = (value) => (value === '' ? '0' : money(value));
const optionalTaxAmount: Field = (value) => (value === undefined ? undefined : taxAmount(value));
const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;
const date: Field = (value) => (value === undefined || value === null ? null : typeof value === 'string' && DATE.test(value) ? value : FAIL);

const metaFields = loose({ key: text, value: unknownValue, display_key: optionalTextStrict, display_value: unknownValue });
// An entry without a `value` key goes to zod (it decides whether z.unknown() lets the key be absent).
const meta = list((entry) => (isRecord(entry) && 'value' in entry ? metaFields(entry) : FAIL), true);
const taxes = list(loose({ id: number, total: taxAmount, subtotal: optionalTaxAmount }), true);
const address = loose({
  first_name: optionalText,
  last_name: optionalText,
  company: optionalText,
  address_1: optionalText,
  address_2: optionalText,
  city: optionalText,
  state: optionalText,
  postcode: optionalText,
  country: optionalText,
  email: optionalText,
  phone: optionalText,
});

const orderFields = loose({
  id: (value) => (isFiniteNumber(value) && Number.isSafeInteger(value) && value > 0 ? value : FAIL),
  number: (value) => (value === undefined ? undefined : typeof value === 'string' ? value : isFiniteNumber(value) ? String(value) : FAIL),
  status: text,
  currency: (value) => (typeof value === 'string' && /^[A-Za-z]{3}$/.test(value) ? value : FAIL),
  prices_include_tax: booleanOrFalse,
  date_created: date,
  date_created_gmt: date,
  date_paid: date,
  date_paid_gmt: date,
  date_completed: date,
  date_completed_gmt: date,
  total: money,
  total_tax: optionalMoney,
  billing: address,
  shipping: (value) => (value === undefined ? undefined : address(value)),
  meta_data: meta,
  customer_note: optionalText,
  payment_method: optionalText,
  needs_processing: optionalBoolean,
  line_items: list(
    loose({
      id: number,
      name: text,
      product_id: number,
      variation_id: numberOrZero,
      quantity: number,
      subtotal: money,
      total: money,
      subtotal_tax: optionalMoney,
      total_tax: optionalMoney,
      taxes,
      sku: optionalText,
      price: (value) => (value === undefined || value === null || isFiniteNumber(value) ? value : FAIL),
      tax_class: optionalText,
      meta_data: meta,
    }),
    false,
  ),
  tax_lines: list(
    loose({
      id: optionalNumber,
      rate_id: number,
      rate_code: optionalText,
      label: optionalText,
      compound: booleanOrFalse,
      tax_total: money,
      shipping_tax_total: (value) => (value === undefined ? '0' : money(value)),
      rate_percent: optionalNumber,
    }),
    true,
  ),
  shipping_lines: list(loose({ id: number, method_title: optionalText, method_id: optionalText, total: money, total_tax: optionalMoney, taxes, meta_data: meta }), true),
  fee_lines: list(loose({ id: number, name: optionalText, tax_class: optionalText, tax_status: optionalText, total: money, total_tax: optionalMoney, taxes, meta_data: meta }), true),
  coupon_lines: list(loose({ id: optionalNumber, code: optionalText, discount: money, discount_tax: optionalMoney, meta_data: meta }), true),
});

export function commonWooOrder(input: unknown): WooOrder | undefined {
  const read = orderFields(input);
  return read === FAIL ? undefined : (read as WooOrder);
}

/**
 * WooOrderMetaSchema's answer for an order whose meta entries are all of the expected kinds (a
 * numeric id; each entry an object with a text key, a value, a text display_key if any), else
 * undefined (zod decides). Each entry is copied, as zod's loose object copies it.
 */
export function commonWooOrderMeta(input: unknown): WooOrder['meta_data'] | undefined {
  if (!isRecord(input) || typeof input.id !== 'number' || !Number.isFinite(input.id)) return undefined;
  const meta = input.meta_data;
  if (meta === undefined) return [];
  if (!Array.isArray(meta)) return undefined;
  const list: WooOrder['meta_data'] = new Array(meta.length);
  for (let i = 0; i < meta.length; i++) {
    const entry: unknown = meta[i];
    if (!isRecord(entry) || typeof entry.key !== 'string' || !('value' in entry)) return undefined;
    if (entry.display_key !== undefined && typeof entry.display_key !== 'string') return undefined;
    list[i] = { ...entry, key: entry.key, value: entry.value };
  }
  return list;
}
