import { Caller, resolveCaller } from '../auth';
import { readDocument } from '../document-reads';
import { cancelDocument, createDocument } from '../documents';
import { authenticationFailure, failure, SandboxAnswer } from '../envelope';
import { addPartner } from '../partners';
import type { SandboxStore } from '../store';
import { checkCreateInput } from '../validation/create-input';
import { createFailureName, violationAnswer } from '../violations';
import { escapeXml, parseSoapRequest, soapEnvelope, soapFault, SOAP12_ENVELOPE, toXml, XmlNode, XmlValue } from './soap-xml';

/**
 * The SOAP form: DocumentCreate and AddPartner (the spec's two), plus WaybillCreate, DocumentGet
 * and DocumentCancel. Credentials come from Authentication{Email, Token} in the body. Each answer
 * is <{Operation}Response><Response> with the envelope fields, Type written Success or Error, in
 * the operation's own namespace. Application errors travel in that Response with HTTP 200, bad
 * credentials with HTTP 401; malformed XML and unknown operations are SOAP Faults (HTTP 500).
 */

export interface SoapAnswer {
  status: number;
  contentType: string;
  body: string;
}

function child(node: XmlNode, name: string): XmlValue | undefined {
  return node[name];
}

function asNode(value: XmlValue | undefined): XmlNode | undefined {
  return value !== undefined && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

function asText(value: XmlValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The XML Lines/APIInvoicingProduct list as the JSON Lines array the validator reads. */
function withLineArray(document: XmlValue | undefined): unknown {
  const node = asNode(document);
  if (!node) return document;
  const lines = asNode(node.Lines);
  const items = lines?.APIInvoicingProduct;
  return { ...node, Lines: Array.isArray(items) ? items : [] };
}

function contentTypeFor(requestContentType: string | undefined, envelopeNamespace: string): string {
  if (envelopeNamespace === SOAP12_ENVELOPE || requestContentType?.includes('application/soap+xml')) {
    return 'application/soap+xml; charset=utf-8';
  }
  return 'text/xml; charset=utf-8';
}

/** The envelope as the SOAP Response element (fields in the spec's order, nulls left out). */
function responseXml(answer: SandboxAnswer): string {
  const e = answer.envelope;
  const validation = e.ValidationErrors?.map((v) => ({
    Type: v.Type,
    ElementNumber: v.ElementNumber,
    Field: v.Field,
    Detail: v.Detail,
    ...(v.Value !== undefined ? { Value: v.Value } : {}),
  }));
  return toXml('Response', {
    RequestId: e.RequestId,
    Type: e.Type === 0 ? 'Success' : 'Error',
    Object: e.Object,
    ErrorValue: e.ErrorValue,
    ErrorHumanReadable: e.ErrorHumanReadable,
    ValidationErrors: validation,
  });
}

type Operation = (store: SandboxStore, caller: Caller, body: XmlNode, origin: string) => SandboxAnswer;

function documentIdOf(body: XmlNode): number | undefined {
  const text = asText(child(body, 'DocumentId'))?.trim();
  return text !== undefined && /^\d{1,15}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}

function missingDocumentId(body: XmlNode): SandboxAnswer {
  return failure('ValidationError', 'ValidationError', [
    { Type: 'Required', Field: 'DocumentId', ElementNumber: 0, Value: asText(body.DocumentId) ?? '', Detail: 'DocumentId must be a positive integer' },
  ]);
}

function create(kind: 'document' | 'waybill'): Operation {
  return (store, caller, body) => {
    const key = kind === 'document' ? 'Document' : 'Waybill';
    const raw = { Client: body.Client, [key]: withLineArray(body[key]), IsToClose: body.IsToClose, SendTo: body.SendTo };
    // DocumentReference is S(100) in SOAP, S(50) in REST (spec, Document table).
    const checked = checkCreateInput(raw, kind, { form: 'soap' });
    return checked.ok
      ? createDocument(store, caller, checked.input)
      : violationAnswer(checked.violations, undefined, createFailureName(store.config));
  };
}

const OPERATIONS: Record<string, Operation> = {
  DocumentCreate: create('document'),
  WaybillCreate: create('waybill'),
  AddPartner: (store, caller, body) =>
    caller.viaPartnership ? authenticationFailure() : addPartner(store, caller, asNode(body.PartnerInformation) ?? {}),
  DocumentGet: (store, caller, body, origin) => {
    const id = documentIdOf(body);
    return id === undefined ? missingDocumentId(body) : readDocument(store, caller, id, origin, 'get');
  },
  DocumentCancel: (store, caller, body) => {
    const id = documentIdOf(body);
    return id === undefined ? missingDocumentId(body) : cancelDocument(store, caller, id);
  },
};

export function handleSoap(store: SandboxStore, text: string, origin: string, requestContentType?: string): SoapAnswer {
  const fault = (message: string, code: 'soap:Client' | 'soap:Server' = 'soap:Client'): SoapAnswer => ({
    status: 500,
    contentType: 'text/xml; charset=utf-8',
    body: soapFault(code, message),
  });
  const parsed = parseSoapRequest(text);
  if (!parsed.ok) return fault(parsed.reason);
  const { operation, namespace, envelopeNamespace, body } = parsed.request;
  const handler = Object.hasOwn(OPERATIONS, operation) ? OPERATIONS[operation] : undefined;
  if (!handler) return fault(`Unknown operation ${operation}`);
  const auth = asNode(body.Authentication);
  const caller = resolveCaller(store, asText(auth?.Email), asText(auth?.Token));
  const answer = caller ? handler(store, caller, body, origin) : authenticationFailure();
  const xmlns = namespace ? ` xmlns="${escapeXml(namespace)}"` : '';
  return {
    status: answer.status === 401 ? 401 : 200,
    contentType: contentTypeFor(requestContentType, envelopeNamespace),
    body: soapEnvelope(envelopeNamespace, `<${operation}Response${xmlns}>${responseXml(answer)}</${operation}Response>`),
  };
}

/** The injected GeneralUnknownError, as a SOAP client would see a server failure. */
export function soapServerFault(): SoapAnswer {
  return { status: 500, contentType: 'text/xml; charset=utf-8', body: soapFault('soap:Server', 'GeneralUnknownError: an unexpected error occurred, please try again later') };
}
