import { ManualExecutionCancelledError, sleep } from 'n8n-workflow';

/** How often a wait looks at the execution's cancel signal. */
const SLICE_MS = 250;

/**
 * Waits `ms` with n8n-workflow's own `sleep`, in slices, and stops with n8n's "execution cancelled"
 * error within a slice once the execution is cancelled. n8n-workflow 1.x's `sleepWithAbort` is gone
 * in 2.x; `sleep` and `ManualExecutionCancelledError` exist in both (and community nodes may not use
 * timers themselves), so this is the wait both majors support.
 */
export async function cancellableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  let remaining = ms;
  for (;;) {
    if (signal?.aborted) throw new ManualExecutionCancelledError('');
    if (remaining <= 0) return;
    const slice = Math.min(SLICE_MS, remaining);
    await sleep(slice);
    remaining -= slice;
  }
}
