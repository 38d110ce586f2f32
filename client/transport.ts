/**
 * The transport seam: the only way the client touches the network. The connector passes the
 * undici transport (`client/undici-transport.ts`); the n8n nodes pass one backed by n8n's
 * `httpRequestWithAuthentication`; tests use the undici one against the sandbox over HTTP.
 * A transport never throws for an HTTP status: it returns it. It throws only
 * `TransportTimeoutError` / `TransportNetworkError` (see `client/errors.ts`) for failures on the wire.
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface TransportRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Whole-request deadline in milliseconds. */
  timeoutMs: number;
  /** The caller's cancellation; a transport that honours it stops the request when it aborts. */
  signal?: AbortSignal;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;
