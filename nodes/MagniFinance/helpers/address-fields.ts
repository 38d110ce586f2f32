import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The node's field names in its forms, and the one place where they become the service's names.
 *
 * Node version 2 speaks one convention in every form: parameter names in camelCase, display names
 * in Title Case, and the same word for the same part of an address everywhere — Address (street
 * and number), City, Postal Code, Country Code / Country Name — whatever the service calls it
 * (the client's `PostCode`, the waybill's `PostalCode` and `AddressDetail`, the partner's
 * `CompanyPostCode` and `CompanyCountry`).
 *
 * Node version 1 (workflows saved before) used the service's names as parameter names; its forms
 * are kept as they were, shown only to version-1 nodes, and read here without renaming.
 */

/**
 * 3: Order Record "In the Shop" is the default (a version-2 node keeps "None", and its one
 * credential: common.descriptions.ts, orderRecordFields); the field names are version 2's.
 */
export const LATEST_NODE_VERSION = 3;

/** The forms whose field names differ from the service's: parameter name (version 2) -> service name. */
export const SERVICE_NAMES = {
  /** Client Details (a collection beside Client Name / Tax ID / Country Code). */
  clientDetails: {
    address: 'Address',
    city: 'City',
    countryName: 'CountryName',
    email: 'Email',
    iban: 'IBAN',
    legalName: 'LegalName',
    phoneNumber: 'PhoneNumber',
    postalCode: 'PostCode',
  },
  /** Load Address and Destination Address of a waybill. */
  waybillAddress: {
    address: 'AddressDetail',
    city: 'City',
    countryCode: 'CountryCode',
    postalCode: 'PostalCode',
  },
  /** Partner Fields of Partner > Add. */
  partnerFields: {
    companyAddress: 'CompanyAddress',
    companyCity: 'CompanyCity',
    companyCountryCode: 'CompanyCountry',
    companyLegalName: 'CompanyLegalName',
    companyPostalCode: 'CompanyPostCode',
    contactEmail: 'UserEmail',
    contactName: 'UserName',
    contactPhone: 'UserPhone',
  },
} as const satisfies Record<string, Record<string, string>>;

export type FieldForm = keyof typeof SERVICE_NAMES;

export function nodeVersionOf(node: INode): number {
  return typeof node.typeVersion === 'number' ? node.typeVersion : LATEST_NODE_VERSION;
}

const FORM_LABELS: Record<FieldForm, string> = {
  clientDetails: 'Client Details',
  waybillAddress: 'Load Address / Destination Address',
  partnerFields: 'Partner Fields',
};

/**
 * A form's values under the service's names, for the node's version. Version 1 values carry them
 * already. n8n hands a node only the fields its form has (it drops any other key of a collection
 * before execute), so a name the table does not know means the description and this table
 * disagree: it fails with a clear error rather than being sent under a name the service ignores.
 */
export function toServiceNames(form: FieldForm, values: IDataObject, node: INode): IDataObject {
  if (nodeVersionOf(node) < 2) return { ...values };
  const names: Record<string, string> = SERVICE_NAMES[form];
  const renamed: IDataObject = {};
  for (const [name, value] of Object.entries(values)) {
    const serviceName = names[name];
    if (serviceName === undefined) {
      throw new NodeOperationError(node, `${FORM_LABELS[form]} has a field this node does not know: "${name}"`, {
        description: `Known fields: ${Object.keys(names).join(', ')}`,
      });
    }
    renamed[serviceName] = value;
  }
  return renamed;
}

/** Display names of version 2, by service name, for error messages that point into the form. */
const DISPLAY_NAMES: Record<FieldForm, Record<string, string>> = {
  clientDetails: {
    Address: 'Address',
    City: 'City',
    CountryName: 'Country Name',
    Email: 'Email',
    IBAN: 'IBAN',
    LegalName: 'Legal Name',
    PhoneNumber: 'Phone Number',
    PostCode: 'Postal Code',
  },
  waybillAddress: { AddressDetail: 'Address', City: 'City', CountryCode: 'Country Code', PostalCode: 'Postal Code' },
  partnerFields: {
    CompanyAddress: 'Company Address',
    CompanyCity: 'Company City',
    CompanyCountry: 'Company Country Code',
    CompanyLegalName: 'Company Legal Name',
    CompanyPostCode: 'Company Postal Code',
    UserEmail: 'Contact Email',
    UserName: 'Contact Name',
    UserPhone: 'Contact Phone',
  },
};

/** "Postal Code" for the client's `PostCode`; version 1 showed the service's name for some, kept as is. */
export function displayNameOf(form: FieldForm, serviceName: string, version: number): string {
  if (version < 2 && form === 'waybillAddress' && serviceName === 'AddressDetail') return 'Address Detail';
  return DISPLAY_NAMES[form][serviceName] ?? serviceName;
}
