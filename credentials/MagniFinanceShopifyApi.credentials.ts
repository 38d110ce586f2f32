import type {
  IAuthenticateGeneric,
  ICredentialTestRequest,
  ICredentialType,
  INodeProperties,
} from 'n8n-workflow';

import { SHOPIFY_API_VERSION } from '../platforms/shopify/api-version';

/**
 * The Shopify store whose orders the node claims and writes back (Order Record: In the Shop, Shop
 * Platform: Shopify), through the GraphQL Admin API with an Admin API access token. n8n's own
 * Shopify credentials (shopifyAccessTokenApi, shopifyOAuth2Api in n8n-nodes-base) cannot be used:
 * n8n's rules for community packages forbid a node to use another package's credential type
 * (@n8n/community-nodes/no-credential-reuse). The token is sent as Shopify asks, in the
 * X-Shopify-Access-Token header, to the API version the connector pins.
 */
export class MagniFinanceShopifyApi implements ICredentialType {
  name = 'magniFinanceShopifyApi';

  displayName = 'MagniFinance: Shopify Shop API';

  icon = { light: 'file:magnifinance.svg', dark: 'file:magnifinance.dark.svg' } as const;

  documentationUrl = 'https://github.com/magnifinance/n8n-nodes-magnifinance/blob/main/docs/n8n.md';

  properties: INodeProperties[] = [
    {
      displayName: 'Shop URL',
      name: 'shopUrl',
      type: 'string',
      default: '',
      required: true,
      placeholder: 'https://loja.myshopify.com',
      description: 'The store\'s myshopify.com address (https)',
    },
    {
      displayName: 'Admin API Access Token',
      name: 'accessToken',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description:
        'The Admin API access token of an app installed on the store (shpat_…), with the scopes read_orders and write_orders (the claim and the number are app metafields on the order)',
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      headers: {
        'X-Shopify-Access-Token': '={{$credentials.accessToken}}',
      },
    },
  };

  // The store's name: a query any token may make; a wrong token is HTTP 401.
  test: ICredentialTestRequest = {
    request: {
      baseURL: `={{ String($credentials.shopUrl ?? '').trim().replace(/\\/+$/, '') }}/admin/api/${SHOPIFY_API_VERSION}`,
      url: '/graphql.json',
      method: 'POST',
      body: { query: '{ shop { name } }' },
      json: true,
    },
  };
}
