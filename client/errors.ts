/**
 * One error hierarchy, keyed by what went wrong, so callers branch on `instanceof` and never on
 * message text. Everything the service said (status, RequestId, ErrorValue, ValidationErrors, the
 * raw body) travels with the error for logs and support tickets.
 */

export interface ServiceErrorValue {
  Value: number;
  Name: string;
}

export interface ServiceValidationIssue {
  Type: string;
  Field: string;
  ElementNumber: number | string | null;
  Value?: string;
  Detail: string;
}

export class MagniFinanceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export interface ApiErrorDetails {
  status: number;
  requestId: string | null;
  errorValue?: ServiceErrorValue;
  errorHumanReadable: string | null;
  validationErrors: ServiceValidationIssue[];
  /** Object.ErrorMessage of a failed create, when the service gives one. */
  errorMessage?: string | null;
  rawBody: string;
  /** The answer's Retry-After, when it gave one (delay-seconds or an HTTP date), as it was sent. */
  retryAfter?: string;
}

/** The service answered with an error envelope (or an HTTP error status). */
export class ApiError extends MagniFinanceError {
  readonly status: number;
  readonly requestId: string | null;
  readonly errorValue?: ServiceErrorValue;
  readonly errorHumanReadable: string | null;
  readonly validationErrors: ServiceValidationIssue[];
  readonly errorMessage: string | null;
  readonly rawBody: string;

  constructor(details: ApiErrorDetails, message?: string) {
    super(message ?? describeApiError(details));
    this.status = details.status;
    this.requestId = details.requestId;
    if (details.errorValue) this.errorValue = details.errorValue;
    this.errorHumanReadable = details.errorHumanReadable;
    this.validationErrors = details.validationErrors;
    this.errorMessage = details.errorMessage ?? null;
    this.rawBody = details.rawBody;
  }
}

function describeApiError(details: ApiErrorDetails): string {
  const head = details.errorValue
    ? `${details.errorValue.Name} (${details.errorValue.Value})`
    : `HTTP ${details.status}`;
  const human = details.errorHumanReadable ? `: ${details.errorHumanReadable}` : '';
  const issues = details.validationErrors
    .map((v) => `${v.Field}${v.ElementNumber !== null && v.ElementNumber !== '' ? `[${v.ElementNumber}]` : ''} ${v.Type}${v.Detail ? ` (${v.Detail})` : ''}`)
    .join('; ');
  const request = details.requestId ? ` [RequestId ${details.requestId}]` : '';
  return `MagniFinance ${head}${human}${issues ? ` - ${issues}` : ''}${request}`;
}

/**
 * HTTP 429: too many requests. `retryAfter` is the service's Retry-After header when it sent one;
 * the client's retries already wait that long (safe calls and creates alike: a 429 was not processed).
 */
export class RateLimitError extends ApiError {
  readonly retryAfter: string | null;

  constructor(details: ApiErrorDetails, message?: string) {
    super(details, message);
    this.retryAfter = details.retryAfter ?? null;
  }
}

/** HTTP 401 (REST) or AuthenticationError (1): the email/token pair was refused. */
export class AuthenticationError extends ApiError {}

/** ErrorValue 6: the document id (or other element) is unknown to this account. */
export class ElementDoesNotExistError extends ApiError {}

/**
 * ValidationError type DocumentIsADuplicate: the ExternalId is already registered for this client.
 * After a lost answer this means "already created": the caller must find the earlier document.
 */
export class DocumentDuplicateError extends ApiError {}

/** The service refused the input (ValidationError, SaveFailed, InvalidTaxId, ...). */
export class ServiceValidationError extends ApiError {}

export interface LocalValidationIssue {
  /** Field path as the service names it, with element indexes: `Document.Lines[2].TaxValue`. */
  path: string;
  message: string;
}

/** Input failed the spec's rules; thrown before any request is sent. */
export class LocalValidationError extends MagniFinanceError {
  readonly issues: LocalValidationIssue[];

  constructor(issues: LocalValidationIssue[]) {
    super(`Invalid input: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`);
    this.issues = issues;
  }
}

/** No complete answer within the deadline. The request may or may not have been applied. */
export class TransportTimeoutError extends MagniFinanceError {
  readonly timeoutMs: number;

  constructor(message: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(message, options);
    this.timeoutMs = timeoutMs;
  }
}

/** Connection refused, reset, DNS failure: nothing (or nothing complete) came back. */
export class TransportNetworkError extends MagniFinanceError {
  readonly code?: string;

  constructor(message: string, code?: string, options?: { cause?: unknown }) {
    super(message, options);
    if (code !== undefined) this.code = code;
  }
}

/** The answer was not the envelope the spec describes (not JSON, wrong shape, unknown XML). */
export class ResponseFormatError extends MagniFinanceError {
  readonly status: number;
  readonly rawBody: string;

  constructor(message: string, status: number, rawBody: string, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.rawBody = rawBody;
  }
}
