import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * Reading and writing the SOAP envelope. Requests may use any prefix; the tree handed on uses
 * local names only, and the operation's namespace and the envelope's are returned for the
 * service to check. Everything stays text (parseTagValue off): amounts are never turned into floats.
 */

export const SOAP11_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENVELOPE = 'http://www.w3.org/2003/05/soap-envelope';

export type SoapVersion = '1.1' | '1.2';

export function envelopeNamespaceOf(version: SoapVersion): string {
  return version === '1.2' ? SOAP12_ENVELOPE : SOAP11_ENVELOPE;
}

/** SOAP 1.1 is text/xml, SOAP 1.2 application/soap+xml (each version's HTTP binding). */
export function soapVersionOfContentType(contentType: string | undefined): SoapVersion | undefined {
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (media === 'text/xml') return '1.1';
  if (media === 'application/soap+xml') return '1.2';
  return undefined;
}

export function contentTypeOf(version: SoapVersion): string {
  return version === '1.2' ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8';
}

export type XmlValue = string | XmlNode | XmlValue[];
export interface XmlNode {
  [name: string]: XmlValue;
}

export interface SoapRequest {
  operation: string;
  /** Namespace of the operation element ('' when it has none). */
  namespace: string;
  envelopeNamespace: string;
  body: XmlNode;
}

/** Elements that are lists in the service's schema, even when only one is sent. */
const LIST_ELEMENTS = new Set(['APIInvoicingProduct', 'ValidationError']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => LIST_ELEMENTS.has(localName(name)),
});

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

function prefixOf(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? '' : name.slice(0, colon);
}

type Parsed = Record<string, unknown>;

function isParsed(value: unknown): value is Parsed {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function namespaceFor(prefix: string, scopes: Parsed[]): string {
  const attribute = prefix === '' ? '@_xmlns' : `@_xmlns:${prefix}`;
  for (const scope of scopes) {
    const value = scope[attribute];
    if (typeof value === 'string') return value;
  }
  return '';
}

function elementEntries(node: Parsed): [string, unknown][] {
  return Object.entries(node).filter(([key]) => !key.startsWith('@_') && key !== '#text' && key !== '?xml');
}

/** Local-name tree without attributes. */
function strip(value: unknown): XmlValue {
  if (Array.isArray(value)) return value.map(strip);
  if (!isParsed(value)) return value === undefined || value === null ? '' : String(value);
  const entries = elementEntries(value);
  if (entries.length === 0) return typeof value['#text'] === 'string' ? value['#text'] : '';
  const out: XmlNode = {};
  for (const [key, child] of entries) out[localName(key)] = strip(child);
  return out;
}

export type SoapParse = { ok: true; request: SoapRequest } | { ok: false; reason: string };

export function parseSoapRequest(text: string): SoapParse {
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, reason: `Malformed XML: ${valid.err.msg} (line ${valid.err.line})` };
  const document = parser.parse(text) as Parsed;
  const envelopeEntry = elementEntries(document).find(([key]) => localName(key) === 'Envelope');
  if (!envelopeEntry || !isParsed(envelopeEntry[1])) return { ok: false, reason: 'The message is not a SOAP envelope' };
  const [envelopeName, envelope] = envelopeEntry as [string, Parsed];
  const bodyEntry = elementEntries(envelope).find(([key]) => localName(key) === 'Body');
  if (!bodyEntry || !isParsed(bodyEntry[1])) return { ok: false, reason: 'The SOAP envelope has no Body' };
  const body = bodyEntry[1];
  const operationEntry = elementEntries(body)[0];
  if (!operationEntry) return { ok: false, reason: 'The SOAP Body is empty' };
  const [operationName, operation] = operationEntry;
  const opNode = isParsed(operation) ? operation : {};
  const stripped = strip(operation);
  return {
    ok: true,
    request: {
      operation: localName(operationName),
      namespace: namespaceFor(prefixOf(operationName), [opNode, body, envelope]),
      envelopeNamespace: namespaceFor(prefixOf(envelopeName), [envelope]),
      body: typeof stripped === 'object' && !Array.isArray(stripped) ? stripped : {},
    },
  };
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch] as string);
}

/** Item element name for each list field of an answer. */
const LIST_ITEM: Record<string, string> = {
  Lines: 'APIInvoicingProduct',
  ValidationErrors: 'ValidationError',
  Object: 'PartnerAccessToken',
};

/** Serialises a JSON-like answer value; null and undefined fields are left out. */
export function toXml(name: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) {
    const item = LIST_ITEM[name] ?? 'Item';
    return `<${name}>${value.map((v) => toXml(item, v)).join('')}</${name}>`;
  }
  if (typeof value === 'object') {
    const inner = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => toXml(k, v))
      .join('');
    return `<${name}>${inner}</${name}>`;
  }
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

export function soapEnvelope(envelopeNamespace: string, content: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${escapeXml(envelopeNamespace)}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    `<soap:Body>${content}</soap:Body></soap:Envelope>`
  );
}

/** Who is at fault, in SOAP 1.1's words (Client, Server); SOAP 1.2 says Sender and Receiver. */
export type FaultCode = 'Client' | 'Server' | 'VersionMismatch';

const SOAP12_CODES: Record<FaultCode, string> = { Client: 'Sender', Server: 'Receiver', VersionMismatch: 'VersionMismatch' };

/**
 * A Fault in the request's SOAP version: 1.1 faultcode/faultstring, 1.2 Code/Value and
 * Reason/Text (SOAP 1.2 Part 1, 5.4). Served with HTTP 500, as ASMX serves every fault.
 */
export function soapFault(version: SoapVersion, code: FaultCode, message: string): string {
  if (version === '1.2') {
    return soapEnvelope(
      SOAP12_ENVELOPE,
      `<soap:Fault><soap:Code><soap:Value>soap:${SOAP12_CODES[code]}</soap:Value></soap:Code>` +
        `<soap:Reason><soap:Text xml:lang="en">${escapeXml(message)}</soap:Text></soap:Reason></soap:Fault>`,
    );
  }
  return soapEnvelope(
    SOAP11_ENVELOPE,
    `<soap:Fault><faultcode>soap:${code}</faultcode><faultstring>${escapeXml(message)}</faultstring></soap:Fault>`,
  );
}
