import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../sandbox/server';
import type { Credentials } from './n8n-harness';

/** The sandbox's default demo account (see sandbox/options.ts). */
export const DEMO = { email: 'demo@example.com', token: 'sandbox-token', taxId: '509442013' };

export interface NodeSandbox {
  sandbox: RunningSandbox;
  credentials: Credentials;
  /** Sandbox-only admin routes (/_sandbox/...), over HTTP like everything else. */
  admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

export async function startNodeSandbox(options: SandboxOptions = {}): Promise<NodeSandbox> {
  const sandbox = await startSandbox({ port: 0, finalizeDelayMs: 0, ...options });
  return {
    sandbox,
    credentials: { email: DEMO.email, token: DEMO.token, baseUrl: sandbox.baseUrl },
    async admin(method, path, body) {
      const response = await fetch(`${sandbox.origin}/_sandbox${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    close: () => sandbox.close(),
  };
}
