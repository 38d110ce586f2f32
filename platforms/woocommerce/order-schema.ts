import { z } from 'zod';
import { mappingError } from '../../law/mapping-errors';
import { DECIMAL_TEXT, MoneyText, normalizeAmount } from '../../connector/shop/money-text';
import { WooOrderSummarySchema } from './order-summary';
import { commonWooOrder, commonWooOrderMeta } from './order-fast-path';

/**
 * WooCommerce REST v3 order and refund as order webhooks deliver them. Strict on the fields the
 * mapping reads, tolerant of everything else (plugins add fields, old versions lack some), so a
 * payload fails only for a reason that would make the document wrong.
 */

/** Money as WooCommerce sends it: decimal text ("12.30", "-9.00", "0.9"), a PHP float print read as its decimal. */
export const WooMoney = MoneyText;

/** taxes[] amounts: unrounded decimal text; WooCommerce leaves "" where a rate no longer applies. */
const WooTaxAmount = z
  .union([z.string(), z.number()], { message: 'must be decimal text' })
  .transform((value) => (typeof value === 'number' ? String(value) : normalizeAmount(value)))
  .transform((text) => (text === '' ? '0' : text))
  .refine((text) => DECIMAL_TEXT.test(text), { message: 'must be decimal text like "1.8699"' });

const optionalText = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => value ?? '');

const WooDateText = z
  .union([z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/, { message: 'must be a date like 2024-05-01T10:00:00' }), z.null()])
  .optional()
  .transform((value) => value ?? null);

export const WooMetaSchema = z.looseObject({
  key: z.string(),
  value: z.unknown(),
  display_key: z.string().optional(),
  display_value: z.unknown().optional(),
});
export type WooMeta = z.infer<typeof WooMetaSchema>;

const metaList = z.array(WooMetaSchema).optional().transform((list) => list ?? []);

export const WooLineTaxSchema = z.looseObject({
  id: z.number({ message: 'must be the tax rate id (a number)' }),
  total: WooTaxAmount,
  subtotal: WooTaxAmount.optional(),
});
export type WooLineTax = z.infer<typeof WooLineTaxSchema>;

const taxList = z.array(WooLineTaxSchema).optional().transform((list) => list ?? []);

export const WooAddressSchema = z.looseObject({
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
export type WooAddress = z.infer<typeof WooAddressSchema>;

export const WooLineItemSchema = z.looseObject({
  id: z.number(),
  name: z.string({ message: 'is required (the product name)' }),
  product_id: z.number({ message: 'must be a number' }),
  variation_id: z.number().optional().transform((v) => v ?? 0),
  quantity: z.number({ message: 'must be a number' }),
  subtotal: WooMoney,
  total: WooMoney,
  subtotal_tax: WooMoney.optional(),
  total_tax: WooMoney.optional(),
  taxes: taxList,
  sku: optionalText,
  price: z.number().nullable().optional(),
  tax_class: optionalText,
  meta_data: metaList,
});
export type WooLineItem = z.infer<typeof WooLineItemSchema>;

export const WooTaxLineSchema = z.looseObject({
  id: z.number().optional(),
  rate_id: z.number({ message: 'must be the tax rate id (a number)' }),
  rate_code: optionalText,
  label: optionalText,
  compound: z.boolean().optional().transform((v) => v ?? false),
  tax_total: WooMoney,
  shipping_tax_total: WooMoney.optional().transform((v) => v ?? '0'),
  // Added in WooCommerce 3.7; older payloads lack it and the rate is derived from the line taxes.
  rate_percent: z.number().optional(),
});
export type WooTaxLine = z.infer<typeof WooTaxLineSchema>;

export const WooShippingLineSchema = z.looseObject({
  id: z.number(),
  method_title: optionalText,
  method_id: optionalText,
  total: WooMoney,
  total_tax: WooMoney.optional(),
  taxes: taxList,
  meta_data: metaList,
});
export type WooShippingLine = z.infer<typeof WooShippingLineSchema>;

export const WooFeeLineSchema = z.looseObject({
  id: z.number(),
  name: optionalText,
  tax_class: optionalText,
  tax_status: optionalText,
  total: WooMoney,
  total_tax: WooMoney.optional(),
  taxes: taxList,
  meta_data: metaList,
});
export type WooFeeLine = z.infer<typeof WooFeeLineSchema>;

export const WooCouponLineSchema = z.looseObject({
  id: z.number().optional(),
  code: optionalText,
  // Older payloads print "30" without decimals; still decimal text.
  discount: WooMoney,
  discount_tax: WooMoney.optional(),
  meta_data: metaList,
});
export type WooCouponLine = z.infer<typeof WooCouponLineSchema>;

export const WooOrderSchema = z.looseObject({
  id: z.number({ message: 'is required (the order id)' }).int().positive(),
  number: z.union([z.string(), z.number()]).optional().transform((v) => (v === undefined ? undefined : String(v))),
  status: z.string({ message: 'is required' }),
  currency: z.string({ message: 'is required' }).regex(/^[A-Za-z]{3}$/, { message: 'must be a 3-letter currency code' }),
  prices_include_tax: z.boolean().optional().transform((v) => v ?? false),
  date_created: WooDateText,
  date_created_gmt: WooDateText,
  date_paid: WooDateText,
  date_paid_gmt: WooDateText,
  date_completed: WooDateText,
  date_completed_gmt: WooDateText,
  total: WooMoney,
  total_tax: WooMoney.optional(),
  billing: WooAddressSchema,
  shipping: WooAddressSchema.optional(),
  meta_data: metaList,
  customer_note: optionalText,
  payment_method: optionalText,
  needs_processing: z.boolean().optional(),
  line_items: z.array(WooLineItemSchema, { message: 'is required (a list)' }),
  tax_lines: z.array(WooTaxLineSchema).optional().transform((list) => list ?? []),
  shipping_lines: z.array(WooShippingLineSchema).optional().transform((list) => list ?? []),
  fee_lines: z.array(WooFeeLineSchema).optional().transform((list) => list ?? []),
  coupon_lines: z.array(WooCouponLineSchema).optional().transform((list) => list ?? []),
});
export type WooOrder = z.infer<typeof WooOrderSchema>;

/** A refund line: WooCommerce writes quantities and amounts negative. */
export const WooRefundLineItemSchema = z.looseObject({
  id: z.number(),
  name: z.string({ message: 'is required (the product name)' }),
  product_id: z.number(),
  variation_id: z.number().optional().transform((v) => v ?? 0),
  quantity: z.number({ message: 'must be a number' }),
  subtotal: WooMoney.optional(),
  total: WooMoney,
  total_tax: WooMoney.optional(),
  taxes: taxList,
  sku: optionalText,
  meta_data: metaList,
});
export type WooRefundLineItem = z.infer<typeof WooRefundLineItemSchema>;

export const WooRefundSchema = z.looseObject({
  id: z.number({ message: 'is required (the refund id)' }).int().positive(),
  date_created: WooDateText,
  date_created_gmt: WooDateText,
  amount: WooMoney,
  reason: optionalText,
  line_items: z.array(WooRefundLineItemSchema).optional().transform((list) => list ?? []),
  // Present from WooCommerce 5.x on; earlier refund payloads only list products.
  shipping_lines: z.array(WooShippingLineSchema).optional().transform((list) => list ?? []),
  fee_lines: z.array(WooFeeLineSchema).optional().transform((list) => list ?? []),
});
export type WooRefund = z.infer<typeof WooRefundSchema>;

/** The refused fields ("billing.email, line_items[0].total") and the schema's words on each (English). */
function describeIssues(error: z.ZodError): { fields: string; issues: string } {
  const shown = error.issues.slice(0, 5).map((issue) => ({
    path:
      issue.path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '') ||
      '(payload)',
    message: issue.message,
  }));
  return {
    fields: [...new Set(shown.map((issue) => issue.path))].join(', '),
    issues: shown.map((issue) => `${issue.path} ${issue.message}`).join('; '),
  };
}

function idOf(input: unknown): number | string | undefined {
  if (typeof input === 'object' && input !== null && 'id' in input) {
    const id = (input as { id: unknown }).id;
    if (typeof id === 'number' || typeof id === 'string') return id;
  }
  return undefined;
}

/** Parses a webhook body into an order, or throws an OrderMappingError naming the bad fields. */
export function parseWooOrder(input: unknown): WooOrder {
  // The common case proven by hand (order-fast-path.ts), held to zod's answer by its test; zod decides the rest.
  const fast = commonWooOrder(input);
  if (fast) return fast;
  const result = WooOrderSchema.safeParse(input);
  if (!result.success) {
    throw mappingError(idOf(input), 'order-payload-invalid', describeIssues(result.error));
  }
  return result.data;
}

/** Parses an order's summary (what planning, a person's retry and the review read), or throws an OrderMappingError naming the bad fields. */
export function parseWooOrderSummary(input: unknown): z.output<typeof WooOrderSummarySchema> {
  const result = WooOrderSummarySchema.safeParse(input);
  if (!result.success) throw mappingError(idOf(input), 'order-payload-invalid', describeIssues(result.error));
  return result.data;
}

const WooOrderMetaSchema = z.looseObject({ id: z.number(), meta_data: metaList });

/**
 * Only the meta of an order (what the worker checks under the lock): the rest of the order is not
 * validated again. The common case is proven by hand (`commonWooOrderMeta`), anything else by zod,
 * which decides and words the refusal: the meta is read three times per document (the carried
 * copy, the shop's copy under the lock, its attributes), and zod's walk with its copies was most of
 * that cost (issue 29, sixth pass).
 */
export function parseWooOrderMeta(input: unknown): WooOrder['meta_data'] {
  const fast = commonWooOrderMeta(input);
  if (fast) return fast;
  const result = WooOrderMetaSchema.safeParse(input);
  if (!result.success) throw mappingError(idOf(input), 'order-payload-invalid', describeIssues(result.error));
  return result.data.meta_data;
}

export function parseWooRefund(input: unknown, orderId?: number): WooRefund {
  const result = WooRefundSchema.safeParse(input);
  if (!result.success) {
    throw mappingError(orderId, 'refund-payload-invalid', { refund: String(idOf(input) ?? '?'), ...describeIssues(result.error) });
  }
  return result.data;
}
