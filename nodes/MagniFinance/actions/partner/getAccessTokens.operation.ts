import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';

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
  const tokens = await client.getPartnerAccessTokens(taxId);
  return tokens.map((entry) => ({
    partnerTaxId: entry.taxId ?? taxId,
    token: entry.token,
    name: entry.name ?? null,
  }));
}
