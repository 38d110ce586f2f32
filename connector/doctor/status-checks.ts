import type { TenantConfig } from '../config/load-config';
import type { Shop } from '../shop/shop';
import { both, fail, ok, warn, type Check } from './check';
import { platformOf } from '../../platforms/registry';

/**
 * settings.triggerStatuses against the statuses the shop has (GET reports/orders/totals lists every
 * registered status, a plugin's too): WooCommerce answers 400 to an order listing with a status it
 * does not have, so one wrong slug would make every sweep of the tenant fail.
 */
export async function checkTriggerStatuses(shop: Shop, tenant: TenantConfig): Promise<Check> {
  const name = { en: 'trigger statuses', pt: 'Estados que faturam' };
  const wanted = tenant.settings.triggerStatuses;
  let known: string[];
  try {
    known = await shop.orderStatuses();
  } catch (error) {
    const problem = platformOf(tenant).shopCallProblem(error, tenant);
    return warn('orders', name, both((w) => `could not check: the shop did not list its order statuses (${w(problem.detail)})`, (w) => `não foi possível verificar: a loja não listou os seus estados de encomenda (${w(problem.detail)})`), problem.fix);
  }
  const unknown = wanted.filter((status) => !known.includes(status));
  if (unknown.length === 0) return ok('orders', name, { en: `${wanted.join(', ')}: statuses of the shop`, pt: `${wanted.join(', ')}: estados da loja` });
  return fail(
    'orders',
    name,
    {
      en: `the shop has no order status ${unknown.map((s) => `"${s}"`).join(', ')}: it refuses the sweep's listing of it (400 rest_invalid_param) and no order in it is ever invoiced`,
      pt: `a loja não tem o estado de encomenda ${unknown.map((s) => `"${s}"`).join(', ')}: recusa a listagem da sincronização (400 rest_invalid_param) e nenhuma encomenda nesse estado chega a ser faturada`,
    },
    {
      en: `Set settings.triggerStatuses of tenant "${tenant.id}" to statuses of the shop (their slugs, without "wc-"): ${known.join(', ')}.`,
      pt: `Defina em settings.triggerStatuses da loja "${tenant.id}" estados que a loja tenha (o identificador, sem "wc-"): ${known.join(', ')}.`,
    },
  );
}
