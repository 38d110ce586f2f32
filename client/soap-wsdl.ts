import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ResponseFormatError } from './errors';

/**
 * Reading the service's WSDL (an ASMX endpoint serves it at `?wsdl`): the operations with their
 * input and output messages and SOAP action, and the endpoint address of each SOAP version.
 * `MagniFinanceSoapClient.describeService()` uses it to check an endpoint before sending anything.
 * Namespace prefixes are resolved from the declarations on the root element (where WSDL
 * generators put them), so any prefixes work.
 */

export interface SoapOperationDescription {
  name: string;
  /** The input message (`DocumentCreateSoapIn`) and the element its part carries (`DocumentCreate`). */
  inputMessage: string;
  inputElement: string;
  outputMessage: string;
  outputElement: string;
  /** SOAPAction of the SOAP 1.1 binding, when it has one. */
  soapAction?: string;
}

export interface SoapServiceDescription {
  serviceName: string;
  targetNamespace: string;
  operations: SoapOperationDescription[];
  /** soap:address of the SOAP 1.1 port and soap12:address of the SOAP 1.2 port. */
  soap11Address?: string;
  soap12Address?: string;
}

const WSDL = 'http://schemas.xmlsoap.org/wsdl/';
const WSDL_SOAP11 = 'http://schemas.xmlsoap.org/wsdl/soap/';
const WSDL_SOAP12 = 'http://schemas.xmlsoap.org/wsdl/soap12/';

type Node = Record<string, unknown>;

function asNodes(value: unknown): Node[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).filter((item): item is Node => typeof item === 'object' && item !== null);
}

function attr(node: Node | undefined, name: string): string | undefined {
  const value = node?.[`@_${name}`];
  return typeof value === 'string' ? value : undefined;
}

function localName(qualified: string | undefined): string {
  if (!qualified) return '';
  const colon = qualified.indexOf(':');
  return colon === -1 ? qualified : qualified.slice(colon + 1);
}

class Namespaces {
  private readonly byPrefix = new Map<string, string>();

  constructor(root: Node) {
    for (const [key, value] of Object.entries(root)) {
      if (key === '@_xmlns' && typeof value === 'string') this.byPrefix.set('', value);
      else if (key.startsWith('@_xmlns:') && typeof value === 'string') this.byPrefix.set(key.slice('@_xmlns:'.length), value);
    }
  }

  /** Child elements of `node` named `local` in namespace `ns`. */
  children(node: Node | undefined, ns: string, local: string): Node[] {
    if (!node) return [];
    return Object.entries(node)
      .filter(([key]) => !key.startsWith('@_') && localName(key) === local && this.byPrefix.get(key.includes(':') ? key.slice(0, key.indexOf(':')) : '') === ns)
      .flatMap(([, value]) => asNodes(value));
  }
}

/** Parses a WSDL 1.1 document; anything else is a ResponseFormatError. */
export function readServiceDescription(xml: string, status = 200): SoapServiceDescription {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new ResponseFormatError(`The WSDL is not well-formed XML: ${valid.err.msg}`, status, xml);
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false });
  const document = parser.parse(xml) as Node;
  const rootEntry = Object.entries(document).find(([key]) => localName(key) === 'definitions');
  const root = rootEntry ? asNodes(rootEntry[1])[0] : undefined;
  if (!root) throw new ResponseFormatError('The answer is not a WSDL (no definitions element)', status, xml);
  const ns = new Namespaces(root);
  const messages = new Map(
    ns.children(root, WSDL, 'message').map((m) => [attr(m, 'name') ?? '', localName(attr(ns.children(m, WSDL, 'part')[0], 'element'))]),
  );
  const bindingVersions = new Map<string, '1.1' | '1.2'>();
  const actions = new Map<string, string>();
  for (const binding of ns.children(root, WSDL, 'binding')) {
    const version = ns.children(binding, WSDL_SOAP12, 'binding').length > 0 ? '1.2' : '1.1';
    bindingVersions.set(attr(binding, 'name') ?? '', version);
    if (version !== '1.1') continue;
    for (const operation of ns.children(binding, WSDL, 'operation')) {
      const action = attr(ns.children(operation, WSDL_SOAP11, 'operation')[0], 'soapAction');
      if (action !== undefined) actions.set(attr(operation, 'name') ?? '', action);
    }
  }
  const portType = ns.children(root, WSDL, 'portType')[0];
  const operations = ns.children(portType, WSDL, 'operation').map((operation) => {
    const name = attr(operation, 'name') ?? '';
    const inputMessage = localName(attr(ns.children(operation, WSDL, 'input')[0], 'message'));
    const outputMessage = localName(attr(ns.children(operation, WSDL, 'output')[0], 'message'));
    const described: SoapOperationDescription = {
      name,
      inputMessage,
      inputElement: messages.get(inputMessage) ?? '',
      outputMessage,
      outputElement: messages.get(outputMessage) ?? '',
    };
    const action = actions.get(name);
    if (action !== undefined) described.soapAction = action;
    return described;
  });
  const service = ns.children(root, WSDL, 'service')[0];
  const description: SoapServiceDescription = {
    serviceName: attr(service, 'name') ?? '',
    targetNamespace: attr(root, 'targetNamespace') ?? '',
    operations,
  };
  for (const port of ns.children(service, WSDL, 'port')) {
    const soap11 = attr(ns.children(port, WSDL_SOAP11, 'address')[0], 'location');
    const soap12 = attr(ns.children(port, WSDL_SOAP12, 'address')[0], 'location');
    if (soap11 !== undefined && bindingVersions.get(localName(attr(port, 'binding'))) !== '1.2') description.soap11Address ??= soap11;
    if (soap12 !== undefined) description.soap12Address ??= soap12;
  }
  return description;
}
