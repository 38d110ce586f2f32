import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as client from './actions/client';
import * as document from './actions/document';
import * as partner from './actions/partner';
import { router } from './actions/router';
import { LATEST_NODE_VERSION } from './helpers/address-fields';
import * as taxId from './actions/taxId';
import * as waybill from './actions/waybill';

export class MagniFinance implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'MagniFinance',
    name: 'magniFinance',
    icon: { light: 'file:magnifinance.svg', dark: 'file:magnifinance.dark.svg' },
    group: ['output'],
    // 2: one convention for field names (helpers/address-fields.ts); version-1 workflows keep their forms.
    // 3: Order Record "In the Shop" by default; version-2 workflows keep "None" and need no new credential.
    version: [1, 2, 3],
    defaultVersion: LATEST_NODE_VERSION,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: 'Issue certified Portuguese invoices and waybills, and invoice for partners, with MagniFinance',
    defaults: { name: 'MagniFinance' },
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    usableAsTool: true,
    credentials: [
      { name: 'magniFinanceApi', required: true },
      {
        name: 'magniFinanceWooCommerceApi',
        required: true,
        // Where an order is claimed and written back (Order Record: In the Shop): the invoice, the waybill and a refund's credit note.
        // Not for a Shopify order: that one is the Shopify credential below.
        displayOptions: {
          show: { operation: ['createFromOrder', 'createCreditNoteFromRefund'], resource: ['document', 'waybill'], orderRecord: ['shop'] },
          hide: { shopPlatform: ['shopify'] },
        },
      },
      {
        name: 'magniFinanceShopifyApi',
        required: true,
        // A Shopify order's claim and number, in its app metafields (GraphQL Admin API): the invoice, the waybill and a refund's credit note.
        displayOptions: {
          show: { operation: ['createFromOrder', 'createCreditNoteFromRefund'], resource: ['document', 'waybill'], orderRecord: ['shop'], shopPlatform: ['shopify'] },
        },
      },
    ],
    properties: [
      {
        displayName: 'Resource',
        name: 'resource',
        type: 'options',
        noDataExpression: true,
        options: [
          { name: 'Client', value: 'client' },
          { name: 'Document', value: 'document' },
          { name: 'Partner', value: 'partner' },
          { name: 'Tax ID', value: 'taxId' },
          { name: 'Waybill', value: 'waybill' },
        ],
        default: 'document',
      },
      ...document.description,
      ...waybill.description,
      ...partner.description,
      ...client.description,
      ...taxId.description,
    ],
  };

  async execute(this: IExecuteFunctions) {
    return await router.call(this);
  }
}
