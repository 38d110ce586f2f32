import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { AuthenticationError } from '../../../../client/errors';
import type { MagniFinanceClient } from '../../../../client/rest-client';
import { nodeErrorFor } from '../../helpers/node-errors';

const properties: INodeProperties[] = [
  {
    displayName: 'Partner Tax ID',
    name: 'partnerTaxId',
    type: 'string',
    required: true,
    default: '',
    placeholder: 'e.g. 509442013',
    description: 'Tax ID of the partner company; its token is available once it has granted access',
  },
  {
    displayName: 'Endpoint',
    name: 'tokensEndpoint',
    type: 'options',
    default: 'documented',
    description: 'Which form of Get Partner Access Tokens to call',
    options: [
      {
        name: 'MagniFinance (AccessTokens, with Password)',
        value: 'documented',
        description: 'GET /partner/accessTokens?partnerTaxId= with the main API user\'s password, as MagniFinance documents it',
      },
      {
        name: 'Spec (Tokens)',
        value: 'spec',
        description: 'GET /partner/tokens?taxId=, the form of the interface specification',
      },
    ],
  },
  {
    displayName: 'Main API User Password',
    name: 'mainUserPassword',
    type: 'string',
    typeOptions: { password: true },
    required: true,
    default: '',
    displayOptions: { show: { tokensEndpoint: ['documented'] } },
    description:
      'Password of the main API user of your partner-invoicing account. MagniFinance asks for it on this call only; use an expression reading it from a secret store rather than typing it here.',
  },
];

const displayOptions = { show: { resource: ['partner'], operation: ['getAccessTokens'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** One output item per token, ready to feed the Partner Token option of a create. */
export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject[]> {
  const taxId = String(this.getNodeParameter('partnerTaxId', itemIndex)).trim();
  const form = this.getNodeParameter('tokensEndpoint', itemIndex, 'documented') as 'documented' | 'spec';
  const tokens =
    form === 'spec'
      ? await client.getPartnerAccessTokens(taxId, { form: 'spec' })
      : await withPasswordNamed(this, itemIndex, client.getPartnerAccessTokens(taxId, { password: String(this.getNodeParameter('mainUserPassword', itemIndex)) }));
  return tokens.map((entry) => ({
    partnerTaxId: entry.taxId ?? taxId,
    token: entry.token,
    name: entry.name ?? null,
    description: entry.description ?? null,
  }));
}

/**
 * This is the one call that sends the main API user's password, and the service refuses a wrong
 * one as it refuses a wrong token (AuthenticationError): the error names the password first.
 */
async function withPasswordNamed<T>(context: IExecuteFunctions, itemIndex: number, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof AuthenticationError)) throw nodeErrorFor(context.getNode(), error, itemIndex);
    const refused = nodeErrorFor(context.getNode(), error, itemIndex);
    refused.message = `MagniFinance refused the Main API User Password (or the credential's e-mail and token): ${error.message}`;
    refused.description = `Get Partner Access Tokens is the only call that sends the password: check Main API User Password first; if other operations fail too, check the credential.\n${refused.description ?? ''}`;
    throw refused;
  }
}

