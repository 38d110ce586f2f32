import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { waybillForOrder } from '../../../../platforms/woocommerce/documents';
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
  {
    ...orderFields[0],
    hint: 'The load address comes from Mapping Settings: {"waybill": {"loadAddress": {...}}}',
  },
  orderFields[1],
  ...waitForDocumentFields(),
  createOptions,
];

const displayOptions = { show: { resource: ['waybill'], operation: ['createFromOrder'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Waybill for the goods of an order, loaded at the shop's address and sent to the shipping address. */
export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject | ItemWithBinary> {
  const { input, order } = readOrder(this, itemIndex);
  const settings = readMappingSettings(this, itemIndex);
  const mapped = waybillForOrder(input, settings, new Date());
  const summary: IDataObject = {
    orderId: order.id,
    externalId: mapped.request.Waybill.ExternalId ?? null,
    notes: mapped.notes.map((note) => ({ ...note })),
  };
  throwIfHeld(this.getNode(), itemIndex, mapped, summary);
  const token = readPartnerToken(this, itemIndex);
  const created = await createOnce(this.getNode(), itemIndex, mapped.request.Waybill.ExternalId, () => client.createWaybill(mapped.request, token ? { token } : undefined));
  if (created instanceof AlreadyIssued) return alreadyIssuedJson(created, summary);
  return createdDocumentOutput.call(this, itemIndex, client, created, mapped.request.IsToClose, token, {
    ...summary,
    documentNumber: created.documentNumber ?? null,
  });
}
