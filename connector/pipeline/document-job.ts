import { DelayedError, UnrecoverableError, type Processor } from 'bullmq';
import { failedAttemptFields } from './attempt-wait';
import { DocumentJobDataSchema, purposeOf, type DocumentJobData, type Step } from '../core/jobs';
import { type LedgerRef } from '../core/ledger';
import { childOnFirstLine } from '../core/logger';
import { flagJobFailure, isPermanent } from './needs-person';
import { reviewOrder } from './order-review';
import { type PipelineDeps, type StepContext, setData } from './step-context';
import { flushHistory } from './job-history';
import { issueStep } from './issue-step';
import { finalizeStep } from './finalize-step';
import { writeBackStep } from './write-back-step';

/**
 * The document pipeline as BullMQ step jobs: issue -> finalize -> writeback, with `step` kept in the
 * job data so a retry or a restarted worker resumes where the last one stopped. Waiting (the 10 s
 * before Get Document, polling, waiting for an invoice number) moves the job to delayed and frees the
 * worker. Exactly-once rests on the ledger, not on the job: see issueStep.
 */
export function documentProcessor(deps: PipelineDeps): Processor<DocumentJobData, string> {
  const now = deps.now ?? Date.now;
  return async (job, token) => {
    const data = DocumentJobDataSchema.parse(job.data);
    deps.metrics.jobRuns.inc({ kind: data.kind });
    const tenant = deps.tenants.get(data.tenant);
    if (!tenant) throw new UnrecoverableError(`tenant ${data.tenant} is not in this worker's configuration`);
    const ref: LedgerRef = { tenant: data.tenant, orderId: data.orderId, purpose: purposeOf(data.kind, data.refundId) };
    const log = childOnFirstLine(deps.logger, { tenant: data.tenant, orderId: data.orderId, purpose: ref.purpose, jobId: job.id });
    // A review issues nothing: a failed one is retried by BullMQ and resumed by the next update or sweep.
    if (data.kind === 'review') return reviewOrder(deps, tenant, data.orderId, now(), log);
    const ctx: StepContext = { job, token, data, tenant, ref, deps, now, log, events: [] };
    try {
      return await runSteps(ctx);
    } finally {
      await flushHistory(ctx);
    }
  };
}

/** The steps of one run, from the job's step, until it is done, waits (DelayedError) or fails. */
async function runSteps(ctx: StepContext): Promise<string> {
  const { deps, data, ref, tenant, log, job } = ctx;
  let step: Step = data.step;
  try {
    for (;;) {
      const outcome = step === 'issue' ? await issueStep(ctx) : step === 'finalize' ? await finalizeStep(ctx) : await writeBackStep(ctx);
      if ('done' in outcome) {
        log.info({ outcome: outcome.done }, 'document job done');
        return outcome.done;
      }
      step = outcome.next;
      // The stored step only saves a ledger read on resume (every step starts from the ledger,
      // and issue resumes any purpose from it), so it is written only when a poll count must
      // be reset for the new step.
      if (step !== ctx.data.step && ctx.data.polls !== 0) await setData(ctx, { step, polls: 0 });
    }
  } catch (error) {
    if (error instanceof DelayedError) throw error;
    // The failed list (and the admin API) shows where the job stopped; failures are rare, so
    // the step is written here rather than on every transition.
    if (step !== ctx.data.step) await setData(ctx, { step }).catch(() => undefined);
    if (error instanceof UnrecoverableError) throw error;
    deps.metrics.documentsFailed.inc({ kind: data.kind, reason: (error as Error).name || 'Error' });
    const permanent = isPermanent(error);
    const attempts = job.attemptsMade + 1;
    if (!permanent && attempts < (job.opts.attempts ?? 1)) {
      await deps.ledger.record(ref, failedAttemptFields(error)).catch(() => undefined);
      log.warn({ err: (error as Error).message, step, attempt: attempts }, 'document job attempt failed; will retry');
      throw error;
    }
    // The job ends here: the order goes to a person with the reason, on the order and in the
    // attention list. A later delivery, the sweep or an admin retry resumes it (ingest/add-resuming.ts).
    log.error({ err: (error as Error).message, step }, 'document job failed for good');
    // The failed attempt is told before the problem it led to.
    await flushHistory(ctx);
    await flagJobFailure(deps, tenant, ref, error, attempts, ctx.now(), log).catch((flagError: unknown) => log.error({ err: (flagError as Error).message }, 'could not record the failure'));
    throw permanent ? new UnrecoverableError((error as Error).message) : error;
  }
}
