import { backoffDelayMs, parseRetryAfterMs, RetryContext, shouldRetry, TransportNetworkError, TransportTimeoutError } from '../../client';

const refused = new TransportNetworkError('refused', 'ECONNREFUSED');
const reset = new TransportNetworkError('reset', 'ECONNRESET');
const timeout = new TransportTimeoutError('slow', 100);

describe('only safe calls are retried on ambiguous failures', () => {
  const base = { attempt: 1, maxAttempts: 3 };
  const rows: [string, Omit<RetryContext, 'attempt' | 'maxAttempts'>, boolean][] = [
    ['GET timeout', { safe: true, error: timeout }, true],
    ['GET connection reset', { safe: true, error: reset }, true],
    ['GET connection refused', { safe: true, error: refused }, true],
    ['GET HTTP 500', { safe: true, status: 500 }, true],
    ['GET HTTP 503', { safe: true, status: 503 }, true],
    ['GET HTTP 429', { safe: true, status: 429 }, true],
    ['GET GeneralUnknownError (3)', { safe: true, status: 200, errorValue: 3 }, true],
    ['GET HTTP 400', { safe: true, status: 400, errorValue: 2 }, false],
    ['GET HTTP 401', { safe: true, status: 401 }, false],
    ['GET HTTP 404 ElementDoesNotExist', { safe: true, status: 404, errorValue: 6 }, false],
    ['create timeout (may have created)', { safe: false, error: timeout }, false],
    ['create connection reset (may have created)', { safe: false, error: reset }, false],
    ['create HTTP 500', { safe: false, status: 500 }, false],
    ['create GeneralUnknownError', { safe: false, status: 500, errorValue: 3 }, false],
    ['create connection refused (never sent)', { safe: false, error: refused }, true],
    ['create HTTP 429 (not processed)', { safe: false, status: 429 }, true],
    ['create validation error', { safe: false, status: 400, errorValue: 14 }, false],
    ['unknown thrown error', { safe: true, error: new Error('bug') }, false],
  ];
  it.each(rows)('%s -> %s', (_name, context, expected) => {
    expect(shouldRetry({ ...base, ...context })).toBe(expected);
  });

  it('never past the attempt budget', () => {
    expect(shouldRetry({ attempt: 3, maxAttempts: 3, safe: true, error: timeout })).toBe(false);
    expect(shouldRetry({ attempt: 1, maxAttempts: 1, safe: true, status: 503 })).toBe(false);
  });
});

describe('backoff: exponential with full jitter, capped, Retry-After honoured', () => {
  const options = { baseDelayMs: 100, maxDelayMs: 1000 };
  it.each([
    [1, 0.5, 50],
    [2, 0.5, 100],
    [3, 0.5, 200],
    [3, 0.999, 399],
    [10, 0.5, 500],
    [1, 0, 0],
  ])('attempt %d with random %d waits %d ms', (attempt, random, expected) => {
    expect(backoffDelayMs(attempt, options, random)).toBe(expected);
  });
  it('Retry-After seconds wins over the exponential step, within the cap', () => {
    expect(backoffDelayMs(1, options, 0.5, '0')).toBe(0);
    expect(backoffDelayMs(1, options, 0.5, '2')).toBe(1000);
  });
  it.each([
    ['3', 0, 3000],
    ['Thu, 01 Jan 1970 00:00:05 GMT', 1000, 4000],
    ['soon', 0, undefined],
    [undefined, 0, undefined],
  ])('Retry-After %s at %d -> %s', (header, now, expected) => {
    expect(parseRetryAfterMs(header, now)).toBe(expected);
  });
});
