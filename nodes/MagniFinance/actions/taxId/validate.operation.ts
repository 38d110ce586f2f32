import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { taxIdQueryFields } from '../common.descriptions';

const properties: INodeProperties[] = [...taxIdQueryFields];

const displayOptions = { show: { resource: ['taxId'], operation: ['validate'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** An invalid tax ID is an answer (valid false), so a workflow can branch on it with an If node. */
export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject> {
  const countryCode = String(this.getNodeParameter('countryCode', itemIndex)).trim().toUpperCase();
  const taxId = String(this.getNodeParameter('taxId', itemIndex)).replace(/\s+/g, '');
  const result = await client.validateTaxId(countryCode, taxId);
  return { countryCode, taxId, valid: result.valid, requestId: result.requestId };
}
