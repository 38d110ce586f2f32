import { z } from 'zod';
import { LocalValidationError } from './errors';
import { MagniFinanceClient, MagniFinanceClientOptions } from './rest-client';
import { MagniFinanceSoapClient, MagniFinanceSoapClientOptions } from './soap-client';

/**
 * Credentials and settings from environment variables, as Node SDKs read them
 * (`new Stripe(process.env.STRIPE_SECRET_KEY)`, OpenAI's OPENAI_API_KEY). The only client module
 * that reads `process`: the n8n bundle never imports it (the node takes its credential instead).
 */

export const ENVIRONMENT_VARIABLES = {
  email: 'MAGNIFINANCE_EMAIL',
  token: 'MAGNIFINANCE_TOKEN',
  baseUrl: 'MAGNIFINANCE_BASE_URL',
  soapUrl: 'MAGNIFINANCE_SOAP_URL',
  password: 'MAGNIFINANCE_PASSWORD',
  timeoutMs: 'MAGNIFINANCE_TIMEOUT_MS',
  maxRetries: 'MAGNIFINANCE_MAX_RETRIES',
} as const;

type Environment = Record<string, string | undefined>;

const optionalText = z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), z.string().optional());
const optionalUrl = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z.url({ message: 'must be an http(s) URL', protocol: /^https?$/ }).optional(),
);
const optionalCount = (min: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.string().regex(/^\d+$/, { message: 'must be a whole number' }).transform(Number).pipe(z.number().int().min(min, { message: `must be at least ${min}` })).optional(),
  );

const E = ENVIRONMENT_VARIABLES;
const EnvironmentSchema = z.object({
  [E.email]: z.string({ message: `is required (the API user's e-mail)` }).trim().min(1, { message: 'is required' }),
  [E.token]: z.string({ message: 'is required (the subscription token)' }).trim().min(1, { message: 'is required' }),
  [E.baseUrl]: optionalUrl,
  [E.soapUrl]: optionalUrl,
  [E.password]: optionalText,
  [E.timeoutMs]: optionalCount(1),
  [E.maxRetries]: optionalCount(0),
});

export interface EnvironmentSettings {
  email: string;
  token: string;
  baseUrl?: string;
  soapUrl?: string;
  password?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

/** Reads and checks the variables; every problem at once, as a LocalValidationError naming them. */
export function settingsFromEnvironment(env: Environment = process.env): EnvironmentSettings {
  const parsed = EnvironmentSchema.safeParse(env);
  if (!parsed.success) {
    throw new LocalValidationError(parsed.error.issues.map((issue) => ({ path: String(issue.path[0]), message: issue.message })));
  }
  const v = parsed.data;
  const settings: EnvironmentSettings = { email: v[E.email], token: v[E.token] };
  if (v[E.baseUrl] !== undefined) settings.baseUrl = v[E.baseUrl];
  if (v[E.soapUrl] !== undefined) settings.soapUrl = v[E.soapUrl];
  if (v[E.password] !== undefined) settings.password = v[E.password];
  if (v[E.timeoutMs] !== undefined) settings.timeoutMs = v[E.timeoutMs];
  if (v[E.maxRetries] !== undefined) settings.maxRetries = v[E.maxRetries];
  return settings;
}

/** A REST client from MAGNIFINANCE_* variables; `overrides` win over them. */
export function clientFromEnvironment(overrides: Partial<MagniFinanceClientOptions> = {}, env: Environment = process.env): MagniFinanceClient {
  const { soapUrl: _soapUrl, maxRetries, ...settings } = settingsFromEnvironment(env);
  const options: MagniFinanceClientOptions = { ...settings, ...overrides };
  if (maxRetries !== undefined && overrides.retry === undefined) options.retry = { attempts: maxRetries + 1 };
  return new MagniFinanceClient(options);
}

/** A SOAP client from MAGNIFINANCE_* variables (MAGNIFINANCE_SOAP_URL for the endpoint). */
export function soapClientFromEnvironment(
  overrides: Partial<MagniFinanceSoapClientOptions> = {},
  env: Environment = process.env,
): MagniFinanceSoapClient {
  const settings = settingsFromEnvironment(env);
  const options: MagniFinanceSoapClientOptions = { email: settings.email, token: settings.token };
  if (settings.soapUrl !== undefined) options.soapUrl = settings.soapUrl;
  if (settings.timeoutMs !== undefined) options.timeoutMs = settings.timeoutMs;
  return new MagniFinanceSoapClient({ ...options, ...overrides });
}
