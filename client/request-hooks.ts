import type { HttpMethod, Transport, TransportRequest, TransportResponse } from './transport';

/**
 * What the client tells a caller's logging about each request attempt, and the cancellation
 * wrapper around the transport. No timers, no `process`: this module is part of the n8n bundle.
 */

/** Before an attempt. Credentials travel in headers, which are never given to hooks. */
export interface RequestEvent {
  method: HttpMethod;
  /** The request URL with secret-looking query values (token, password, key) replaced by `***`. */
  url: string;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
}

/** After an attempt: its HTTP status when an answer came, or the error when none did. */
export interface ResponseEvent extends RequestEvent {
  status?: number;
  /** From just before the request to the answer (or the failure), by the client's clock. */
  durationMs: number;
  /** The service's RequestId, when the answer had one. */
  requestId: string | null;
  /** Set when no readable answer came (timeout, network failure, not the service's envelope). */
  error?: Error;
}

export interface RequestHooks {
  onRequest?: (event: RequestEvent) => void;
  onResponse?: (event: ResponseEvent) => void;
}

const SECRET_QUERY_NAMES = /^(token|password|pass|secret|key|apikey|api_key|access_token)$/i;

export function urlWithoutSecrets(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  let changed = false;
  for (const name of [...params.keys()]) {
    if (SECRET_QUERY_NAMES.test(name)) {
      params.set(name, '***');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, at)}?${params.toString()}` : url;
}

/** A hook that throws must not fail the call it observes. */
export function notifyHook<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    hook(event);
  } catch {
    // Logging is the caller's; a broken logger does not turn a success into a failure.
  }
}

/**
 * Runs the transport so that an abort rejects at once with the signal's reason, even with a
 * transport that ignores `request.signal` (n8n's); the undici transport also cancels the socket.
 */
export function callAbortable(transport: Transport, request: TransportRequest, signal?: AbortSignal): Promise<TransportResponse> {
  if (!signal) return transport(request);
  signal.throwIfAborted();
  return new Promise<TransportResponse>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    transport(request).then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? signal.reason : error);
      },
    );
  });
}
