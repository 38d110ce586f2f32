import type {
  ICredentialDataDecryptedObject,
  IExecuteFunctions,
  IHttpRequestOptions,
} from 'n8n-workflow';
import { z } from 'zod';

import { TransportNetworkError, TransportTimeoutError } from '../../../client/errors';
import type { Transport, TransportRequest, TransportResponse } from '../../../client/transport';

export const CREDENTIAL_TYPE = 'magniFinanceApi';

/** The auth headers the client writes itself; here the credential's `authenticate` owns them. */
const AUTH_HEADERS = new Set(['email', 'token']);

const FullResponseSchema = z.object({
  statusCode: z.number().int(),
  // Axios hands back an AxiosHeaders instance, not a plain record.
  headers: z.unknown(),
  body: z.unknown(),
});

/** Just enough of an axios / NodeApiError chain to classify a failure on the wire. */
interface WireFailure {
  code?: unknown;
  /** n8n's NodeApiError keeps the wire code (ECONNREFUSED, ECONNABORTED) here. */
  httpCode?: unknown;
  message?: unknown;
  cause?: unknown;
}

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);

/**
 * The client's transport seam implemented over n8n's `httpRequestWithAuthentication`, so every
 * call carries the credential's headers, honours the execution's cancel signal and shows up in
 * n8n's request handling like any built-in node. The client keeps its own envelope and error
 * parsing: this adapter returns status and raw text for every HTTP answer and throws only the
 * client's transport errors for failures on the wire.
 *
 * A partner token (the client's per-call token override) reaches n8n as decrypted credentials
 * with only the token swapped, so the credential still applies both headers itself.
 */
export function n8nTransport(
  context: IExecuteFunctions,
  credentials: ICredentialDataDecryptedObject,
): Transport {
  return async (request: TransportRequest): Promise<TransportResponse> => {
    const { headers, token } = splitAuthHeaders(request.headers);
    const options: IHttpRequestOptions = {
      method: request.method,
      url: request.url,
      headers,
      body: request.body,
      timeout: request.timeoutMs,
      json: false,
      encoding: 'text',
      returnFullResponse: true,
      ignoreHttpStatusErrors: true,
    };
    const partnerToken = token !== undefined && token !== credentials.token ? token : undefined;
    let answer: unknown;
    try {
      answer = await context.helpers.httpRequestWithAuthentication.call(
        context,
        CREDENTIAL_TYPE,
        options,
        partnerToken === undefined
          ? undefined
          : {
              credentialsDecrypted: {
                id: 'partner-token',
                name: 'MagniFinance partner token',
                type: CREDENTIAL_TYPE,
                data: { ...credentials, token: partnerToken },
              },
            },
      );
    } catch (error) {
      throw wireError(error, request.timeoutMs);
    }
    const response = FullResponseSchema.parse(answer);
    return {
      status: response.statusCode,
      headers: textHeaders(response.headers),
      body: bodyText(response.body),
    };
  };
}

function splitAuthHeaders(all: Record<string, string>): {
  headers: Record<string, string>;
  token?: string;
} {
  const headers: Record<string, string> = {};
  let token: string | undefined;
  for (const [name, value] of Object.entries(all)) {
    const key = name.toLowerCase();
    if (key === 'token') token = value;
    if (!AUTH_HEADERS.has(key)) headers[name] = value;
  }
  return token === undefined ? { headers } : { headers, token };
}

function textHeaders(raw: unknown): Record<string, string> {
  const withToJson = raw as { toJSON?: () => unknown } | null | undefined;
  const plain = typeof withToJson?.toJSON === 'function' ? withToJson.toJSON() : raw;
  const headers: Record<string, string> = {};
  if (typeof plain !== 'object' || plain === null) return headers;
  for (const [name, value] of Object.entries(plain)) {
    if (typeof value === 'string') headers[name.toLowerCase()] = value;
    else if (Array.isArray(value)) headers[name.toLowerCase()] = value.join(', ');
    else if (typeof value === 'number') headers[name.toLowerCase()] = String(value);
  }
  return headers;
}

/** `encoding: 'text'` yields a string; older helpers may still hand back a Buffer or parsed JSON. */
function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body === undefined || body === null) return '';
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  return JSON.stringify(body);
}

function wireError(error: unknown, timeoutMs: number): Error {
  const chain: WireFailure[] = [];
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && chain.length < 5) {
    chain.push(current as WireFailure);
    current = (current as WireFailure).cause;
  }
  const code = chain
    .flatMap((link) => [link.code, link.httpCode])
    .find((c): c is string => typeof c === 'string' && /^E[A-Z_]+$/.test(c));
  const text = chain.map((link) => link.message).find((m): m is string => typeof m === 'string');
  const message = text ?? 'MagniFinance request failed before an answer came back';
  if ((code !== undefined && TIMEOUT_CODES.has(code)) || /timeout/i.test(message)) {
    return new TransportTimeoutError(`No answer from MagniFinance within ${timeoutMs} ms`, timeoutMs, {
      cause: error,
    });
  }
  return new TransportNetworkError(message, code, { cause: error });
}
