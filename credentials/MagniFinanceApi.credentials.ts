import type {
  IAuthenticateGeneric,
  ICredentialTestRequest,
  ICredentialType,
  INodeProperties,
} from 'n8n-workflow';

/**
 * The service's REST root, used when Base URL is left empty (as the node's client does). Kept here
 * rather than imported from the client so the credential's bundle stays free of the client; a test
 * checks the two agree.
 */
export const SERVICE_BASE_URL = 'https://bo.magnifinance.com/api/v1.1';

/**
 * MagniFinance authenticates every REST call with two plain headers, `email` and `token`.
 * The credential owns that rule so the node never attaches secrets by hand: every request goes
 * through `httpRequestWithAuthentication`, which applies `authenticate` below.
 */
export class MagniFinanceApi implements ICredentialType {
  name = 'magniFinanceApi';

  displayName = 'MagniFinance API';

  icon = { light: 'file:magnifinance.svg', dark: 'file:magnifinance.dark.svg' } as const;

  documentationUrl = 'https://github.com/magnifinance/n8n-nodes-magnifinance/blob/main/docs/n8n.md';

  properties: INodeProperties[] = [
    {
      displayName: 'Email',
      name: 'email',
      type: 'string',
      placeholder: 'name@email.com',
      default: '',
      required: true,
      description: 'E-mail of the API user of the MagniFinance subscription',
    },
    {
      displayName: 'Token',
      name: 'token',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description:
        'Token of the subscription in which documents are created. To invoice for a partner, keep your own token here and set the partner token in the node options.',
    },
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: SERVICE_BASE_URL,
      placeholder: `e.g. ${SERVICE_BASE_URL}`,
      description:
        'REST root including the version segment; empty means the service\'s own. Point it at a local sandbox (e.g. http://127.0.0.1:4545/api/v1.1) to try the node without an account.',
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      headers: {
        email: '={{$credentials.email}}',
        token: '={{$credentials.token}}',
      },
    },
  };

  // Tax-id validation of the final-consumer NIF is a read with no side effects that succeeds
  // for any valid account and is refused with HTTP 401 for a wrong e-mail or token. An empty Base
  // URL tests the service's own root, the one the node then calls.
  test: ICredentialTestRequest = {
    request: {
      baseURL: `={{ String($credentials.baseUrl ?? '').trim() || '${SERVICE_BASE_URL}' }}`,
      url: '/taxIdValidation',
      method: 'GET',
      qs: { countryCode: 'PT', taxId: '999999990' },
    },
    rules: [
      {
        type: 'responseSuccessBody',
        properties: {
          key: 'ErrorValue.Name',
          value: 'AuthenticationError',
          message: 'The e-mail or token was refused by MagniFinance',
        },
      },
    ],
  };
}
