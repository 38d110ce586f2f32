import { MagniFinanceClient, MagniFinanceClientOptions, MagniFinanceSoapClient, MagniFinanceSoapClientOptions } from '../../client';
import { RunningSandbox, startSandbox } from '../../sandbox/server';

/**
 * The real sandbox over HTTP for the client's tests: accounts with valid NIFs, admin routes
 * (/_sandbox/...) to see and steer what the service keeps to itself, and the sandbox clock to cross
 * the finalize delay without sleeping.
 */

export const OWNER = { email: 'owner@loja.example', token: 'owner-token', taxId: '509442013', companyName: 'Loja Exemplo, Lda.' };
/** A company already registered in the service: AddPartner for it needs its approval. */
export const KNOWN_COMPANY = {
  email: 'geral@empresa.example',
  token: 'known-company-token',
  taxId: '501000003',
  companyName: 'Empresa Conhecida, S.A.',
};
/** An account with tax-authority communication on: its closed waybills get an ATCode. */
export const AT_ACCOUNT = {
  email: 'guias@transportes.example',
  token: 'at-token',
  taxId: '502000007',
  companyName: 'Transportes do Norte, Lda.',
  atCommunication: true,
};

export async function startTestSandbox(): Promise<RunningSandbox> {
  return startSandbox({ port: 0, accounts: [OWNER, KNOWN_COMPANY, AT_ACCOUNT], seed: 7 });
}

/** No waiting between retries in tests: the policy is what is under test, not the clock. */
const noWait = async (): Promise<void> => undefined;

export function restClient(
  sandbox: RunningSandbox,
  account: { email: string; token: string } = OWNER,
  options: Partial<MagniFinanceClientOptions> = {},
): MagniFinanceClient {
  return new MagniFinanceClient({ email: account.email, token: account.token, baseUrl: sandbox.baseUrl, sleep: noWait, ...options });
}

export function soapClient(
  sandbox: RunningSandbox,
  account: { email: string; token: string } = OWNER,
  options: Partial<MagniFinanceSoapClientOptions> = {},
): MagniFinanceSoapClient {
  return new MagniFinanceSoapClient({ email: account.email, token: account.token, soapUrl: sandbox.soapUrl, ...options });
}

export async function admin<T>(sandbox: RunningSandbox, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${sandbox.origin}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Moves the sandbox clock past the finalize delay (the spec's "at least 10 seconds"). */
export async function passFinalizeDelay(sandbox: RunningSandbox): Promise<void> {
  const { status } = await admin(sandbox, 'POST', '/clock', { advanceMs: 10_000 });
  if (status !== 200) throw new Error(`clock advance failed: ${status}`);
}

export interface OutboxEmail {
  kind: string;
  to: string;
  subject: string;
  documentId?: number;
}

export async function outbox(sandbox: RunningSandbox, to: string): Promise<OutboxEmail[]> {
  const { body } = await admin<{ emails: OutboxEmail[] }>(sandbox, 'GET', `/outbox?to=${encodeURIComponent(to)}`);
  return body.emails;
}

let counter = 0;
/** A fresh ExternalId per call, so duplicate checks only fire where a test wants them. */
export function uniqueExternalId(prefix = 'order'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}
