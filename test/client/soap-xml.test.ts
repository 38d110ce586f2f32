import { XMLParser } from 'fast-xml-parser';
import { AuthenticationError, PartnerInformation, ResponseFormatError } from '../../client';
import { readResponse } from '../../client/soap-client';
import {
  buildAddPartner,
  buildDocumentCreate,
  buildWaybillCreate,
  CLIENT_ORDER,
  DOCUMENT_ORDER,
  LINE_ORDER,
  PARTNER_ORDER,
  SOAP_11_ENVELOPE,
} from '../../client/soap-xml';
import { invoiceRequest, waybillRequest } from './requests';

type Ordered = Record<string, unknown>[];
const credentials = { email: 'api@example.com', token: 'tok&<en>' };
const options = { namespace: 'http://MagniAPI/Invoicing/', soapVersion: '1.1' as const };

/** Element names of a node's children, in document order, without prefixes. */
function childNames(nodes: Ordered): string[] {
  return nodes.map((n) => Object.keys(n).find((k) => k !== ':@')!.replace(/^.*:/, ''));
}
function child(nodes: Ordered, name: string): Ordered {
  const found = nodes.find((n) => Object.keys(n).some((k) => k.replace(/^.*:/, '') === name));
  if (!found) throw new Error(`no ${name}`);
  const key = Object.keys(found).find((k) => k !== ':@')!;
  return found[key] as Ordered;
}
function operationChildren(xml: string, operation: string): Ordered {
  const tree = new XMLParser({ preserveOrder: true, ignoreAttributes: false }).parse(xml) as Ordered;
  return child(child(child(tree, 'Envelope'), 'Body'), operation);
}

describe('SOAP DocumentCreate children are in the spec order', () => {
  const full = invoiceRequest({
    Serie: 'FR',
    Id: 7,
    DocumentReference: 'FT 1',
    TaxExemptionReasonCode: 'M07',
    Currency: 'USD',
    Retention: '1.5',
    EuroRate: '1.08',
    ExternalId: 'order-1',
    PurchaseOrder: 'PO-9',
  });
  full.SendTo = 'maria@example.com';
  full.Client = { ...full.Client, PhoneNumber: '+351', CountryName: 'Portugal', LegalName: 'Maria', IBAN: 'PT50' };
  full.Document.Lines[0].CostCenter = 'CC';
  const xml = buildDocumentCreate(full, credentials, options);
  const operation = operationChildren(xml, 'DocumentCreate');

  it('Authentication, Client, Document, IsToClose, SendTo', () => {
    expect(childNames(operation)).toEqual(['Authentication', 'Client', 'Document', 'IsToClose', 'SendTo']);
    expect(childNames(child(operation, 'Authentication'))).toEqual(['Email', 'Token']);
  });
  it('Client children', () => {
    expect(childNames(child(operation, 'Client'))).toEqual([...CLIENT_ORDER]);
  });
  it('Document children end with Lines', () => {
    expect(childNames(child(operation, 'Document'))).toEqual([...DOCUMENT_ORDER, 'Lines']);
  });
  it('one APIInvoicingProduct per line, fields in order', () => {
    const lines = child(child(operation, 'Document'), 'Lines');
    expect(childNames(lines)).toEqual(['APIInvoicingProduct', 'APIInvoicingProduct', 'APIInvoicingProduct']);
    expect(childNames(lines[0][Object.keys(lines[0])[0]] as Ordered)).toEqual([...LINE_ORDER]);
  });
  it('namespace, SOAP 1.1 envelope, escaped text, verbatim decimals', () => {
    expect(xml).toContain('xmlns:inv="http://MagniAPI/Invoicing/"');
    expect(xml).toContain(`xmlns:soap="${SOAP_11_ENVELOPE}"`);
    expect(xml).toContain('<inv:Token>tok&amp;&lt;en&gt;</inv:Token>');
    expect(xml).toContain('<inv:UnitPrice>10.00</inv:UnitPrice>');
    expect(xml).toContain('<inv:IsToClose>true</inv:IsToClose>');
  });
  it('absent optional fields are left out, not sent empty', () => {
    const minimal = buildDocumentCreate(invoiceRequest(), credentials, options);
    expect(minimal).not.toContain('<inv:Id');
    expect(minimal).not.toContain('<inv:SendTo');
  });
});

describe('SOAP AddPartner and WaybillCreate children', () => {
  it('AddPartner: Authentication then PartnerInformation in order', () => {
    const info = Object.fromEntries(PARTNER_ORDER.map((name) => [name, name === 'CompanyCountry' ? 'PT' : 'x'])) as PartnerInformation;
    const operation = operationChildren(buildAddPartner(info, credentials, options), 'AddPartner');
    expect(childNames(operation)).toEqual(['Authentication', 'PartnerInformation']);
    expect(childNames(child(operation, 'PartnerInformation'))).toEqual([...PARTNER_ORDER]);
  });
  it('WaybillCreate: lines then load data', () => {
    const operation = operationChildren(buildWaybillCreate(waybillRequest(), credentials, options), 'WaybillCreate');
    expect(childNames(operation)).toEqual(['Authentication', 'Client', 'Waybill', 'IsToClose']);
    expect(childNames(child(operation, 'Waybill'))).toEqual([
      'Type', 'Date', 'Description', 'Lines', 'LoadDateTime', 'LoadAddress', 'DestinationAddress', 'VehicleLicence',
    ]);
  });
});

const wrap = (inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_11_ENVELOPE}"><soap:Body>` +
  `<DocumentCreateResponse xmlns="http://MagniAPI/Invoicing/"><Response>${inner}</Response></DocumentCreateResponse></soap:Body></soap:Envelope>`;

describe('SOAP responses are read like REST envelopes', () => {
  it('Success with DocumentId', () => {
    const response = readResponse('DocumentCreate', 200, wrap('<RequestId>r1</RequestId><Type>Success</Type><Object><DocumentId>67220</DocumentId></Object>'));
    expect(response.Type).toBe('Success');
    expect(response.Object).toEqual({ DocumentId: '67220' });
  });
  it('Error with one ValidationError stays a list', () => {
    const response = readResponse(
      'DocumentCreate',
      200,
      wrap(
        '<RequestId>r2</RequestId><Type>Error</Type><ErrorValue><Value>2</Value><Name>ValidationError</Name></ErrorValue>' +
          '<ErrorHumanReadable>ValidationError</ErrorHumanReadable><ValidationErrors><ValidationError><Type>DocumentIsADuplicate</Type>' +
          '<ElementNumber>0</ElementNumber><Field>DocumentDetailExternalId</Field><Detail>Duplicate Document</Detail></ValidationError></ValidationErrors>',
      ),
    );
    expect(response.ValidationErrors).toEqual({
      ValidationError: [{ Type: 'DocumentIsADuplicate', ElementNumber: '0', Field: 'DocumentDetailExternalId', Detail: 'Duplicate Document' }],
    });
  });
  it.each([
    ['not XML at 200', 200, 'oops', ResponseFormatError],
    ['no Response element', 200, wrap('').replace('<Response></Response>', ''), ResponseFormatError],
    ['a SOAP Fault at 401', 401, `<soap:Envelope xmlns:soap="${SOAP_11_ENVELOPE}"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>bad</faultstring></soap:Fault></soap:Body></soap:Envelope>`, AuthenticationError],
    ['a SOAP Fault at 500', 500, `<soap:Envelope xmlns:soap="${SOAP_11_ENVELOPE}"><soap:Body><soap:Fault><faultstring>boom</faultstring></soap:Fault></soap:Body></soap:Envelope>`, Error],
  ])('%s', (_name, status, body, errorClass) => {
    expect(() => readResponse('DocumentCreate', status, body)).toThrow(errorClass);
  });
});
