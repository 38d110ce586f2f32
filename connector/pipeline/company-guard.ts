import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { purposeOf, type DocumentJobData } from '../core/jobs';
import { stateRules, type Ledger, type LedgerRef } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import { flagForPerson, flagJobFailure, type NeedsPersonDeps } from './needs-person';
import { personNeeded } from './problems';
import type { TenantRuntime } from './tenant-runtime';
import type { RedisClient } from '../core/redis-connection';
import { companyFingerprint, companyLabel, verifyCompany } from '../config/company-check';

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
    const problem = personNeeded(
      ref,
      { code: 'wrong-company', nif: verdict.nif, company: companyLabel(verdict), cause: verdict.cause, ...(verdict.actual ? { actual: companyLabel(verdict.actual), actualTenant: verdict.actual.tenant } : {}) },
      stateRules(entry?.state).document === 'none' ? 'failed' : undefined,
    );
    log.error({ company: companyLabel(verdict), why: verdict.why, actual: verdict.actual }, 'partner token is not the company\'s: nothing issued');
    await flagForPerson(this.deps, tenant, ref, problem, now, log, entry);
    return 'refused: the partner token is not the company\'s';
  }
}
