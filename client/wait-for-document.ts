import type { DocumentDetails } from './document-details';
import { ElementDoesNotExistError, MagniFinanceError } from './errors';

/**
 * Waiting for a closed document's number and PDF link. The service allocates both on a Get
 * Document made at least 10 s after the create; read earlier, it answers 6 ElementDoesNotExist
 * (the public error list) or, in the spec's reading, a success with no number. Both mean
 * "not numbered yet" here, never a failure: the document exists, and failing would tempt a
 * second create.
 */

/** The service's documented minimum delay between a create and the first Get Document. */
export const MINIMUM_FIRST_READ_MS = 10_000;

export interface WaitForDocumentOptions {
  /** Cancels the wait (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /** When the document was created (ms since the epoch); default: when the wait starts. */
  createdAt?: number;
  /** Delay from the create to the first read; never below 10 000 ms. */
  firstReadAfterMs?: number;
  /** First delay between reads; doubles after each read (default 2000 ms). */
  intervalMs?: number;
  /** Upper bound of one delay between reads (default 30 000 ms). */
  maxIntervalMs?: number;
  /** Give up after this long since the create (default 120 000 ms) with DocumentNotNumberedError. */
  timeoutMs?: number;
  /** A partner's token instead of the account's own. */
  token?: string;
}

/** The document exists but has no number or PDF link yet (after a wait: the wait ran out). */
export class DocumentNotNumberedError extends MagniFinanceError {
  readonly documentId: number;
  readonly reads: number;

  constructor(documentId: number, reads: number) {
    super(
      `Document ${documentId} has no number and PDF link yet after ${reads} Get Document read(s); ` +
        'it exists: read it again later, do not create it again',
    );
    this.documentId = documentId;
    this.reads = reads;
  }
}

export interface WaitDependencies {
  getDocument: (documentId: number, token?: string) => Promise<DocumentDetails>;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
}

/** A closed document that has its number and link; undefined while it is not numbered yet. */
export async function readIfNumbered(
  deps: Pick<WaitDependencies, 'getDocument'>,
  documentId: number,
  token?: string,
): Promise<(DocumentDetails & { documentNumber: string; downloadUrl: string }) | undefined> {
  try {
    const details = await deps.getDocument(documentId, token);
    if (details.documentNumber && details.downloadUrl) {
      return details as DocumentDetails & { documentNumber: string; downloadUrl: string };
    }
    return undefined;
  } catch (error) {
    if (error instanceof ElementDoesNotExistError) return undefined;
    throw error;
  }
}

/**
 * The delays of a wait, deterministic: the first read at `firstReadAfterMs` after the create,
 * then reads after `intervalMs`, doubling up to `maxIntervalMs`, while the total stays within
 * `timeoutMs`. Returned as the delay before each read, counted from the create.
 */
export function plannedReadTimes(options: WaitForDocumentOptions): number[] {
  const first = Math.max(MINIMUM_FIRST_READ_MS, options.firstReadAfterMs ?? MINIMUM_FIRST_READ_MS);
  const timeout = Math.max(first, options.timeoutMs ?? 120_000);
  const maxInterval = Math.max(1, options.maxIntervalMs ?? 30_000);
  let interval = Math.max(1, Math.min(options.intervalMs ?? 2_000, maxInterval));
  const times = [first];
  for (let at = first + interval; at <= timeout; at += interval) {
    times.push(at);
    interval = Math.min(maxInterval, interval * 2);
  }
  return times;
}

export async function waitForDocument(
  deps: WaitDependencies,
  documentId: number,
  options: WaitForDocumentOptions = {},
): Promise<DocumentDetails & { documentNumber: string; downloadUrl: string }> {
  const { signal } = options;
  const startedAt = deps.now();
  const createdAt = Math.min(options.createdAt ?? startedAt, startedAt);
  const times = plannedReadTimes(options);
  let elapsed = startedAt - createdAt;
  let reads = 0;
  for (const at of times) {
    signal?.throwIfAborted();
    if (at > elapsed) {
      await deps.sleep(at - elapsed, signal);
      elapsed = at;
    }
    signal?.throwIfAborted();
    reads += 1;
    const numbered = await readIfNumbered(deps, documentId, options.token);
    if (numbered) return numbered;
  }
  throw new DocumentNotNumberedError(documentId, reads);
}

/**
 * Waits `ms` with the given sleep, rejecting at once when the signal aborts. A sleep that takes
 * the signal itself (the default one) is also cancelled.
 */
export function abortableSleep(
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  if (!signal) return sleep(ms);
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms, signal).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? signal.reason : error);
      },
    );
  });
}
