import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import { documentJson } from '../../helpers/document-output';
import { readPartnerToken } from '../../helpers/parameters';
import { withPdf, type ItemWithBinary } from '../../helpers/pdf-binary';
import { documentIdField, downloadPdfField, partnerTokenOptions } from '../common.descriptions';

const properties: INodeProperties[] = [
  {
    ...documentIdField,
    hint: 'Call it at least 10 seconds after the create: this is the call that gives a closed document its number and PDF',
  },
  downloadPdfField,
  partnerTokenOptions,
];

const displayOptions = { show: { resource: ['document'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject | ItemWithBinary> {
  const documentId = this.getNodeParameter('documentId', itemIndex) as number;
  const token = readPartnerToken(this, itemIndex);
  const details = await client.getDocument(documentId, token ? { token } : undefined);
  const json = documentJson(documentId, details);
  if (!(this.getNodeParameter('downloadPdf', itemIndex, false) as boolean)) return json;
  return await withPdf.call(this, json);
}
