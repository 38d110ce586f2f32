import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { purposeOf, type DocumentJobData } from '../core/jobs';
import { stateRules, type Ledger, type LedgerRef } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import { flagForPerson, flagJobFailure, type NeedsPersonDeps } from './needs-person';
import { z } from 'zod';
import { personNeeded, ProblemSchema, type Problem } from './problems';
import type { TenantRuntime } from './tenant-runtime';
import type { RedisClient } from '../core/redis-connection';
import { companyFingerprint, companyLabel, verifyCompany, type CompanyVerdict } from '../config/company-check';

export interface CompanyGuardDeps extends NeedsPersonDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  redis: RedisClient;
  prefix: string;
  ledger: Ledger;
  metrics: ConnectorMetrics;
  logger: Logger;
  now?: () => number;
}

/**
 * Before a partner-token tenant issues anything, its token is checked to be its company's
 * (config/company-check.ts): once per set of credentials, remembered in Redis under their
 * fingerprint, so a reload with another token or NIF checks again. A wrong token stops the order
 * with the reason (naming both companies) for a person; nothing reaches the service.
 */
export class CompanyGuard {
  /** Fingerprints this process has seen verified. */
  private readonly verified = new Map<string, string>();

  constructor(private readonly deps: CompanyGuardDeps) {}

  static key(prefix: string, tenantId: string): string {
    return `${prefix}:tenant:${tenantId}:company-verified`;
  }

  /** The last wrong verdict on the tenant's token (its fingerprint and the problem), for the console's company line. */
  static wrongKey(prefix: string, tenantId: string): string {
    return `${prefix}:tenant:${tenantId}:company-wrong`;
  }

  /** The problem of the tenant's current token when the last check found it another company's; undefined otherwise. */
  static async wrongCompany(redis: RedisClient, prefix: string, tenant: TenantRuntime['config']): Promise<Extract<Problem, { code: 'wrong-company' }> | undefined> {
    const stored = WrongRecord.safeParse(parseJson(await redis.get(CompanyGuard.wrongKey(prefix, tenant.id))));
    if (!stored.success || stored.data.fingerprint !== companyFingerprint(tenant)) return undefined;
    const problem = ProblemSchema.safeParse(stored.data.problem);
    return problem.success && problem.data.code === 'wrong-company' ? problem.data : undefined;
  }

  /** Undefined: go ahead. Otherwise the job's outcome (it issued nothing). Throws to retry later. */
  async admit(job: Job<DocumentJobData>): Promise<string | undefined> {
    const data = job.data;
    if (data.step !== 'issue') return undefined;
    const tenant = this.deps.tenants.get(data.tenant);
    if (!tenant?.config.invoicing.partnerToken) return undefined;
    const fingerprint = companyFingerprint(tenant.config);
    if (this.verified.get(tenant.config.id) === fingerprint) return undefined;
    const key = CompanyGuard.key(this.deps.prefix, tenant.config.id);
    if ((await this.deps.redis.get(key)) === fingerprint) {
      this.verified.set(tenant.config.id, fingerprint);
      return undefined;
    }
    const now = (this.deps.now ?? Date.now)();
    const ref: LedgerRef = { tenant: data.tenant, orderId: data.orderId, purpose: purposeOf(data.kind, data.refundId) };
    const log = this.deps.logger.child({ tenant: data.tenant, orderId: data.orderId, purpose: ref.purpose });
    const others = [...this.deps.tenants.values()].map((runtime) => runtime.config);
    const verdict = await verifyCompany(tenant.invoicing, tenant.config, others);
    if (verdict.status === 'ok' || verdict.status === 'unchecked') {
      await this.deps.redis.set(key, fingerprint);
      await this.deps.redis.del(CompanyGuard.wrongKey(this.deps.prefix, tenant.config.id));
      this.verified.set(tenant.config.id, fingerprint);
      log.info({ company: companyLabel(verdict) }, 'partner token checked: it is the company\'s');
      return undefined;
    }
    if (verdict.status === 'unknown') {
      const error = new Error(`could not check that the partner token is company ${verdict.nif}'s: ${verdict.why}`);
      // The last attempt goes to a person like every job that ends; earlier ones retry with backoff.
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await flagJobFailure(this.deps, tenant, ref, error, job.attemptsMade + 1, now, log);
      throw error;
    }
    const entry = await this.deps.ledger.get(ref);
    const wrong = wrongCompanyProblem(verdict);
    await this.deps.redis.set(CompanyGuard.wrongKey(this.deps.prefix, tenant.config.id), JSON.stringify({ fingerprint, problem: wrong }));
    const problem = personNeeded(
      ref,
      wrong,
      stateRules(entry?.state).document === 'none' ? 'failed' : undefined,
    );
    log.error({ company: companyLabel(verdict), why: verdict.why, actual: verdict.actual }, 'partner token is not the company\'s: nothing issued');
    await flagForPerson(this.deps, tenant, ref, problem, now, log, entry);
    return 'refused: the partner token is not the company\'s';
  }
}

/** A wrong token's verdict as the problem a person reads (both companies named, as far as the file knows them). */
export function wrongCompanyProblem(verdict: Extract<CompanyVerdict, { status: 'wrong' }>): Extract<Problem, { code: 'wrong-company' }> {
  const actual = verdict.actual;
  return {
    code: 'wrong-company',
    nif: verdict.nif,
    company: companyLabel(verdict),
    cause: verdict.cause,
    ...(actual ? { actual: companyLabel(actual) } : {}),
    ...(actual?.tenant ? { actualTenant: actual.tenant } : {}),
    ...(actual?.partner ? { actualPartner: actual.partner } : {}),
  };
}

const WrongRecord = z.object({ fingerprint: z.string(), problem: z.unknown() });

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
