import { FAIL, Field, isFiniteNumber, list, loose, looseFromShape, nullish } from './hand-proof';
import { DetailsDocumentSchema, DetailsReceiverSchema, ResponseAddressSchema, ResponseLineSchema, SHARED_FIELD_TYPES, TOTALS_FIELDS, type DocumentGetOut, type Envelope } from './responses';

/**
 * The answers every order reads (the envelope, Create Document's Object, Get Document's Object)
 * proven by hand when each field the schema reads is in its plain form, else undefined: zod then
 * parses, decides and words any refusal (responses.ts). zod's walk of Get Document's ~90 fields
 * was the client's largest cost after undici (issue 29). The output is zod's: the schema's keys in
 * order, then the answer's other keys. test/client/common-answers.test.ts holds it to zod's answer
 * on the sandbox's answers and on every field of them made odd.
 */

const text: Field = (value) => (typeof value === 'string' ? value : FAIL);
const optionalText = nullish(text);
const safeInteger: Field = (value) => (Number.isSafeInteger(value) ? value : FAIL);
const optionalNumber = nullish((value) => (isFiniteNumber(value) ? value : FAIL));
const numberOrText = nullish((value) => (typeof value === 'string' || isFiniteNumber(value) ? value : FAIL));
const optionalBoolean: Field = (value) => (value === undefined || typeof value === 'boolean' ? value : FAIL);
/** DecimalCommaText: "1234,50" or "-3" as the service writes them (spaces, thousands dots: zod decides). */
const PLAIN_DECIMAL = /^-?\d+(?:[.,]\d+)?$/;
const decimalCommaText = nullish((value) => (typeof value === 'string' && PLAIN_DECIMAL.test(value) ? value : FAIL));
const PAYMENT_STATUSES = new Set(['NoPayment', 'Incomplete', 'Complete']);

const envelope = loose({
  RequestId: optionalText,
  Type: (value) => (value === 0 || value === 1 ? value : FAIL),
  Object: (value) => value,
  ErrorValue: nullish(loose({ Value: safeInteger, Name: text })),
  ErrorHumanReadable: optionalText,
  ValidationErrors: nullish(
    list(
      loose({
        Type: text,
        Field: optionalText,
        ElementNumber: nullish((value) => (typeof value === 'string' || Number.isSafeInteger(value) ? value : FAIL)),
        Value: optionalText,
        Detail: optionalText,
      }),
      false,
    ),
  ),
  IsSuccess: optionalBoolean,
  IsError: optionalBoolean,
});

/** EnvelopeSchema's answer, its two agreement rules included (a disagreement goes to zod, which words it). */
export function commonEnvelope(input: unknown): Envelope | undefined {
  const read = envelope(input);
  if (read === FAIL) return undefined;
  const { Type, IsSuccess, IsError } = read as Envelope;
  if (IsSuccess !== undefined && IsSuccess !== (Type === 0)) return undefined;
  if (IsError !== undefined && IsError !== (Type === 1)) return undefined;
  return read as Envelope;
}

/** CreateDocumentResultSchema's answer. */
export const commonCreateDocumentResult = proven<{ DocumentId: number; ErrorMessage?: string | null }>(
  loose({ DocumentId: safeInteger, ErrorMessage: optionalText }),
);

/** The readings of the schemas' shared field types, found by the zod schema of each field. */
const byType = new Map<unknown, Field>([
  [SHARED_FIELD_TYPES.optionalText, optionalText],
  [SHARED_FIELD_TYPES.numberOrText, numberOrText],
]);

// Read from the schemas' own shapes (responses.ts): their keys in their order, the rest given.
const address = nullish(looseFromShape(ResponseAddressSchema.shape, byType));
const line = looseFromShape(ResponseLineSchema.shape, byType);
const detailsDocument = looseFromShape(DetailsDocumentSchema.shape, byType, { LoadAddress: address, DestinationAddress: address, Id: nullish(safeInteger), Lines: nullish(list(line, false)) });
const detailsReceiver = looseFromShape(DetailsReceiverSchema.shape, byType);

// Each total as a number and as the service's decimal-comma text, in DetailsTotalsSchema's order.
const detailsTotals = loose(Object.fromEntries(TOTALS_FIELDS.flatMap((field) => [[field, optionalNumber], [`${field}Text`, decimalCommaText]])));

/** DocumentGetOutSchema's answer (Get Document, Get Document Property). */
export const commonDocumentGetOut = proven<DocumentGetOut>(
  loose({
    DocumentNumber: optionalText,
    DownloadUrl: optionalText,
    PaymentStatus: nullish((value) => (typeof value === 'string' && PAYMENT_STATUSES.has(value) ? value : FAIL)),
    ErrorMessage: optionalText,
    TotalAmount: decimalCommaText,
    UnpaidAmount: decimalCommaText,
    Details: nullish(loose({ Document: nullish(detailsDocument), Receiver: nullish(detailsReceiver), Totals: nullish(detailsTotals) })),
  }),
);

/** A reading as the client asks for it: the proven value, or undefined for zod. */
function proven<T>(field: Field): (input: unknown) => T | undefined {
  return (input) => {
    const read = field(input);
    return read === FAIL ? undefined : (read as T);
  };
}
