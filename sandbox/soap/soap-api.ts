import { Caller, resolveCaller } from '../auth';
import { readDocument } from '../document-reads';
import { cancelDocument, createDocument } from '../documents';
import { authenticationFailure, failure, SandboxAnswer } from '../envelope';
import { addPartner } from '../partners';
import type { SandboxStore } from '../store';
import { checkCreateInput } from '../validation/create-input';
import { createFailureName, violationAnswer } from '../violations';
import { DEFAULT_SOAP_NAMESPACE } from '../../client/soap-client';
import {
  contentTypeOf,
  envelopeNamespaceOf,
  escapeXml,
  FaultCode,
  parseSoapRequest,
  soapEnvelope,
  soapFault,
  SoapVersion,
  soapVersionOfContentType,
  toXml,
  XmlNode,
  XmlValue,
} from './soap-xml';

/**
 * The SOAP form, as an ASMX service answers it: DocumentCreate and AddPartner (the spec's two),
 * plus WaybillCreate, DocumentGet and DocumentCancel. Content-Type says the SOAP version (text/xml
 * 1.1, application/soap+xml 1.2; anything else is HTTP 415) and the envelope must be of that
 * version (else a VersionMismatch fault); the operation element is in the service's namespace,
 * http://MagniAPI/Invoicing/ (MagniFinance's public docs). Credentials come from
 * Authentication{Email, Token} in the body. Each answer is <{Operation}Response><Response> with
 * the envelope fields, Type written Success or Error. Application errors travel in that Response
 * with HTTP 200, bad credentials with HTTP 401; malformed XML, a wrong namespace and unknown
 * operations are Faults in the request's SOAP version (HTTP 500).
 */

/** The operations' namespace: the client's default, MagniFinance's documented one. */
export const SERVICE_NAMESPACE = DEFAULT_SOAP_NAMESPACE;

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
    const checked = checkCreateInput(raw, kind, { form: 'soap', taxRates: caller.account.taxRates });
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

/** The operations this endpoint serves (the WSDL describes the same list). */
export const SOAP_OPERATIONS: readonly string[] = Object.keys(OPERATIONS);

function faultAnswer(version: SoapVersion, code: FaultCode, message: string): SoapAnswer {
  return { status: 500, contentType: contentTypeOf(version), body: soapFault(version, code, message) };
}

export function handleSoap(store: SandboxStore, text: string, origin: string, requestContentType?: string): SoapAnswer {
  const version = soapVersionOfContentType(requestContentType);
  if (!version) return unsupportedMediaType(requestContentType);
  const parsed = parseSoapRequest(text);
  if (!parsed.ok) return faultAnswer(version, 'Client', parsed.reason);
  const { operation, namespace, envelopeNamespace, body } = parsed.request;
  if (envelopeNamespace !== envelopeNamespaceOf(version)) {
    return faultAnswer(
      version,
      'VersionMismatch',
      `Possible SOAP version mismatch: Envelope namespace ${envelopeNamespace || '(none)'} was unexpected. Expecting ${envelopeNamespaceOf(version)}.`,
    );
  }
  const handler = Object.hasOwn(OPERATIONS, operation) ? OPERATIONS[operation] : undefined;
  if (!handler) return faultAnswer(version, 'Client', `Unknown operation ${operation}: the operations are ${SOAP_OPERATIONS.join(', ')}`);
  if (namespace !== SERVICE_NAMESPACE) {
    return faultAnswer(
      version,
      'Client',
      `Server did not recognize the request element ${operation} in namespace ${namespace || '(none)'}: the operations are in namespace ${SERVICE_NAMESPACE}`,
    );
  }
  const auth = asNode(body.Authentication);
  const caller = resolveCaller(store, asText(auth?.Email), asText(auth?.Token));
  const answer = caller ? handler(store, caller, body, origin) : authenticationFailure();
  return {
    status: answer.status === 401 ? 401 : 200,
    contentType: contentTypeOf(version),
    body: soapEnvelope(
      envelopeNamespaceOf(version),
      `<${operation}Response xmlns="${escapeXml(SERVICE_NAMESPACE)}">${responseXml(answer)}</${operation}Response>`,
    ),
  };
}

/** Neither SOAP 1.1's text/xml nor SOAP 1.2's application/soap+xml: HTTP 415, nothing read. */
function unsupportedMediaType(contentType: string | undefined): SoapAnswer {
  return {
    status: 415,
    contentType: 'text/plain; charset=utf-8',
    body:
      `Unsupported Media Type: the content type '${contentType ?? ''}' is not a SOAP message type; ` +
      "send SOAP 1.1 as 'text/xml; charset=utf-8' or SOAP 1.2 as 'application/soap+xml; charset=utf-8'.",
  };
}

/** The injected GeneralUnknownError, as a SOAP client would see a server failure. */
export function soapServerFault(requestContentType?: string): SoapAnswer {
  return faultAnswer(
    soapVersionOfContentType(requestContentType) ?? '1.1',
    'Server',
    'GeneralUnknownError: an unexpected error occurred, please try again later',
  );
}
