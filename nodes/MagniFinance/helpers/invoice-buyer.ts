import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ElementDoesNotExistError } from '../../../client/errors';
import type { MagniFinanceClient } from '../../../client/rest-client';
import type { IssueOptions } from '../../../law/issue-date';
import { INVOICE_RECORD } from '../shop/record-purposes';
import { invoiceBuyerText, type InvoiceBuyerMessage } from './invoice-buyer-messages';
import { nodeErrorFor } from './node-errors';

/**
 * The buyer a credit note names: the one its invoice carried (CIVA art. 29(7), 78(2)), never the
 * order's buyer as it reads now (a NIF added after the invoice, an EU VAT number VIES refused at
 * invoice time and invoiced to the final consumer). The connector keeps it in its ledger at
 * numbering; the node has no ledger, so it reads the invoice itself from the service (Get Document:
 * `Details.Receiver.TaxId` and `CountryCode`, the Client the invoice was issued to). The invoice's
 * id comes from the Invoice Document ID field or from the order's record of its invoice
 * (`_magnifinance_document_id` beside the same number, written by the node's Order Record or the
 * connector). Without one, or when the id names another document, the credit note is refused with
 * the reason: never a guess from the order.
 */
export type InvoiceBuyer = NonNullable<IssueOptions['invoiceBuyer']>;

/** Invoice types a credit note corrects (the mapping issues T, I and S). */
const INVOICE_TYPES = new Set(['T', 'I', 'S']);

const compact = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The Invoice Document ID field (0 or empty: not given). */
export function invoiceDocumentIdParameter(context: IExecuteFunctions, itemIndex: number): number | null {
  const value = Number(context.getNodeParameter('invoiceDocumentId', itemIndex, 0));
  return Number.isInteger(value) && value > 0 ? value : null;
}

/**
 * The invoice's id as the order records it (the invoice record's keys, as WooCommerce's meta or
 * Shopify's app metafields read back), when the number recorded beside it is the invoice named.
 */
export function recordedInvoiceId(meta: readonly { key: string; value?: unknown }[] | undefined, invoiceNumber: string): number | null {
  if (!meta) return null;
  const recorded = INVOICE_RECORD.recorded(meta.map((entry, index) => ({ id: index, key: entry.key, value: entry.value })));
  if (!recorded || recorded.documentId === null) return null;
  return compact(recorded.documentNumber) === compact(invoiceNumber) ? recorded.documentId : null;
}

function refusal(context: IExecuteFunctions, itemIndex: number, message: InvoiceBuyerMessage, facts: IDataObject): NodeOperationError {
  const whatToDo = invoiceBuyerText('en', message, 'whatToDo');
  const error = new NodeOperationError(context.getNode(), invoiceBuyerText('en', message, 'reason'), { itemIndex, description: whatToDo });
  Object.assign(error.context, {
    refused: true,
    ...facts,
    why: { code: message.code, params: { ...message.params } },
    whyPt: `${invoiceBuyerText('pt', message, 'reason')}. ${invoiceBuyerText('pt', message, 'whatToDo')}`,
    whatToDo,
  });
  return error;
}

function taxIdText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && value.trim() !== '' && !/^0+$/.test(value.trim())) return value.trim();
  return undefined;
}

/** Reads the invoice from the service and returns its buyer; refuses (nothing issued) when it cannot. */
export async function readInvoiceBuyer(
  context: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
  token: string | undefined,
  invoice: { invoiceNumber: string; documentId: number | null; order: string },
  facts: IDataObject,
): Promise<InvoiceBuyer> {
  const { invoiceNumber, documentId } = invoice;
  if (documentId === null) throw refusal(context, itemIndex, { code: 'invoice-buyer-unknown', params: { invoiceNumber, order: invoice.order } }, facts);
  let details;
  try {
    details = await client.getDocument(documentId, token ? { token } : undefined);
  } catch (error) {
    if (error instanceof ElementDoesNotExistError) throw refusal(context, itemIndex, { code: 'invoice-document-missing', params: { invoiceNumber, documentId } }, facts);
    throw nodeErrorFor(context.getNode(), error, itemIndex);
  }
  const { document, receiver } = details.details;
  const type = document.Type ?? '';
  const number = details.documentNumber ?? '';
  if (!INVOICE_TYPES.has(type) || compact(number) !== compact(invoiceNumber)) {
    const found = number ? `${type ? `${type} ` : ''}${number}` : `a ${document.DocumentStatusId === 'D' ? 'draft' : 'document'} without number`;
    throw refusal(context, itemIndex, { code: 'invoice-document-other', params: { invoiceNumber, documentId, found } }, facts);
  }
  if (document.DocumentStatusId === 'A') throw refusal(context, itemIndex, { code: 'invoice-document-cancelled', params: { invoiceNumber, documentId } }, facts);
  const nif = taxIdText(receiver.TaxId);
  if (!nif) throw refusal(context, itemIndex, { code: 'invoice-buyer-unreadable', params: { invoiceNumber, documentId } }, facts);
  const countryCode = typeof receiver.CountryCode === 'string' && /^[A-Za-z]{2}$/.test(receiver.CountryCode.trim()) ? receiver.CountryCode.trim().toUpperCase() : undefined;
  return { nif, ...(countryCode ? { countryCode } : {}) };
}
