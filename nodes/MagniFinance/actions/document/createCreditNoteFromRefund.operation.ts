import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { creditNoteForRefund, type WooRefundInput } from '../../../../platforms/woocommerce/documents';
import { alreadyIssuedJson, AlreadyIssued, createOnce } from '../../helpers/already-issued';
import { createdDocumentOutput } from '../../helpers/await-finalized-document';
import { throwIfHeld } from '../../helpers/held-order';
import type { ItemWithBinary } from '../../helpers/pdf-binary';
import { readMappingSettings, readOrder } from '../../helpers/order-input';
import { readJsonObject, readPartnerToken } from '../../helpers/parameters';
import { createOptions, orderFields, waitForDocumentFields } from '../common.descriptions';

const properties: INodeProperties[] = [
  ...orderFields,
  {
    displayName: 'Refund',
    name: 'refund',
    type: 'json',
    required: true,
    default: '',
    description:
      'The WooCommerce refund (GET /orders/{ID}/refunds/{refund ID}, or the refund object of a webhook): amount, reason, refunded line items',
  },
  {
    displayName: 'Invoice Number',
    name: 'invoiceNumber',
    type: 'string',
    required: true,
    default: '',
    placeholder: 'e.g. FR A/12',
    description:
      'Number of the invoice of the order that the credit note corrects (the service requires the reference), for example from the order\'s meta or a Get of the invoice',
  },
  ...waitForDocumentFields(),
  createOptions,
];

const displayOptions = { show: { resource: ['document'], operation: ['createCreditNoteFromRefund'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Maps a WooCommerce refund with the package's refund mapping (the same one the connector uses)
 * into the credit note (C) that corrects the order's invoice, and creates it. The External ID is
 * per refund, so running the same refund twice is refused as a duplicate, never a second note.
 */
export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject | ItemWithBinary> {
  const { input, order } = readOrder(this, itemIndex);
  const settings = readMappingSettings(this, itemIndex);
  const refund = readJsonObject(this, 'refund', 'Refund', itemIndex) as WooRefundInput;
  const invoiceNumber = String(this.getNodeParameter('invoiceNumber', itemIndex, '')).trim();
  if (!invoiceNumber) {
    throw new NodeOperationError(this.getNode(), 'Invoice Number is required: a credit note must name the invoice it corrects', { itemIndex });
  }
  const mapped = creditNoteForRefund(input, refund, invoiceNumber, settings);
  const summary: IDataObject = {
    orderId: order.id,
    refundId: (refund as { id?: unknown }).id ?? null,
    externalId: mapped.request.Document.ExternalId ?? null,
    documentType: mapped.request.Document.Type,
    reference: invoiceNumber,
    totalDifference: mapped.totalDifference ?? null,
    notes: mapped.notes.map((note) => ({ ...note })),
  };
  throwIfHeld(this.getNode(), itemIndex, mapped, summary);
  const token = readPartnerToken(this, itemIndex);
  const created = await createOnce(this.getNode(), itemIndex, mapped.request.Document.ExternalId, () => client.createDocument(mapped.request, token ? { token } : undefined));
  if (created instanceof AlreadyIssued) return alreadyIssuedJson(created, summary);
  return createdDocumentOutput.call(this, itemIndex, client, created, mapped.request.IsToClose, token, summary);
}
