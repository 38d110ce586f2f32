import { EventEmitter } from 'node:events';
import { Agent, Dispatcher, errors } from 'undici';
import { TransportNetworkError, TransportTimeoutError } from './errors';
import type { Transport, TransportRequest, TransportResponse } from './transport';

/**
 * The default transport: undici with its per-phase timeouts (connect, headers, body) and an
 * overall deadline from `TransportRequest.timeoutMs`, so a server that trickles bytes cannot hold
 * a worker forever. The only client module allowed to import undici and use timers; the rest of
 * `client/` loads it lazily so the n8n half stays free of it.
 */
export interface UndiciTransportOptions {
  /** A shared undici dispatcher (keep-alive pool); one is created per transport by default. */
  dispatcher?: Dispatcher;
  connectTimeoutMs?: number;
  /** Waiting for response headers; defaults to the request's timeoutMs. */
  headersTimeoutMs?: number;
  /** Gap between body chunks; defaults to the request's timeoutMs. */
  bodyTimeoutMs?: number;
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Happy-eyeballs failures arrive as an AggregateError whose members carry the code.
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner)) return inner.map(errorCode).find((c) => c !== undefined);
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? undefined : errorCode(cause);
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * What undici's top-level `request(url)` hands its dispatcher, read as it reads it (a WHATWG URL,
 * http or https only). Calling the dispatcher with it skips that wrapper's copy of the options:
 * ~10 µs of each call, a third of undici's own time for a Get Document (issue 29).
 */
function originAndPath(text: string): { origin: string; path: string } {
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new errors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
  }
  return { origin: url.origin, path: url.search ? `${url.pathname}${url.search}` : url.pathname };
}

export function createUndiciTransport(options: UndiciTransportOptions = {}): Transport {
  const dispatcher =
    options.dispatcher ??
    new Agent(options.connectTimeoutMs !== undefined ? { connect: { timeout: options.connectTimeoutMs } } : {});
  return async (req: TransportRequest): Promise<TransportResponse> => {
    // undici takes an EventEmitter as the signal ('abort'): an AbortController per call, and
    // AbortSignal.any with the caller's, cost about 7 µs of each call (issue 29).
    const abort = new EventEmitter();
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      abort.emit('abort');
    }, req.timeoutMs);
    const callerAborted = (): boolean => abort.emit('abort');
    req.signal?.addEventListener('abort', callerAborted, { once: true });
    try {
      if (req.signal?.aborted) throw req.signal.reason;
      const { origin, path } = originAndPath(req.url);
      const response = await dispatcher.request({
        origin,
        path,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: abort,
        headersTimeout: options.headersTimeoutMs ?? req.timeoutMs,
        bodyTimeout: options.bodyTimeoutMs ?? req.timeoutMs,
      });
      const body = await response.body.text();
      return { status: response.statusCode, headers: flattenHeaders(response.headers), body };
    } catch (error) {
      if (req.signal?.aborted) throw req.signal.reason;
      const where = `${req.method} ${req.url}`;
      const code = errorCode(error);
      if (expired || (code !== undefined && TIMEOUT_CODES.has(code))) {
        throw new TransportTimeoutError(`${where} got no complete answer within ${req.timeoutMs} ms`, req.timeoutMs, {
          cause: error,
        });
      }
      const reason = error instanceof Error ? error.message : String(error);
      throw new TransportNetworkError(`${where} failed on the network: ${code ?? reason}`, code, { cause: error });
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', callerAborted);
    }
  };
}

/** Waiting between retries lives here too: the only client module that may use timers. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
