import { z } from 'zod';
import { parseDecimal } from '../money';
import { ClientSchema } from './client';
import { LineSchema } from './line';
import {
  boundedDecimal,
  CurrencyCode,
  DateText,
  PositiveDecimal,
  requiredAs,
  SendToText,
  sized,
} from './primitives';

/** T invoice/receipt, I invoice, S simplified invoice, C credit note, D debit note. */
export const DocumentTypeSchema = z.enum(['T', 'I', 'S', 'C', 'D'], {
  message: 'must be one of T, I, S, C, D',
});
export type DocumentType = z.infer<typeof DocumentTypeSchema>;

export const TaxExemptionReasonCode = sized(3).regex(/^M\d{2}$/, { message: 'must be a code like M01 or M99' });

/** "More than two characters" (the spec's rule for document and waybill descriptions). */
export const DocumentDescription = sized(300).refine((value) => value.length > 2, {
  message: 'must be more than two characters',
});

interface LineLike {
  TaxValue?: unknown;
}

/** Rule shared by documents and waybills: a 0% line needs TaxExemptionReasonCode. */
export function hasZeroTaxLine(lines: unknown): boolean {
  if (!Array.isArray(lines)) return false;
  return lines.some((line: LineLike) => {
    const tax = line?.TaxValue;
    if (typeof tax !== 'number' && typeof tax !== 'string') return false;
    try {
      return parseDecimal(tax).units === 0n;
    } catch {
      return false;
    }
  });
}

export const LinesSchema = z.array(LineSchema, requiredAs('a list of lines')).min(1, { message: 'must have at least one line' });

export const DocumentSchema = z
  .object({
    Type: DocumentTypeSchema,
    Serie: sized(30).optional(),
    /** Id of an existing draft to update or close; omitted for a new document. */
    Id: z.number().int().positive().optional(),
    Date: DateText,
    DueDate: DateText,
    Description: DocumentDescription.optional(),
    DocumentReference: sized(50).optional(),
    TaxExemptionReasonCode: TaxExemptionReasonCode.optional(),
    Currency: CurrencyCode.optional(),
    EuroRate: PositiveDecimal.optional(),
    Retention: boundedDecimal(0, 100).optional(),
    ExternalId: sized(50).optional(),
    PurchaseOrder: sized(50).optional(),
    Lines: LinesSchema,
  })
  .superRefine((doc, ctx) => {
    // Dates are yyyy-mm-dd, so text order is date order.
    if (typeof doc.Date === 'string' && typeof doc.DueDate === 'string' && doc.DueDate <= doc.Date) {
      ctx.addIssue({ code: 'custom', path: ['DueDate'], message: 'must be later than Date' });
    }
    if ((doc.Type === 'C' || doc.Type === 'D') && !doc.DocumentReference?.trim()) {
      ctx.addIssue({
        code: 'custom',
        path: ['DocumentReference'],
        message: 'is required for credit and debit notes (the number of the document it corrects)',
      });
    }
    if (hasZeroTaxLine(doc.Lines) && !doc.TaxExemptionReasonCode) {
      ctx.addIssue({
        code: 'custom',
        path: ['TaxExemptionReasonCode'],
        message: 'is required when a line has 0% tax',
      });
    }
  });
export type InvoiceDocument = z.infer<typeof DocumentSchema>;

export const CreateDocumentRequestSchema = z.object({
  IsToClose: z.boolean({ message: 'must be true or false' }),
  SendTo: SendToText.optional(),
  Client: ClientSchema,
  Document: DocumentSchema,
});
export type CreateDocumentRequest = z.infer<typeof CreateDocumentRequestSchema>;
