import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { taxIdQueryFields } from '../common.descriptions';

const properties: INodeProperties[] = [...taxIdQueryFields];

const displayOptions = { show: { resource: ['client'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Registered company data for a tax ID, e.g. to fill a customer before invoicing. */
export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject> {
  const countryCode = String(this.getNodeParameter('countryCode', itemIndex)).trim().toUpperCase();
  const taxId = String(this.getNodeParameter('taxId', itemIndex)).replace(/\s+/g, '');
  const data = await client.getClient(countryCode, taxId);
  return { ...data } as IDataObject;
}
