import { ClientLimiter, type LimitPolicy } from '../core/client-limiter';

/**
 * Wrong admin logins, limited per client with back-off (core/client-limiter.ts, keyed like every
 * limit: address and TCP peer): the first FREE_FAILURES wrong guesses of a client cost nothing, each
 * later one doubles its wait (1 s, 2 s, 4 s … up to MAX_BLOCK_MS), and while a client waits every
 * request of it answers 429 with Retry-After before its credentials are even compared. A right login
 * clears the client's address. Without it Basic auth took thousands of guesses a second.
 */
export const FREE_FAILURES = 5;
export const MAX_BLOCK_MS = 15 * 60_000;

export const LOGIN_POLICY: LimitPolicy = { free: FREE_FAILURES, peerFactor: 20, wait: { kind: 'doubling', maxWaitMs: MAX_BLOCK_MS } };

export function loginLimiter(now: () => number = Date.now): ClientLimiter {
  return new ClientLimiter(LOGIN_POLICY, now);
}
