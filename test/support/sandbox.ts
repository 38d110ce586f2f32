import { DEMO_ACCOUNT } from '../../sandbox/options';
import { RunningSandbox, SandboxOptions, startSandbox } from '../../sandbox/server';

/**
 * Starts the sandbox for a test: a random port, a short finalize delay, and two accounts (the
 * demo one and a second for cross-account checks). Close it in afterAll.
 */
export const TEST_ACCOUNT = { ...DEMO_ACCOUNT };
export const OTHER_ACCOUNT = {
  email: 'other@example.com',
  token: 'other-token',
  taxId: '512345678',
  companyName: 'Outra Empresa, Lda.',
};

/** Finalize delay used in tests: short, yet long enough that "before finalization" is observable. */
export const TEST_FINALIZE_DELAY_MS = 50;

export function startTestSandbox(overrides: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    host: '127.0.0.1',
    accounts: [TEST_ACCOUNT, OTHER_ACCOUNT],
    finalizeDelayMs: TEST_FINALIZE_DELAY_MS,
    timeoutHoldMs: 60_000,
    ...overrides,
  });
}

export type { RunningSandbox };
