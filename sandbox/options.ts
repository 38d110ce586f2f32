import { z } from 'zod';

/** One account of the emulated service (a subscription with its API user and token). */
export const AccountOptionSchema = z.object({
  email: z.string().min(1).max(50),
  token: z.string().min(1).max(50),
  taxId: z.string().min(1).max(20),
  companyName: z.string().min(1).max(200),
  atCommunication: z.boolean().optional(),
  /** The main API user's password, asked only by Get Partner Access Tokens (default 'sandbox-password'). */
  password: z.string().min(1).max(200).optional(),
  address: z.string().optional(),
  city: z.string().optional(),
  postCode: z.string().optional(),
  /**
   * The VAT percentages the account has configured; default the Portuguese rates of
   * client/input-rules.ts TAX_RATES. A line with another rate is 22 InvalidPercentage.
   */
  taxRates: z
    .array(z.string().regex(/^\d{1,2}(\.\d{1,2})?$|^100$/, { message: 'must be a percentage like 23 or 5.5' }))
    .min(1)
    .optional(),
  /**
   * The document series configured per type ({"T": ["A", "LOJA"]}). A type listed here refuses any
   * other Serie with 18 SerieDataNotMatch; a type not listed accepts any series (made on first use).
   */
  series: z.partialRecord(z.enum(['T', 'I', 'S', 'C', 'D', 'W', 'Y']), z.array(z.string().min(1).max(30)).min(1)).optional(),
});
export type AccountOption = z.infer<typeof AccountOptionSchema>;

/** Behaviour that can change while the sandbox runs (POST /_sandbox/config). */
export const RuntimeConfigSchema = z.object({
  /** Added before every API answer. */
  latencyMs: z.number().int().min(0).max(600_000),
  /** Share of API requests answered 500 GeneralUnknownError without doing anything. */
  errorRate: z.number().min(0).max(1),
  /** Share of API requests that are processed but whose answer never comes (held, then dropped). */
  timeoutRate: z.number().min(0).max(1),
  /** How long a held request waits before its connection is dropped. */
  timeoutHoldMs: z.number().int().min(0).max(3_600_000),
  /** Time after closing before Get Document hands out the number and PDF link (spec: >= 10 s). */
  finalizeDelayMs: z.number().int().min(0).max(86_400_000),
  /** Lifetime of a download link (the service's presigned links last 7200 s). */
  downloadUrlTtlSeconds: z.number().int().min(1).max(604_800),
  /**
   * Get Document of a closed document read before the finalize delay: 'element-does-not-exist'
   * answers 6 ElementDoesNotExist as the public error list describes for a document read too early
   * (the default); 'null-number' answers success with DocumentNumber and DownloadUrl null (the spec's reading).
   */
  notNumberedAnswer: z.enum(['element-does-not-exist', 'null-number']),
  /** ErrorValue of a failed create: 14 SaveFailed (default: public docs and the spec's table) or 2 ValidationError. */
  createFailure: z.enum(['save-failed', 'validation-error']),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

export const SandboxOptionsSchema = RuntimeConfigSchema.partial().extend({
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().optional(),
  accounts: z.array(AccountOptionSchema).min(1).optional(),
  persistPath: z.string().optional(),
  seed: z.number().int().optional(),
});
export type SandboxOptions = z.input<typeof SandboxOptionsSchema>;

/** The password of an account configured without one. */
export const DEFAULT_SANDBOX_PASSWORD = 'sandbox-password';

export const DEMO_ACCOUNT: AccountOption = {
  email: 'demo@example.com',
  token: 'sandbox-token',
  taxId: '509442013',
  companyName: 'Demo Comércio, Lda.',
  address: 'Rua Augusta 100',
  city: 'Lisboa',
  postCode: '1100-053',
};

export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = {
  latencyMs: 0,
  errorRate: 0,
  timeoutRate: 0,
  timeoutHoldMs: 120_000,
  finalizeDelayMs: 10_000,
  downloadUrlTtlSeconds: 7200,
  notNumberedAnswer: 'element-does-not-exist',
  createFailure: 'save-failed',
};
