import type { SandboxStore } from './store';

/**
 * Injected failures for tests and benchmarks, drawn from the store's seeded generator so a given
 * seed fails the same requests every run. `error`: answered 500 GeneralUnknownError and nothing
 * done. `timeout`: the request is carried out but its answer never arrives (the connection is held
 * past any client timeout, then dropped), the case that makes a retried create a duplicate.
 */
export type Fault = 'none' | 'error' | 'timeout';

export function drawFault(store: SandboxStore): Fault {
  const { errorRate, timeoutRate } = store.config;
  if (errorRate === 0 && timeoutRate === 0) return 'none';
  const roll = store.random.next();
  if (roll < errorRate) return 'error';
  if (roll < errorRate + timeoutRate) return 'timeout';
  return 'none';
}

export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
