import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import type { CreateDocumentRequest } from '../../../../client/schemas/document';
import { alreadyIssuedJson, AlreadyIssued, createOnce } from '../../helpers/already-issued';
import { createdDocumentOutput } from '../../helpers/await-finalized-document';
import type { ItemWithBinary } from '../../helpers/pdf-binary';
import { addDays, dateText, isBlank, todayIn } from '../../helpers/dates';
import { readAdditionalFields, readClient, readLines, readPartnerToken } from '../../helpers/parameters';
import {
  additionalFieldOptions,
  clientFields,
  createOptions,
  lineFields,
  waitForDocumentFields,
} from '../common.descriptions';

/** DueDate must be later than Date; with no due date given, the usual 30-day term applies. */
const DEFAULT_PAYMENT_TERM_DAYS = 30;

const properties: INodeProperties[] = [
  {
    displayName: 'Document Type',
    name: 'documentType',
    type: 'options',
    default: 'T',
    options: [
      { name: 'Credit Note', value: 'C', description: 'Corrects an earlier document; needs its number in Document Reference' },
      { name: 'Debit Note', value: 'D', description: 'Adds to an earlier document; needs its number in Document Reference' },
      { name: 'Invoice', value: 'I', description: 'Invoice to be paid later' },
      { name: 'Invoice-Receipt', value: 'T', description: 'Invoice of a sale paid on the spot' },
      { name: 'Simplified Invoice', value: 'S', description: 'For retail sales to consumers up to the legal limit' },
    ],
    description: 'Kind of sales document to issue',
  },
  {
    displayName: 'Date',
    name: 'date',
    type: 'dateTime',
    default: '',
    description:
      'Document date; empty for today in the workflow time zone. It cannot be earlier than the latest closed document of the series.',
  },
  {
    displayName: 'Due Date',
    name: 'dueDate',
    type: 'dateTime',
    default: '',
    description: 'Must be later than the date; empty for 30 days after it',
  },
  ...clientFields,
  ...lineFields,
  {
    displayName: 'Close Document',
    name: 'isToClose',
    type: 'boolean',
    default: true,
    description:
      'Whether to close the document, which gives it a number and a PDF and makes it final. Off saves a draft that can be changed later.',
  },
  ...waitForDocumentFields({ isToClose: [true] }),
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    options: additionalFieldOptions([
      'Currency',
      'Description',
      'DocumentReference',
      'Id',
      'EuroRate',
      'ExternalId',
      'PurchaseOrder',
      'Retention',
      'SendTo',
      'Serie',
      'TaxExemptionReasonCode',
    ]),
  },
  createOptions,
];

const displayOptions = { show: { resource: ['document'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject | ItemWithBinary> {
  const { SendTo, ...documentFields } = readAdditionalFields(this, itemIndex);
  const dateParameter = this.getNodeParameter('date', itemIndex, '');
  const date = isBlank(dateParameter) ? todayIn(this.getTimezone()) : dateText(dateParameter);
  const dueParameter = this.getNodeParameter('dueDate', itemIndex, '');
  const dueDate = isBlank(dueParameter) ? addDays(date, DEFAULT_PAYMENT_TERM_DAYS) : dateText(dueParameter);
  const isToClose = this.getNodeParameter('isToClose', itemIndex, true) as boolean;

  const request = {
    IsToClose: isToClose,
    ...(typeof SendTo === 'string' ? { SendTo } : {}),
    Client: readClient(this, itemIndex),
    Document: {
      ...documentFields,
      Type: this.getNodeParameter('documentType', itemIndex),
      Date: date,
      DueDate: dueDate,
      Lines: readLines(this, itemIndex),
    },
  } as CreateDocumentRequest;

  const token = readPartnerToken(this, itemIndex);
  const created = await createOnce(this.getNode(), itemIndex, request.Document.ExternalId, () => client.createDocument(request, token ? { token } : undefined));
  if (created instanceof AlreadyIssued) return alreadyIssuedJson(created);
  return createdDocumentOutput.call(this, itemIndex, client, created, isToClose, token);
}
