import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { paymentStatusJson } from '../../helpers/document-output';
import { readPartnerToken } from '../../helpers/parameters';
import { documentIdField, partnerTokenOptions } from '../common.descriptions';

const properties: INodeProperties[] = [
  documentIdField,
  partnerTokenOptions,
];

const displayOptions = { show: { resource: ['document'], operation: ['getPaymentStatus'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Reads the document's property endpoint: payment status and the amount still unpaid. */
export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject> {
  const documentId = this.getNodeParameter('documentId', itemIndex) as number;
  const token = readPartnerToken(this, itemIndex);
  const details = await client.getDocumentProperty(documentId, token ? { token } : undefined);
  return paymentStatusJson(documentId, details);
}
