import type { TenantConfig } from '../config/load-config';
import type { WooShop } from '../shop/woo-shop';
import { fail, ok, warn, type Check } from './check';
import { shopCallProblem } from './shop-checks';

/**
 * settings.triggerStatuses against the statuses the shop has (GET reports/orders/totals lists every
 * registered status, a plugin's too): WooCommerce answers 400 to an order listing with a status it
 * does not have, so one wrong slug would make every sweep of the tenant fail.
 */
export async function checkTriggerStatuses(shop: WooShop, tenant: TenantConfig): Promise<Check> {
  const name = 'trigger statuses';
  const wanted = tenant.settings.triggerStatuses;
  let known: string[];
  try {
    known = await shop.orderStatuses();
  } catch (error) {
    const problem = shopCallProblem(error, tenant);
    return warn('orders', name, `could not check: the shop did not list its order statuses (${problem.detail})`, problem.fix);
  }
  const unknown = wanted.filter((status) => !known.includes(status));
  if (unknown.length === 0) return ok('orders', name, `${wanted.join(', ')}: statuses of the shop`);
  return fail(
    'orders',
    name,
    `the shop has no order status ${unknown.map((s) => `"${s}"`).join(', ')}: it refuses the sweep's listing of it (400 rest_invalid_param) and no order in it is ever invoiced`,
    `Set settings.triggerStatuses of tenant "${tenant.id}" to statuses of the shop (their slugs, without "wc-"): ${known.join(', ')}.`,
  );
}
