import { Backoffs, type BackoffOptions, type MinimalJob } from 'bullmq';
import { BACKOFF_JITTER, documentJobOptions } from '../../connector/core/queues';
import type { ConnectorConfig } from '../../connector/config/load-config';

/** The document jobs' retry waits, computed by BullMQ's own backoff code from our job options. */
describe('document job retries back off exponentially with jitter', () => {
  const options = documentJobOptions({ attempts: 8, backoffMs: 1_000 } as ConnectorConfig['pipeline'], { finishedLedgerDays: 90, failedJobsDays: 30, failedJobsCount: 100_000 } as ConnectorConfig['retention']);
  const backoff = options.backoff as BackoffOptions;

  it('asks BullMQ for exponential backoff with jitter', () => {
    expect(backoff).toEqual({ type: 'exponential', delay: 1_000, jitter: BACKOFF_JITTER });
  });

  it.each([1, 2, 3, 4])('attempt %d waits between half and all of 1 s × 2^(n-1), and not always the same', async (attempt) => {
    const step = 1_000 * 2 ** (attempt - 1);
    const waits: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      waits.push(Number(await Backoffs.calculate(backoff, attempt, new Error('503'), {} as MinimalJob)));
    }
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(step * (1 - BACKOFF_JITTER));
    expect(Math.max(...waits)).toBeLessThanOrEqual(step);
    expect(new Set(waits).size).toBeGreaterThan(50);
  });
});
