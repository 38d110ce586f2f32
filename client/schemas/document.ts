import { z } from 'zod';
import {
  ApiForm,
  CORRECTING_TYPES,
  dateDay,
  DOCUMENT_REFERENCE_MAX,
  EXEMPTION_CODE_FORM,
  FIELD_MAX,
  hasMoreThanTwoCharacters,
  INVOICE_TYPES,
  PERCENTAGE_RANGE,
  TAX_EXEMPTION_CODES,
} from '../input-rules';
import { parseDecimal } from '../money';
import { ClientSchema } from './client';
import { LineSchema } from './line';
import {
  boundedDecimal,
  CurrencyCode,
  DateText,
  isToCloseSchema,
  optionalField,
  PositiveDecimal,
  requiredAs,
  SendToText,
  sized,
} from './primitives';

/** T invoice/receipt, I invoice, S simplified invoice, C credit note, D debit note. */
export const DocumentTypeSchema = z.enum(INVOICE_TYPES, {
  message: 'must be one of T, I, S, C, D',
});
export type DocumentType = z.infer<typeof DocumentTypeSchema>;

/** `M` + two digits, and a code of the tax authority's table (M08 was retired). */
export const TaxExemptionReasonCode = sized(FIELD_MAX.Document.TaxExemptionReasonCode)
  .regex(EXEMPTION_CODE_FORM, { message: 'must be a code like M01 or M99' })
  .refine((code) => !EXEMPTION_CODE_FORM.test(code) || TAX_EXEMPTION_CODES.has(code), {
    message: 'is not an exemption code of the tax authority table (M08 was retired in 2023)',
  });

/** "More than two characters" (the spec's rule for document and waybill descriptions), spaces aside. */
export const DocumentDescription = sized(FIELD_MAX.Document.Description).refine(hasMoreThanTwoCharacters, {
  message: 'must be more than two characters',
});

/** DocumentReference: S(50) in REST, S(100) in SOAP. */
export function documentReference(form: ApiForm) {
  return sized(DOCUMENT_REFERENCE_MAX[form]);
}

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

const D = FIELD_MAX.Document;

function documentSchema(form: ApiForm) {
  return z
    .object({
      Type: DocumentTypeSchema,
      Serie: optionalField(sized(D.Serie)),
      /** Id of an existing draft to update or close; omitted for a new document. */
      Id: z.number().int().positive().optional(),
      Date: DateText,
      DueDate: DateText,
      Description: optionalField(DocumentDescription),
      DocumentReference: optionalField(documentReference(form)),
      TaxExemptionReasonCode: optionalField(TaxExemptionReasonCode),
      Currency: optionalField(CurrencyCode),
      EuroRate: PositiveDecimal.optional(),
      Retention: boundedDecimal(PERCENTAGE_RANGE.min, PERCENTAGE_RANGE.max).optional(),
      ExternalId: optionalField(sized(D.ExternalId)),
      PurchaseOrder: optionalField(sized(D.PurchaseOrder)),
      Lines: LinesSchema,
    })
    .superRefine((doc, ctx) => {
      // Days are yyyy-mm-dd, so text order is date order.
      const date = typeof doc.Date === 'string' ? dateDay(doc.Date) : undefined;
      const dueDate = typeof doc.DueDate === 'string' ? dateDay(doc.DueDate) : undefined;
      if (date !== undefined && dueDate !== undefined && dueDate <= date) {
        ctx.addIssue({ code: 'custom', path: ['DueDate'], message: 'must be later than Date' });
      }
      if (CORRECTING_TYPES.includes(doc.Type) && !doc.DocumentReference?.trim()) {
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
}

export const DocumentSchema = documentSchema('rest');
export type InvoiceDocument = z.infer<typeof DocumentSchema>;

function createDocumentRequestSchema(form: ApiForm) {
  return z.object({
    IsToClose: isToCloseSchema(form),
    SendTo: optionalField(SendToText),
    Client: ClientSchema,
    Document: documentSchema(form),
  });
}

/** Create Document over REST (DocumentReference S(50)). */
export const CreateDocumentRequestSchema = createDocumentRequestSchema('rest');
/** DocumentCreate over SOAP (DocumentReference S(100), IsToClose any xsd:boolean). */
export const SoapCreateDocumentRequestSchema = createDocumentRequestSchema('soap');
/** A checked request: IsToClose is a boolean. */
export type CreateDocumentRequest = z.infer<typeof CreateDocumentRequestSchema>;
/** What the client methods take: IsToClose may also be the text "true" / "false". */
export type CreateDocumentRequestInput = z.input<typeof CreateDocumentRequestSchema>;
