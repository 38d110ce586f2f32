import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import type { MagniFinanceClient } from '../../../client/rest-client';
import { shopifySaleSettingsSchema, type ShopifySaleSettings } from '../../../connector/config/shopify-tenant';
import { OrderMappingError } from '../../../law/mapping-errors';
import type { MappingSettings } from '../../../law/mapping-settings';
import { externalIdForOrder, externalIdForRefund, externalIdForWaybill } from '../../../law/external-id';
import { waybillForSale } from '../../../law/order-to-waybill';
import { documentForSale, type OrderDocument } from '../../../law/order-to-document';
import { creditNoteForRefund } from '../../../law/refund-to-credit-note';
import type { Sale, SaleRefund } from '../../../law/sale';
import { nifMetafieldOf } from '../../../platforms/shopify/buyer-nif';
import { parseShopifyOrder, parseShopifyRefund } from '../../../platforms/shopify/order-query';
import { shopifyOrderToSale } from '../../../platforms/shopify/order-to-sale';
import { shopifyRefundToSaleRefund } from '../../../platforms/shopify/refund-to-sale-refund';
import { alreadyIssuedJson, AlreadyIssued, createOnce } from '../helpers/already-issued';
import { createdDocumentOutput } from '../helpers/await-finalized-document';
import { throwIfHeld } from '../helpers/held-order';
import { invoiceDocumentIdParameter, readInvoiceBuyer, recordedInvoiceId, type InvoiceBuyer } from '../helpers/invoice-buyer';
import { issueWithClaim } from '../shop/issue-with-claim';
import { creditNoteRecord, INVOICE_RECORD, WAYBILL_RECORD } from '../shop/record-purposes';
import { shopifyOrders, type ShopifyShop } from '../shop/shopify-orders';
import { nodeErrorFor, refusedOrderError } from '../helpers/node-errors';
import type { ItemWithBinary } from '../helpers/pdf-binary';
import { readJsonObject } from '../helpers/parameters';
import { shopifyOrderOfRest, shopifyRefundOfRest, ShopifyRestOrderSchema, ShopifyRestRefundSchema, type ShopifyRestOrder } from '../../../platforms/shopify/rest-payloads';
import { SHOPIFY_ORDER_FIX, shopifyText, type ShopifyMessage } from './shopify-messages';

/**
 * The two from-order operations for a Shopify order (Shop Platform: Shopify): the order and the
 * refund as n8n's Shopify Trigger or Shopify node give them (platforms/shopify/rest-payloads.ts, beside the adapter's other Shopify quirks), mapped by the
 * connector's own Shopify mapping into the neutral sale and through the same law (law/), so the
 * holds, the refusals and the External ID are the connector's. Order Record "None": the External ID
 * is the record, and the order is mapped from the item (the webhook's REST body). "In the Shop":
 * the order is claimed in its app metafields through the GraphQL Admin API (../shop/shopify-orders.ts,
 * with the MagniFinance: Shopify Shop API credential) as a WooCommerce order is in its meta, and the
 * order and refund are read as the connector reads them (only their ids are taken from the items).
 */

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('\n');
}

/** A failed item that says why in both languages, coded (`why`), with what to do. */
function refusal(context: IExecuteFunctions, itemIndex: number, message: ShopifyMessage, facts: IDataObject): NodeOperationError {
  const whatToDo = shopifyText('en', message, 'whatToDo');
  const error = new NodeOperationError(context.getNode(), shopifyText('en', message, 'reason'), { itemIndex, description: whatToDo });
  Object.assign(error.context, {
    refused: true,
    ...facts,
    why: { code: message.code, params: { ...message.params } },
    whyPt: `${shopifyText('pt', message, 'reason')}. ${shopifyText('pt', message, 'whatToDo')}`,
    whatToDo,
  });
  return error;
}

/** The law's and the Shopify mapping's refusals, told with the Shopify fix. */
function inShopifyWords<T>(context: IExecuteFunctions, itemIndex: number, map: () => T): T {
  try {
    return map();
  } catch (error) {
    if (error instanceof OrderMappingError) throw refusedOrderError(context.getNode(), error, itemIndex, SHOPIFY_ORDER_FIX.en);
    throw nodeErrorFor(context.getNode(), error, itemIndex);
  }
}

export function readShopifyOrder(context: IExecuteFunctions, itemIndex: number): ShopifyRestOrder {
  const parsed = ShopifyRestOrderSchema.safeParse(readJsonObject(context, 'order', 'Order', itemIndex));
  if (!parsed.success) {
    throw new NodeOperationError(context.getNode(), 'Order is not a Shopify order', {
      itemIndex,
      description: `Give the order as the Shopify Trigger (orders/paid, orders/updated) or the Shopify node (Order > Get) outputs it.\n${issuesText(parsed.error)}`,
    });
  }
  return parsed.data;
}

function readShopifySettings(context: IExecuteFunctions, itemIndex: number): ShopifySaleSettings {
  const parsed = shopifySaleSettingsSchema.safeParse(readJsonObject(context, 'shopifySettings', 'Shopify Settings (JSON)', itemIndex) ?? {});
  if (!parsed.success) throw new NodeOperationError(context.getNode(), 'Invalid Shopify Settings (JSON)', { itemIndex, description: issuesText(parsed.error) });
  return parsed.data;
}

/** The order as the neutral sale, once the NIF sources are ones a REST order can answer. */
function saleOf(context: IExecuteFunctions, itemIndex: number, order: ShopifyRestOrder, settings: ShopifySaleSettings): Sale {
  const facts = { orderId: order.id, orderName: order.name };
  const metafield = settings.nifSources.find((source) => source.from === 'metafield');
  if (metafield?.from === 'metafield') {
    throw refusal(context, itemIndex, { code: 'shopify-metafield-nif-unread', params: { order: order.name, metafield: `${metafield.namespace}.${metafield.key}` } }, facts);
  }
  if (order.company && settings.nifSources.some((source) => source.from === 'company')) {
    throw refusal(context, itemIndex, { code: 'shopify-company-nif-unread', params: { order: order.name } }, facts);
  }
  return inShopifyWords(context, itemIndex, () => shopifyOrderToSale(parseShopifyOrder(shopifyOrderOfRest(order)), settings));
}

const inTheShop = (context: IExecuteFunctions, itemIndex: number): boolean => context.getNodeParameter('orderRecord', itemIndex) === 'shop';

/** The order as the shop has it now (GraphQL, as the connector reads it), as the neutral sale. */
async function saleNow(context: IExecuteFunctions, itemIndex: number, shop: ShopifyShop, orderId: number, settings: ShopifySaleSettings): Promise<Sale> {
  const order = await shop.readOrder(orderId, nifMetafieldOf(settings.nifSources));
  return inShopifyWords(context, itemIndex, () => shopifyOrderToSale(order, settings));
}

async function create(
  context: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
  mapped: Pick<OrderDocument, 'request'>,
  token: string | undefined,
  summary: IDataObject,
): Promise<IDataObject | ItemWithBinary> {
  const created = await createOnce(context.getNode(), itemIndex, mapped.request.Document.ExternalId, () => client.createDocument(mapped.request, token ? { token } : undefined));
  if (created instanceof AlreadyIssued) return alreadyIssuedJson(created, summary);
  return createdDocumentOutput.call(context, itemIndex, client, created, mapped.request.IsToClose, token, summary);
}

/** Document > Create From Order, Shop Platform: Shopify. */
export async function invoiceShopifyOrder(
  context: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
  settings: MappingSettings,
  token: string | undefined,
): Promise<IDataObject | ItemWithBinary> {
  const order = readShopifyOrder(context, itemIndex);
  const shopifySettings = readShopifySettings(context, itemIndex);
  const mapOrder = (sale: Sale) => {
    const mapped = inShopifyWords(context, itemIndex, () => documentForSale(sale, settings));
    const summary: IDataObject = {
      orderId: order.id,
      orderName: order.name,
      shopPlatform: 'shopify',
      externalId: mapped.request.Document.ExternalId ?? null,
      documentType: mapped.request.Document.Type,
      totalDifference: mapped.totalDifference ?? null,
      notes: mapped.notes.map((note) => ({ ...note })),
    };
    throwIfHeld(context.getNode(), itemIndex, mapped, summary, SHOPIFY_ORDER_FIX.en);
    return { mapped, summary: { ...summary, held: false } };
  };
  if (inTheShop(context, itemIndex)) {
    const shop = await shopifyOrders(context);
    return await issueWithClaim.call(context, {
      itemIndex,
      client,
      shop,
      orderId: order.id,
      externalId: externalIdForOrder(order.id, settings),
      purpose: INVOICE_RECORD,
      token,
      build: async () => {
        const { mapped, summary } = mapOrder(await saleNow(context, itemIndex, shop, order.id, shopifySettings));
        return { kind: 'document', request: mapped.request, summary };
      },
    });
  }
  const { mapped, summary } = mapOrder(saleOf(context, itemIndex, order, shopifySettings));
  return await create(context, itemIndex, client, mapped, token, summary);
}

/** Document > Create Credit Note From Refund, Shop Platform: Shopify: the refunds/create body and its order. */
export async function creditShopifyRefund(
  context: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
  settings: MappingSettings,
  invoiceNumber: string,
  token: string | undefined,
): Promise<IDataObject | ItemWithBinary> {
  const order = readShopifyOrder(context, itemIndex);
  const parsedRefund = ShopifyRestRefundSchema.safeParse(readJsonObject(context, 'refund', 'Refund', itemIndex));
  if (!parsedRefund.success) {
    throw new NodeOperationError(context.getNode(), 'Refund is not a Shopify refund', {
      itemIndex,
      description: `Give the refund as the Shopify Trigger (refunds/create) outputs it.\n${issuesText(parsedRefund.error)}`,
    });
  }
  const refund = parsedRefund.data;
  const facts = { orderId: order.id, orderName: order.name, refundId: refund.id };
  if (refund.order_id !== order.id) {
    throw refusal(context, itemIndex, { code: 'shopify-refund-other-order', params: { order: order.name, orderId: order.id, refundId: refund.id, refundOrderId: refund.order_id } }, facts);
  }
  const shopifySettings = readShopifySettings(context, itemIndex);
  const givenInvoiceId = invoiceDocumentIdParameter(context, itemIndex);
  // The buyer the invoice carried (CIVA art. 29(7), 78(2)), read from the invoice itself: its id given, or (In the Shop) recorded in the order's metafields.
  const buyerOfInvoice = async (meta: readonly { key: string; value?: unknown }[] | undefined) =>
    await readInvoiceBuyer(
      context,
      itemIndex,
      client,
      token,
      { invoiceNumber, documentId: givenInvoiceId ?? recordedInvoiceId(meta, invoiceNumber), order: order.name },
      { ...facts, reference: invoiceNumber },
    );
  const mapCredit = (sale: Sale, saleRefund: () => SaleRefund, invoiceBuyer: InvoiceBuyer) => {
    const mapped = inShopifyWords(context, itemIndex, () => creditNoteForRefund(sale, saleRefund(), invoiceNumber, settings, { invoiceBuyer }));
    const summary: IDataObject = {
      ...facts,
      shopPlatform: 'shopify',
      externalId: mapped.request.Document.ExternalId ?? null,
      documentType: mapped.request.Document.Type,
      reference: invoiceNumber,
      totalDifference: mapped.totalDifference ?? null,
      notes: mapped.notes.map((note) => ({ ...note })),
    };
    throwIfHeld(context.getNode(), itemIndex, mapped, summary, SHOPIFY_ORDER_FIX.en);
    return { mapped, summary };
  };
  if (inTheShop(context, itemIndex)) {
    const shop = await shopifyOrders(context);
    let invoiceBuyer: InvoiceBuyer | undefined;
    return await issueWithClaim.call(context, {
      itemIndex,
      client,
      shop,
      orderId: order.id,
      externalId: externalIdForRefund(order.id, refund.id, settings),
      purpose: creditNoteRecord(refund.id),
      token,
      build: async (fresh) => {
        invoiceBuyer ??= await buyerOfInvoice(fresh.meta_data);
        const sale = await saleNow(context, itemIndex, shop, order.id, shopifySettings);
        const raw = await shop.readRefund(refund.id);
        const { mapped, summary } = mapCredit(sale, () => shopifyRefundToSaleRefund(parseShopifyRefund(raw, sale.id), sale), invoiceBuyer);
        return { kind: 'document', request: mapped.request, summary };
      },
    });
  }
  const sale = saleOf(context, itemIndex, order, shopifySettings);
  const foreign = refund.transactions.find((t) => t.currency !== sale.currency);
  if (foreign) {
    throw refusal(
      context,
      itemIndex,
      { code: 'shopify-refund-currency-unread', params: { order: order.name, refundId: refund.id, refundCurrency: foreign.currency, invoiceCurrency: sale.currency } },
      facts,
    );
  }
  // A webhook body carries no metafields: the invoice's id is the field's.
  const invoiceBuyer = await buyerOfInvoice(undefined);
  const { mapped, summary } = mapCredit(sale, () => shopifyRefundToSaleRefund(parseShopifyRefund(shopifyRefundOfRest(refund, order), sale.id), sale), invoiceBuyer);
  return await create(context, itemIndex, client, mapped, token, summary);
}

/**
 * Waybill > Create From Order, Shop Platform: Shopify: the order's goods as the law's waybill of the
 * neutral sale (law/order-to-waybill.ts, as for WooCommerce), loaded at Mapping Settings'
 * `waybill.loadAddress`. "In the Shop": claimed in the order's app metafields, its number written as
 * `magnifinance_waybill` (the connector's key).
 */
export async function waybillShopifyOrder(
  context: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
  settings: MappingSettings,
  token: string | undefined,
): Promise<IDataObject | ItemWithBinary> {
  const order = readShopifyOrder(context, itemIndex);
  const shopifySettings = readShopifySettings(context, itemIndex);
  const mapWaybill = (sale: Sale) => {
    const mapped = inShopifyWords(context, itemIndex, () => waybillForSale(sale, settings, new Date()));
    const summary: IDataObject = {
      orderId: order.id,
      orderName: order.name,
      shopPlatform: 'shopify',
      externalId: mapped.request.Waybill.ExternalId ?? null,
      notes: mapped.notes.map((note) => ({ ...note })),
    };
    throwIfHeld(context.getNode(), itemIndex, mapped, summary, SHOPIFY_ORDER_FIX.en);
    return { mapped, summary };
  };
  if (inTheShop(context, itemIndex)) {
    const shop = await shopifyOrders(context);
    return await issueWithClaim.call(context, {
      itemIndex,
      client,
      shop,
      orderId: order.id,
      externalId: externalIdForWaybill(order.id, settings),
      purpose: WAYBILL_RECORD,
      token,
      build: async () => {
        const { mapped, summary } = mapWaybill(await saleNow(context, itemIndex, shop, order.id, shopifySettings));
        return { kind: 'waybill', request: mapped.request, summary };
      },
    });
  }
  const { mapped, summary } = mapWaybill(saleOf(context, itemIndex, order, shopifySettings));
  const created = await createOnce(context.getNode(), itemIndex, mapped.request.Waybill.ExternalId, () => client.createWaybill(mapped.request, token ? { token } : undefined));
  if (created instanceof AlreadyIssued) return alreadyIssuedJson(created, summary);
  return createdDocumentOutput.call(context, itemIndex, client, created, mapped.request.IsToClose, token, { ...summary, documentNumber: created.documentNumber ?? null });
}
