import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['client'] } },
    options: [
      {
        name: 'Get',
        value: 'get',
        description: 'Get the registered company data of a tax ID',
        action: 'Get a client',
      },
    ],
    default: 'get',
  },
  ...get.description,
];
