import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { COUNTRY_OPTIONS, CURRENCY_OPTIONS, EXEMPTION_CODE_OPTIONS, VAT_RATE_OPTIONS } from './option-lists';

/**
 * Field blocks shared by several operations. Each operation file places them under its own
 * resource/operation with `updateDisplayOptions`, so a block is written once and shown many times.
 */

export const clientFields: INodeProperties[] = [
  {
    displayName: 'Client Name',
    name: 'clientName',
    type: 'string',
    required: true,
    default: '',
    placeholder: 'e.g. Maria Silva',
    description: 'Familiar name of the customer (at most 75 characters)',
  },
  {
    displayName: 'Client Tax ID',
    name: 'clientTaxId',
    type: 'string',
    required: true,
    default: '999999990',
    description:
      'Tax number (NIF) of the customer. Keep 999999990, the generic final-consumer NIF, when the customer gives none.',
  },
  {
    displayName: 'Client Country Code',
    name: 'clientCountryCode',
    type: 'options',
    options: COUNTRY_OPTIONS,
    required: true,
    default: 'PT',
    description: 'Country of the customer (ISO 3166-1 alpha-2 code)',
  },
  // Version 1: the service's own names (kept for workflows saved before version 2).
  {
    displayName: 'Client Details',
    name: 'clientDetails',
    type: 'collection',
    placeholder: 'Add Client Detail',
    default: {},
    displayOptions: { show: { '@version': [1] } },
    options: [
      { displayName: 'Address', name: 'Address', type: 'string', default: '', description: 'Street address (at most 200 characters)' },
      { displayName: 'City', name: 'City', type: 'string', default: '' },
      { displayName: 'Country Name', name: 'CountryName', type: 'string', default: '' },
      {
        displayName: 'Email',
        name: 'Email',
        type: 'string',
        placeholder: 'name@email.com',
        default: '',
        description: 'E-mail address of the customer',
      },
      { displayName: 'IBAN', name: 'IBAN', type: 'string', default: '' },
      {
        displayName: 'Legal Name',
        name: 'LegalName',
        type: 'string',
        default: '',
        description: 'Name printed on the document; the client name is used when empty',
      },
      { displayName: 'Phone Number', name: 'PhoneNumber', type: 'string', default: '' },
      {
        displayName: 'Postal Code',
        name: 'PostCode',
        type: 'string',
        default: '',
        placeholder: 'e.g. 1000-001',
        description: 'Postal code; for Portugal written 0000-000',
      },
    ],
  },
  // Version 2: the node's one convention for field names (helpers/address-fields.ts).
  {
    displayName: 'Client Details',
    name: 'clientDetails',
    type: 'collection',
    placeholder: 'Add Client Detail',
    default: {},
    displayOptions: { show: { '@version': [2, 3] } },
    options: [
      { displayName: 'Address', name: 'address', type: 'string', default: '', description: 'Street and number (at most 200 characters)' },
      { displayName: 'City', name: 'city', type: 'string', default: '' },
      { displayName: 'Country Name', name: 'countryName', type: 'string', default: '' },
      {
        displayName: 'Email',
        name: 'email',
        type: 'string',
        placeholder: 'name@email.com',
        default: '',
        description: 'E-mail address of the customer',
      },
      { displayName: 'IBAN', name: 'iban', type: 'string', default: '' },
      {
        displayName: 'Legal Name',
        name: 'legalName',
        type: 'string',
        default: '',
        description: 'Name printed on the document; the client name is used when empty',
      },
      { displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '' },
      {
        displayName: 'Postal Code',
        name: 'postalCode',
        type: 'string',
        default: '',
        placeholder: 'e.g. 1000-001',
        description: 'Postal code; for Portugal written 0000-000',
      },
    ],
  },
];

export const lineFields: INodeProperties[] = [
  {
    displayName: 'Lines Input',
    name: 'linesInput',
    type: 'options',
    noDataExpression: true,
    default: 'fields',
    options: [
      { name: 'Define Below', value: 'fields', description: 'Enter each line in the fields below' },
      {
        name: 'JSON',
        value: 'json',
        description: 'Pass the lines as a JSON array, for example from the previous node',
      },
    ],
  },
  {
    displayName: 'Lines',
    name: 'lines',
    type: 'fixedCollection',
    typeOptions: { multipleValues: true, sortable: true },
    placeholder: 'Add Line',
    default: {},
    displayOptions: { show: { linesInput: ['fields'] } },
    options: [
      {
        displayName: 'Line',
        name: 'line',
        values: [
          { displayName: 'Code', name: 'Code', type: 'string', default: '', description: 'Product code (at most 60 characters)' },
          { displayName: 'Cost Center', name: 'CostCenter', type: 'string', default: '' },
          { displayName: 'Description', name: 'Description', type: 'string', default: '', description: 'Product description (at most 200 characters)' },
          {
            displayName: 'Discount (%)',
            name: 'ProductDiscount',
            type: 'number',
            typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 2 },
            default: 0,
            description: 'Discount on the line as a percentage',
          },
          {
            displayName: 'Quantity',
            name: 'Quantity',
            type: 'number',
            typeOptions: { numberPrecision: 4 },
            default: 1,
          },
          {
            displayName: 'Tax Rate (%)',
            name: 'TaxValue',
            type: 'options',
            options: VAT_RATE_OPTIONS,
            default: 23,
            description:
              'VAT rate as a percentage: mainland Portugal 23, 13 or 6; Azores 16, 9, 4; Madeira 22, 12, 4. A 0% line needs a Tax Exemption Reason Code.',
          },
          {
            displayName: 'Type',
            name: 'Type',
            type: 'options',
            default: 'P',
            options: [
              { name: 'Product', value: 'P' },
              { name: 'Service', value: 'S' },
            ],
            description: 'Product or service; cannot change once the product code exists on the service',
          },
          {
            displayName: 'Unit',
            name: 'Unit',
            type: 'string',
            default: 'UN',
            description: 'Unit name, for example UN, KG or H',
          },
          {
            displayName: 'Unit Price',
            name: 'UnitPrice',
            type: 'number',
            typeOptions: { numberPrecision: 4 },
            default: 0,
            description: 'Price per unit without tax',
          },
        ],
      },
    ],
  },
  {
    displayName: 'Lines (JSON)',
    name: 'linesJson',
    type: 'json',
    default: '[]',
    displayOptions: { show: { linesInput: ['json'] } },
    description:
      'Array of lines with the service\'s field names: Code, Description, UnitPrice, Quantity, Unit, Type (P or S), TaxValue, ProductDiscount and optionally CostCenter. Decimal text such as "12.3456" is kept exactly.',
  },
];

export const partnerTokenOption: INodeProperties = {
  displayName: 'Partner Token',
  name: 'partnerToken',
  type: 'string',
  typeOptions: { password: true },
  default: '',
  description:
    'Act for a partner company: the call is sent with this partner token instead of the credential\'s token (see Partner > Get Access Tokens)',
};

/** Polling knobs of "Wait for Number and PDF"; the first check can never come before 10 s. */
export const firstCheckAfterOption: INodeProperties = {
  displayName: 'First Check After (Seconds)',
  name: 'firstCheckAfterSeconds',
  type: 'number',
  typeOptions: { minValue: 10 },
  default: 10,
  description:
    'Seconds to wait after the create before the first Get Document. The service asks for at least 10.',
};

export const checkIntervalOption: INodeProperties = {
  displayName: 'Check Interval (Seconds)',
  name: 'checkIntervalSeconds',
  type: 'number',
  typeOptions: { minValue: 1 },
  default: 5,
  description: 'Seconds between further checks while the number or PDF is missing',
};

export const waitTimeoutOption: INodeProperties = {
  displayName: 'Wait Timeout (Seconds)',
  name: 'waitTimeoutSeconds',
  type: 'number',
  typeOptions: { minValue: 10 },
  default: 60,
  description:
    'Give up waiting after this many seconds and output the document ID with finalized set to false (the document is created either way)',
};

/** The Options collection of the create operations: partner token and the wait knobs. */
export const createOptions: INodeProperties = {
  displayName: 'Options',
  name: 'options',
  type: 'collection',
  placeholder: 'Add Option',
  default: {},
  options: [checkIntervalOption, firstCheckAfterOption, partnerTokenOption, waitTimeoutOption],
};

/** The Options collection of the reads and the cancel: only the partner token. */
export const partnerTokenOptions: INodeProperties = {
  displayName: 'Options',
  name: 'options',
  type: 'collection',
  placeholder: 'Add Option',
  default: {},
  options: [partnerTokenOption],
};

const waitForDocumentField: INodeProperties = {
  displayName: 'Wait for Number and PDF',
  name: 'waitForDocument',
  type: 'boolean',
  default: false,
  description:
    'Whether to wait until the closed document has its number and PDF link, checking with Get Document from at least 10 seconds after the create',
};

/** The PDF as binary property `data`, for Get and for a create that waits for the number. */
export const downloadPdfField: INodeProperties = {
  displayName: 'Download PDF',
  name: 'downloadPdf',
  type: 'boolean',
  default: false,
  description:
    'Whether to add the PDF as binary property "data" (file name: the document number), for example to attach it to an e-mail. Only a closed, numbered document has one.',
};

/** "Wait for Number and PDF", then "Download PDF" once waiting is on (`show`: when the wait itself shows). */
export function waitForDocumentFields(show: Record<string, boolean[]> = {}): INodeProperties[] {
  return [
    Object.keys(show).length > 0 ? { ...waitForDocumentField, displayOptions: { show } } : waitForDocumentField,
    { ...downloadPdfField, displayOptions: { show: { ...show, waitForDocument: [true] } } },
  ];
}

export const documentIdField: INodeProperties = {
  displayName: 'Document ID',
  name: 'documentId',
  type: 'number',
  required: true,
  default: 0,
  description: 'ID returned when the document was created',
};

export const taxIdQueryFields: INodeProperties[] = [
  {
    displayName: 'Country Code',
    name: 'countryCode',
    type: 'options',
    options: COUNTRY_OPTIONS,
    required: true,
    default: 'PT',
    description: 'Country of the tax ID (ISO 3166-1 alpha-2 code)',
  },
  {
    displayName: 'Tax ID',
    name: 'taxId',
    type: 'string',
    required: true,
    default: '',
    placeholder: 'e.g. 509442013',
    description: 'Tax identification number, digits and letters only',
  },
];

export const orderFields: INodeProperties[] = [
  {
    displayName: 'Order',
    name: 'order',
    type: 'json',
    required: true,
    default: '={{ $json }}',
    description:
      'The order (REST or webhook payload). By default the incoming item, for example from the WooCommerce Trigger or a WooCommerce Get node, or with Shop Platform "Shopify" from the Shopify Trigger or a Shopify Get node.',
  },
  {
    displayName: 'Mapping Settings (JSON)',
    name: 'mappingSettings',
    type: 'json',
    default: '{}',
    description:
      'How orders become documents: document type, series, tax exemption code, shipping line and so on. Empty uses the defaults; see docs/n8n.md for every setting.',
  },
];

/**
 * Which shop the order (and a refund) comes from, for the invoice and the credit note. Shopify's is
 * the Admin REST API's order, as the Shopify Trigger and the Shopify node give it (shopify/).
 * Pick the first before the Order field and the second after the Mapping Settings.
 */
export const shopPlatformFields: [INodeProperties, INodeProperties] = [
  {
    displayName: 'Shop Platform',
    name: 'shopPlatform',
    type: 'options',
    noDataExpression: true,
    options: [
      { name: 'WooCommerce', value: 'woocommerce', description: 'An order from the WooCommerce Trigger or a WooCommerce node' },
      {
        name: 'Shopify',
        value: 'shopify',
        description: 'An order from the Shopify Trigger (orders/paid, orders/updated) or the Shopify node (Order > Get); Order Record: In the Shop needs the MagniFinance: Shopify Shop API credential',
      },
    ],
    default: 'woocommerce',
    description: 'Which shop platform the order comes from',
  },
  {
    displayName: 'Shopify Settings (JSON)',
    name: 'shopifySettings',
    type: 'json',
    default: '{}',
    displayOptions: { show: { shopPlatform: ['shopify'] } },
    description:
      'Which of Shopify\'s amounts the document carries ("currency": "shop" or "presentment") and where the buyer\'s NIF is ("nifSources"), as in a connector tenant\'s shopify.sale. Empty uses the defaults; see docs/n8n.md.',
  },
];

/**
 * Where the order's document is recorded. "In the Shop": the node claims the order in WooCommerce
 * before it issues (shop/order-claim.ts), resumes a claimed document by its id, and writes the
 * number on the order itself, item by item. It needs the MagniFinance: WooCommerce Shop API credential,
 * or for a Shopify order the MagniFinance: Shopify Shop API credential (shop/shopify-orders.ts).
 */
const ORDER_RECORD_OPTIONS: INodePropertyOptions[] = [
  {
    name: 'In the Shop (Claim, Resume, Write Back)',
    value: 'shop',
    description:
      'Claims the order in the shop (WooCommerce meta, Shopify app metafields) before issuing, so a second run for the same order (an update while this one waits, a redelivery, a retry) never issues a second document, and writes the number on the order',
  },
  {
    name: 'None (Workflow Writes Back)',
    value: 'none',
    description:
      'Only the External ID guards against a second document, and the service checks it together with the buyer: a buyer changed between two runs (a NIF saved meanwhile) gets a second invoice',
  },
];

/**
 * Order Record, once per node version with its own default (n8n's versioned parameters): a node of
 * version 3 (what a new node gets) claims in the shop by default and so asks for the shop
 * credential; a node saved with version 1 or 2 keeps "None", the behaviour it was saved with, and
 * goes on running with the one credential it has until someone chooses "In the Shop".
 */
export const orderRecordFields: INodeProperties[] = [
  {
    displayName: 'Order Record',
    name: 'orderRecord',
    type: 'options',
    noDataExpression: true,
    options: ORDER_RECORD_OPTIONS,
    default: 'none',
    description: 'Where the node records that the order has its document',
    displayOptions: { show: { '@version': [1, 2] } },
  },
  {
    displayName: 'Order Record',
    name: 'orderRecord',
    type: 'options',
    noDataExpression: true,
    options: ORDER_RECORD_OPTIONS,
    default: 'shop',
    description: 'Where the node records that the order has its document',
    displayOptions: { show: { '@version': [3] } },
  },
];

/**
 * Optional document and waybill fields, named as the service names them so a collection's value
 * is already the request's shape. Operations pick theirs with `additionalFieldOptions`.
 */
const ADDITIONAL_FIELDS: INodeProperties[] = [
  {
    displayName: 'Currency',
    name: 'Currency',
    type: 'options',
    options: CURRENCY_OPTIONS,
    default: 'USD',
    description: 'Currency shown in addition to EUR (ISO 4217 code); set its Euro Rate too',
  },
  {
    displayName: 'Description',
    name: 'Description',
    type: 'string',
    default: '',
    description: 'Free text printed on the document (3 to 300 characters)',
  },
  {
    displayName: 'Document Reference',
    name: 'DocumentReference',
    type: 'string',
    default: '',
    description: 'Number of the document this one is based on; required for credit and debit notes',
  },
  {
    displayName: 'Draft ID',
    name: 'Id',
    type: 'number',
    default: 0,
    description: 'ID of an existing draft to update (or close, with Close Document on) instead of creating a new document',
  },
  {
    displayName: 'Euro Rate',
    name: 'EuroRate',
    type: 'number',
    typeOptions: { numberPrecision: 6 },
    default: 0,
    description:
      'Euros per one unit of the currency, e.g. 0.92 for USD when 1 USD is worth 0.92 EUR: the document\'s amounts times the rate give its value in euros',
  },
  {
    displayName: 'External ID',
    name: 'ExternalId',
    type: 'string',
    default: '',
    description:
      'Your own ID for this document (for example the order number). The service refuses a second document with the same External ID for the same client, which makes retries safe.',
  },
  {
    displayName: 'Purchase Order',
    name: 'PurchaseOrder',
    type: 'string',
    default: '',
    description: 'Customer purchase order reference',
  },
  {
    displayName: 'Retention (%)',
    name: 'Retention',
    type: 'number',
    typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 2 },
    default: 0,
    description: 'Percentage of the total withheld as tax',
  },
  {
    displayName: 'Send To',
    name: 'SendTo',
    type: 'string',
    placeholder: 'name@email.com',
    default: '',
    description: 'E-mail address that receives the document when it is closed',
  },
  {
    displayName: 'Series',
    name: 'Serie',
    type: 'string',
    default: '',
    description: 'Series name; empty uses the default series of the document type',
  },
  {
    displayName: 'Tax Exemption Reason Code',
    name: 'TaxExemptionReasonCode',
    type: 'options',
    options: EXEMPTION_CODE_OPTIONS,
    default: 'M99',
    description: 'Required when a line has 0% tax, for example M05 exports, M16 intra-EU goods, M99 not subject',
  },
  {
    displayName: 'Vehicle Licence',
    name: 'VehicleLicence',
    type: 'string',
    default: '',
    placeholder: 'e.g. AA-00-BB',
    description: 'Plate of the vehicle carrying the goods',
  },
];

export function additionalFieldOptions(names: string[]): INodeProperties[] {
  return ADDITIONAL_FIELDS.filter((field) => names.includes(field.name)).sort((a, b) =>
    a.displayName.localeCompare(b.displayName),
  );
}
