import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { documentForOrder } from '../../../../webhooks/woocommerce/order-to-document';
import { createdDocumentOutput } from '../../helpers/await-finalized-document';
import type { ItemWithBinary } from '../../helpers/pdf-binary';
import { readMappingSettings, readOrder } from '../../helpers/order-input';
import { readPartnerToken } from '../../helpers/parameters';
import {
  createOptions,
  orderFields,
  waitForDocumentFields,
} from '../common.descriptions';

const properties: INodeProperties[] = [
  ...orderFields,
  ...waitForDocumentFields(),
  createOptions,
];

const displayOptions = { show: { resource: ['document'], operation: ['createFromOrder'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Maps the order with the package's shared order mapping (the same one the connector uses) and
 * creates the document. External ID = prefix + order ID, so running the same order twice is
 * refused by the service as a duplicate instead of issuing a second invoice.
 */
export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject | ItemWithBinary> {
  const { input, order } = readOrder(this, itemIndex);
  const settings = readMappingSettings(this, itemIndex);
  const mapped = documentForOrder(input, settings);
  const summary: IDataObject = {
    orderId: order.id,
    externalId: mapped.request.Document.ExternalId ?? null,
    documentType: mapped.request.Document.Type,
    // Shop total minus document total ("0.01") when per-rate rounding cannot reach the shop's; null when equal.
    totalDifference: mapped.totalDifference ?? null,
    notes: mapped.notes.map((note) => ({ ...note })),
  };
  if (mapped.hold) {
    // The mapping says a person must look first (e.g. a large consumer invoice without a NIF).
    return { ...summary, held: true, documentId: null };
  }
  const token = readPartnerToken(this, itemIndex);
  const created = await client.createDocument(mapped.request, token ? { token } : undefined);
  return createdDocumentOutput.call(this, itemIndex, client, created, mapped.request.IsToClose, token, {
    ...summary,
    held: false,
  });
}
