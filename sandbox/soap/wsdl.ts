import { DECIMAL_FIELDS } from '../../client/request-body';
import { ADDRESS_ORDER, CLIENT_ORDER, DOCUMENT_ORDER, LINE_ORDER, PARTNER_ORDER, WAYBILL_ORDER } from '../../client/soap-xml';
import { escapeXml } from './soap-xml';

/**
 * The service description an ASMX endpoint serves at `?wsdl`: WSDL 1.1, document/literal, one
 * SOAP 1.1 and one SOAP 1.2 binding, messages `{Operation}SoapIn` / `{Operation}SoapOut` whose part
 * `parameters` is the operation element, and the schema of every element in the order the client
 * writes them (client/soap-xml.ts, the spec's order). Names follow ASMX's conventions for
 * Invoicing.asmx: service `Invoicing`, port types and bindings `InvoicingSoap` / `InvoicingSoap12`.
 */

const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  Client: ['NIF', 'Name', 'CountryCode'],
  Document: ['Type', 'Date', 'DueDate'],
  APIInvoicingProduct: ['Code', 'Description', 'UnitPrice', 'Quantity', 'Unit', 'Type', 'TaxValue', 'ProductDiscount'],
  Waybill: ['Type', 'Date'],
  Address: ['AddressDetail', 'City', 'PostalCode', 'CountryCode'],
  PartnerInformation: [],
};

function xsdType(field: string): string {
  if (DECIMAL_FIELDS.has(field)) return 's:decimal';
  if (field === 'Id') return 's:int';
  if (field === 'Date' || field === 'DueDate') return 's:date';
  return 's:string';
}

function element(name: string, type: string, required: boolean, many = false): string {
  return `<s:element minOccurs="${required ? 1 : 0}" maxOccurs="${many ? 'unbounded' : 1}" name="${name}" type="${type}"/>`;
}

function complexType(name: string, children: string[]): string {
  return `<s:complexType name="${name}"><s:sequence>${children.join('')}</s:sequence></s:complexType>`;
}

function fields(typeName: string, order: readonly string[]): string[] {
  const required = REQUIRED[typeName] ?? [];
  return order.map((field) => element(field, xsdType(field), required.includes(field)));
}

/** name -> children of each operation's request element. */
const OPERATION_INPUTS: Readonly<Record<string, string[]>> = {
  DocumentCreate: [
    element('Authentication', 'tns:Authentication', true),
    element('Client', 'tns:Client', true),
    element('Document', 'tns:Document', true),
    element('IsToClose', 's:boolean', true),
    element('SendTo', 's:string', false),
  ],
  AddPartner: [element('Authentication', 'tns:Authentication', true), element('PartnerInformation', 'tns:PartnerInformation', true)],
  WaybillCreate: [
    element('Authentication', 'tns:Authentication', true),
    element('Client', 'tns:Client', true),
    element('Waybill', 'tns:Waybill', true),
    element('IsToClose', 's:boolean', true),
    element('SendTo', 's:string', false),
  ],
  DocumentGet: [element('Authentication', 'tns:Authentication', true), element('DocumentId', 's:int', true)],
  DocumentCancel: [element('Authentication', 'tns:Authentication', true), element('DocumentId', 's:int', true)],
};

export const WSDL_OPERATIONS: readonly string[] = Object.keys(OPERATION_INPUTS);

function schema(namespace: string): string {
  const types = [
    complexType('Authentication', [element('Email', 's:string', true), element('Token', 's:string', true)]),
    complexType('Client', fields('Client', CLIENT_ORDER)),
    complexType('Document', [...fields('Document', DOCUMENT_ORDER), element('Lines', 'tns:ArrayOfAPIInvoicingProduct', true)]),
    complexType('ArrayOfAPIInvoicingProduct', [element('APIInvoicingProduct', 'tns:APIInvoicingProduct', true, true)]),
    complexType('APIInvoicingProduct', fields('APIInvoicingProduct', LINE_ORDER)),
    complexType('Waybill', [
      ...fields('Waybill', WAYBILL_ORDER),
      element('Lines', 'tns:ArrayOfAPIInvoicingProduct', true),
      element('LoadDateTime', 's:dateTime', true),
      element('LoadAddress', 'tns:Address', true),
      element('DestinationAddress', 'tns:Address', true),
      element('VehicleLicence', 's:string', false),
    ]),
    complexType('Address', fields('Address', ADDRESS_ORDER)),
    complexType('PartnerInformation', fields('PartnerInformation', PARTNER_ORDER)),
    complexType('Response', [
      element('RequestId', 's:string', false),
      element('Type', 's:string', true),
      element('Object', 's:anyType', false),
      element('ErrorValue', 'tns:MagniEnum', false),
      element('ErrorHumanReadable', 's:string', false),
      element('ValidationErrors', 'tns:ArrayOfValidationError', false),
    ]),
    complexType('MagniEnum', [element('Value', 's:int', true), element('Name', 's:string', false)]),
    complexType('ArrayOfValidationError', [element('ValidationError', 'tns:ValidationError', false, true)]),
    complexType('ValidationError', [
      element('Type', 's:string', false),
      element('ElementNumber', 's:int', false),
      element('Field', 's:string', false),
      element('Detail', 's:string', false),
      element('Value', 's:string', false),
    ]),
  ];
  const elements = Object.entries(OPERATION_INPUTS).flatMap(([operation, children]) => [
    `<s:element name="${operation}"><s:complexType><s:sequence>${children.join('')}</s:sequence></s:complexType></s:element>`,
    `<s:element name="${operation}Response"><s:complexType><s:sequence>${element('Response', 'tns:Response', false)}</s:sequence></s:complexType></s:element>`,
  ]);
  return `<s:schema elementFormDefault="qualified" targetNamespace="${escapeXml(namespace)}">${elements.join('')}${types.join('')}</s:schema>`;
}

function binding(name: string, prefix: 'soap' | 'soap12', namespace: string): string {
  const operations = WSDL_OPERATIONS.map(
    (operation) =>
      `<wsdl:operation name="${operation}"><${prefix}:operation soapAction="${escapeXml(namespace + operation)}" style="document"/>` +
      `<wsdl:input><${prefix}:body use="literal"/></wsdl:input><wsdl:output><${prefix}:body use="literal"/></wsdl:output></wsdl:operation>`,
  ).join('');
  return (
    `<wsdl:binding name="${name}" type="tns:InvoicingSoap"><${prefix}:binding transport="http://schemas.xmlsoap.org/soap/http"/>` +
    `${operations}</wsdl:binding>`
  );
}

/** The WSDL of the SOAP endpoint at `soapUrl`, operations in `namespace`. */
export function serviceWsdl(soapUrl: string, namespace: string): string {
  const messages = WSDL_OPERATIONS.map(
    (operation) =>
      `<wsdl:message name="${operation}SoapIn"><wsdl:part name="parameters" element="tns:${operation}"/></wsdl:message>` +
      `<wsdl:message name="${operation}SoapOut"><wsdl:part name="parameters" element="tns:${operation}Response"/></wsdl:message>`,
  ).join('');
  const portOperations = WSDL_OPERATIONS.map(
    (operation) =>
      `<wsdl:operation name="${operation}"><wsdl:input message="tns:${operation}SoapIn"/><wsdl:output message="tns:${operation}SoapOut"/></wsdl:operation>`,
  ).join('');
  const location = escapeXml(soapUrl);
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    '<wsdl:definitions xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" ' +
    `xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:tns="${escapeXml(namespace)}" ` +
    `targetNamespace="${escapeXml(namespace)}">` +
    `<wsdl:types>${schema(namespace)}</wsdl:types>` +
    messages +
    `<wsdl:portType name="InvoicingSoap">${portOperations}</wsdl:portType>` +
    binding('InvoicingSoap', 'soap', namespace) +
    binding('InvoicingSoap12', 'soap12', namespace) +
    '<wsdl:service name="Invoicing">' +
    `<wsdl:port name="InvoicingSoap" binding="tns:InvoicingSoap"><soap:address location="${location}"/></wsdl:port>` +
    `<wsdl:port name="InvoicingSoap12" binding="tns:InvoicingSoap12"><soap12:address location="${location}"/></wsdl:port>` +
    '</wsdl:service></wsdl:definitions>'
  );
}
