import type { Ledger } from '../core/ledger';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import type { RedisClient } from '../core/redis-connection';
import { ShopMonthOrders } from './shop-orders';
import { statusesToReconcile } from '../sweep/sweep';
import { monthPack, type MonthPack } from './month-pack';
import { readSaft } from './saft-reader';
import { MonthSignOffs } from './sign-off';
import { OssMonths } from './oss';

/**
 * The month pack of a tenant from its runtime: the one composition the CLI, the admin API and the
 * console call (the shop's listing as the sweep makes it, the ledger, Get Document, the SAF-T).
 */
export async function tenantMonthPack(tenant: TenantRuntime, deps: { redis: RedisClient; prefix: string; ledger: Ledger }, month: string, saftBytes?: Buffer): Promise<MonthPack> {
  const saft = saftBytes === undefined ? undefined : readSaft(saftBytes);
  const signOff = await new MonthSignOffs(deps.redis, deps.prefix).of(tenant.config.id, month);
  const pack = await monthPack({
    tenant: tenant.config.id,
    month,
    timeZone: tenant.mapping.shopTimeZone,
    companyTaxId: tenant.config.invoicing.companyNif,
    triggerStatuses: tenant.config.settings.triggerStatuses,
    listedStatuses: statusesToReconcile(tenant),
    shop: new ShopMonthOrders(tenant.shop),
    ledger: deps.ledger,
    redis: deps.redis,
    prefix: deps.prefix,
    reader: { getDocument: (id) => tenant.invoicing.getDocument(id, tenant.documentCallOptions) },
    dispatchRegion: tenant.mapping.dispatchRegion,
    saft,
    signOff,
  });
  // The month's OSS figures are kept for its quarter (a derived summary: no personal data, no document).
  const oss = new OssMonths(deps.redis, deps.prefix);
  await oss.keep(tenant.config.id, month, pack.oss.month);
  return { ...pack, oss: { ...pack.oss, quarter: await oss.quarter(tenant.config.id, month, pack.oss.month) } };
}

export const MONTH_TEXT = /^\d{4}-(0[1-9]|1[0-2])$/;
