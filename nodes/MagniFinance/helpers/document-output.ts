import type { IDataObject } from 'n8n-workflow';

import { formatDecimal } from '../../../client/money';
import type { Decimal } from '../../../client/money';
import type { DocumentDetails } from '../../../client/document-details';

/** Amounts leave the node as decimal text ("12.30"): exact, and JSON has no bigint. */
function amountText(value: Decimal | undefined): string | null {
  return value === undefined ? null : formatDecimal(value, 2);
}

/** The currency the document's amounts are in, as the service reports it (null if it does not say). */
function currencyOf(details: DocumentDetails): string | null {
  const currency = details.details.document?.Currency;
  return typeof currency === 'string' && currency.trim() !== '' ? currency.trim().toUpperCase() : null;
}

/** The flat fields a workflow usually needs, with the service's full Details kept beside them. */
export function documentJson(documentId: number, details: DocumentDetails): IDataObject {
  const document = details.details.document ?? undefined;
  return {
    documentId,
    documentNumber: details.documentNumber ?? null,
    downloadUrl: details.downloadUrl ?? null,
    status: document?.DocumentStatus ?? null,
    statusId: document?.DocumentStatusId ?? null,
    type: document?.Type ?? null,
    paymentStatus: details.paymentStatus ?? null,
    totalAmount: amountText(details.totalAmount),
    unpaidAmount: amountText(details.unpaidAmount),
    currency: currencyOf(details),
    errorMessage: details.errorMessage ?? null,
    details: JSON.parse(JSON.stringify(details.details)) as IDataObject,
  };
}

export function paymentStatusJson(documentId: number, details: DocumentDetails): IDataObject {
  return {
    documentId,
    documentNumber: details.documentNumber ?? null,
    paymentStatus: details.paymentStatus ?? null,
    isPaid: details.paymentStatus === 'Complete',
    totalAmount: amountText(details.totalAmount),
    unpaidAmount: amountText(details.unpaidAmount),
    currency: currencyOf(details),
  };
}
