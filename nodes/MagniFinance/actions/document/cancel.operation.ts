import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { readPartnerToken } from '../../helpers/parameters';
import { documentIdField, partnerTokenOptions } from '../common.descriptions';

const properties: INodeProperties[] = [
  {
    ...documentIdField,
    hint: 'Only closed documents can be cancelled, and cancelling cannot be undone',
  },
  partnerTokenOptions,
];

const displayOptions = { show: { resource: ['document'], operation: ['cancel'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject> {
  const documentId = this.getNodeParameter('documentId', itemIndex) as number;
  const token = readPartnerToken(this, itemIndex);
  await client.cancelDocument(documentId, token ? { token } : undefined);
  return { documentId, cancelled: true };
}
