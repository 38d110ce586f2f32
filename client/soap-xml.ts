import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { formatDecimal, parseDecimal } from './money';
import type { CreateDocumentRequestInput as CreateDocumentRequest } from './schemas/document';
import type { InvoiceClient } from './schemas/client';
import type { DocumentLine } from './schemas/line';
import type { PartnerInformation } from './schemas/partner';
import type { CreateWaybillRequestInput as CreateWaybillRequest, WaybillAddress } from './schemas/waybill';

/**
 * SOAP envelopes of the service, built with fast-xml-parser. Children are emitted in the exact
 * order of the spec (the service is an .asmx endpoint whose XML serializer is order-sensitive);
 * absent optional fields are left out rather than sent empty, because an empty <Id/> is not an int.
 */

export const SOAP_11_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP_12_ENVELOPE = 'http://www.w3.org/2003/05/soap-envelope';

export const CLIENT_ORDER = [
  'NIF', 'Name', 'Address', 'City', 'PostCode', 'CountryCode', 'PhoneNumber', 'CountryName', 'LegalName', 'Email', 'IBAN',
] as const;
export const DOCUMENT_ORDER = [
  'Type', 'Serie', 'Id', 'Date', 'DueDate', 'Description', 'DocumentReference', 'TaxExemptionReasonCode', 'Currency',
  'Retention', 'EuroRate', 'ExternalId', 'PurchaseOrder',
] as const;
export const LINE_ORDER = [
  'Code', 'Description', 'UnitPrice', 'Quantity', 'Unit', 'Type', 'TaxValue', 'ProductDiscount', 'CostCenter',
] as const;
export const WAYBILL_ORDER = [
  'Type', 'Serie', 'Date', 'DueDate', 'Description', 'DocumentReference', 'TaxExemptionReasonCode', 'Currency', 'Retention',
  'EuroRate', 'ExternalId',
] as const;
export const ADDRESS_ORDER = ['AddressDetail', 'City', 'PostalCode', 'CountryCode'] as const;
export const PARTNER_ORDER = [
  'CompanyTaxId', 'UserName', 'UserEmail', 'UserPhone', 'CompanyLegalName', 'CompanyAddress', 'CompanyCity',
  'CompanyPostCode', 'CompanyCountry',
] as const;

/** An element tree: insertion order is document order. */
type XmlNode = { [name: string]: XmlNode | XmlNode[] | string };

export interface SoapEnvelopeOptions {
  namespace: string;
  /** 1.1 (text/xml, the spec's default) or 1.2 (application/soap+xml). */
  soapVersion: '1.1' | '1.2';
}

function xmlScalar(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // xs:decimal has no exponent form: write numbers through the exact decimal, never "1e-7".
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatDecimal(parseDecimal(value));
  return String(value);
}

function ordered(prefix: string, source: object, order: readonly string[]): XmlNode {
  const node: XmlNode = {};
  const record = source as Record<string, unknown>;
  for (const name of order) {
    const text = xmlScalar(record[name]);
    if (text !== undefined) node[`${prefix}:${name}`] = text;
  }
  return node;
}

function linesNode(prefix: string, lines: readonly DocumentLine[]): XmlNode {
  return { [`${prefix}:APIInvoicingProduct`]: lines.map((line) => ordered(prefix, line, LINE_ORDER)) };
}

function addressNode(prefix: string, address: WaybillAddress): XmlNode {
  return ordered(prefix, address, ADDRESS_ORDER);
}

function authenticationNode(prefix: string, email: string, token: string): XmlNode {
  return { [`${prefix}:Email`]: email, [`${prefix}:Token`]: token };
}

const P = 'inv';

function envelope(operation: string, children: XmlNode, options: SoapEnvelopeOptions): string {
  const tree = {
    'soap:Envelope': {
      '@_xmlns:soap': options.soapVersion === '1.2' ? SOAP_12_ENVELOPE : SOAP_11_ENVELOPE,
      [`@_xmlns:${P}`]: options.namespace,
      'soap:Header': '',
      'soap:Body': { [`${P}:${operation}`]: children },
    },
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true });
  return `<?xml version="1.0" encoding="utf-8"?>${builder.build(tree)}`;
}

function clientNode(client: InvoiceClient): XmlNode {
  return ordered(P, client, CLIENT_ORDER);
}

export function buildDocumentCreate(
  request: CreateDocumentRequest,
  credentials: { email: string; token: string },
  options: SoapEnvelopeOptions,
): string {
  const document = ordered(P, request.Document, DOCUMENT_ORDER);
  document[`${P}:Lines`] = linesNode(P, request.Document.Lines);
  const children: XmlNode = {
    [`${P}:Authentication`]: authenticationNode(P, credentials.email, credentials.token),
    [`${P}:Client`]: clientNode(request.Client),
    [`${P}:Document`]: document,
    // Checked input is a boolean; unchecked input is written as given ("true", "1").
    [`${P}:IsToClose`]: xmlScalar(request.IsToClose) ?? '',
  };
  if (request.SendTo !== undefined) children[`${P}:SendTo`] = request.SendTo;
  return envelope('DocumentCreate', children, options);
}

export function buildWaybillCreate(
  request: CreateWaybillRequest,
  credentials: { email: string; token: string },
  options: SoapEnvelopeOptions,
): string {
  const waybill = ordered(P, request.Waybill, WAYBILL_ORDER);
  waybill[`${P}:Lines`] = linesNode(P, request.Waybill.Lines);
  waybill[`${P}:LoadDateTime`] = request.Waybill.LoadDateTime;
  waybill[`${P}:LoadAddress`] = addressNode(P, request.Waybill.LoadAddress);
  waybill[`${P}:DestinationAddress`] = addressNode(P, request.Waybill.DestinationAddress);
  if (request.Waybill.VehicleLicence !== undefined) waybill[`${P}:VehicleLicence`] = request.Waybill.VehicleLicence;
  const children: XmlNode = {
    [`${P}:Authentication`]: authenticationNode(P, credentials.email, credentials.token),
    [`${P}:Client`]: clientNode(request.Client),
    [`${P}:Waybill`]: waybill,
    // Checked input is a boolean; unchecked input is written as given ("true", "1").
    [`${P}:IsToClose`]: xmlScalar(request.IsToClose) ?? '',
  };
  if (request.SendTo !== undefined) children[`${P}:SendTo`] = request.SendTo;
  return envelope('WaybillCreate', children, options);
}

export function buildAddPartner(
  information: PartnerInformation,
  credentials: { email: string; token: string },
  options: SoapEnvelopeOptions,
): string {
  return envelope(
    'AddPartner',
    {
      [`${P}:Authentication`]: authenticationNode(P, credentials.email, credentials.token),
      [`${P}:PartnerInformation`]: ordered(P, information, PARTNER_ORDER),
    },
    options,
  );
}

/** DocumentGet / DocumentCancel: Authentication, then DocumentId. */
export function buildDocumentIdOperation(
  operation: 'DocumentGet' | 'DocumentCancel',
  documentId: number,
  credentials: { email: string; token: string },
  options: SoapEnvelopeOptions,
): string {
  return envelope(
    operation,
    {
      [`${P}:Authentication`]: authenticationNode(P, credentials.email, credentials.token),
      [`${P}:DocumentId`]: String(documentId),
    },
    options,
  );
}

/** Parsed XML with namespace prefixes removed; every value text (typed later by zod). */
export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  [name: string]: XmlValue;
}

const ALWAYS_LISTS = new Set(['ValidationError', 'APIInvoicingProduct']);

export function parseSoapXml(xml: string): XmlObject {
  const parser = new XMLParser({
    removeNSPrefix: true,
    ignoreAttributes: true,
    parseTagValue: false,
    trimValues: true,
    isArray: (name) => ALWAYS_LISTS.has(name),
  });
  return parser.parse(xml) as XmlObject;
}
