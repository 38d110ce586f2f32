import type {
  IAuthenticateGeneric,
  ICredentialTestRequest,
  ICredentialType,
  INodeProperties,
} from 'n8n-workflow';

/**
 * The WooCommerce shop whose orders the node claims and writes back (Order Record: In the Shop).
 * n8n's community-package rules forbid a node to use another package's credential type
 * (@n8n/community-nodes/no-credential-reuse), so n8n's own WooCommerce credential cannot be reused:
 * this one holds the same three values. WooCommerce accepts the keys as HTTP Basic auth over
 * HTTPS only (over plain HTTP it asks for OAuth 1.0a signatures), as n8n's WooCommerce node does.
 */
export class MagniFinanceWooCommerceApi implements ICredentialType {
  name = 'magniFinanceWooCommerceApi';

  displayName = 'MagniFinance: WooCommerce Shop API';

  icon = { light: 'file:magnifinance.svg', dark: 'file:magnifinance.dark.svg' } as const;

  documentationUrl = 'https://github.com/magnifinance/n8n-nodes-magnifinance/blob/main/docs/n8n.md';

  properties: INodeProperties[] = [
    {
      displayName: 'Shop URL',
      name: 'url',
      type: 'string',
      default: '',
      required: true,
      placeholder: 'https://shop.example.pt',
      description: 'The address of the WordPress site with WooCommerce (https)',
    },
    {
      displayName: 'Consumer Key',
      name: 'consumerKey',
      type: 'string',
      // n8n-nodes-base asks a password field for any key; n8n's scanner only warns that a consumer key is no secret.
      typeOptions: { password: true },
      default: '',
      required: true,
      description: 'WooCommerce > Settings > Advanced > REST API: a key with Read/Write permissions',
    },
    {
      displayName: 'Consumer Secret',
      name: 'consumerSecret',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      auth: {
        username: '={{$credentials.consumerKey}}',
        password: '={{$credentials.consumerSecret}}',
      },
    },
  };

  // One order of the list: a read every key with Read permission may make; a wrong key is 401.
  test: ICredentialTestRequest = {
    request: {
      baseURL: `={{ String($credentials.url ?? '').trim().replace(/\\/+$/, '') }}/wp-json/wc/v3`,
      url: '/orders',
      method: 'GET',
      qs: { per_page: 1 },
    },
  };
}
