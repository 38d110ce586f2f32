import { z } from 'zod';
import type { TenantConfig } from '../../connector/config/load-config';
import type { ShopifyTenantConfig } from '../../connector/config/shopify-tenant';
import { fail, ok, warn, type Check, type Words } from '../../connector/doctor/check';
import { ShopifyApiError, type ShopifyAdminClient } from './admin-client';
import { describeNifSource } from './buyer-nif';
import { SHOPIFY_STATUSES } from './order-summary';
import { listSubscriptions, missingTopics, shopifyDeliveryUrl } from './webhook-subscriptions';
import { shopifySays } from './doctor-words';

/**
 * The doctor's checks of a Shopify tenant: the token (read), its scopes (read_orders,
 * write_orders: orders, their notes and their app metafields), the webhook subscriptions at this
 * connector, taxes included or not, the store's currency against the currency policy, where the NIF
 * comes from, and that the trigger statuses are Shopify's. Their words are Shopify's doctor catalogue
 * (./doctor-words.ts).
 */

export const REQUIRED_SCOPES = ['read_orders', 'write_orders'] as const;
/** Either lets the app read a B2B order's company and its location's tax registration (the `company` NIF source). */
export const COMPANY_SCOPES = ['read_companies', 'read_customers'] as const;

const FactsSchema = z.object({
  shop: z.object({ name: z.string(), currencyCode: z.string(), taxesIncluded: z.boolean(), ianaTimezone: z.string(), plan: z.object({ shopifyPlus: z.boolean() }) }),
  currentAppInstallation: z.object({ accessScopes: z.array(z.object({ handle: z.string() })) }),
});
const FACTS = '{ shop { name currencyCode taxesIncluded ianaTimezone plan { shopifyPlus } } currentAppInstallation { accessScopes { handle } } }';

/** Why the Admin API refused or did not answer, and what to do. */
export function adminCallProblem(error: unknown, store: ShopifyTenantConfig): { detail: Words; fix: Words } {
  const kind = error instanceof ShopifyApiError ? error.kind : 'unexpected';
  const message = (error as Error).message;
  if (kind === 'authentication') {
    return {
      detail: shopifySays('token-refused', { error: message }),
      fix: shopifySays(store.accessToken === undefined ? 'install-here-fix' : 'install-again-fix', { shop: store.shopDomain }),
    };
  }
  if (kind === 'connection' || kind === 'timeout') return { detail: shopifySays('no-answer', { url: store.adminUrl, error: message }), fix: shopifySays('no-answer-fix') };
  return { detail: shopifySays('api-error', { error: message }), fix: shopifySays('report-it-fix') };
}

export async function shopifyDoctorChecks(client: ShopifyAdminClient, tenant: TenantConfig, publicUrl: string): Promise<{ readable: boolean; checks: Check[] }> {
  const store = tenant.shopify as ShopifyTenantConfig;
  let facts: z.output<typeof FactsSchema>;
  try {
    facts = await client.query(FACTS, {}, FactsSchema);
  } catch (error) {
    const problem = adminCallProblem(error, store);
    return { readable: false, checks: [fail('shop', shopifySays('token-name'), problem.detail, problem.fix)] };
  }
  const checks: Check[] = [ok('shop', shopifySays('token-name'), shopifySays('token-accepted', { shop: facts.shop.name }))];

  const granted = facts.currentAppInstallation.accessScopes.map((s) => s.handle);
  // write_orders implies read_orders in Shopify's scopes.
  const missing = REQUIRED_SCOPES.filter((scope) => !granted.includes(scope) && !(scope === 'read_orders' && granted.includes('write_orders')));
  checks.push(
    missing.length === 0
      ? ok('shop', shopifySays('scopes-name'), granted.join(', '))
      : fail('shop', shopifySays('scopes-name'), shopifySays('scopes-missing', { missing, granted }), shopifySays('scopes-missing-fix', { missing })),
  );

  // Shopify's Company and CompanyLocation need read_customers or read_companies: without either, a B2B order cannot be read at all.
  // B2B is for Shopify Plus stores only: another store has no company to read.
  if (facts.shop.plan.shopifyPlus && store.sale.nifSources.some((source) => source.from === 'company') && !COMPANY_SCOPES.some((scope) => granted.includes(scope))) {
    checks.push(warn('shop', shopifySays('companies-name'), shopifySays('companies-unreadable'), shopifySays('companies-fix')));
  }

  const url = shopifyDeliveryUrl(publicUrl, tenant.id);
  try {
    const absent = missingTopics(await listSubscriptions(client), url);
    checks.push(
      absent.length === 0
        ? ok('webhooks', shopifySays('subscriptions-name'), url)
        : warn('webhooks', shopifySays('subscriptions-name'), shopifySays('subscriptions-missing', { url, topics: absent }), shopifySays('subscriptions-fix')),
    );
  } catch (error) {
    const problem = adminCallProblem(error, store);
    checks.push(warn('webhooks', shopifySays('subscriptions-name'), problem.detail, problem.fix));
  }

  checks.push(ok('orders', shopifySays('taxes-name'), shopifySays(facts.shop.taxesIncluded ? 'taxes-included' : 'taxes-excluded')));

  checks.push(
    facts.shop.currencyCode === 'EUR'
      ? ok('orders', shopifySays('currency-name'), shopifySays('currency-eur', { policy: store.sale.currency }))
      : warn('orders', shopifySays('currency-name'), shopifySays('currency-other', { currency: facts.shop.currencyCode }), shopifySays('currency-fix')),
  );

  const sources = store.sale.nifSources.map(describeNifSource).join(', ');
  checks.push(
    store.sale.nifSources.every((s) => s.from === 'address-company')
      ? warn('orders', shopifySays('nif-source-name'), sources, shopifySays('nif-source-fix'))
      : ok('orders', shopifySays('nif-source-name'), sources),
  );

  const unknown = tenant.settings.triggerStatuses.filter((status) => !SHOPIFY_STATUSES.includes(status));
  if (unknown.length > 0) {
    checks.push(fail('orders', shopifySays('statuses-name'), shopifySays('statuses-unknown', { unknown }), shopifySays('statuses-fix', { statuses: [...SHOPIFY_STATUSES] })));
  }
  if (tenant.settings.onCancelled !== 'ignore') {
    // Cancelling a paid order in Shopify refunds it through a Refund, which has its own credit note.
    checks.push(warn('orders', shopifySays('cancelled-name'), shopifySays('cancelled-setting', { setting: tenant.settings.onCancelled }), shopifySays('cancelled-fix')));
  }
  return { readable: true, checks };
}
