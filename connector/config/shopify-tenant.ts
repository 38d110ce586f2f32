import { configIssue } from './config-messages';
import { z } from 'zod';
import { SecretRefSchema } from './secret-ref';

/**
 * Where a Shopify order keeps the buyer's NIF. Shopify has no NIF field of its own (../../docs/shopify.md):
 * - `company`: the B2B company location's tax registration id (Shopify B2B, the validated VAT number);
 * - `attribute`: an order attribute (cart attribute / "note attribute") a checkout field or VAT app writes;
 * - `metafield`: an order metafield a VAT app writes (namespace and key from the app's docs);
 * - `address-company`: the billing address's Company field, relabelled "NIF" in the checkout settings.
 * Every source that holds a value gives a tax number, in this order; the law takes the first and
 * checks it like any NIF (check digits, 999999990, VIES for EU numbers).
 */
export const nifSourceSchema = z.discriminatedUnion('from', [
  z.object({ from: z.literal('company') }),
  z.object({ from: z.literal('attribute'), key: z.string().min(1) }),
  z.object({ from: z.literal('metafield'), namespace: z.string().min(1), key: z.string().min(1) }),
  z.object({ from: z.literal('address-company') }),
]);
export type NifSource = z.output<typeof nifSourceSchema>;

export const DEFAULT_NIF_SOURCES: NifSource[] = [
  { from: 'company' },
  { from: 'attribute', key: 'nif' },
  { from: 'attribute', key: 'vat_number' },
  { from: 'attribute', key: 'contribuinte' },
];

export const shopifySaleSettingsSchema = z.object({
  /**
   * Which of Shopify's two amounts an invoice carries. `shop` (default): the shop's currency, the
   * amounts Shopify pays out and reports in, converted by Shopify at checkout; `presentment`: what
   * the buyer saw and paid, in the buyer's currency (the law then needs the euro rate, EuroRate).
   */
  currency: z.enum(['shop', 'presentment']).default('shop'),
  nifSources: z.array(nifSourceSchema).min(1).default(DEFAULT_NIF_SOURCES),
});
export type ShopifySaleSettings = z.output<typeof shopifySaleSettingsSchema>;

/** Shopify's quarterly GraphQL Admin versions ("2026-10"). */
const ApiVersion = z.string().regex(/^20\d\d-(01|04|07|10)$/, 'a quarterly Shopify API version such as 2026-10');

/**
 * A Shopify tenant's store (`platform: shopify`, `shopify:` in the tenants file). The connector acts
 * as the merchant's custom-distribution app: `clientSecret` is the app's client secret (it signs
 * every webhook), `accessToken` the store's offline Admin API token. See docs/shopify.md.
 */
export const ShopifyTenantSchema = z
  .object({
    /** The store's permanent domain, as Shopify names it ("loja.myshopify.com"). */
    shopDomain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, 'the store\'s myshopify.com domain, e.g. loja.myshopify.com'),
    /** The store's offline Admin API token; absent when the store installs the app through the connector's install route. */
    accessToken: SecretRefSchema.optional(),
    /**
     * The app's client id (the Dev Dashboard's "Client ID", not a secret): with it the connector serves
     * the OAuth install flow for this store (/shopify/install/<tenant>) and keeps the token it is given,
     * sealed with server.secretsKey.
     */
    clientId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'the app\'s client id from the Dev Dashboard').optional(),
    clientSecret: SecretRefSchema,
    /** The previous client secret while Shopify rotates it (deliveries signed with either are accepted). */
    previousClientSecret: SecretRefSchema.optional(),
    /** Absent: the version this connector release is built and tested against (platforms/shopify/api-version.ts). */
    apiVersion: ApiVersion.optional(),
    /** Where the Admin API answers; https://{shopDomain} unless a test or a proxy says otherwise. */
    adminUrl: z.url({ protocol: /^https?$/ }).optional(),
    timeoutMs: z.number().int().positive().default(15_000),
    sale: shopifySaleSettingsSchema.prefault({}),
  })
  .strict()
  .refine((store) => store.accessToken !== undefined || store.clientId !== undefined, {
    ...configIssue('shopify-token-or-client'),
    path: ['accessToken'],
  });
export type ShopifyTenantFile = z.output<typeof ShopifyTenantSchema>;

/** The resolved `shopify:` block (secrets read). */
export interface ShopifyTenantConfig {
  shopDomain: string;
  /** Given in the tenants file; absent when the install flow keeps it (sealed in Redis). */
  accessToken?: string;
  /** The app's client id, when the connector serves the install flow. */
  clientId?: string;
  /** The current client secret first, then the previous one during a rotation. */
  clientSecrets: string[];
  apiVersion?: string;
  adminUrl: string;
  timeoutMs: number;
  sale: ShopifySaleSettings;
}

/** A Shopify tenant's trigger statuses when its settings name none (Shopify's financial statuses). */
export const SHOPIFY_TRIGGER_STATUSES = ['paid', 'partially_refunded'];
