import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../../client/rest-client';
import type { PartnerInformation } from '../../../../client/schemas/partner';
import { toServiceNames } from '../../helpers/address-fields';
import { withoutBlanks } from '../../helpers/parameters';
import { COUNTRY_OPTIONS } from '../option-lists';

const properties: INodeProperties[] = [
  {
    displayName: 'Company Tax ID',
    name: 'companyTaxId',
    type: 'string',
    default: '',
    placeholder: 'e.g. 509442013',
    description:
      'Tax ID of the company to invoice for. A company new to MagniFinance is registered and associated at once; a registered one receives an e-mail to grant access.',
  },
  // Version 1: the service's own names (kept for workflows saved before version 2).
  {
    displayName: 'Partner Fields',
    name: 'partnerFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: { show: { '@version': [1] } },
    options: [
      { displayName: 'Company Address', name: 'CompanyAddress', type: 'string', default: '' },
      { displayName: 'Company City', name: 'CompanyCity', type: 'string', default: '' },
      {
        displayName: 'Company Country',
        name: 'CompanyCountry',
        type: 'options',
        options: COUNTRY_OPTIONS,
        default: 'PT',
        description: 'Country of the company (ISO 3166-1 alpha-2 code)',
      },
      {
        displayName: 'Company Legal Name',
        name: 'CompanyLegalName',
        type: 'string',
        default: '',
        description: 'Legal name of the company (at most 50 characters)',
      },
      { displayName: 'Company Postal Code', name: 'CompanyPostCode', type: 'string', default: '' },
      {
        displayName: 'Contact Email',
        name: 'UserEmail',
        type: 'string',
        placeholder: 'name@email.com',
        default: '',
        description: 'E-mail of the contact person at the company',
      },
      { displayName: 'Contact Name', name: 'UserName', type: 'string', default: '', description: 'Contact person at the company' },
      { displayName: 'Contact Phone', name: 'UserPhone', type: 'string', default: '' },
    ],
  },
  // Version 2: the node's one convention for field names (helpers/address-fields.ts).
  {
    displayName: 'Partner Fields',
    name: 'partnerFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: { show: { '@version': [2, 3] } },
    options: [
      { displayName: 'Company Address', name: 'companyAddress', type: 'string', default: '', description: 'Street and number' },
      { displayName: 'Company City', name: 'companyCity', type: 'string', default: '' },
      {
        displayName: 'Company Country Code',
        name: 'companyCountryCode',
        type: 'options',
        options: COUNTRY_OPTIONS,
        default: 'PT',
        description: 'Country of the company (ISO 3166-1 alpha-2 code)',
      },
      {
        displayName: 'Company Legal Name',
        name: 'companyLegalName',
        type: 'string',
        default: '',
        description: 'Legal name of the company (at most 50 characters)',
      },
      { displayName: 'Company Postal Code', name: 'companyPostalCode', type: 'string', default: '', placeholder: 'e.g. 1000-001' },
      {
        displayName: 'Contact Email',
        name: 'contactEmail',
        type: 'string',
        placeholder: 'name@email.com',
        default: '',
        description: 'E-mail of the contact person at the company',
      },
      { displayName: 'Contact Name', name: 'contactName', type: 'string', default: '', description: 'Contact person at the company' },
      { displayName: 'Contact Phone', name: 'contactPhone', type: 'string', default: '' },
    ],
  },
];

const displayOptions = { show: { resource: ['partner'], operation: ['add'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
): Promise<IDataObject> {
  const fields = toServiceNames(
    'partnerFields',
    withoutBlanks(this.getNodeParameter('partnerFields', itemIndex, {}) as IDataObject),
    this.getNode(),
  );
  const companyTaxId = String(this.getNodeParameter('companyTaxId', itemIndex, '')).trim();
  const information = {
    ...fields,
    ...(companyTaxId ? { CompanyTaxId: companyTaxId } : {}),
  } as PartnerInformation;
  const added = await client.addPartner(information);
  return {
    companyTaxId: companyTaxId || null,
    requestId: added.requestId,
    result: (added.object ?? null) as IDataObject | null,
  };
}
