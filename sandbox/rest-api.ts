import { Caller, resolveCaller } from './auth';
import { clientGet, validateTaxId } from './company-lookup';
import { readDocument } from './document-reads';
import { cancelDocument, createDocument } from './documents';
import { authenticationFailure, failure, SandboxAnswer } from './envelope';
import { parseJsonBody } from './json-body';
import { addPartner, partnerTokens } from './partners';
import { DEFAULT_SANDBOX_PASSWORD } from './options';
import type { SandboxStore } from './store';
import { checkCreateInput } from './validation/create-input';
import { createFailureName, violationAnswer } from './violations';

/**
 * The REST endpoints of the spec's table, under /api/v1.1. Transport-free: the server hands in
 * method, path, query, credentials and body text and sends back the answer.
 */

export interface RestRequest {
  method: string;
  /** Path below /api/v1.1, e.g. "/document/waybill". */
  path: string;
  query: URLSearchParams;
  email?: string;
  token?: string;
  /** The Password header (Get Partner Access Tokens, documented form). */
  password?: string;
  /** The Content-Type header; a body must be JSON. */
  contentType?: string;
  body: string;
  /** Scheme and host the caller reached us on (for download links). */
  origin: string;
}

type Handler = (store: SandboxStore, caller: Caller, request: RestRequest) => SandboxAnswer;

/** Endpoints that act only with the account's own token (spec, Authentication 2). */
const OWN_TOKEN_ONLY = new Set([
  'POST /partner',
  'GET /partner/tokens',
  'GET /partner/accessTokens',
  'GET /client',
  'GET /taxIdValidation',
]);

function documentIdParam(query: URLSearchParams): number | SandboxAnswer {
  const raw = query.get('documentId') ?? query.get('DocumentId');
  if (raw !== null && /^\d{1,15}$/.test(raw.trim()) && Number(raw) > 0) return Number(raw);
  const [type, detail] = raw === null || raw.trim() === '' ? ['Required', 'documentId is required'] : ['InvalidFormat', 'documentId must be a positive integer'];
  return failure('ValidationError', 'ValidationError', [{ Type: type, Field: 'DocumentId', ElementNumber: 0, Value: raw ?? '', Detail: detail }]);
}

function withDocumentId(query: URLSearchParams, act: (id: number) => SandboxAnswer): SandboxAnswer {
  const id = documentIdParam(query);
  return typeof id === 'number' ? act(id) : id;
}

function badJson(): SandboxAnswer {
  return failure('ValidationError', 'ValidationError', [
    { Type: 'InvalidJson', Field: 'Body', ElementNumber: 0, Detail: 'The body is not valid JSON' },
  ]);
}

/**
 * JSON by its content type: application/json, text/json (ASP.NET Web API's JSON types) or any
 * application/*+json. The public docs send every body as application/json.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return media === 'application/json' || media === 'text/json' || /^application\/[\w.+-]+\+json$/.test(media);
}

/**
 * A body that is not JSON by its content type: HTTP 415 Unsupported Media Type (RFC 9110), in the
 * common envelope every REST answer uses (ValidationError, `UnsupportedMediaType` on `Body`);
 * nothing is read or done.
 */
function unsupportedMediaType(contentType: string | undefined): SandboxAnswer {
  const answer = failure('ValidationError', 'ValidationError', [
    {
      Type: 'UnsupportedMediaType',
      Field: 'Body',
      ElementNumber: 0,
      Detail: `The body must be JSON sent as Content-Type application/json, not '${contentType ?? '(none)'}'`,
    },
  ]);
  return { ...answer, status: 415 };
}

function create(kind: 'document' | 'waybill'): Handler {
  return (store, caller, request) => {
    const body = parseJsonBody(request.body);
    if (!body.ok) return badJson();
    const checked = checkCreateInput(body.value, kind, { form: 'rest', taxRates: caller.account.taxRates });
    if (!checked.ok) return violationAnswer(checked.violations, undefined, createFailureName(store.config));
    return createDocument(store, caller, checked.input);
  };
}

const ROUTES: Record<string, Handler> = {
  'POST /document': create('document'),
  'GET /document': (store, caller, r) => withDocumentId(r.query, (id) => readDocument(store, caller, id, r.origin, 'get')),
  'PATCH /document': (store, caller, r) => withDocumentId(r.query, (id) => cancelDocument(store, caller, id)),
  'GET /document/property': (store, caller, r) =>
    withDocumentId(r.query, (id) => readDocument(store, caller, id, r.origin, 'property')),
  'POST /document/waybill': create('waybill'),
  'POST /partner': (store, caller, r) => {
    const body = parseJsonBody(r.body);
    return body.ok ? addPartner(store, caller, body.value) : badJson();
  },
  // The spec's form: taxId, our item shape.
  'GET /partner/tokens': (store, caller, r) => partnerTokens(store, caller, r.query.get('taxId') ?? undefined, 'spec'),
  // The documented real form: partnerTaxId, the main user's Password header, [{AccessToken, Description}].
  'GET /partner/accessTokens': (store, caller, r) =>
    passwordMatches(caller, r.password)
      ? partnerTokens(store, caller, r.query.get('partnerTaxId') ?? undefined, 'documented')
      : authenticationFailure(),
  'GET /client': (store, _caller, r) =>
    clientGet(store, r.query.get('countryCode') ?? undefined, r.query.get('taxId') ?? undefined),
  'GET /taxIdValidation': (_store, _caller, r) =>
    validateTaxId(r.query.get('countryCode') ?? undefined, r.query.get('taxId') ?? undefined),
};

function passwordMatches(caller: Caller, password: string | undefined): boolean {
  return password !== undefined && password === (caller.account.password ?? DEFAULT_SANDBOX_PASSWORD);
}

export function handleRest(store: SandboxStore, request: RestRequest): SandboxAnswer {
  const key = `${request.method} ${request.path.replace(/\/+$/, '')}`;
  const handler = Object.hasOwn(ROUTES, key) ? ROUTES[key] : undefined;
  if (!handler) return failure('ElementDoesNotExist', `No such endpoint: ${request.method} /api/v1.1${request.path}`);
  // The body's media type is read before the call runs (as a Web API formatter does), so it comes first.
  if (request.body.trim() !== '' && !isJsonContentType(request.contentType)) return unsupportedMediaType(request.contentType);
  const caller = resolveCaller(store, request.email, request.token);
  if (!caller || (caller.viaPartnership && OWN_TOKEN_ONLY.has(key))) return authenticationFailure();
  return handler(store, caller, request);
}
