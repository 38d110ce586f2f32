import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { externalIdForOrder } from '../../../../law/external-id';
import { documentForOrder, type WooOrderInput } from '../../../../platforms/woocommerce/documents';
import { alreadyIssuedJson, AlreadyIssued, createOnce } from '../../helpers/already-issued';
import { createdDocumentOutput } from '../../helpers/await-finalized-document';
import { throwIfHeld } from '../../helpers/held-order';
import type { ItemWithBinary } from '../../helpers/pdf-binary';
import { orderFromJson, readMappingSettings, readOrder } from '../../helpers/order-input';
import { readPartnerToken } from '../../helpers/parameters';
import { issueWithClaim } from '../../shop/issue-with-claim';
import { INVOICE_RECORD } from '../../shop/record-purposes';
import { shopOrders } from '../../shop/woo-rest';
import { invoiceShopifyOrder } from '../../shopify/shopify-order';
import {
  createOptions,
  orderFields,
  orderRecordFields,
  shopPlatformFields,
  waitForDocumentFields,
} from '../common.descriptions';

const properties: INodeProperties[] = [
  shopPlatformFields[0],
  ...orderFields,
  shopPlatformFields[1],
  ...orderRecordFields,
  ...waitForDocumentFields(),
  createOptions,
];

const displayOptions = { show: { resource: ['document'], operation: ['createFromOrder'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Maps the order with the package's shared order mapping (the same one the connector uses) and
 * creates the document. A held order fails its item with the reasons.
 *
 * Order Record "In the Shop" (the default from node version 3): the order in WooCommerce is the record every run
 * shares (shop/issue-with-claim.ts): a number already on it is reported, never issued again; a
 * claim by another run is resumed by its document id or waited for; the order is mapped as the
 * shop has it at that moment (a NIF saved while a run waited is on the order's only invoice when
 * its draft was not closed yet), and the number is written on the order before the next item.
 *
 * Shop Platform "Shopify": the Shopify Trigger's or Shopify node's order, mapped by the connector's
 * Shopify mapping through the same law (shopify/shopify-order.ts); Order Record "None" only.
 *
 * "None": External ID = prefix + order ID; the service refuses the same External ID for the same
 * buyer as a duplicate and the node outputs it as already issued. A buyer changed between two runs
 * is not caught there.
 */
export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject | ItemWithBinary> {
  const settings = readMappingSettings(this, itemIndex);
  const token = readPartnerToken(this, itemIndex);
  if (this.getNodeParameter('shopPlatform', itemIndex, 'woocommerce') === 'shopify') return await invoiceShopifyOrder(this, itemIndex, client, settings, token);
  const { input, order } = readOrder(this, itemIndex);
  const mapOrder = (from: WooOrderInput) => {
    const mapped = documentForOrder(from, settings);
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
    return { mapped, summary: { ...summary, held: false } };
  };
  if (this.getNodeParameter('orderRecord', itemIndex) === 'shop') {
    return await issueWithClaim.call(this, {
      itemIndex,
      client,
      shop: await shopOrders(this),
      orderId: order.id,
      externalId: externalIdForOrder(order.id, settings),
      purpose: INVOICE_RECORD,
      token,
      build: (fresh) => {
        const { mapped, summary } = mapOrder(orderFromJson(this, fresh, itemIndex).input);
        return { kind: 'document', request: mapped.request, summary };
      },
    });
  }
  const { mapped, summary } = mapOrder(input);
  const externalId = mapped.request.Document.ExternalId;
  const created = await createOnce(this.getNode(), itemIndex, externalId, () => client.createDocument(mapped.request, token ? { token } : undefined));
  if (created instanceof AlreadyIssued) return alreadyIssuedJson(created, summary);
  return createdDocumentOutput.call(this, itemIndex, client, created, mapped.request.IsToClose, token, summary);
}
