import type { TenantConfig } from '../../../../connector/config/load-config';
import { shopifySaleSettingsSchema, type ShopifyTenantConfig } from '../../../../connector/config/shopify-tenant';
import type { Check } from '../../../../connector/doctor/check';
import { ShopifyApiError, type ShopifyAdminClient } from '../../../../platforms/shopify/admin-client';
import { adminCallProblem, shopifyDoctorChecks } from '../../../../platforms/shopify/doctor-checks';

/**
 * The Shopify doctor's checks in every branch, against a store that answers as the Admin API does
 * (the two queries the doctor sends: the shop's facts and the app's webhook subscriptions): what a
 * merchant reads, in both languages, so a change of its words is a visible change of this record.
 */

export interface StoreFacts {
  name: string;
  currency: string;
  taxesIncluded: boolean;
  plus: boolean;
  scopes: string[];
  topics: string[];
}

const STORE: StoreFacts = { name: 'Loja Azul', currency: 'EUR', taxesIncluded: true, plus: false, scopes: ['read_orders', 'write_orders'], topics: ['orders/paid', 'orders/updated', 'orders/cancelled', 'refunds/create', 'app/uninstalled'] };
const PUBLIC_URL = 'https://invoices.example.pt';

/** A client that answers the doctor's two queries from `facts`, or refuses every call with `refusal`. */
function clientOf(facts: StoreFacts, refusal?: Error, subscriptionsRefused?: Error): ShopifyAdminClient {
  const query = async (text: string, _variables: unknown, schema: { parse(value: unknown): unknown }) => {
    if (refusal) throw refusal;
    if (text.includes('webhookSubscriptions')) {
      if (subscriptionsRefused) throw subscriptionsRefused;
      const nodes = facts.topics.map((topic, index) => ({ id: `gid://shopify/WebhookSubscription/${index + 1}`, topic: topic.toUpperCase().replace('/', '_'), uri: `${PUBLIC_URL}/webhooks/shopify/loja`, apiVersion: '2025-10' }));
      return schema.parse({ webhookSubscriptions: { nodes, pageInfo: { hasNextPage: false, endCursor: null } } });
    }
    return schema.parse({
      shop: { name: facts.name, currencyCode: facts.currency, taxesIncluded: facts.taxesIncluded, ianaTimezone: 'Europe/Lisbon', plan: { shopifyPlus: facts.plus } },
      currentAppInstallation: { accessScopes: facts.scopes.map((handle) => ({ handle })) },
    });
  };
  return { query } as unknown as ShopifyAdminClient;
}

/** The resolved `shopify:` block, as the tenants file gives it (`sale` read by its schema). */
function storeOf(store: { accessToken?: string; clientId?: string; sale?: unknown }): ShopifyTenantConfig {
  const { sale, ...rest } = store;
  return { shopDomain: 'loja-azul.myshopify.com', adminUrl: 'https://loja-azul.myshopify.com', clientSecrets: ['shpss_x'], timeoutMs: 15_000, sale: shopifySaleSettingsSchema.parse(sale ?? {}), ...rest };
}

function tenantOf(store: { accessToken?: string; sale?: unknown }, settings: Partial<TenantConfig['settings']>): TenantConfig {
  const shopify = storeOf(store);
  return { id: 'loja', platform: 'shopify', shopify, settings: { triggerStatuses: ['paid', 'partially_refunded'], onCancelled: 'ignore', ...settings } } as unknown as TenantConfig;
}

const TOKEN = { accessToken: 'shpat_x' };

/** Each scenario: a name, and what the doctor says of it. */
export async function doctorScenarios(): Promise<Record<string, Check[] | ReturnType<typeof adminCallProblem>>> {
  const run = async (facts: Partial<StoreFacts>, store: { accessToken?: string; sale?: unknown } = TOKEN, settings: Partial<TenantConfig['settings']> = {}, refusal?: Error, subscriptionsRefused?: Error) =>
    (await shopifyDoctorChecks(clientOf({ ...STORE, ...facts }, refusal, subscriptionsRefused), tenantOf(store, settings), PUBLIC_URL)).checks;
  const installed = storeOf({ clientId: '0123456789abcdef0123456789abcdef' });
  const withToken = storeOf(TOKEN);
  return {
    'all well': await run({}),
    'taxes excluded, buyer currency, a company source on a Plus store without read_companies': await run({ taxesIncluded: false, plus: true }, { ...TOKEN, sale: { currency: 'presentment', nifSources: [{ from: 'company' }, { from: 'attribute', key: 'nif' }] } }),
    'one scope missing, one subscription missing, USD': await run({ scopes: ['read_orders'], topics: ['orders/paid', 'orders/updated', 'orders/cancelled', 'refunds/create'], currency: 'USD' }),
    'two scopes missing, no subscription, none granted': await run({ scopes: [], topics: [] }),
    'only the address company field, one unknown status, onCancelled credit-note': await run({}, { ...TOKEN, sale: { nifSources: [{ from: 'address-company' }] } }, { triggerStatuses: ['paid', 'completed'], onCancelled: 'credit-note' }),
    'two unknown statuses': await run({}, TOKEN, { triggerStatuses: ['completed', 'processing'] }),
    'subscriptions not listed': await run({}, TOKEN, {}, undefined, new ShopifyApiError('server', 'HTTP 502')),
    'token refused': await run({}, TOKEN, {}, new ShopifyApiError('authentication', '[API] Invalid API key or access token')),
    'token refused, installed here': adminCallProblem(new ShopifyApiError('authentication', 'HTTP 401'), installed),
    'no answer': adminCallProblem(new ShopifyApiError('timeout', 'timed out after 5000 ms'), withToken),
    'unexpected': adminCallProblem(new ShopifyApiError('graphql', 'Field x does not exist'), withToken),
  };
}
