import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as createFromOrder from './createFromOrder.operation';

export { create, createFromOrder };

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['waybill'] } },
    options: [
      {
        name: 'Create',
        value: 'create',
        description: 'Create a waybill or delivery note for goods in transit',
        action: 'Create a waybill',
      },
      {
        name: 'Create From WooCommerce Order',
        value: 'createFromOrder',
        description: 'Create the waybill for the goods of a WooCommerce order',
        action: 'Create a waybill from an order',
      },
    ],
    default: 'create',
  },
  ...create.description,
  ...createFromOrder.description,
];
