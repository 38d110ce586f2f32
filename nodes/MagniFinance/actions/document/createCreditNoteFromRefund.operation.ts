import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { externalIdForRefund } from '../../../../law/external-id';
import { creditNoteForRefund, type WooOrderInput, type WooRefundInput } from '../../../../platforms/woocommerce/documents';
import { alreadyIssuedJson, AlreadyIssued, createOnce } from '../../helpers/already-issued';
import { createdDocumentOutput } from '../../helpers/await-finalized-document';
import { throwIfHeld } from '../../helpers/held-order';
import { invoiceDocumentIdParameter, readInvoiceBuyer, recordedInvoiceId, type InvoiceBuyer } from '../../helpers/invoice-buyer';
import type { ItemWithBinary } from '../../helpers/pdf-binary';
import { orderFromJson, readMappingSettings, readOrder } from '../../helpers/order-input';
import { readJsonObject, readPartnerToken } from '../../helpers/parameters';
import { issueWithClaim } from '../../shop/issue-with-claim';
import { creditNoteRecord } from '../../shop/record-purposes';
import { shopOrders } from '../../shop/woo-rest';
import { creditShopifyRefund } from '../../shopify/shopify-order';
import { createOptions, orderFields, orderRecordFields, shopPlatformFields, waitForDocumentFields } from '../common.descriptions';

const properties: INodeProperties[] = [
  shopPlatformFields[0],
  ...orderFields,
  shopPlatformFields[1],
  ...orderRecordFields,
  {
    displayName: 'Refund',
    name: 'refund',
    type: 'json',
    required: true,
    default: '',
    description:
      'The refund: WooCommerce\'s (GET /orders/{ID}/refunds/{refund ID}, or the refund object of a webhook: amount, reason, refunded line items), or Shopify\'s as the Shopify Trigger outputs refunds/create',
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
  {
    displayName: 'Invoice Document ID',
    name: 'invoiceDocumentId',
    type: 'number',
    default: 0,
    typeOptions: { minValue: 0 },
    description:
      'The ID of that invoice in MagniFinance (the documentId of the run that issued it). The credit note names the buyer the invoice carried (CIVA art. 29(7), 78(2)), read from the invoice itself. Leave 0 when the order records its invoice (_magnifinance_document_id beside the same number, as Order Record: In the Shop and the connector write it); without either the credit note is refused, never issued to the buyer the order gives now.',
  },
  ...waitForDocumentFields(),
  createOptions,
];

const displayOptions = { show: { resource: ['document'], operation: ['createCreditNoteFromRefund'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Maps a WooCommerce refund with the package's refund mapping (the same one the connector uses)
 * into the credit note (C) that corrects the order's invoice, and creates it. The External ID is
 * per refund. Order Record "In the Shop" (the default from node version 3): claimed on the order
 * like the invoice (shop/issue-with-claim.ts: draft, its id on the claim, closed by id), its number
 * written as `_magnifinance_credit_note_<refund id>`, so a repeated or concurrent run gives one
 * credit note even when the buyer changed between runs. "None": the External ID alone, which the
 * service checks together with the buyer.
 */
export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject | ItemWithBinary> {
  const settings = readMappingSettings(this, itemIndex);
  const invoiceNumber = String(this.getNodeParameter('invoiceNumber', itemIndex, '')).trim();
  if (!invoiceNumber) {
    throw new NodeOperationError(this.getNode(), 'Invoice Number is required: a credit note must name the invoice it corrects', { itemIndex });
  }
  if (this.getNodeParameter('shopPlatform', itemIndex, 'woocommerce') === 'shopify') {
    return await creditShopifyRefund(this, itemIndex, client, settings, invoiceNumber, readPartnerToken(this, itemIndex));
  }
  const { input, order } = readOrder(this, itemIndex);
  const refund = readJsonObject(this, 'refund', 'Refund', itemIndex) as WooRefundInput;
  const refundId = (refund as { id?: unknown }).id;
  const token = readPartnerToken(this, itemIndex);
  const givenInvoiceId = invoiceDocumentIdParameter(this, itemIndex);
  // The buyer the invoice carried, read once from the invoice (its id given, or recorded on the order as the shop has it).
  let invoiceBuyer: InvoiceBuyer | undefined;
  const buyerOfInvoice = async (meta: readonly { key: string; value?: unknown }[] | undefined): Promise<InvoiceBuyer> => {
    invoiceBuyer ??= await readInvoiceBuyer(
      this,
      itemIndex,
      client,
      token,
      { invoiceNumber, documentId: givenInvoiceId ?? recordedInvoiceId(meta, invoiceNumber), order: `#${order.id}` },
      { orderId: order.id, refundId: refundId ?? null, reference: invoiceNumber },
    );
    return invoiceBuyer;
  };
  const mapCreditNote = (from: WooOrderInput, buyer: InvoiceBuyer) => {
    const mapped = creditNoteForRefund(from, refund, invoiceNumber, settings, { invoiceBuyer: buyer });
    const summary: IDataObject = {
      orderId: order.id,
      refundId: refundId ?? null,
      externalId: mapped.request.Document.ExternalId ?? null,
      documentType: mapped.request.Document.Type,
      reference: invoiceNumber,
      totalDifference: mapped.totalDifference ?? null,
      notes: mapped.notes.map((note) => ({ ...note })),
    };
    throwIfHeld(this.getNode(), itemIndex, mapped, summary);
    return { mapped, summary };
  };
  if (this.getNodeParameter('orderRecord', itemIndex) === 'shop') {
    if (typeof refundId !== 'number' || !Number.isInteger(refundId) || refundId <= 0) {
      throw new NodeOperationError(this.getNode(), 'Refund has no id: the order record keeps each refund\'s credit note under its id', {
        itemIndex,
        description: 'Give the refund as WooCommerce sends it (GET /orders/{ID}/refunds/{refund ID}), with its "id".',
      });
    }
    return await issueWithClaim.call(this, {
      itemIndex,
      client,
      shop: await shopOrders(this),
      orderId: order.id,
      externalId: externalIdForRefund(order.id, refundId, settings),
      purpose: creditNoteRecord(refundId),
      token,
      build: async (fresh) => {
        const buyer = await buyerOfInvoice(fresh.meta_data);
        const { mapped, summary } = mapCreditNote(orderFromJson(this, fresh, itemIndex).input, buyer);
        return { kind: 'document', request: mapped.request, summary };
      },
    });
  }
  const { mapped, summary } = mapCreditNote(input, await buyerOfInvoice(order.meta_data));
  const created = await createOnce(this.getNode(), itemIndex, mapped.request.Document.ExternalId, () => client.createDocument(mapped.request, token ? { token } : undefined));
  if (created instanceof AlreadyIssued) return alreadyIssuedJson(created, summary);
  return createdDocumentOutput.call(this, itemIndex, client, created, mapped.request.IsToClose, token, summary);
}
