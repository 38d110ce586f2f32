import { createHmac, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Agent, type Dispatcher } from 'undici';

/**
 * WooCommerce's REST API (wp-json/wc/v3) over undici, authenticated as WooCommerce checks it
 * (WC_REST_Authentication): over https Basic auth with the consumer key and secret; over http OAuth
 * 1.0a one-legged (RFC 5849), HMAC-SHA256, the oauth_* parameters in the query string, the
 * timestamp taken from the shop's clock (`clockOffsetMs`). One keep-alive pool per shop origin and
 * CA; redirects are never followed (a redirect to a login page is an error, not an answer).
 */
export interface WooRestOptions {
  url: string;
  consumerKey: string;
  consumerSecret: string;
  /** The whole call (connect, headers, body), like axios's `timeout`. */
  timeoutMs: number;
  /** A CA to trust for https (a self-signed shop). */
  ca?: Buffer;
  /** The shop's clock minus ours, read before each signature. */
  clockOffsetMs?: () => number;
}

export type WooHeaders = Record<string, string | string[] | undefined>;

export interface WooRestAnswer {
  status: number;
  /** The parsed JSON; the text when it is not JSON; undefined when the body was not read (`read: 'errors'`) or empty. */
  data: unknown;
  headers: WooHeaders;
}

/** The shop answered with a status outside 2xx: its body as parsed (JSON, else text) and its headers. */
export class WooHttpError extends Error {
  override readonly name = 'WooHttpError';
  constructor(
    readonly status: number,
    readonly data: unknown,
    readonly headers: WooHeaders,
  ) {
    // axios's wording, kept: it is what the records of earlier failures say.
    super(`Request failed with status code ${status}`);
  }
}

/** No answer: the socket's code (ECONNREFUSED, a certificate's, ECONNABORTED for the timeout) and message. */
export class WooNetworkError extends Error {
  override readonly name = 'WooNetworkError';
  constructor(
    readonly code: string,
    message: string,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const USER_AGENT = 'magnifinance-woocommerce (WooCommerce REST client)';

/** Pools shared by every shop of this process without a CA of its own (keyed by nothing: undici pools per origin inside). */
let sharedAgent: Agent | undefined;

function agentFor(ca: Buffer | undefined, timeoutMs: number): Dispatcher {
  if (ca) return new Agent({ connect: { ca, timeout: timeoutMs }, keepAliveTimeout: 4_000 });
  sharedAgent ??= new Agent({ keepAliveTimeout: 4_000 });
  return sharedAgent;
}

export class WooRest {
  /** The shop's origin (scheme, host, port) as undici keys its pools. */
  private readonly origin: string;
  /** wp-json/ of the shop, as a request path and as the URL OAuth signs: WooCommerce's other REST namespaces (wc-analytics) hang under it. */
  /** `signed`: the root as OAuth signs it, already encoded for the base string (RFC 5849 3.4.1.1). */
  private readonly root: { path: string; signed: string };
  private readonly https: boolean;
  private readonly dispatcher: Dispatcher;
  /** The headers of a call without a body and of one with a JSON body (Basic auth over https), built once. */
  private readonly headers: { bare: Record<string, string>; json: Record<string, string> };
  /** The `oauth_consumer_key` pair, encoded once. */
  private readonly consumerKeyPair: readonly [string, string];
  /** The OAuth signing key (`<consumer secret>&`), imported once: HMAC's key set-up was paid on every call. */
  private readonly signingKey: KeyObject;

  constructor(private readonly options: WooRestOptions) {
    // Parsed once: undici's request(url) parsed every call's URL again (the path of the shop's root
    // is the same in every call; what follows it is our own ASCII, already encoded).
    const url = new URL(options.url);
    this.origin = url.origin;
    this.root = { path: `${url.pathname.replace(/\/+$/, '')}/wp-json/`, signed: rfc3986(`${options.url.replace(/\/+$/, '')}/wp-json/`) };
    this.https = url.protocol === 'https:';
    this.dispatcher = agentFor(options.ca, options.timeoutMs);
    const bare: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
    if (this.https) bare.authorization = `Basic ${Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString('base64')}`;
    this.headers = { bare, json: { ...bare, 'content-type': 'application/json;charset=utf-8' } };
    this.consumerKeyPair = ['oauth_consumer_key', rfc3986(options.consumerKey)];
    this.signingKey = createSecretKey(Buffer.from(`${rfc3986(options.consumerSecret)}&`, 'utf8'));
  }

  /**
   * One call. `read`: 'json' parses every answer's body (a body that is not JSON comes back as its
   * text); 'errors' reads a success's body only to drop it (a meta PUT answers with the whole order).
   */
  async send(method: 'GET' | 'POST' | 'PUT', endpoint: string, params: Record<string, string> = {}, body?: unknown, read: 'json' | 'errors' = 'json'): Promise<WooRestAnswer> {
    return this.sendTo(`wc/v3/${endpoint}`, method, params, body, read);
  }

  /** A GET in another of the shop's REST namespaces (`wc-analytics/reports/taxes`), signed the same way. */
  async get(path: string, params: Record<string, string> = {}): Promise<WooRestAnswer> {
    return this.sendTo(path, 'GET', params);
  }

  /** `route`: the path under wp-json/, our own ASCII (namespaces, names, numeric ids). */
  private async sendTo(route: string, method: 'GET' | 'POST' | 'PUT', params: Record<string, string>, body?: unknown, read: 'json' | 'errors' = 'json'): Promise<WooRestAnswer> {
    const search = this.https ? queryString(params) : this.signedQuery(method, route, params);
    // The whole call's deadline. undici takes an EventEmitter as the signal ('abort'): an
    // AbortController per call cost several µs of each of an order's five calls (issue 29).
    const deadline = new EventEmitter();
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      deadline.emit('abort');
    }, this.options.timeoutMs);
    let response: Dispatcher.ResponseData;
    try {
      // The pool's own request: undici's request(url) would parse the URL we have just built.
      response = await this.dispatcher.request({
        origin: this.origin,
        path: search === '' ? this.root.path + route : `${this.root.path}${route}?${search}`,
        method,
        headers: body === undefined ? this.headers.bare : this.headers.json,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: deadline,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      if (ok && read === 'errors') {
        await response.body.dump({ limit: Number.MAX_SAFE_INTEGER });
        return { status: response.statusCode, data: undefined, headers: response.headers };
      }
      const text = await response.body.text();
      const data = parseOrText(text);
      if (!ok) throw new WooHttpError(response.statusCode, data, response.headers);
      return { status: response.statusCode, data, headers: response.headers };
    } catch (error) {
      if (error instanceof WooHttpError) throw error;
      throw this.networkError(error, expired);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The query string of an OAuth 1.0a call (RFC 5849 3.4.1): the parameters and the oauth_* ones,
   * each encoded once, sorted for the signature base string (the method, the URL without its query,
   * the pairs), then the signature.
   */
  private signedQuery(method: string, route: string, params: Record<string, string>): string {
    const offset = this.options.clockOffsetMs?.() ?? 0;
    const pairs: (readonly [string, string])[] = [
      this.consumerKeyPair,
      ['oauth_nonce', randomUUID().replace(/-/g, '')],
      ['oauth_signature_method', 'HMAC-SHA256'],
      ['oauth_timestamp', String(Math.floor((Date.now() + offset) / 1000))],
      ['oauth_version', '1.0'],
    ];
    for (const key of Object.keys(params)) pairs.push([rfc3986(key), rfc3986(params[key])]);
    let query = '';
    for (const [key, value] of pairs.sort(byNameThenValue)) query += `${query === '' ? '' : '&'}${key}=${value}`;
    // The URL encoded as its root (once) and its route: percent-encoding goes character by character.
    // The query's pairs are encoded already, joined by & and =: encodeURIComponent is all that is
    // left to do (none of !'()* can be in it), without rfc3986's test and replace over the whole.
    const base = `${method}&${this.root.signed}${rfc3986(route)}&${encodeURIComponent(query)}`;
    const signature = createHmac('sha256', this.signingKey).update(base).digest('base64');
    return `${query}&oauth_signature=${rfc3986(signature)}`;
  }

  private networkError(error: unknown, timedOut: boolean): WooNetworkError {
    const code = errorCode(error);
    if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
      // axios's code and words for its timeout, kept: the problem catalogue and earlier records know them.
      return new WooNetworkError('ECONNABORTED', `timeout of ${this.options.timeoutMs}ms exceeded`, { cause: error });
    }
    const message = error instanceof Error ? error.message : String(error);
    // The shop closed the connection without answering: Node's own code for it, as axios reported it.
    if (code === 'UND_ERR_SOCKET') return new WooNetworkError('ECONNRESET', `socket hang up (${message})`, { cause: error });
    return new WooNetworkError(code ?? 'network', message, { cause: error });
  }
}

const UNRESERVED = /^[A-Za-z0-9\-._~]*$/;

/** RFC 3986 percent-encoding (unreserved characters kept), as OAuth 1.0a and WooCommerce's check use. */
export function rfc3986(value: string): string {
  // Most of what is signed (the oauth_* names and values, ids, numbers) has nothing to encode.
  if (UNRESERVED.test(value)) return value;
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** RFC 5849 3.4.1.3.2: by encoded name, then by encoded value. */
function byNameThenValue([a, av]: readonly [string, string], [b, bv]: readonly [string, string]): number {
  return a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0;
}

function queryString(params: Record<string, string>): string {
  let text = '';
  for (const key of Object.keys(params)) text += `${text === '' ? '' : '&'}${rfc3986(key)}=${rfc3986(params[key])}`;
  return text;
}

function parseOrText(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

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
