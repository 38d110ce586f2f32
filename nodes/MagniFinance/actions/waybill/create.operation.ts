import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import type { CreateWaybillRequest } from '../../../../client/schemas/waybill';
import { alreadyIssuedJson, AlreadyIssued, createOnce } from '../../helpers/already-issued';
import { createdDocumentOutput } from '../../helpers/await-finalized-document';
import type { ItemWithBinary } from '../../helpers/pdf-binary';
import { COUNTRY_OPTIONS } from '../option-lists';
import { dateText, dateTimeText, isBlank, todayIn } from '../../helpers/dates';
import {
  readAdditionalFields,
  readAddress,
  readClient,
  readLines,
  readPartnerToken,
} from '../../helpers/parameters';
import {
  additionalFieldOptions,
  clientFields,
  createOptions,
  lineFields,
  waitForDocumentFields,
} from '../common.descriptions';

/** Load / Destination Address: version 1 used the service's names, version 2 the node's convention. */
function addressField(displayName: string, name: string, description: string, version: 1 | 2): INodeProperties {
  const values: INodeProperties[] =
    version === 1
      ? [
          { displayName: 'Address Detail', name: 'AddressDetail', type: 'string', default: '', description: 'Street and number (at most 100 characters)' },
          { displayName: 'City', name: 'City', type: 'string', default: '' },
          { displayName: 'Country Code', name: 'CountryCode', type: 'options', options: COUNTRY_OPTIONS, default: 'PT', description: 'Country (ISO 3166-1 alpha-2 code)' },
          { displayName: 'Postal Code', name: 'PostalCode', type: 'string', default: '', placeholder: 'e.g. 1000-001' },
        ]
      : [
          { displayName: 'Address', name: 'address', type: 'string', default: '', description: 'Street and number (at most 100 characters)' },
          { displayName: 'City', name: 'city', type: 'string', default: '' },
          { displayName: 'Country Code', name: 'countryCode', type: 'options', options: COUNTRY_OPTIONS, default: 'PT', description: 'Country (ISO 3166-1 alpha-2 code)' },
          { displayName: 'Postal Code', name: 'postalCode', type: 'string', default: '', placeholder: 'e.g. 1000-001' },
        ];
  return {
    displayName,
    name,
    type: 'fixedCollection',
    required: true,
    default: {},
    placeholder: 'Add Address',
    description,
    displayOptions: { show: { '@version': version === 1 ? [1] : [2, 3] } },
    options: [{ displayName: 'Address', name: 'address', values }],
  };
}

const properties: INodeProperties[] = [
  {
    displayName: 'Waybill Type',
    name: 'waybillType',
    type: 'options',
    default: 'W',
    options: [
      { name: 'Delivery Note', value: 'Y' },
      { name: 'Waybill', value: 'W' },
    ],
    description: 'Kind of transport document',
  },
  {
    displayName: 'Date',
    name: 'date',
    type: 'dateTime',
    default: '',
    description: 'Waybill date; empty for today in the workflow time zone',
  },
  {
    displayName: 'Load Date and Time',
    name: 'loadDateTime',
    type: 'dateTime',
    required: true,
    default: '',
    description: 'When the goods leave the load address; not before the waybill date',
  },
  addressField('Load Address', 'loadAddress', 'Where the transport starts', 1),
  addressField('Load Address', 'loadAddress', 'Where the transport starts', 2),
  addressField('Destination Address', 'destinationAddress', 'Where the goods are delivered', 1),
  addressField('Destination Address', 'destinationAddress', 'Where the goods are delivered', 2),
  ...clientFields,
  ...lineFields,
  {
    displayName: 'Close Document',
    name: 'isToClose',
    type: 'boolean',
    default: true,
    description:
      'Whether to close the waybill, which gives it a number and a PDF and may report it to the tax authority. Off saves a draft.',
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
      'EuroRate',
      'ExternalId',
      'Retention',
      'SendTo',
      'Serie',
      'TaxExemptionReasonCode',
      'VehicleLicence',
    ]),
  },
  createOptions,
];

const displayOptions = { show: { resource: ['waybill'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject | ItemWithBinary> {
  const { SendTo, ...waybillFields } = readAdditionalFields(this, itemIndex);
  const dateParameter = this.getNodeParameter('date', itemIndex, '');
  const date = isBlank(dateParameter) ? todayIn(this.getTimezone()) : dateText(dateParameter);
  const isToClose = this.getNodeParameter('isToClose', itemIndex, true) as boolean;

  const request = {
    IsToClose: isToClose,
    ...(typeof SendTo === 'string' ? { SendTo } : {}),
    Client: readClient(this, itemIndex),
    Waybill: {
      ...waybillFields,
      Type: this.getNodeParameter('waybillType', itemIndex),
      Date: date,
      LoadDateTime: dateTimeText(this.getNodeParameter('loadDateTime', itemIndex)),
      LoadAddress: readAddress(this, 'loadAddress', itemIndex),
      DestinationAddress: readAddress(this, 'destinationAddress', itemIndex),
      Lines: readLines(this, itemIndex),
    },
  } as CreateWaybillRequest;

  const token = readPartnerToken(this, itemIndex);
  const created = await createOnce(this.getNode(), itemIndex, request.Waybill.ExternalId, () => client.createWaybill(request, token ? { token } : undefined));
  if (created instanceof AlreadyIssued) return alreadyIssuedJson(created);
  return createdDocumentOutput.call(this, itemIndex, client, created, isToClose, token, {
    documentNumber: created.documentNumber ?? null,
  });
}
