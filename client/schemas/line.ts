import { z } from 'zod';
import { FIELD_MAX, isAcceptedTaxRate, LINE_TYPES, PERCENTAGE_RANGE, TAX_RATES } from '../input-rules';
import { parseDecimal } from '../money';
import { boundedDecimal, DecimalInput, optionalField, PositiveDecimal, requiredText, sized } from './primitives';

/** APIInvoicingProduct: S = service, P = product. */
export const LineTypeSchema = z.enum(LINE_TYPES, { message: 'must be P (product) or S (service)' });

/** A VAT percentage of the shared list (input-rules.ts); 0 needs an exemption code on the document. */
export const TaxRate = DecimalInput.refine(
  (value) => {
    try {
      return isAcceptedTaxRate(parseDecimal(value));
    } catch {
      return true; // malformed: the union's own message says so
    }
  },
  { message: `must be one of the Portuguese VAT rates ${TAX_RATES.join(', ')}` },
);

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
