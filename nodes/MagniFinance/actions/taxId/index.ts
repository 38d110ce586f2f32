import type { INodeProperties } from 'n8n-workflow';

import * as validate from './validate.operation';

export { validate };

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['taxId'] } },
    options: [
      {
        name: 'Validate',
        value: 'validate',
        description: 'Check whether a tax ID is valid',
        action: 'Validate a tax ID',
      },
    ],
    default: 'validate',
  },
  ...validate.description,
];
