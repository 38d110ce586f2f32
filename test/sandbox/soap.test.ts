import { XMLParser } from 'fast-xml-parser';
import { request } from 'undici';
import { RunningSandbox, startTestSandbox, TEST_ACCOUNT } from '../support/sandbox';
import { admin, advanceClock } from './http';

/** The SOAP endpoint: operations, credentials in the body, namespace echo, faults. */

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await admin(sandbox, 'POST', '/reset');
});

/** MagniFinance's operation namespace (public docs: xmlns:inv="http://MagniAPI/Invoicing/"). */
const NS = 'http://MagniAPI/Invoicing/';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';

function envelope(operation: string, inner: string, options: { ns?: string; env?: string; email?: string; token?: string } = {}): string {
  const auth = `<inv:Authentication><inv:Email>${options.email ?? TEST_ACCOUNT.email}</inv:Email><inv:Token>${options.token ?? TEST_ACCOUNT.token}</inv:Token></inv:Authentication>`;
  return (
    `<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope xmlns:soapenv="${options.env ?? SOAP11}" xmlns:inv="${options.ns ?? NS}">` +
    `<soapenv:Header/><soapenv:Body><inv:${operation}>${auth}${inner}</inv:${operation}></soapenv:Body></soapenv:Envelope>`
  );
}

const clientXml = '<inv:Client><inv:NIF>999999990</inv:NIF><inv:Name>Maria Silva</inv:Name><inv:Address/><inv:CountryCode>PT</inv:CountryCode></inv:Client>';

function lineXml(taxValue = '23'): string {
  return (
    '<inv:APIInvoicingProduct><inv:Code>SKU-1</inv:Code><inv:Description>Caneca</inv:Description><inv:UnitPrice>10.125</inv:UnitPrice>' +
    `<inv:Quantity>2</inv:Quantity><inv:Unit>UN</inv:Unit><inv:Type>P</inv:Type><inv:TaxValue>${taxValue}</inv:TaxValue>` +
    '<inv:ProductDiscount>0</inv:ProductDiscount></inv:APIInvoicingProduct>'
  );
}

function documentCreate(document: string, close = 'true', sendTo = ''): string {
  return `${clientXml}<inv:Document>${document}</inv:Document><inv:IsToClose>${close}</inv:IsToClose><inv:SendTo>${sendTo}</inv:SendTo>`;
}

const invoice = `<inv:Type>T</inv:Type><inv:Serie/><inv:Date>2026-03-02</inv:Date><inv:DueDate>2026-03-03</inv:DueDate><inv:ExternalId>soap-1</inv:ExternalId><inv:Lines>${lineXml()}${lineXml('6')}</inv:Lines>`;

interface SoapResult {
  status: number;
  contentType: string;
  text: string;
  response: Record<string, unknown>;
  operationNamespace: string | undefined;
}

const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, isArray: (name) => name === 'ValidationError' });

async function soap(body: string, contentType = 'text/xml; charset=utf-8'): Promise<SoapResult> {
  const response = await request(sandbox.soapUrl, { method: 'POST', headers: { 'content-type': contentType }, body });
  const text = await response.body.text();
  const tree = parser.parse(text) as { Envelope: { Body: Record<string, Record<string, unknown>> } };
  const [operationResponse] = Object.values(tree.Envelope.Body);
  return {
    status: response.statusCode,
    contentType: String(response.headers['content-type']),
    text,
    response: (operationResponse.Response as Record<string, unknown>) ?? operationResponse,
    operationNamespace: /<\w+Response xmlns="([^"]*)"/.exec(text)?.[1],
  };
}

describe('DocumentCreate', () => {
  it('creates a closed document: Type Success and Object/DocumentId', async () => {
    const result = await soap(envelope('DocumentCreate', documentCreate(invoice)));
    expect(result.status).toBe(200);
    expect(result.response).toMatchObject({ Type: 'Success', Object: { DocumentId: '1' } });
    expect(result.response.RequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.text).toContain('<DocumentCreateResponse xmlns="http://MagniAPI/Invoicing/"><Response>');
  });

  it('reports validation errors in the Response with Type Error', async () => {
    const result = await soap(envelope('DocumentCreate', documentCreate(`<inv:Type>T</inv:Type><inv:Date>2026-03-02</inv:Date><inv:DueDate>2026-03-01</inv:DueDate><inv:Lines>${lineXml('0')}</inv:Lines>`)));
    expect(result.status).toBe(200);
    expect(result.response).toMatchObject({ Type: 'Error', ErrorValue: { Value: '14', Name: 'SaveFailed' }, ErrorHumanReadable: 'ValidationError' });
    const errors = (result.response.ValidationErrors as { ValidationError: Record<string, string>[] }).ValidationError;
    expect(errors).toEqual(
      expect.arrayContaining([
        { Type: 'DueDateMustBePosteriorToDate', ElementNumber: '0', Field: 'DocumentDetailDueDate', Detail: expect.any(String) },
        { Type: 'TaxExemptionReasonRequired', ElementNumber: '0', Field: 'DocumentDetailTaxExemptionReasonCode', Detail: expect.any(String) },
      ]),
    );
    expect(result.text.indexOf('<Type>DueDate')).toBeLessThan(result.text.indexOf('<ElementNumber>'));
  });

  it('reports a duplicate exactly as REST does', async () => {
    await soap(envelope('DocumentCreate', documentCreate(invoice)));
    const again = await soap(envelope('DocumentCreate', documentCreate(invoice)));
    expect(again.response.ValidationErrors).toEqual({
      ValidationError: [{ Type: 'DocumentIsADuplicate', ElementNumber: '0', Field: 'DocumentDetailExternalId', Detail: 'Duplicate Document' }],
    });
  });

  it('allows DocumentReference up to 100 characters in SOAP', async () => {
    const reference = `<inv:DocumentReference>${'R'.repeat(100)}</inv:DocumentReference>`;
    const result = await soap(envelope('DocumentCreate', documentCreate(`${invoice.replace('T</inv:Type>', 'C</inv:Type>')}${reference}`)));
    expect(result.response.Type).toBe('Success');
  });

  it('updates and closes a draft through Document/Id', async () => {
    const draft = await soap(envelope('DocumentCreate', documentCreate(invoice, 'false')));
    const id = (draft.response.Object as { DocumentId: string }).DocumentId;
    const closed = await soap(envelope('DocumentCreate', documentCreate(`<inv:Id>${id}</inv:Id>${invoice}`, 'true', 'maria@example.com')));
    expect(closed.response.Object).toEqual({ DocumentId: id });
    const outbox = await admin<{ emails: { to: string }[] }>(sandbox, 'GET', '/outbox');
    expect(outbox.body.emails.map((e) => e.to)).toEqual(['maria@example.com']);
  });
});

describe('the same input gives the same result over SOAP and REST', () => {
  it('stores the same document and totals', async () => {
    await soap(envelope('DocumentCreate', documentCreate(invoice)));
    const rest = await request(`${sandbox.baseUrl}/document`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token },
      body: JSON.stringify({
        IsToClose: true,
        SendTo: '',
        Client: { NIF: '999999990', Name: 'Maria Silva', Address: '', CountryCode: 'PT' },
        Document: {
          Type: 'T', Serie: '', Date: '2026-03-02', DueDate: '2026-03-03', ExternalId: 'rest-1',
          Lines: ['23', '6'].map((TaxValue) => ({ Code: 'SKU-1', Description: 'Caneca', UnitPrice: 10.125, Quantity: 2, Unit: 'UN', Type: 'P', TaxValue, ProductDiscount: 0 })),
        },
      }),
    });
    expect(rest.statusCode).toBe(200);
    await rest.body.text();
    const docs = (await admin<{ documents: { client: unknown; document: Record<string, unknown> }[] }>(sandbox, 'GET', '/documents')).body.documents;
    const strip = (d: Record<string, unknown>): Record<string, unknown> => ({ ...d, Id: undefined, ExternalId: undefined });
    expect(strip(docs[0].document)).toEqual(strip(docs[1].document));
    expect(docs[0].client).toEqual(docs[1].client);
  });
});

describe('other operations', () => {
  it('AddPartner registers an unknown company', async () => {
    const result = await soap(envelope('AddPartner', '<inv:PartnerInformation><inv:CompanyTaxId>508000009</inv:CompanyTaxId><inv:CompanyLegalName>Tipografia</inv:CompanyLegalName></inv:PartnerInformation>'));
    expect(result.response).toMatchObject({ Type: 'Success', Object: { CompanyTaxId: '508000009', Status: 'AccessGranted' } });
  });

  it('AddPartner refuses an invalid CompanyTaxId', async () => {
    const result = await soap(envelope('AddPartner', '<inv:PartnerInformation><inv:CompanyTaxId>123456780</inv:CompanyTaxId></inv:PartnerInformation>'));
    expect(result.response).toMatchObject({ Type: 'Error', ValidationErrors: { ValidationError: [expect.objectContaining({ Type: 'InvalidTaxId', Field: 'CompanyTaxId' })] } });
  });

  it('DocumentGet and DocumentCancel', async () => {
    await soap(envelope('DocumentCreate', documentCreate(invoice)));
    await advanceClock(sandbox, 60_000);
    const got = await soap(envelope('DocumentGet', '<inv:DocumentId>1</inv:DocumentId>'));
    expect(got.response).toMatchObject({ Type: 'Success', Object: { DocumentNumber: 'FR A/1', TotalAmount: '46,38' } });
    expect(got.text).toContain('<Lines><APIInvoicingProduct><Code>SKU-1</Code>');
    const canceled = await soap(envelope('DocumentCancel', '<inv:DocumentId>1</inv:DocumentId>'));
    expect(canceled.response.Type).toBe('Success');
    const after = await soap(envelope('DocumentGet', '<inv:DocumentId>1</inv:DocumentId>'));
    expect((after.response.Object as { Details: { Document: { DocumentStatus: string } } }).Details.Document.DocumentStatus).toBe('Cancelled');
    const missing = await soap(envelope('DocumentGet', '<inv:DocumentId>99</inv:DocumentId>'));
    expect(missing.response).toMatchObject({ Type: 'Error', ErrorValue: { Value: '6', Name: 'ElementDoesNotExist' } });
  });

  it('WaybillCreate returns the number', async () => {
    const waybill =
      `<inv:Waybill><inv:Type>W</inv:Type><inv:Date>2026-03-02</inv:Date><inv:LoadDateTime>2026-03-02T10:00:00</inv:LoadDateTime>` +
      `<inv:LoadAddress><inv:AddressDetail>Rua A</inv:AddressDetail><inv:City>Lisboa</inv:City><inv:PostalCode>1100-053</inv:PostalCode><inv:CountryCode>PT</inv:CountryCode></inv:LoadAddress>` +
      `<inv:DestinationAddress><inv:AddressDetail>Rua B</inv:AddressDetail><inv:City>Porto</inv:City><inv:PostalCode>4000-447</inv:PostalCode><inv:CountryCode>PT</inv:CountryCode></inv:DestinationAddress>` +
      `<inv:Lines>${lineXml()}</inv:Lines></inv:Waybill><inv:IsToClose>true</inv:IsToClose>`;
    const result = await soap(envelope('WaybillCreate', `${clientXml}${waybill}`));
    expect(result.response).toMatchObject({ Type: 'Success', Object: { DocumentId: '1', DocumentNumber: 'GT A/1' } });
  });
});

describe('credentials, namespaces and faults', () => {
  it.each([
    ['a wrong token', { token: 'nope' }],
    ['an unknown e-mail', { email: 'who@example.com' }],
  ])('%s is refused with HTTP 401 and AuthenticationError', async (_name, credentials) => {
    const result = await soap(envelope('DocumentCreate', documentCreate(invoice), credentials));
    expect(result.status).toBe(401);
    expect(result.response).toMatchObject({ Type: 'Error', ErrorValue: { Value: '1', Name: 'AuthenticationError' } });
  });

  it('answers in the service namespace', async () => {
    const result = await soap(envelope('DocumentCreate', documentCreate(invoice)));
    expect(result.operationNamespace).toBe(NS);
  });

  it.each(['urn:any-namespace', 'http://www.magnifinance.com/api/v1', 'http://MagniAPI/Invoicing'])(
    'refuses the operation in namespace %s with a Client fault, nothing created',
    async (ns) => {
      const response = await request(sandbox.soapUrl, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8' }, body: envelope('DocumentCreate', documentCreate(invoice), { ns }) });
      const text = await response.body.text();
      expect(response.statusCode).toBe(500);
      expect(text).toContain('<faultcode>soap:Client</faultcode>');
      expect(text).toContain(`the operations are in namespace ${NS}<`);
      const { body } = await admin<{ documents: unknown[] }>(sandbox, 'GET', '/documents');
      expect(body.documents).toHaveLength(0);
    },
  );

  it('answers SOAP 1.2 in kind', async () => {
    const result = await soap(envelope('DocumentCreate', documentCreate(invoice), { env: SOAP12 }), 'application/soap+xml; charset=utf-8');
    expect(result.contentType).toContain('application/soap+xml');
    expect(result.text).toContain(`xmlns:soap="${SOAP12}"`);
    expect(result.response.Type).toBe('Success');
  });

  it.each([
    ['malformed XML', '<soapenv:Envelope><soapenv:Body><inv:DocumentCreate></soapenv:Body>', 'Malformed XML'],
    ['not an envelope', '<?xml version="1.0"?><Hello/>', 'not a SOAP envelope'],
    ['an unknown operation', envelope('DocumentDelete', ''), 'Unknown operation DocumentDelete'],
  ])('%s is a SOAP Fault with HTTP 500', async (_name, body, message) => {
    const response = await request(sandbox.soapUrl, { method: 'POST', headers: { 'content-type': 'text/xml' }, body });
    const text = await response.body.text();
    expect(response.statusCode).toBe(500);
    expect(text).toContain('<soap:Fault><faultcode>soap:Client</faultcode>');
    expect(text).toContain(message);
  });
});

describe('SOAP like an ASMX service: content type, version, faults', () => {
  it.each(['application/json', 'text/plain', 'application/xml', ''])('content type "%s" is HTTP 415, nothing read', async (contentType) => {
    const headers: Record<string, string> = contentType === '' ? {} : { 'content-type': contentType };
    const response = await request(sandbox.soapUrl, { method: 'POST', headers, body: envelope('DocumentCreate', documentCreate(invoice)) });
    expect(response.statusCode).toBe(415);
    expect(await response.body.text()).toContain("send SOAP 1.1 as 'text/xml; charset=utf-8' or SOAP 1.2 as 'application/soap+xml; charset=utf-8'");
    const { body } = await admin<{ documents: unknown[] }>(sandbox, 'GET', '/documents');
    expect(body.documents).toHaveLength(0);
  });

  it('a SOAP 1.2 envelope sent as text/xml is a SOAP 1.1 VersionMismatch fault', async () => {
    const response = await request(sandbox.soapUrl, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8' }, body: envelope('DocumentCreate', documentCreate(invoice), { env: SOAP12 }) });
    const text = await response.body.text();
    expect(response.statusCode).toBe(500);
    expect(String(response.headers['content-type'])).toContain('text/xml');
    expect(text).toContain('<faultcode>soap:VersionMismatch</faultcode>');
    expect(text).toContain(`Envelope namespace ${SOAP12} was unexpected. Expecting ${SOAP11}.`);
  });

  it('a SOAP 1.1 envelope sent as application/soap+xml is a SOAP 1.2 VersionMismatch fault', async () => {
    const response = await request(sandbox.soapUrl, { method: 'POST', headers: { 'content-type': 'application/soap+xml; charset=utf-8' }, body: envelope('DocumentCreate', documentCreate(invoice)) });
    const tree = parser.parse(await response.body.text()) as { Envelope: { Body: { Fault: { Code: { Value: string }; Reason: { Text: { '#text': string; '@_lang': string } } } } } };
    expect(response.statusCode).toBe(500);
    expect(tree.Envelope.Body.Fault.Code.Value).toBe('soap:VersionMismatch');
    expect(tree.Envelope.Body.Fault.Reason.Text['#text']).toContain(`Expecting ${SOAP12}`);
  });

  it.each([
    ['malformed XML', '<soap:Envelope><soap:Body><inv:DocumentCreate></soap:Body>', 'Malformed XML'],
    ['an unknown operation', envelope('DocumentDelete', '', { env: SOAP12 }), 'Unknown operation DocumentDelete'],
  ])('%s sent as SOAP 1.2 is a SOAP 1.2 Sender fault (Code/Value, Reason/Text)', async (_name, body, message) => {
    const response = await request(sandbox.soapUrl, { method: 'POST', headers: { 'content-type': 'application/soap+xml; charset=utf-8' }, body });
    const text = await response.body.text();
    expect(response.statusCode).toBe(500);
    expect(String(response.headers['content-type'])).toContain('application/soap+xml');
    expect(text).toContain(`<soap:Envelope xmlns:soap="${SOAP12}"`);
    expect(text).toContain('<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">');
    expect(text).toContain(message);
    expect(text).not.toContain('faultcode');
  });

  it.each([
    ['1', 'closed'],
    ['0', 'draft'],
    [' true ', 'closed'],
    ['false', 'draft'],
  ])('IsToClose %j (xsd:boolean) gives a %s document', async (value, status) => {
    const result = await soap(envelope('DocumentCreate', documentCreate(invoice, value)));
    expect(result.response.Type).toBe('Success');
    const { body } = await admin<{ documents: { status: string }[] }>(sandbox, 'GET', '/documents');
    expect(body.documents.map((d) => d.status)).toEqual([status]);
  });

  it('IsToClose "yes" is not an xsd:boolean', async () => {
    const result = await soap(envelope('DocumentCreate', documentCreate(invoice, 'yes')));
    expect(result.response).toMatchObject({ Type: 'Error', ValidationErrors: { ValidationError: [{ Type: 'InvalidFormat', Field: 'IsToClose' }] } });
  });
});
