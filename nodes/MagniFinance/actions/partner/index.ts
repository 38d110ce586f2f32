import type { INodeProperties } from 'n8n-workflow';

import * as add from './add.operation';
import * as getAccessTokens from './getAccessTokens.operation';

export { add, getAccessTokens };

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['partner'] } },
    options: [
      {
        name: 'Add',
        value: 'add',
        description: 'Register a company as a partner to invoice on its behalf',
        action: 'Add a partner',
      },
      {
        name: 'Get Access Tokens',
        value: 'getAccessTokens',
        description: 'Get the token of a partner that has granted access',
        action: 'Get the access tokens of a partner',
      },
    ],
    default: 'add',
  },
  ...add.description,
  ...getAccessTokens.description,
];
