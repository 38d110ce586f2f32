import { request } from 'undici';
import type { RunningSandbox } from '../support/sandbox';
import { TEST_ACCOUNT } from '../support/sandbox';

/** Raw HTTP against a running sandbox: exactly what a caller on the wire sends and receives. */

export interface ValidationErrorItem {
  Type: string;
  Field: string;
  ElementNumber: number;
  Detail: string;
  Value?: string;
}

export interface WireEnvelope {
  RequestId: string;
  Type: 0 | 1;
  Object: unknown;
  ErrorValue: { Value: number; Name: string } | null;
  ErrorHumanReadable: string | null;
  ValidationErrors: ValidationErrorItem[] | null;
  IsSuccess: boolean;
  IsError: boolean;
}

export interface Credentials {
  email: string;
  token: string;
}

export interface ApiResult {
  status: number;
  envelope: WireEnvelope;
}

export const OWN: Credentials = { email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token };

export async function api(
  sandbox: RunningSandbox,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  options: { body?: unknown; rawBody?: string; credentials?: Credentials | null; headers?: Record<string, string> } = {},
): Promise<ApiResult> {
  const credentials = options.credentials === undefined ? OWN : options.credentials;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.headers ?? {}) };
  if (credentials) {
    headers.email = credentials.email;
    headers.token = credentials.token;
  }
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await request(`${sandbox.baseUrl}${path}`, { method, headers, body });
  const text = await response.body.text();
  return { status: response.statusCode, envelope: JSON.parse(text) as WireEnvelope };
}

export async function admin<T>(sandbox: RunningSandbox, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await request(`${sandbox.origin}/_sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.statusCode, body: (await response.body.json()) as T };
}

/** Moves the sandbox clock forward (crosses the finalize delay or a link's lifetime without waiting). */
export async function advanceClock(sandbox: RunningSandbox, ms: number): Promise<void> {
  await admin(sandbox, 'POST', '/clock', { advanceMs: ms });
}

export function objectOf<T>(result: ApiResult): T {
  if (result.envelope.Type !== 0) throw new Error(`Expected success, got ${JSON.stringify(result.envelope)}`);
  return result.envelope.Object as T;
}
