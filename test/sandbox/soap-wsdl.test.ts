import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { request } from 'undici';
import { DEFAULT_SOAP_NAMESPACE } from '../../client';
import { SOAP_OPERATIONS } from '../../sandbox/soap/soap-api';
import { RunningSandbox, startTestSandbox } from '../support/sandbox';

/** GET /soap?wsdl: the service description an ASMX endpoint serves, as a WSDL reader sees it. */

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

type Node = Record<string, unknown>;
const nodes = (value: unknown): Node[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]) as Node[];

async function wsdl(query = '?wsdl'): Promise<{ status: number; contentType: string; text: string }> {
  const response = await request(`${sandbox.soapUrl}${query}`);
  return { status: response.statusCode, contentType: String(response.headers['content-type']), text: await response.body.text() };
}

describe('GET /soap?wsdl', () => {
  let definitions: Node;
  beforeAll(async () => {
    const { status, contentType, text } = await wsdl();
    expect(status).toBe(200);
    expect(contentType).toContain('text/xml');
    expect(XMLValidator.validate(text)).toBe(true);
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', removeNSPrefix: true });
    definitions = (parser.parse(text) as Node).definitions as Node;
  });

  it('is WSDL 1.1 with the service namespace as its target', () => {
    expect(definitions['@_targetNamespace']).toBe(DEFAULT_SOAP_NAMESPACE);
  });

  it('names every operation the endpoint serves, at least the spec\'s DocumentCreate and AddPartner', () => {
    const operations = nodes((nodes(definitions.portType)[0] as Node).operation).map((o) => o['@_name']);
    expect(operations).toEqual(expect.arrayContaining(['DocumentCreate', 'AddPartner']));
    expect([...operations].sort()).toEqual([...SOAP_OPERATIONS].sort());
  });

  it('gives each operation an input and output message whose element is declared in the schema', () => {
    const messages = new Map(nodes(definitions.message).map((m) => [m['@_name'], (nodes(m.part)[0] as Node)['@_element']]));
    const schema = nodes((definitions.types as Node).schema)[0] as Node;
    const elements = new Set(nodes(schema.element).map((e) => e['@_name']));
    for (const operation of nodes((nodes(definitions.portType)[0] as Node).operation)) {
      const name = operation['@_name'] as string;
      const input = String((operation.input as Node)['@_message']).replace(/^tns:/, '');
      const output = String((operation.output as Node)['@_message']).replace(/^tns:/, '');
      expect([input, output]).toEqual([`${name}SoapIn`, `${name}SoapOut`]);
      expect(messages.get(input)).toBe(`tns:${name}`);
      expect(messages.get(output)).toBe(`tns:${name}Response`);
      expect(elements.has(name) && elements.has(`${name}Response`)).toBe(true);
    }
  });

  it('has a SOAP 1.1 and a SOAP 1.2 port at the endpoint address', () => {
    const ports = nodes((nodes(definitions.service)[0] as Node).port);
    expect(ports.map((p) => [p['@_name'], (p.address as Node)['@_location']])).toEqual([
      ['InvoicingSoap', sandbox.soapUrl],
      ['InvoicingSoap12', sandbox.soapUrl],
    ]);
  });

  it('lists DocumentCreate\'s children in the spec\'s order', () => {
    const schema = nodes((definitions.types as Node).schema)[0] as Node;
    const create = nodes(schema.element).find((e) => e['@_name'] === 'DocumentCreate') as Node;
    const children = nodes(((create.complexType as Node).sequence as Node).element).map((e) => e['@_name']);
    expect(children).toEqual(['Authentication', 'Client', 'Document', 'IsToClose', 'SendTo']);
  });

  it('answers ?WSDL in any case, and a help page without it', async () => {
    expect((await wsdl('?WSDL')).text).toContain('<wsdl:definitions');
    const help = await wsdl('');
    expect(help.contentType).toContain('text/html');
    expect(help.text).toContain('DocumentCreate');
  });
});
