import { TransportNetworkError, TransportTimeoutError } from './errors';

/**
 * The client's one retry policy. Pure: the caller supplies the random number for jitter, and the
 * request core does the waiting. Rule of thumb: repeat only what cannot create a second document.
 *
 * - Safe calls (the GETs: get document, property, partner tokens, client get, tax id validation)
 *   are retried on timeouts, network failures, HTTP 429 and 5xx, and GeneralUnknownError (3), whose
 *   text asks the caller to try again.
 * - Unsafe calls (create document/waybill, cancel, add partner) are retried only when the service
 *   certainly did not act: the connection was refused before any byte was sent, or HTTP 429.
 *   A timeout or a 5xx on a create may have created the document; repeating it blindly could issue
 *   a second invoice, so the error goes to the caller (who retries with the same ExternalId and
 *   treats DocumentIsADuplicate as "already done").
 */
export interface RetryOptions {
  /** Total attempts including the first (1 = no retry). */
  attempts: number;
  /** First backoff step in ms; doubles each attempt. */
  baseDelayMs?: number;
  /** Upper bound of one wait in ms. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { attempts: 3, baseDelayMs: 300, maxDelayMs: 8000 };

export interface RetryContext {
  /** Attempts made so far (1 after the first try). */
  attempt: number;
  maxAttempts: number;
  /** True for calls that cannot change state on the service (the GETs). */
  safe: boolean;
  /** The HTTP status, when an answer came back. */
  status?: number;
  /** ErrorValue.Value of an error envelope, when there is one. */
  errorValue?: number;
  /** The thrown error, when no answer came back. */
  error?: unknown;
}

const GENERAL_UNKNOWN_ERROR = 3;

/** Connection-level codes that prove the request never reached the service. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export function shouldRetry(context: RetryContext): boolean {
  if (context.attempt >= context.maxAttempts) return false;
  const { error, status } = context;
  if (error instanceof TransportNetworkError) {
    return context.safe || (error.code !== undefined && NOT_SENT_CODES.has(error.code));
  }
  if (error instanceof TransportTimeoutError) return context.safe;
  if (error !== undefined) return false;
  if (status === 429) return true;
  if (!context.safe) return false;
  if (status !== undefined && status >= 500) return true;
  return context.errorValue === GENERAL_UNKNOWN_ERROR;
}

/**
 * Wait before the next attempt: exponential with full jitter (so a crowd of clients spreads out),
 * or the server's Retry-After when it gives one, both capped at maxDelayMs.
 * `random` is a number in [0, 1).
 */
export function backoffDelayMs(
  attempt: number,
  options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
  random: number,
  retryAfterHeader?: string,
  nowMs?: number,
): number {
  const base = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const max = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  const retryAfter = parseRetryAfterMs(retryAfterHeader, nowMs);
  if (retryAfter !== undefined) return Math.min(max, retryAfter);
  const ceiling = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  return Math.floor(ceiling * Math.min(Math.max(random, 0), 1));
}

/** Retry-After as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfterMs(header: string | undefined, nowMs?: number): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at) || nowMs === undefined) return undefined;
  return Math.max(0, at - nowMs);
}
