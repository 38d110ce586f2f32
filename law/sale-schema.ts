import { z } from 'zod';
import { isDecimalText } from '../client/money';
import { mappingError, refusedFields } from './mapping-errors';
import { platformId, type Sale, type SaleRefund } from './sale';
import { COUNTRY_TEXT, CURRENCY_TEXT, ID_TEXT, isCalendarDay, isCommonSale, KINDS, NATURES, PAYMENT_STATES, TIME_TEXT } from './sale-fast-path';

/**
 * The neutral sale and refund (sale.ts) as the law admits them from outside: from a platform's
 * adapter (the connector's registry checks what every adapter gives), from the n8n node, or from a
 * library caller who builds a sale by hand. The law reads these fields as sale.ts promises them
 * (decimal text it can add, times it can date, a currency it can name); a sale that breaks the
 * promise is refused with the fields named, before any rule runs, and nothing is issued.
 */

const AMOUNT = z.string().refine(isDecimalText, { message: 'must be a decimal amount as text ("12.30")' });
/** ISO 8601: a date, or a date and time with or without its zone (SaleTime). */
const TIME = z.string().regex(TIME_TEXT, { message: 'must be an ISO 8601 time ("2026-05-01T10:00:00Z")' }).refine(isCalendarDay, { message: 'is not a real date' });
/** The platform's id: short and stable, for it makes the documents' ExternalId (letters, digits, `_ . : -`). */
const ID = z.string().regex(ID_TEXT, { message: 'must be 1-50 letters, digits or _ . : - (it makes the ExternalId)' });
const NATURE = z.enum(NATURES);
const KIND = z.enum(KINDS);
const QUANTITY = z.number({ message: 'must be a number' }).finite().min(0, { message: 'must not be negative' });

const AddressSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  company: z.string(),
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  region: z.string(),
  postcode: z.string(),
  country: z.string().regex(COUNTRY_TEXT, { message: 'must be an ISO 3166-1 alpha-2 code ("PT") or empty' }),
  email: z.string(),
  phone: z.string(),
});

const AttributeSchema = z.object({ key: z.string(), value: z.unknown(), label: z.string().optional(), shownValue: z.unknown().optional() });
const LineTaxSchema = z.object({ rateId: z.string().min(1, { message: 'must name a rate of taxRates' }), amount: AMOUNT, beforeDiscounts: AMOUNT.optional() });

const SaleLineSchema = z.object({
  id: z.string().min(1),
  kind: KIND,
  name: z.string(),
  sku: z.string(),
  productId: z.string().optional(),
  variantId: z.string().optional(),
  quantity: QUANTITY,
  subtotal: AMOUNT,
  total: AMOUNT,
  totalTax: AMOUNT.optional(),
  taxes: z.array(LineTaxSchema),
  taxClass: z.string(),
  nature: NATURE.optional(),
  attributes: z.array(AttributeSchema),
});

const TaxRateSchema = z.object({
  id: z.string().min(1),
  label: z.string(),
  percent: z.number().finite().min(0, { message: 'must be a rate from 0 to 100' }).max(100, { message: 'must be a rate from 0 to 100' }).optional(),
  code: z.string(),
  compound: z.boolean(),
  tax: AMOUNT.optional(),
});

export const SaleSchema = z
  .object({
    platform: z.string().min(1),
    platformTitle: z.string().min(1).max(40).optional(),
    id: ID,
    number: z.string().min(1).optional(),
    status: z.string(),
    payment: z.object({ state: z.enum(PAYMENT_STATES), method: z.string(), title: z.string(), onDelivery: z.boolean() }),
    currency: z.string().regex(CURRENCY_TEXT, { message: 'must be a 3-letter ISO 4217 code' }),
    pricesIncludeTax: z.boolean(),
    created: TIME.optional(),
    paid: TIME.optional(),
    completed: TIME.optional(),
    total: AMOUNT,
    totalTax: AMOUNT.optional(),
    billing: AddressSchema,
    shipping: AddressSchema.optional(),
    lines: z.array(SaleLineSchema),
    discounts: z.array(z.object({ code: z.string(), amount: AMOUNT, tax: AMOUNT })),
    taxRates: z.array(TaxRateSchema),
    needsShipping: z.boolean().optional(),
    customerNote: z.string(),
    taxNumbers: z.array(z.object({ value: z.string(), source: z.string(), businessField: z.boolean() })),
    attributes: z.array(AttributeSchema),
  })
  .superRefine((sale, ctx) => {
    // Every tax a line carries points at a rate the sale lists: the law reads the rate there, never off the amount.
    const rates = new Set(sale.taxRates.map((rate) => rate.id));
    sale.lines.forEach((line, i) =>
      line.taxes.forEach((tax, j) => {
        if (!rates.has(tax.rateId)) ctx.addIssue({ code: 'custom', path: ['lines', i, 'taxes', j, 'rateId'], message: `names rate "${tax.rateId}", which taxRates does not list` });
      }),
    );
  });

export const SaleRefundSchema = z.object({
  id: ID,
  saleId: z.string().min(1),
  created: TIME.optional(),
  amount: AMOUNT,
  reason: z.string(),
  lines: z.array(
    z.object({
      id: z.string().min(1),
      kind: KIND,
      name: z.string(),
      sku: z.string(),
      saleLineId: z.string().optional(),
      productId: z.string().optional(),
      variantId: z.string().optional(),
      quantity: QUANTITY,
      subtotal: AMOUNT.optional(),
      total: AMOUNT,
      totalTax: AMOUNT.optional(),
      taxes: z.array(LineTaxSchema),
      attributes: z.array(AttributeSchema),
    }),
  ),
});

/** The sales and refunds already admitted (immutable once handed to the law): checked once, however many doors they pass. */
const admitted = new WeakSet<object>();

/** The id the refusal names: the sale's, when it has a readable one. */
function refOf(value: unknown, key: 'id' | 'saleId'): number | string | undefined {
  const id = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof id === 'string' && id !== '' ? platformId(id.slice(0, 50)) : undefined;
}

/**
 * The sale, checked against sale.ts's contract; an OrderMappingError `sale-invalid` naming every
 * field that breaks it (nothing is issued for it).
 */
export function admitSale(sale: Sale): Sale {
  if (admitted.has(sale)) return sale;
  // The common sale is proven by hand (sale-fast-path.ts); anything else is zod's to decide and word.
  if (isCommonSale(sale)) {
    admitted.add(sale);
    return sale;
  }
  const checked = SaleSchema.safeParse(sale);
  if (!checked.success) throw mappingError(refOf(sale, 'id'), 'sale-invalid', { platform: typeof sale?.platform === 'string' ? sale.platform : '', ...refusedFields(checked.error) });
  admitted.add(sale);
  return sale;
}

/** The refund, checked like a sale (`refund-invalid`), and belonging to `sale`. */
export function admitRefund(refund: SaleRefund, sale: Pick<Sale, 'id'>): SaleRefund {
  if (admitted.has(refund)) return refund;
  const checked = SaleRefundSchema.safeParse(refund);
  if (!checked.success) throw mappingError(refOf(sale, 'id'), 'refund-invalid', { refund: refOf(refund, 'id') ?? '?', ...refusedFields(checked.error) });
  admitted.add(refund);
  return refund;
}
