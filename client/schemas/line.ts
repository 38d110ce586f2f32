import { z } from 'zod';
import { boundedDecimal, PositiveDecimal, requiredText, sized } from './primitives';

/** APIInvoicingProduct: S = service, P = product. */
export const LineTypeSchema = z.enum(['P', 'S'], { message: 'must be P (product) or S (service)' });

export const LineSchema = z.object({
  Code: requiredText(60),
  Description: requiredText(200),
  /** Never negative: a discount is ProductDiscount, a refund is a credit note. */
  UnitPrice: boundedDecimal(0, Number.MAX_SAFE_INTEGER),
  Quantity: PositiveDecimal,
  Unit: requiredText(50),
  Type: LineTypeSchema,
  /** A percentage (PT defaults 6, 13, 21, 23; 0 needs an exemption code on the document). */
  TaxValue: boundedDecimal(0, 100),
  ProductDiscount: boundedDecimal(0, 100),
  CostCenter: sized(50).optional(),
});
export type DocumentLine = z.infer<typeof LineSchema>;
