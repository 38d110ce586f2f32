import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { documentForOrder } from '../../../../platforms/woocommerce/documents';
import { alreadyIssuedJson, AlreadyIssued, createOnce } from '../../helpers/already-issued';
import { createdDocumentOutput } from '../../helpers/await-finalized-document';
import { throwIfHeld } from '../../helpers/held-order';
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
 * creates the document. A held order fails its item with the reasons. External ID = prefix +
 * order ID, so the same order again is refused by the service as a duplicate instead of issuing a
 * second invoice, and the node outputs it as already issued.
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
  // The mapping says a person must act first (e.g. a large consumer invoice without name and address).
  throwIfHeld(this.getNode(), itemIndex, mapped, summary);
  const token = readPartnerToken(this, itemIndex);
  const externalId = mapped.request.Document.ExternalId;
  const created = await createOnce(this.getNode(), itemIndex, externalId, () => client.createDocument(mapped.request, token ? { token } : undefined));
  if (created instanceof AlreadyIssued) return alreadyIssuedJson(created, { ...summary, held: false });
  return createdDocumentOutput.call(this, itemIndex, client, created, mapped.request.IsToClose, token, {
    ...summary,
    held: false,
  });
}
