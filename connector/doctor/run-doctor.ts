import type { Logger } from 'pino';
import type { ConnectorConfig, TenantConfig } from '../config/load-config';
import { buildTenantRuntime } from '../pipeline/tenant-runtime';
import { fail, isReady, type Check, type TenantReport } from './check';
import { dryRun } from './dry-run';
import { doctorSays } from './doctor-messages';
import { checkInvoicing } from './invoicing-checks';
import { checkRedis } from './redis-checks';
import { checkRegimeLimit } from './regime-check';
import { checkGoLive } from './go-live-check';
import { checkVies } from './vies-check';
import { connectRedis, type RedisClient } from '../core/redis-connection';
import { shopServices } from '../shop/shop-services';
import { platformOf } from '../../platforms/registry';
import { checkTriggerStatuses } from './status-checks';
import { checkAccountantMail } from '../month/accountant-mail-check';

export interface DoctorReport {
  /** Every tenant ready and Redis fit: exit code 0. */
  ready: boolean;
  redis: Check[];
  tenants: TenantReport[];
}

export interface DoctorOptions {
  /** Map the last N orders in a trigger status without issuing anything. */
  dryRunOrders?: number;
  now?: () => number;
}

/** Checks Redis once and each tenant in turn; reads only (the write probe changes nothing, the dry run issues nothing). */
export async function runDoctor(config: ConnectorConfig, tenants: readonly TenantConfig[], logger: Logger, options: DoctorOptions = {}): Promise<DoctorReport> {
  const redis = await checkRedis(config, logger);
  // One reading connection for the tenants' cut-offs; none when Redis did not answer.
  const reader = isReady(redis) ? connectRedis(config.redis, 'worker', logger) : undefined;
  const reports: TenantReport[] = [];
  try {
    for (const tenant of tenants) reports.push(await checkTenant(config, tenant, options, reader));
  } finally {
    reader?.disconnect();
  }
  return { ready: isReady(redis) && reports.every((report) => report.ready), redis, tenants: reports };
}

async function checkTenant(config: ConnectorConfig, tenant: TenantConfig, options: DoctorOptions, redis: RedisClient | undefined): Promise<TenantReport> {
  const now = (options.now ?? Date.now)();
  const services = redis ? shopServices(redis, config.redis.prefix, config.server.secretsKey) : undefined;
  const runtime = buildTenantRuntime(tenant, services);
  const checks: Check[] = [];
  const read = await platformOf(tenant).doctorChecks(tenant, runtime.mapping, config.server.publicUrl, services);
  checks.push(...read.checks);
  if (read.readable) checks.push(await checkTriggerStatuses(runtime.shop, tenant));
  checks.push(...(await checkInvoicing(runtime, config.tenants)));
  const vies = await checkVies(runtime);
  if (vies) checks.push(vies);
  const goLive = await checkGoLive(redis, config.redis.prefix, tenant, now);
  checks.push(goLive.check);
  const regime = await checkRegimeLimit(redis, config.redis.prefix, tenant.id, runtime.mapping, now);
  if (regime) checks.push(regime);
  const accountantMail = await checkAccountantMail(redis, config.redis.prefix, runtime, now);
  if (accountantMail) checks.push(accountantMail);
  const report: TenantReport = { tenant: tenant.id, shop: tenant.shop.url, ready: isReady(checks), checks };
  if (options.dryRunOrders !== undefined && read.readable) {
    try {
      report.dryRun = await dryRun(runtime, options.dryRunOrders, now, goLive.cutOff);
    } catch (error) {
      const problem = platformOf(tenant).shopCallProblem(error, tenant);
      checks.push(
        fail(
          'orders',
          doctorSays('dry-run-name'),
          doctorSays('dry-run-unreadable', { detail: problem.detail }),
          problem.fix,
        ),
      );
      report.ready = false;
    }
  }
  return report;
}
