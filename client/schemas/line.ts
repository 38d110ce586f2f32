import { z } from 'zod';
import { FIELD_MAX, LINE_TYPES, PERCENTAGE_RANGE } from '../input-rules';
import { boundedDecimal, optionalField, PositiveDecimal, requiredText, sized } from './primitives';

/** APIInvoicingProduct: S = service, P = product. */
export const LineTypeSchema = z.enum(LINE_TYPES, { message: 'must be P (product) or S (service)' });

/**
 * A percentage (0..100; 0 needs an exemption code on the document). Which rates exist is the
 * account's tax configuration, known to the service only (input-rules.ts, TAX_RATES).
 */
export const TaxRate = boundedDecimal(PERCENTAGE_RANGE.min, PERCENTAGE_RANGE.max);

const L = FIELD_MAX.Line;

export const LineSchema = z.object({
  Code: requiredText(L.Code),
  Description: requiredText(L.Description),
  /** Never negative: a discount is ProductDiscount, a refund is a credit note. */
  UnitPrice: boundedDecimal(0, Number.MAX_SAFE_INTEGER),
  Quantity: PositiveDecimal,
  Unit: requiredText(L.Unit),
  Type: LineTypeSchema,
  TaxValue: TaxRate,
  ProductDiscount: boundedDecimal(PERCENTAGE_RANGE.min, PERCENTAGE_RANGE.max),
  CostCenter: optionalField(sized(L.CostCenter)),
});
export type DocumentLine = z.infer<typeof LineSchema>;
