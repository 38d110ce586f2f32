import type { TenantConfig } from '../config/load-config';
import type { Shop } from '../shop/shop';
import { fail, ok, warn, type Check } from './check';
import { doctorSays } from './doctor-messages';
import { platformOf } from '../../platforms/registry';

/**
 * settings.triggerStatuses against the statuses the shop has (GET reports/orders/totals lists every
 * registered status, a plugin's too): WooCommerce answers 400 to an order listing with a status it
 * does not have, so one wrong slug would make every sweep of the tenant fail.
 */
export async function checkTriggerStatuses(shop: Shop, tenant: TenantConfig): Promise<Check> {
  const name = doctorSays('statuses-name');
  const wanted = tenant.settings.triggerStatuses;
  let known: string[];
  try {
    known = await shop.orderStatuses();
  } catch (error) {
    const problem = platformOf(tenant).shopCallProblem(error, tenant);
    return warn('orders', name, doctorSays('statuses-unlisted', { detail: problem.detail }), problem.fix);
  }
  const unknown = wanted.filter((status) => !known.includes(status));
  if (unknown.length === 0) return ok('orders', name, doctorSays('statuses-ok', { statuses: wanted.join(', ') }));
  return fail('orders', name, doctorSays('statuses-unknown', { unknown: unknown.map((s) => `"${s}"`).join(', ') }), doctorSays('statuses-unknown-fix', { tenant: tenant.id, known: known.join(', ') }));
}
