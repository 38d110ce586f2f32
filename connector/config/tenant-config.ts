import { configIssue } from './config-messages';
import { isIP } from 'node:net';
import { z } from 'zod';
import { LangSchema } from '../../messages/lang';
import { MappingSettingsSchema } from '../../law/mapping-settings';
import { AlertsSchema } from '../alerts/alert-settings';
import { ViesSettingsSchema } from '../vies/vies-registry';
import { ExchangeRatesSettingsSchema } from '../rates/ecb-rates';
import { isValidPortugueseNif } from '../../client/nif';
import { SecretRefSchema } from './secret-ref';
import { ShopifyTenantSchema } from './shopify-tenant';

/** The real service; a finalize delay below 10 s is refused against it whatever the file says. */
export const REAL_SERVICE_BASE_URL = 'https://bo.magnifinance.com/api/v1.1';
/** The spec: Get Document "should be called at least 10 seconds after creation". */
export const SPEC_FINALIZE_DELAY_MS = 10_000;

const WooStatus = z.string().regex(/^[a-z0-9-]+$/, 'a WooCommerce order status slug such as processing');

const ShopSchema = z
  .object({
    url: z.url({ protocol: /^https?$/ }),
    consumerKey: SecretRefSchema,
    consumerSecret: SecretRefSchema,
    webhookSecret: SecretRefSchema,
    /** Per request to the shop's REST API. */
    timeoutMs: z.number().int().positive().default(15_000),
    /** PEM file of a private CA (or a staging shop's self-signed certificate) to trust for this shop. */
    tlsCaFile: z.string().min(1).optional(),
  })
  .strict();

const InvoicingSchema = z
  .object({
    /** API user e-mail (the partner account owner's e-mail in agency mode). */
    email: z.email(),
    /** The subscription's own token. */
    token: SecretRefSchema,
    /** Agency mode: documents are created with the partner's token instead of the own token. */
    partnerToken: SecretRefSchema.optional(),
    /**
     * The NIF of the company whose documents this tenant issues. Required with a partnerToken: the
     * connector checks (Get Partner Access Tokens for this NIF) that the token is that company's
     * before the first document and after every change of credentials, and refuses otherwise.
     */
    companyNif: z
      .string()
      .refine(isValidPortugueseNif, configIssue('company-nif-format'))
      .optional(),
    /** The main API user's password, which Get Partner Access Tokens asks for (documented form). */
    password: SecretRefSchema.optional(),
    /** 'documented' (GET /partner/accessTokens, needs password) or 'spec' (GET /partner/tokens, no password). */
    partnerTokensForm: z.enum(['documented', 'spec']).default('documented'),
    baseUrl: z.url().default(REAL_SERVICE_BASE_URL),
    timeoutMs: z.number().int().positive().default(20_000),
  })
  .strict()
  .superRefine((invoicing, ctx) => {
    if (invoicing.partnerToken === undefined) return;
    if (invoicing.companyNif === undefined) {
      ctx.addIssue({ code: 'custom', path: ['companyNif'], ...configIssue('company-nif-required') });
    }
    if (invoicing.partnerTokensForm === 'documented' && invoicing.password === undefined) {
      ctx.addIssue({ code: 'custom', path: ['password'], ...configIssue('partner-password-required') });
    }
  });

export const TenantSettingsSchema = z
  .object({
    triggerStatuses: z.array(WooStatus).min(1).default(['processing', 'completed']),
    /** T invoice/receipt, I invoice, S simplified invoice; overrides mapping.documentType when set. */
    documentType: z.enum(['T', 'I', 'S']).optional(),
    /** Series of that document type; overrides mapping.series[documentType] when set. */
    series: z.string().min(1).max(30).optional(),
    /** E-mail the document to the order's billing e-mail when it is closed; overrides mapping.sendToCustomer. */
    sendTo: z.boolean().optional(),
    /** Also add a note visible to the customer (WooCommerce e-mails it). */
    customerNote: z.boolean().default(false),
    waybill: z.boolean().default(false),
    onCancelled: z.enum(['credit-note', 'cancel', 'ignore']).default('credit-note'),
    /**
     * An invoiced order changed (its total net of refunds is not what its documents cover): a person
     * is always told; this is the lawful way the message recommends (the accountant's choice): ask =
     * both, credit-and-reissue = a credit note and a new invoice, difference-document = a document
     * for the difference only.
     */
    orderChanged: z.enum(['ask', 'credit-and-reissue', 'difference-document']).default('ask'),
    mapping: MappingSettingsSchema.prefault({}),
    /** Language of the notes on the shop's orders (the customer note too): pt or en. */
    language: LangSchema.default('pt'),
    /**
     * The go-live cut-off: orders paid (or, unpaid, created) before it are never invoiced by a
     * delivery, an update or a sweep; only a backfill issues them. Absent: the moment the tenant
     * first started, kept in Redis (connector/ingest/go-live.ts).
     */
    goLiveAt: z.iso.datetime({ offset: true, ...configIssue('go-live-format') }).optional(),
    /**
     * Order meta keys that mean "another system already issued this order's document", on top of the
     * built-in ones of the common Portuguese invoicing plugins (platforms/woocommerce/other-plugins.ts).
     * Such an order is never invoiced here.
     */
    otherSystemMetaKeys: z.array(z.string().min(1).max(200)).default([]),
    /**
     * An order in `processing` without a payment date (cash on delivery): invoiced at `processing`
     * (an invoice, the mapping's unpaidDocumentType; the receipt is the owner's when the money comes)
     * or at `completed` (after the courier collected).
     */
    invoiceUnpaidProcessingAt: z.enum(['processing', 'completed']).default('processing'),
    /**
     * Payment methods (WooCommerce gateway ids) that record the payment only when the order is
     * completed: WooCommerce's cash on delivery (`cod`) sets `date_paid` then. The go-live cut-off
     * dates such a sale by its creation, so an old order delivered after go-live is never invoiced.
     */
    paidOnCompletionGateways: z.array(z.string().trim().min(1).max(100)).default(['cod']),
    /**
     * Deposits and pre-orders paid before the supply (CIVA art. 36(1)(c): invoiced the day the
     * payment is received), kept by their plugins in statuses of their own: `tell` (the safe choice)
     * lists the order as not invoiced with the reason and notes it on the order, never invoicing the
     * whole order while only a deposit was received; `ignore` waits silently until a trigger status.
     */
    advancePayments: z.enum(['tell', 'ignore']).default('tell'),
  })
  .strict()
  .refine((settings) => settings.invoiceUnpaidProcessingAt !== 'completed' || settings.triggerStatuses.includes('completed'), {
    ...configIssue('unpaid-completed-needs-trigger'),
    path: ['invoiceUnpaidProcessingAt'],
  });
export type TenantSettings = z.infer<typeof TenantSettingsSchema>;

/**
 * One of the agency's partner companies, as the agency lists them: no call of the service lists an
 * agency's partners, so the tenants file does (`agency.partners`). When a tenant's partner token turns
 * out to be another company's, the doctor and the console name that company from this list.
 */
export const AgencyPartnerSchema = z
  .object({
    /** The company as the agency calls it ("Loja Verde, Lda."). */
    name: z.string().trim().min(1).max(200),
    nif: z.string().refine(isValidPortugueseNif, configIssue('company-nif-format')),
    /**
     * The company's partner token, from the environment like every secret (`{ env: VERDE_PARTNER_TOKEN }`):
     * a tenant holding it is known to be this company's without a call. Absent: the service is asked
     * (Get Partner Access Tokens for this NIF) when a tenant's token is found wrong.
     */
    token: SecretRefSchema.optional(),
  })
  .strict();

export const TenantSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'lower-case letters, digits, - and _'),
    /** The shop's name as people know it, shown by the console (absent: the shop's host). */
    name: z.string().trim().min(1).max(100).optional(),
    /** The shop's platform (platforms/registry.ts): its adapter reads, writes back and verifies deliveries. */
    platform: z.enum(['woocommerce', 'shopify']).default('woocommerce'),
    /** A WooCommerce shop's REST keys and webhook secret (platform woocommerce). */
    shop: ShopSchema.optional(),
    /** A Shopify store, its app's token and client secret, and how its orders read (platform shopify). */
    shopify: ShopifyTenantSchema.optional(),
    invoicing: InvoicingSchema,
    settings: TenantSettingsSchema.prefault({}),
    /** E-mail and/or chat webhook told when an order needs a person or the shop's webhooks are disabled. */
    alerts: AlertsSchema.optional(),
    /**
     * The month's e-mail to the accountant (connector/month/accountant-mail.ts): on `day` of each
     * month (the shop's time zone) the previous month's pack goes to `email` with its CSV, XLSX and
     * PDF attached, once, through the SMTP server of alerts.email.
     */
    accountant: z
      .object({
        email: z.array(z.email()).min(1),
        /** Day of the month it is sent, 1-28 (every month has it). */
        day: z.number().int().min(1).max(28),
        /** The e-mail's and the files' language; absent: settings.language. */
        language: LangSchema.optional(),
        /**
         * Where the sent marks are kept on disk besides Redis, so that a Redis that lost its data
         * never sends a month twice; absent: `month-mail` beside the tenants file.
         */
        markerDir: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    /**
     * Ask the EU VAT registry (VIES) about the buyer's EU VAT number before an invoice of goods to
     * another member state (M16 needs a number valid in VIES, RITI art. 14(1)(a)): on by default;
     * `false` turns it off (such invoices are then held, unless mapping.viesRequiredForM16 is false).
     */
    vies: z.union([z.literal(false), ViesSettingsSchema]).prefault({}),
    /**
     * Read the ECB's euro reference rates for orders in another currency (the rate of the day the
     * tax is due); absent = only the static mapping.euroRates, with a warning that they may be stale.
     */
    exchangeRates: ExchangeRatesSettingsSchema.optional(),
  })
  .strict()
  .superRefine((tenant, ctx) => {
    // Each platform's block, and only its own.
    const own = tenant.platform === 'shopify' ? 'shopify' : 'shop';
    const other = own === 'shop' ? 'shopify' : 'shop';
    if (tenant[own] === undefined) ctx.addIssue({ code: 'custom', path: [own], ...configIssue('platform-block-required', { platform: tenant.platform }) });
    if (tenant[other] !== undefined) ctx.addIssue({ code: 'custom', path: [other], ...configIssue('platform-block-other', { platform: tenant.platform }) });
    if (tenant.accountant && !tenant.alerts?.email) ctx.addIssue({ code: 'custom', path: ['accountant'], ...configIssue('accountant-needs-smtp') });
  });

const PipelineSchema = z
  .object({
    /** Delay between the create and the first Get Document. */
    finalizeDelayMs: z.number().int().positive().default(SPEC_FINALIZE_DELAY_MS),
    /**
     * The floor enforced on finalizeDelayMs. It may be lowered only for tenants that point at a
     * sandbox (tests, demo); against the real service the spec's 10 s always applies.
     */
    minFinalizeDelayMs: z.number().int().positive().default(SPEC_FINALIZE_DELAY_MS),
    /** Get Document polls after the first one before the order goes to the alert state. */
    finalizePolls: z.number().int().min(0).default(8),
    finalizePollBackoffMs: z.number().int().positive().default(2_000),
    /** BullMQ attempts for failures (5xx, timeouts, shop down) with exponential backoff. */
    attempts: z.number().int().min(1).default(10),
    backoffMs: z.number().int().positive().default(2_000),
    /** How long a credit note waits for its invoice number before giving up. */
    waitForInvoicePolls: z.number().int().min(0).default(30),
    concurrency: z.number().int().positive().default(16),
    /** The per-order create lock; renewed every third of it while a create is in flight, so a killed worker holds its order at most this long. */
    lockTtlMs: z.number().int().min(1_000).default(10_000),
    /** BullMQ job lock; a job whose worker died is taken over after about this long (stalled check). */
    jobLockMs: z.number().int().min(1_000).default(30_000),
  })
  .strict();

/**
 * How long Redis keeps what is finished. Nothing that still needs a person or may still be in flight
 * expires: only ledgers of purposes in a finished state (written back, skipped, cancelled), whose
 * documents are then proven by the connector's meta on the order itself (a late delivery of an old
 * order reads it and issues nothing).
 */
const RetentionSchema = z
  .object({
    /** Days a finished ledger entry is kept after its last step; 0 keeps it for ever. */
    finishedLedgerDays: z.number().min(0).default(90),
    /** Failed document jobs (the dead letter) are removed after this many days... */
    failedJobsDays: z.number().positive().default(30),
    /** ...or beyond this many, oldest first. The order's ledger and attention entry stay. */
    failedJobsCount: z.number().int().positive().default(100_000),
  })
  .strict();

/**
 * Sweep settings that no version reads any more, dropped before the strict check so a tenants file
 * written for an older version still loads: `initialLookbackHours` (the first sweep of a tenant starts
 * at its go-live cut-off).
 */
function withoutRemovedSweepKeys(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('initialLookbackHours' in raw)) return raw;
  const { initialLookbackHours: _removed, ...rest } = raw;
  return rest;
}

/** An IP address, or an IP range in CIDR form (`10.0.0.0/8`, `fd00::/8`), as Express's trust proxy takes it. */
function isProxyAddress(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

export const ConnectorConfigSchema = z
  .object({
    server: z
      .object({
        host: z.string().default('0.0.0.0'),
        port: z.number().int().min(0).max(65535).default(8080),
        /** Public origin of this connector, used for the stable PDF link written on orders. */
        publicUrl: z.url(),
        /** Signs the stable PDF links. */
        linkSecret: SecretRefSchema,
        /**
         * The operator's key for secrets the connector receives and keeps (a Shopify store's offline
         * token from the install flow, sealed with AES-256-GCM in Redis): 32 bytes as 64 hex digits or
         * base64, from the environment (`{ env: CONNECTOR_SECRETS_KEY }`). Without it the install
         * routes answer 503 and a Shopify tenant needs its token in the tenants file.
         */
        secretsKey: SecretRefSchema.optional(),
        /** A PDF link is a bearer capability: a year by default (the console hands out fresh ones). */
        pdfLinkTtlDays: z.number().int().positive().max(3650).default(365),
        maxBodyBytes: z.number().int().positive().default(2 * 1024 * 1024),
        /** Hard limit for the ordered shutdown. */
        shutdownTimeoutMs: z.number().int().positive().default(15_000),
        /**
         * After a reload that changes a shop's webhookSecret, the previous secret is still accepted
         * this long: deliveries signed between the edit in WooCommerce and the edit of the .env (in
         * either order) are not refused. 0 turns it off.
         */
        webhookSecretOverlapMinutes: z.number().min(0).max(10_080).default(60),
        /**
         * The reverse proxies in front of the connector whose X-Forwarded-For is believed (Express's
         * `trust proxy`): addresses, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`. Empty
         * (the default): the client is the TCP peer, and a forged header changes nothing.
         */
        trustProxy: z
          .array(
            z
              .string()
              .trim()
              .refine((entry) => ['loopback', 'linklocal', 'uniquelocal'].includes(entry) || isProxyAddress(entry), configIssue('trust-proxy-entry')),
          )
          .default([]),
      })
      .strict(),
    redis: z
      .object({
        url: SecretRefSchema.default('redis://127.0.0.1:6379'),
        /**
         * Start of every key. On a Redis Cluster it must be a hash tag such as {mf}: BullMQ's scripts
         * and the ledger's touch several keys at once, which Redis allows only within one slot.
         */
        prefix: z
          .string()
          .regex(/^[A-Za-z0-9:_{}-]+$/, configIssue('redis-prefix-characters'))
          .refine((prefix) => /^[^{}]*(\{[^{}]+\}[^{}]*)?$/.test(prefix), configIssue('redis-prefix-braces'))
          .default('mf'),
        enqueueTimeoutMs: z.number().int().positive().default(2_000),
        /** A Redis Cluster: url is one seed node or a comma-separated list of them. */
        cluster: z.boolean().default(false),
        /** TLS beyond what a rediss:// URL turns on: a private CA, or (never in production) no certificate check. */
        tls: z.object({ caFile: z.string().min(1).optional(), rejectUnauthorized: z.boolean().default(true) }).strict().optional(),
      })
      .strict()
      .superRefine((redis, ctx) => {
        if (redis.cluster && !/^[^{}]*\{[^{}]+\}/.test(redis.prefix)) {
          ctx.addIssue({ code: 'custom', path: ['prefix'], ...configIssue('redis-cluster-prefix', { tag: redis.prefix.replace(/[{}]/g, '') }) });
        }
      })
      .default({ url: 'redis://127.0.0.1:6379', prefix: 'mf', enqueueTimeoutMs: 2_000, cluster: false }),
    admin: z
      .object({
        username: z.string().min(1),
        password: SecretRefSchema,
        /** The shop's accountant: signs in to the console and the admin API, sees every page, changes nothing (connector/admin/roles.ts). */
        accountant: z.object({ username: z.string().min(1), password: SecretRefSchema }).strict().optional(),
      })
      .strict()
      .refine((admin) => admin.accountant?.username !== admin.username, { path: ['accountant', 'username'], ...configIssue('accountant-same-user') }),
    sweep: z.preprocess(
      withoutRemovedSweepKeys,
      z
      .object({
        everyMinutes: z.number().int().min(0).default(15),
        /** How often the shop's webhooks are looked at (one GET webhooks per tenant); 0 = only by the sweep. */
        webhookCheckSeconds: z.number().int().min(0).default(60),
        /** Each worker checks this often that the periodic sweep is still scheduled (Redis may lose it). */
        watchSeconds: z.number().positive().max(3_600).default(30),
      })
      .strict()
      .default({ everyMinutes: 15, webhookCheckSeconds: 60, watchSeconds: 30 }),
    ),
    pipeline: PipelineSchema.prefault({}),
    retention: RetentionSchema.prefault({}),
    tenants: z.array(TenantSchema).min(1),
    /** An agency's own list of its partner companies (optional): names the company a wrong partner token belongs to. */
    agency: z
      .object({ partners: z.array(AgencyPartnerSchema).max(1_000).default([]) })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((config, ctx) => {
    const partnerAt = new Map<string, number>();
    config.agency?.partners.forEach((partner, index) => {
      const first = partnerAt.get(partner.nif);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['agency', 'partners', index, 'nif'], ...configIssue('duplicate-partner-nif', { nif: partner.nif, first }) });
      else partnerAt.set(partner.nif, index);
    });
    const seen = new Set<string>();
    config.tenants.forEach((tenant, index) => {
      if (seen.has(tenant.id)) {
        ctx.addIssue({ code: 'custom', path: ['tenants', index, 'id'], ...configIssue('duplicate-tenant', { tenant: tenant.id }) });
      }
      seen.add(tenant.id);
      if (normalizeUrl(tenant.invoicing.baseUrl) === REAL_SERVICE_BASE_URL && config.pipeline.finalizeDelayMs < SPEC_FINALIZE_DELAY_MS) {
        ctx.addIssue({ code: 'custom', path: ['pipeline', 'finalizeDelayMs'], ...configIssue('real-service-finalize', { tenant: tenant.id, min: SPEC_FINALIZE_DELAY_MS }) });
      }
    });
    if (config.pipeline.finalizeDelayMs < config.pipeline.minFinalizeDelayMs) {
      ctx.addIssue({ code: 'custom', path: ['pipeline', 'finalizeDelayMs'], ...configIssue('finalize-below-min', { min: config.pipeline.minFinalizeDelayMs }) });
    }
  });
export type ConnectorConfigFile = z.infer<typeof ConnectorConfigSchema>;
export type TenantFile = z.infer<typeof TenantSchema>;

function normalizeUrl(url: string): string {
  return url.replace(/\/+$/, '');
}
