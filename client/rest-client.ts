import { z } from 'zod';
import { DocumentDetails, toDocumentDetails } from './document-details';
import {
  ApiError,
  ApiErrorDetails,
  AuthenticationError,
  MagniFinanceError,
  ResponseFormatError,
  ServiceValidationIssue,
  TransportNetworkError,
} from './errors';
import { validateInput } from './local-validation';
import { writeRequestJson } from './request-body';
import { backoffDelayMs, DEFAULT_RETRY, RetryOptions, shouldRetry } from './retry';
import { CreateDocumentRequest, CreateDocumentRequestInput, CreateDocumentRequestSchema } from './schemas/document';
import { PartnerInformation, PartnerInformationSchema, TaxIdQuerySchema } from './schemas/partner';
import {
  ClientData,
  ClientDataSchema,
  CreateDocumentResultSchema,
  CreateWaybillResultSchema,
  DocumentGetOutSchema,
  Envelope,
  EnvelopeSchema,
  ErrorObjectSchema,
  PartnerAccessTokenItemSchema,
} from './schemas/responses';
import { CreateWaybillRequestInput, CreateWaybillRequestSchema } from './schemas/waybill';
import { commonCreateDocumentResult, commonDocumentGetOut, commonEnvelope } from './schemas/common-answers';
import { callAbortable, notifyHook, RequestEvent, RequestHooks, ResponseEvent, urlWithoutSecrets } from './request-hooks';
import { errorForFailure } from './service-errors';
import { queryText } from './query-text';
import {
  abortableSleep,
  DocumentNotNumberedError,
  readIfNumbered,
  waitForDocument,
  WaitForDocumentOptions,
} from './wait-for-document';
import type { HttpMethod, Transport } from './transport';

export const DEFAULT_BASE_URL = 'https://bo.magnifinance.com/api/v1.1';
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface MagniFinanceClientOptions {
  email: string;
  /** The subscription token; partner invoicing overrides it per call. */
  token: string;
  baseUrl?: string;
  /** The HTTP seam; defaults to the undici transport (loaded only when first needed). */
  transport?: Transport;
  timeoutMs?: number;
  /** Retries of safe calls (see retry.ts); false turns them off (the connector's queue retries). */
  retry?: RetryOptions | false;
  /** How to wait between retries and in waitForDocument; defaults to a timer from the undici module. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock of waitForDocument (ms since the epoch); defaults to Date.now. */
  now?: () => number;
  /** Jitter source in [0, 1); defaults to Math.random. */
  random?: () => number;
  /**
   * Check request bodies with the spec's rules before sending (default true). False leaves the
   * judgement to the service: its ValidationErrors come back as ServiceValidationError.
   */
  validateLocally?: boolean;
  /** The main API user's password, sent only by getPartnerAccessTokens (documented form). */
  password?: string;
  /** Which form getPartnerAccessTokens uses (default 'documented'). */
  partnerTokensForm?: PartnerTokensForm;
  /** Called before every attempt of every request (logging, tracing); never given the token. */
  onRequest?: (event: RequestEvent) => void;
  /** Called after every attempt: status, duration, RequestId, or the error when no answer came. */
  onResponse?: (event: ResponseEvent) => void;
}

/**
 * Per-call options, the last argument of every method (as in stripe-node and openai-node).
 * `token` sends a partner's token instead of the account's own.
 */
export interface CallOptions {
  token?: string;
  /** Deadline of each attempt of this call, in ms (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /**
   * Cancels the call: the request in flight, the wait between retries and any retry. The call
   * rejects with the signal's reason (an `AbortError` unless you gave another), like fetch.
   */
  signal?: AbortSignal;
  /** Retries of this call when the retry policy allows one (default: the client's `retry.attempts` - 1; 0 = none). */
  maxRetries?: number;
}

export interface CreateDocumentResult {
  documentId: number;
  errorMessage: string | null;
  requestId: string | null;
}

export interface CreateWaybillResult extends CreateDocumentResult {
  documentNumber?: string;
}

export interface AddPartnerResult {
  requestId: string | null;
  object: unknown;
}

export interface PartnerAccessToken {
  token: string;
  taxId?: string;
  name?: string;
  /** The documented answer's Description (tells a partner's several tokens apart). */
  description?: string;
  raw: unknown;
}

/**
 * How Get Partner Access Tokens is called. 'documented' (default): MagniFinance's public docs,
 * `GET /partner/accessTokens?partnerTaxId=` with the main API user's `Password` header, answering
 * `[{AccessToken, Description}]`. 'spec': our spec's `GET /partner/tokens?taxId=`.
 */
export type PartnerTokensForm = 'documented' | 'spec';

export interface PartnerTokensOptions extends CallOptions {
  /** The password of the partner-invoicing account's main API user (documented form; required there). */
  password?: string;
  form?: PartnerTokensForm;
}

export interface FreshPdfLink {
  url: string;
  documentNumber: string;
  /** When the link was read (ms since the epoch); the real service's links last 7200 s from then. */
  readAt: number;
}

export interface TaxIdValidationResult {
  valid: boolean;
  requestId: string | null;
}

interface CallSpec {
  method: HttpMethod;
  path: string;
  query?: Record<string, string>;
  body?: string;
  /** True when repeating the call cannot change anything on the service. */
  safe: boolean;
  /** Extra headers of this call (the Password of Get Partner Access Tokens). */
  headers?: Record<string, string>;
}

interface Answer {
  envelope: Envelope;
  status: number;
  rawBody: string;
}

export function normaliseValidationErrors(items: Envelope['ValidationErrors']): ServiceValidationIssue[] {
  return (items ?? []).map((item) => {
    const issue: ServiceValidationIssue = {
      Type: item.Type,
      Field: item.Field ?? '',
      ElementNumber: item.ElementNumber ?? null,
      Detail: item.Detail ?? '',
    };
    if (item.Value !== undefined && item.Value !== null) issue.Value = item.Value;
    return issue;
  });
}

function failureDetails(answer: Answer, retryAfter: string | undefined): ApiErrorDetails {
  const { envelope } = answer;
  const details: ApiErrorDetails = {
    status: answer.status,
    requestId: envelope.RequestId ?? null,
    errorHumanReadable: envelope.ErrorHumanReadable ?? null,
    validationErrors: normaliseValidationErrors(envelope.ValidationErrors),
    rawBody: answer.rawBody,
  };
  if (retryAfter !== undefined) details.retryAfter = retryAfter;
  if (envelope.ErrorValue) details.errorValue = { Value: envelope.ErrorValue.Value, Name: envelope.ErrorValue.Name };
  const object = ErrorObjectSchema.safeParse(envelope.Object);
  if (object.success && object.data?.ErrorMessage) details.errorMessage = object.data.ErrorMessage;
  return details;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Built once: a schema made per call cost more than the check (every Get Document asks it). */
const PositiveId = z.number().int().positive({ message: 'must be a positive integer' });

function positiveId(name: string, value: number): void {
  // zod accepts every positive safe integer: only anything else needs its walk (and its words).
  if (Number.isSafeInteger(value) && value > 0) return;
  validateInput(PositiveId, value, name);
}

/**
 * The REST client: one request core (`send`) and a thin method per endpoint of the spec.
 * Input is checked with the spec's rules before anything is sent; answers are checked against
 * the envelope and turned into typed results or typed errors.
 */
export class MagniFinanceClient {
  private readonly email: string;
  private readonly token: string;
  private readonly baseUrl: string;
  private transport?: Transport;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  private readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly validateLocally: boolean;
  private readonly password?: string;
  private readonly partnerTokensForm: PartnerTokensForm;
  private readonly hooks: RequestHooks;

  constructor(options: MagniFinanceClientOptions) {
    this.email = options.email;
    this.token = options.token;
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    if (options.transport) this.transport = options.transport;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = options.retry === false ? { ...DEFAULT_RETRY, attempts: 1 } : { ...DEFAULT_RETRY, ...options.retry };
    if (options.sleep) this.sleep = options.sleep;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.validateLocally = options.validateLocally ?? true;
    if (options.password !== undefined) this.password = options.password;
    this.partnerTokensForm = options.partnerTokensForm ?? 'documented';
    this.hooks = {};
    if (options.onRequest) this.hooks.onRequest = options.onRequest;
    if (options.onResponse) this.hooks.onResponse = options.onResponse;
  }

  /** The body as checked by its schema, or as given when local validation is off. */
  private checked<S extends z.ZodType>(schema: S, input: unknown): unknown {
    return this.validateLocally ? validateInput(schema, input) : input;
  }

  /** Create Document: types T, I, S, C, D; IsToClose false saves a draft, Document.Id updates one. */
  async createDocument(request: CreateDocumentRequestInput, options?: CallOptions): Promise<CreateDocumentResult> {
    const body = this.checked(CreateDocumentRequestSchema, request);
    const answer = await this.send({ method: 'POST', path: '/document', body: writeRequestJson(body), safe: false }, options);
    const object = this.parseObject(CreateDocumentResultSchema, answer, commonCreateDocumentResult);
    return { documentId: object.DocumentId, errorMessage: object.ErrorMessage ?? null, requestId: answer.envelope.RequestId ?? null };
  }

  /** Saves a draft (IsToClose false); `updateDraft`/`closeDraft` continue it by its id. */
  saveDraft(request: Omit<CreateDocumentRequest, 'IsToClose'>, options?: CallOptions): Promise<CreateDocumentResult> {
    return this.createDocument({ ...request, IsToClose: false }, options);
  }

  /** Replaces the data of draft `draftId` (still a draft afterwards). */
  updateDraft(
    draftId: number,
    request: Omit<CreateDocumentRequest, 'IsToClose'>,
    options?: CallOptions,
  ): Promise<CreateDocumentResult> {
    return this.createDocument({ ...request, IsToClose: false, Document: { ...request.Document, Id: draftId } }, options);
  }

  /** Closes draft `draftId` with the given data: it gets a number and a PDF and becomes immutable. */
  closeDraft(
    draftId: number,
    request: Omit<CreateDocumentRequest, 'IsToClose'>,
    options?: CallOptions,
  ): Promise<CreateDocumentResult> {
    return this.createDocument({ ...request, IsToClose: true, Document: { ...request.Document, Id: draftId } }, options);
  }

  /** Create Waybill: W waybill, Y delivery note. */
  async createWaybill(request: CreateWaybillRequestInput, options?: CallOptions): Promise<CreateWaybillResult> {
    const body = this.checked(CreateWaybillRequestSchema, request);
    const answer = await this.send(
      { method: 'POST', path: '/document/waybill', body: writeRequestJson(body), safe: false },
      options,
    );
    const object = this.parseObject(CreateWaybillResultSchema, answer);
    const result: CreateWaybillResult = {
      documentId: object.DocumentId,
      errorMessage: object.ErrorMessage ?? null,
      requestId: answer.envelope.RequestId ?? null,
    };
    if (object.DocumentNumber) result.documentNumber = object.DocumentNumber;
    return result;
  }

  /**
   * Get Document: finalizes the document (number, DownloadUrl). Call it at least 10 s after the
   * create; before that documentNumber is undefined.
   */
  async getDocument(documentId: number, options?: CallOptions): Promise<DocumentDetails> {
    positiveId('documentId', documentId);
    const answer = await this.send(
      { method: 'GET', path: '/document', query: { documentId: String(documentId) }, safe: true },
      options,
    );
    return toDocumentDetails(this.parseObject(DocumentGetOutSchema, answer, commonDocumentGetOut));
  }

  /**
   * Waits until a closed document has its number and PDF link: the first read at least 10 s after
   * the create (`createdAt`, default now), then reads with a doubling interval. "Not numbered yet"
   * (6 ElementDoesNotExist or a success without a number) means waiting; when `timeoutMs` runs out
   * it throws DocumentNotNumberedError (the document exists: do not create it again).
   */
  async waitForDocument(
    documentId: number,
    options: WaitForDocumentOptions = {},
  ): Promise<DocumentDetails & { documentNumber: string; downloadUrl: string }> {
    positiveId('documentId', documentId);
    const sleep = await this.sleeper();
    const { signal } = options;
    return waitForDocument(
      {
        getDocument: (id, token) => this.getDocument(id, { ...(token ? { token } : {}), ...(signal ? { signal } : {}) }),
        sleep: (ms, signal) => abortableSleep(sleep, ms, signal),
        now: this.now,
      },
      documentId,
      options,
    );
  }

  /**
   * A fresh PDF link of a numbered document. The service's links are presigned and expire (7200 s):
   * keep the document id and ask for a new link when you need the PDF. Throws
   * DocumentNotNumberedError when the document has no number yet.
   */
  async freshPdfLink(documentId: number, options?: CallOptions): Promise<FreshPdfLink> {
    positiveId('documentId', documentId);
    const numbered = await readIfNumbered({ getDocument: (id) => this.getDocument(id, options) }, documentId);
    if (!numbered) throw new DocumentNotNumberedError(documentId, 1);
    return { url: numbered.downloadUrl, documentNumber: numbered.documentNumber, readAt: this.now() };
  }

  /** Get Document Property: payment status and what remains unpaid. */
  async getDocumentProperty(documentId: number, options?: CallOptions): Promise<DocumentDetails> {
    positiveId('documentId', documentId);
    const answer = await this.send(
      { method: 'GET', path: '/document/property', query: { documentId: String(documentId) }, safe: true },
      options,
    );
    return toDocumentDetails(this.parseObject(DocumentGetOutSchema, answer, commonDocumentGetOut));
  }

  /** Cancel Document (PATCH): only a Closed document; irreversible. */
  async cancelDocument(documentId: number, options?: CallOptions): Promise<void> {
    positiveId('documentId', documentId);
    await this.send({ method: 'PATCH', path: '/document', query: { documentId: String(documentId) }, safe: false }, options);
  }

  /** Add Partner: associates at once, or asks a registered company for access (it gets an e-mail). */
  async addPartner(information: PartnerInformation, options?: CallOptions): Promise<AddPartnerResult> {
    const body = this.checked(PartnerInformationSchema, information);
    const answer = await this.send({ method: 'POST', path: '/partner', body: writeRequestJson(body), safe: false }, options);
    return { requestId: answer.envelope.RequestId ?? null, object: answer.envelope.Object ?? null };
  }

  /**
   * Get Partner Access Tokens: the partner's token(s) once access is granted. By default the
   * documented form (`/partner/accessTokens?partnerTaxId=` + `Password` header: the `password`
   * option of the call or the client); `form: 'spec'` uses the spec's `/partner/tokens?taxId=`.
   */
  async getPartnerAccessTokens(taxId: string, options?: PartnerTokensOptions): Promise<PartnerAccessToken[]> {
    validateInput(z.string().min(1, { message: 'is required' }).max(20, { message: 'must be at most 20 characters' }), taxId, 'taxId');
    const form = options?.form ?? this.partnerTokensForm;
    if (form === 'spec') {
      const answer = await this.send({ method: 'GET', path: '/partner/tokens', query: { taxId }, safe: true }, options);
      return partnerTokensFrom(answer.envelope.Object, answer);
    }
    const password = options?.password ?? this.password;
    validateInput(
      z.string({ message: 'is required: Get Partner Access Tokens asks for the main API user\'s password' }).min(1, { message: 'is required' }).max(200, { message: 'must be at most 200 characters' }),
      password,
      'password',
    );
    const answer = await this.send(
      { method: 'GET', path: '/partner/accessTokens', query: { partnerTaxId: taxId }, safe: true, headers: { password: password as string } },
      options,
    );
    return partnerTokensFrom(answer.envelope.Object, answer);
  }

  /** Client Get: the registered company data for a tax id. */
  async getClient(countryCode: string, taxId: string, options?: CallOptions): Promise<ClientData> {
    validateInput(TaxIdQuerySchema, { countryCode, taxId });
    const answer = await this.send({ method: 'GET', path: '/client', query: { countryCode, taxId }, safe: true }, options);
    return this.parseObject(ClientDataSchema, answer);
  }

  /** TaxId Validation: an invalid tax id is an answer (valid: false), not an exception. */
  async validateTaxId(countryCode: string, taxId: string, options?: CallOptions): Promise<TaxIdValidationResult> {
    validateInput(TaxIdQuerySchema, { countryCode, taxId });
    try {
      const answer = await this.send(
        { method: 'GET', path: '/taxIdValidation', query: { countryCode, taxId }, safe: true },
        options,
      );
      return { valid: true, requestId: answer.envelope.RequestId ?? null };
    } catch (error) {
      if (
        error instanceof ApiError &&
        !(error instanceof AuthenticationError) &&
        (error.errorValue?.Name === 'InvalidTaxId' || error.validationErrors.some((v) => v.Type === 'InvalidTaxId'))
      ) {
        return { valid: false, requestId: error.requestId };
      }
      throw error;
    }
  }

  /**
   * The request core: headers, deadline, cancellation, retries of safe calls, hooks, envelope
   * checking, error mapping.
   */
  private async send(spec: CallSpec, options?: CallOptions): Promise<Answer> {
    const query = spec.query ? queryText(spec.query) : '';
    const url = `${this.baseUrl}${spec.path}${query}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      email: this.email,
      token: options?.token ?? this.token,
      ...spec.headers,
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
    const signal = options?.signal;
    const timeoutMs = options?.timeoutMs ?? this.timeoutMs;
    const maxAttempts = options?.maxRetries !== undefined ? Math.max(0, Math.floor(options.maxRetries)) + 1 : this.retry.attempts;
    signal?.throwIfAborted();
    const transport = await this.transportInUse();
    const loggedUrl = this.hooks.onRequest || this.hooks.onResponse ? urlWithoutSecrets(url) : url;
    for (let attempt = 1; ; attempt += 1) {
      let answer: Answer | undefined;
      let retryAfter: string | undefined;
      const startedAt = this.now();
      notifyHook(this.hooks.onRequest, { method: spec.method, url: loggedUrl, attempt });
      try {
        const response = await callAbortable(
          transport,
          { method: spec.method, url, headers, body: spec.body, timeoutMs, ...(signal ? { signal } : {}) },
          signal,
        );
        retryAfter = headerValue(response.headers, 'retry-after');
        answer = interpretResponse(response.status, response.body, retryAfter);
        notifyHook(this.hooks.onResponse, {
          method: spec.method,
          url: loggedUrl,
          attempt,
          status: response.status,
          durationMs: this.now() - startedAt,
          requestId: answer.envelope.RequestId ?? null,
        });
        if (answer.envelope.Type === 1 || response.status >= 400) throw errorForFailure(failureDetails(answer, retryAfter));
        return answer;
      } catch (thrown) {
        if (signal?.aborted) throw signal.reason;
        const error =
          thrown instanceof MagniFinanceError
            ? thrown
            : new TransportNetworkError(`${spec.method} ${spec.path} failed: ${String(thrown)}`, undefined, { cause: thrown });
        const answered = error instanceof ApiError || error instanceof ResponseFormatError;
        if (answer === undefined) {
          notifyHook(this.hooks.onResponse, {
            method: spec.method,
            url: loggedUrl,
            attempt,
            ...(answered ? { status: error.status } : {}),
            durationMs: this.now() - startedAt,
            requestId: error instanceof ApiError ? error.requestId : null,
            error,
          });
        }
        const retry = shouldRetry({
          attempt,
          maxAttempts,
          safe: spec.safe,
          ...(answered ? { status: error.status } : { error }),
          ...(error instanceof ApiError && error.errorValue ? { errorValue: error.errorValue.Value } : {}),
        });
        if (!retry) throw error;
        // The server's Retry-After (a 429 or 503 says how long) wins over the computed backoff.
        const delay = backoffDelayMs(attempt, this.retry, this.random(), retryAfter, this.now());
        await abortableSleep(await this.sleeper(), delay, signal);
      }
    }
  }

  /** The answer's Object by its schema; `common`, a hand proof of the schema, reads the plain case first. */
  private parseObject<S extends z.ZodType>(schema: S, answer: Answer, common?: (object: unknown) => z.output<S> | undefined): z.output<S> {
    const proven = common?.(answer.envelope.Object);
    if (proven !== undefined) return proven;
    const parsed = schema.safeParse(answer.envelope.Object);
    if (parsed.success) return parsed.data;
    const problems = parsed.error.issues.map((i) => `Object.${i.path.join('.')} ${i.message}`).join('; ');
    throw new ResponseFormatError(`Unexpected Object in the answer: ${problems}`, answer.status, answer.rawBody);
  }

  private async transportInUse(): Promise<Transport> {
    if (!this.transport) {
      // Loaded lazily so callers that bring their own transport (n8n) never load undici.
      const { createUndiciTransport } = await import('./undici-transport');
      this.transport = createUndiciTransport();
    }
    return this.transport;
  }

  private async sleeper(): Promise<(ms: number, signal?: AbortSignal) => Promise<void>> {
    if (this.sleep) return this.sleep;
    const { sleep } = await import('./undici-transport');
    return sleep;
  }
}

/** Status + body -> a checked envelope; anything else is a ResponseFormatError (or ApiError for HTTP errors). */
function headerValue(headers: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return String(value);
  return undefined;
}

export function interpretResponse(status: number, rawBody: string, retryAfter?: string): Answer {
  const json = parseJson(rawBody);
  const common = commonEnvelope(json);
  if (common !== undefined) return { envelope: common, status, rawBody };
  const parsed = EnvelopeSchema.safeParse(json);
  if (parsed.success) return { envelope: parsed.data, status, rawBody };
  if (status >= 400) {
    // An error status without the envelope (a proxy page, a bare 401): keep the status as the error.
    throw errorForFailure({
      status,
      requestId: null,
      errorHumanReadable: null,
      validationErrors: [],
      rawBody,
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    });
  }
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'} ${i.message}`).join('; ');
  throw new ResponseFormatError(`The answer is not the service's envelope: ${problems}`, status, rawBody);
}

/** The spec does not show this answer's shape; accept a list, a wrapper with a list, or one entry. */
function partnerTokensFrom(object: unknown, answer: Answer): PartnerAccessToken[] {
  if (object === null || object === undefined) return [];
  if (typeof object === 'string') return [{ token: object, raw: object }];
  if (Array.isArray(object)) return object.flatMap((item) => partnerTokensFrom(item, answer));
  if (typeof object === 'object') {
    const record = object as Record<string, unknown>;
    for (const key of ['Tokens', 'AccessTokens', 'PartnerTokens', 'Items']) {
      if (Array.isArray(record[key])) return partnerTokensFrom(record[key], answer);
    }
    const item = PartnerAccessTokenItemSchema.safeParse(object);
    const token = item.success ? (item.data.Token ?? item.data.AccessToken ?? item.data.PartnerToken) : undefined;
    if (item.success && token) {
      const entry: PartnerAccessToken = { token, raw: object };
      const taxId = item.data.TaxId ?? item.data.CompanyTaxId;
      if (taxId !== null && taxId !== undefined) entry.taxId = String(taxId);
      const name = item.data.Name ?? item.data.CompanyName;
      if (name) entry.name = name;
      if (item.data.Description) entry.description = item.data.Description;
      return [entry];
    }
  }
  throw new ResponseFormatError('Get Partner Access Tokens answered an Object with no token', answer.status, answer.rawBody);
}
