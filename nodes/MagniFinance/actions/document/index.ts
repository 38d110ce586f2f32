import type { INodeProperties } from 'n8n-workflow';

import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as createCreditNoteFromRefund from './createCreditNoteFromRefund.operation';
import * as createFromOrder from './createFromOrder.operation';
import * as get from './get.operation';
import * as getPaymentStatus from './getPaymentStatus.operation';

export { cancel, create, createCreditNoteFromRefund, createFromOrder, get, getPaymentStatus };

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['document'] } },
    options: [
      {
        name: 'Cancel',
        value: 'cancel',
        description: 'Cancel a closed document (irreversible)',
        action: 'Cancel a document',
      },
      {
        name: 'Create',
        value: 'create',
        description: 'Create an invoice, invoice-receipt, simplified invoice, credit or debit note',
        action: 'Create a document',
      },
      {
        name: 'Create Credit Note From WooCommerce Refund',
        value: 'createCreditNoteFromRefund',
        description: 'Create the credit note of a WooCommerce refund, referencing the order\'s invoice',
        action: 'Create a credit note from a refund',
      },
      {
        name: 'Create From WooCommerce Order',
        value: 'createFromOrder',
        description: 'Create the invoice of a WooCommerce order with the package\'s order mapping',
        action: 'Create a document from an order',
      },
      {
        name: 'Get',
        value: 'get',
        description: 'Get a document with its number and PDF link',
        action: 'Get a document',
      },
      {
        name: 'Get Payment Status',
        value: 'getPaymentStatus',
        description: 'Get whether a document is paid and how much remains unpaid',
        action: 'Get the payment status of a document',
      },
    ],
    default: 'create',
  },
  ...create.description,
  ...createCreditNoteFromRefund.description,
  ...createFromOrder.description,
  ...get.description,
  ...getPaymentStatus.description,
  ...cancel.description,
];
