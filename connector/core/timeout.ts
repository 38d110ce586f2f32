/** A call that did not answer in time (withTimeout). */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** The promise's answer, or a TimeoutError "no answer within N s" once `ms` have passed (the timer never outlives it). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
