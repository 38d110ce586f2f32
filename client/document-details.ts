import { Decimal, parseDecimal } from './money';
import {
  DetailsDocument,
  DetailsReceiver,
  DetailsTotals,
  DocumentGetOut,
  PaymentStatus,
  TOTALS_FIELDS,
  TotalsField,
} from './schemas/responses';

/** Get Document / Get Document Property, typed; amounts exact (from the decimal-comma text). */
export interface DocumentDetails {
  /** Undefined until the service has finalized the document (number allocated). */
  documentNumber?: string;
  downloadUrl?: string;
  paymentStatus?: PaymentStatus;
  totalAmount?: Decimal;
  unpaidAmount?: Decimal;
  errorMessage?: string;
  details: {
    document: DetailsDocument;
    receiver: DetailsReceiver;
    totals: DetailsTotals;
  };
  /** The Object as the service sent it. */
  raw: DocumentGetOut;
}

function present(text: string | null | undefined): string | undefined {
  return text === null || text === undefined || text.trim() === '' ? undefined : text;
}

/** Decimal-comma text ("1234,50") to an exact Decimal; the number twin is never used for money. */
export function parseServiceAmount(text: string): Decimal {
  const compact = text.trim().replace(/[\s\u00a0]/g, '');
  // "1.234,50": dots are thousands separators when a decimal comma follows.
  return parseDecimal(compact.includes(',') ? compact.replace(/\./g, '') : compact);
}

export function toDocumentDetails(object: DocumentGetOut): DocumentDetails {
  const result: DocumentDetails = {
    details: {
      document: object.Details?.Document ?? {},
      receiver: object.Details?.Receiver ?? {},
      totals: object.Details?.Totals ?? {},
    },
    raw: object,
  };
  const number = present(object.DocumentNumber);
  if (number !== undefined) result.documentNumber = number;
  const url = present(object.DownloadUrl);
  if (url !== undefined) result.downloadUrl = url;
  if (object.PaymentStatus) result.paymentStatus = object.PaymentStatus;
  const total = present(object.TotalAmount);
  if (total !== undefined) result.totalAmount = parseServiceAmount(total);
  const unpaid = present(object.UnpaidAmount);
  if (unpaid !== undefined) result.unpaidAmount = parseServiceAmount(unpaid);
  const error = present(object.ErrorMessage);
  if (error !== undefined) result.errorMessage = error;
  return result;
}

/**
 * Exact totals from Details.Totals: each value from its Text twin (decimal comma); a field with
 * no text is left out rather than guessed from the float.
 */
export function exactTotals(totals: DetailsTotals): Partial<Record<TotalsField, Decimal>> {
  const exact: Partial<Record<TotalsField, Decimal>> = {};
  for (const field of TOTALS_FIELDS) {
    const text = present(totals[`${field}Text`]);
    if (text !== undefined) exact[field] = parseServiceAmount(text);
  }
  return exact;
}
