import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { externalIdForWaybill } from '../../../../law/external-id';
import { waybillForOrder, type WooOrderInput } from '../../../../platforms/woocommerce/documents';
import { alreadyIssuedJson, AlreadyIssued, createOnce } from '../../helpers/already-issued';
import { createdDocumentOutput } from '../../helpers/await-finalized-document';
import { throwIfHeld } from '../../helpers/held-order';
import type { ItemWithBinary } from '../../helpers/pdf-binary';
import { orderFromJson, readMappingSettings, readOrder } from '../../helpers/order-input';
import { readPartnerToken } from '../../helpers/parameters';
import { issueWithClaim } from '../../shop/issue-with-claim';
import { WAYBILL_RECORD } from '../../shop/record-purposes';
import { shopOrders } from '../../shop/woo-rest';
import { waybillShopifyOrder } from '../../shopify/shopify-order';
import {
  createOptions,
  orderFields,
  orderRecordFields,
  shopPlatformFields,
  waitForDocumentFields,
} from '../common.descriptions';

const properties: INodeProperties[] = [
  shopPlatformFields[0],
  {
    ...orderFields[0],
    hint: 'The load address comes from Mapping Settings: {"waybill": {"loadAddress": {...}}}',
  },
  orderFields[1],
  shopPlatformFields[1],
  ...orderRecordFields,
  ...waitForDocumentFields(),
  createOptions,
];

const displayOptions = { show: { resource: ['waybill'], operation: ['createFromOrder'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Waybill for the goods of an order, loaded at the shop's address and sent to the shipping address.
 * Order Record "In the Shop" (the default from node version 3): claimed on the order like the
 * invoice (shop/issue-with-claim.ts), its number written as `_magnifinance_waybill`; the service
 * has no waybill draft, so a run that died between the create and naming it leaves a claim a
 * person settles, never a second create.
 */
export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject | ItemWithBinary> {
  const settings = readMappingSettings(this, itemIndex);
  const token = readPartnerToken(this, itemIndex);
  if (this.getNodeParameter('shopPlatform', itemIndex, 'woocommerce') === 'shopify') return await waybillShopifyOrder(this, itemIndex, client, settings, token);
  const { input, order } = readOrder(this, itemIndex);
  const mapWaybill = (from: WooOrderInput) => {
    const mapped = waybillForOrder(from, settings, new Date());
    const summary: IDataObject = {
      orderId: order.id,
      externalId: mapped.request.Waybill.ExternalId ?? null,
      notes: mapped.notes.map((note) => ({ ...note })),
    };
    throwIfHeld(this.getNode(), itemIndex, mapped, summary);
    return { mapped, summary };
  };
  if (this.getNodeParameter('orderRecord', itemIndex) === 'shop') {
    return await issueWithClaim.call(this, {
      itemIndex,
      client,
      shop: await shopOrders(this),
      orderId: order.id,
      externalId: externalIdForWaybill(order.id, settings),
      purpose: WAYBILL_RECORD,
      token,
      build: (fresh) => {
        const { mapped, summary } = mapWaybill(orderFromJson(this, fresh, itemIndex).input);
        return { kind: 'waybill', request: mapped.request, summary };
      },
    });
  }
  const { mapped, summary } = mapWaybill(input);
  const created = await createOnce(this.getNode(), itemIndex, mapped.request.Waybill.ExternalId, () => client.createWaybill(mapped.request, token ? { token } : undefined));
  if (created instanceof AlreadyIssued) return alreadyIssuedJson(created, summary);
  return createdDocumentOutput.call(this, itemIndex, client, created, mapped.request.IsToClose, token, {
    ...summary,
    documentNumber: created.documentNumber ?? null,
  });
}
