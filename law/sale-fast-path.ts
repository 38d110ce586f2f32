import { isDecimalText } from '../client/money';

/**
 * SaleSchema's acceptance proven by hand, for the sale admitSale sees on every order: true only when
 * every field is one the schema (sale-schema.ts) accepts, so the sale is admitted without zod's walk
 * and the copy of the whole sale it builds and drops (about 56 KB and 0.15 ms per order, issue 29);
 * false for anything else, and then zod decides and names the fields it refuses. It may say false
 * where zod would accept (zod then admits the sale), never true where zod refuses:
 * test/law/sale-fast-path.test.ts holds it to zod's verdict on every sale fixture and on each field
 * broken in turn. The text rules below are the schema's own (it imports them).
 */

/** ISO 8601: a date, or a date and time with or without its zone (SaleTime). */
export const TIME_TEXT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** The platform's id: short and stable, for it makes the documents' ExternalId. */
export const ID_TEXT = /^[A-Za-z0-9_.:-]{1,50}$/;
export const COUNTRY_TEXT = /^\s*([A-Za-z]{2})?\s*$/;
export const CURRENCY_TEXT = /^[A-Za-z]{3}$/;
export const NATURES = ['goods', 'service', 'electronic-service', 'event-admission', 'property-service', 'voucher', 'donation'] as const;
export const KINDS = ['product', 'shipping', 'fee'] as const;
export const PAYMENT_STATES = ['paid', 'unpaid', 'draft', 'cancelled'] as const;

/** The time's day exists in the calendar (no 30 February) and its clock is one (no 25:00). */
export function isCalendarDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  const clock = /T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(text);
  return !clock || (Number(clock[1]) < 24 && Number(clock[2]) < 60 && Number(clock[3] ?? 0) < 60);
}

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const isFilled = (value: unknown): boolean => typeof value === 'string' && value.length > 0;
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const isAmount = (value: unknown): boolean => typeof value === 'string' && isDecimalText(value);
const isTime = (value: unknown): boolean => typeof value === 'string' && TIME_TEXT.test(value) && isCalendarDay(value);
const isOneOf = (values: readonly string[]) => (value: unknown): boolean => typeof value === 'string' && values.includes(value);
const optional = (check: (value: unknown) => boolean) => (value: unknown): boolean => value === undefined || check(value);
const optText = optional(isText);
const optAmount = optional(isAmount);
const optTime = optional(isTime);
const isQuantity = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isPercent = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;

function every(value: unknown, check: (item: Fields) => boolean): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!isObject(item) || !check(item)) return false;
  return true;
}

const ADDRESS_TEXTS = ['firstName', 'lastName', 'company', 'line1', 'line2', 'city', 'region', 'postcode', 'email', 'phone'] as const;
function isAddress(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const key of ADDRESS_TEXTS) if (!isText(value[key])) return false;
  return isText(value.country) && COUNTRY_TEXT.test(value.country);
}

const isAttribute = (a: Fields): boolean => isText(a.key) && 'value' in a && optText(a.label);
const isLineTax = (t: Fields): boolean => isFilled(t.rateId) && isAmount(t.amount) && optAmount(t.beforeDiscounts);
const isNature = optional(isOneOf(NATURES));
const isKind = isOneOf(KINDS);

const isLine = (l: Fields): boolean =>
  isFilled(l.id) &&
  isKind(l.kind) &&
  isText(l.name) &&
  isText(l.sku) &&
  optText(l.productId) &&
  optText(l.variantId) &&
  isQuantity(l.quantity) &&
  isAmount(l.subtotal) &&
  isAmount(l.total) &&
  optAmount(l.totalTax) &&
  every(l.taxes, isLineTax) &&
  isText(l.taxClass) &&
  isNature(l.nature) &&
  every(l.attributes, isAttribute);

const optPercent = optional(isPercent);
const isTaxRate = (r: Fields): boolean => isFilled(r.id) && isText(r.label) && optPercent(r.percent) && isText(r.code) && isBoolean(r.compound) && optAmount(r.tax);
const isDiscount = (d: Fields): boolean => isText(d.code) && isAmount(d.amount) && isAmount(d.tax);
const isTaxNumber = (n: Fields): boolean => isText(n.value) && isText(n.source) && isBoolean(n.businessField);
const isPaymentState = isOneOf(PAYMENT_STATES);
const isPayment = (p: unknown): boolean => isObject(p) && isPaymentState(p.state) && isText(p.method) && isText(p.title) && isBoolean(p.onDelivery);
const optTitle = optional((t) => typeof t === 'string' && t.length >= 1 && t.length <= 40);
const optFilled = optional(isFilled);
const optAddress = optional(isAddress);
const optBoolean = optional(isBoolean);

/** Every tax a line carries names a rate the sale lists (the schema's refinement). */
function ratesNamed(sale: Fields): boolean {
  const rates = (sale.taxRates as Fields[]).map((rate) => rate.id);
  return (sale.lines as Fields[]).every((line) => (line.taxes as Fields[]).every((tax) => rates.includes(tax.rateId)));
}

/** True: SaleSchema accepts `sale`. False: zod must decide (it may still accept). */
export function isCommonSale(sale: unknown): boolean {
  if (!isObject(sale)) return false;
  return (
    isFilled(sale.platform) &&
    optTitle(sale.platformTitle) &&
    isText(sale.id) &&
    ID_TEXT.test(sale.id) &&
    optFilled(sale.number) &&
    isText(sale.status) &&
    isPayment(sale.payment) &&
    isText(sale.currency) &&
    CURRENCY_TEXT.test(sale.currency) &&
    isBoolean(sale.pricesIncludeTax) &&
    optTime(sale.created) &&
    optTime(sale.paid) &&
    optTime(sale.completed) &&
    isAmount(sale.total) &&
    optAmount(sale.totalTax) &&
    isAddress(sale.billing) &&
    optAddress(sale.shipping) &&
    every(sale.lines, isLine) &&
    every(sale.discounts, isDiscount) &&
    every(sale.taxRates, isTaxRate) &&
    optBoolean(sale.needsShipping) &&
    isText(sale.customerNote) &&
    every(sale.taxNumbers, isTaxNumber) &&
    every(sale.attributes, isAttribute) &&
    ratesNamed(sale)
  );
}
