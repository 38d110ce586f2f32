import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { resolveAlerts, type AlertSettings } from '../alerts/alert-settings';
import type { ViesSettings } from '../vies/vies-registry';
import type { ExchangeRatesSettings } from '../rates/ecb-rates';
import type { Lang } from '../../law/mapping-messages';
import { readLang } from '../../messages/lang';
import { configProblem, configRefusalText, fileCause, issueProblem, type ConfigProblem } from './config-messages';
import { referencedVariable, resolveSecret, secretProblem, type SecretKind, type SecretRef } from './secret-ref';
import { ConnectorConfigSchema, type ConnectorConfigFile, type TenantFile, type TenantSettings } from './tenant-config';
import { SHOPIFY_TRIGGER_STATUSES, type ShopifyTenantConfig } from './shopify-tenant';
import { parseSecretsKey } from '../core/sealed-secret';

export interface TenantConfig {
  id: string;
  /** The shop's name as people know it (the console shows it; absent: the shop's host). */
  name?: string;
  /** The shop's platform (platforms/registry.ts); absent: woocommerce, as before platforms were named. */
  platform?: TenantFile['platform'];
  /**
   * The shop as the console and the doctor name it. For a Shopify tenant: its admin URL, its client
   * secret as the webhook secret, no REST keys (the Shopify adapter reads `shopify`).
   */
  shop: { url: string; consumerKey: string; consumerSecret: string; webhookSecret: string; timeoutMs: number; tlsCaFile?: string };
  /** A Shopify tenant's store (platform shopify). */
  shopify?: ShopifyTenantConfig;
  invoicing: {
    email: string;
    token: string;
    partnerToken?: string;
    /** The company whose documents the tenant issues (required with a partnerToken). */
    companyNif?: string;
    password?: string;
    partnerTokensForm: 'documented' | 'spec';
    baseUrl: string;
    timeoutMs: number;
  };
  settings: TenantSettings;
  /**
   * The agency's partner companies (the file's `agency.partners`, their tokens read), lent to every
   * tenant so the check of its partner token names whose a wrong token is (config/company-check.ts).
   */
  agencyPartners?: AgencyPartner[];
  alerts?: AlertSettings;
  /** The month's e-mail to the accountant (connector/month/accountant-mail.ts); needs alerts.email's SMTP. */
  accountant?: AccountantMailSettings;
  vies?: ViesSettings;
  /** The ECB's reference rates for orders in another currency (absent: static euroRates only). */
  exchangeRates?: ExchangeRatesSettings;
}

/** One of the agency's partner companies, its token (when given) read from the environment. */
export interface AgencyPartner {
  name: string;
  nif: string;
  token?: string;
}

export interface AccountantMailSettings {
  to: string[];
  /** 1-28: the day of the month (the shop's zone) the previous month is sent. */
  day: number;
  language: Lang;
  /** An absolute directory: the sent marks kept on disk. */
  markerDir: string;
}

export interface ConnectorConfig {
  server: Omit<ConnectorConfigFile['server'], 'linkSecret' | 'secretsKey'> & { linkSecret: string; secretsKey?: string };
  redis: Omit<ConnectorConfigFile['redis'], 'url'> & { url: string };
  admin: { username: string; password: string; accountant?: { username: string; password: string } };
  sweep: ConnectorConfigFile['sweep'];
  pipeline: ConnectorConfigFile['pipeline'];
  retention: ConnectorConfigFile['retention'];
  tenants: TenantConfig[];
  /** The agency's own list of its partner companies (absent: none given). */
  agency?: { partners: AgencyPartner[] };
}

/**
 * Every problem in the file, each with its path, so a user fixes them in one go. The message is
 * English (logs); `text(lang)` words it for the reader, `lang` being the tenants' own language when
 * the file says one (settings.language; Portuguese by default).
 */
export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: ConfigProblem[],
    readonly lang: Lang = 'pt',
  ) {
    super(configRefusalText('en', source, problems));
    this.name = 'ConfigError';
  }

  text(lang: Lang = this.lang): string {
    return configRefusalText(lang, this.source, this.problems);
  }
}

/** Where the secret references were resolved from, for the wording of a missing variable. */
export interface EnvOrigin {
  /** The .env file read besides the process's environment, if any. */
  envFile?: string;
}

export function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env, origin: EnvOrigin = {}): ConnectorConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(path, [configProblem('', 'file-unreadable', { file: path, ...fileCause(error) })]);
  }
  return parseConfigText(text, path, env, origin);
}

export function parseConfigText(text: string, source: string, env: NodeJS.ProcessEnv = process.env, origin: EnvOrigin = {}): ConnectorConfig {
  let raw: unknown;
  const format = extname(source).toLowerCase() === '.json' ? 'JSON' : 'YAML';
  try {
    raw = format === 'JSON' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(source, [configProblem('', 'not-parseable', { format, reason: (error as Error).message })]);
  }
  return parseConfig(raw, source, env, origin);
}

export function parseConfig(raw: unknown, source: string, env: NodeJS.ProcessEnv = process.env, origin: EnvOrigin = {}): ConnectorConfig {
  const lang = fileLang(raw);
  const parsed = ConnectorConfigSchema.safeParse(raw);
  // A file with several mistakes is refused with all of them at once: the schema's, and every
  // secret reference whose variable is missing (found in the raw file, wherever the schema stopped).
  if (!parsed.success) throw new ConfigError(source, [...schemaProblems(raw, parsed.error), ...missingVariables(raw, env, origin)], lang);
  const problems: ConfigProblem[] = [];
  const secret = (ref: SecretRef, path: string, kind: SecretKind | 'not-secret' = 'issued'): string => {
    const resolved = resolveSecret(ref, env);
    if ('missing' in resolved) {
      problems.push(configProblem(path, 'env-missing', { name: resolved.missing, ...origin }));
      return '';
    }
    const weak = kind === 'not-secret' ? null : secretProblem(path, resolved.value, kind);
    if (weak) problems.push(weak);
    return resolved.value;
  };
  const file = parsed.data;
  const partners = file.agency?.partners.map((partner, index): AgencyPartner => ({
    name: partner.name,
    nif: partner.nif,
    ...(partner.token === undefined ? {} : { token: secret(partner.token, `agency.partners.${index}.token`) }),
  }));
  const config: ConnectorConfig = {
    server: { ...file.server, linkSecret: secret(file.server.linkSecret, 'server.linkSecret', 'key'), secretsKey: secretsKeyOf(file.server.secretsKey, secret, problems) },
    redis: { ...file.redis, url: secret(file.redis.url, 'redis.url', 'not-secret') },
    admin: {
      username: file.admin.username,
      password: secret(file.admin.password, 'admin.password', 'password'),
      ...(file.admin.accountant ? { accountant: { username: file.admin.accountant.username, password: secret(file.admin.accountant.password, 'admin.accountant.password', 'password') } } : {}),
    },
    sweep: file.sweep,
    pipeline: file.pipeline,
    retention: file.retention,
    tenants: file.tenants.map((tenant, index) => ({
      ...resolveTenant(tenant, `tenants.${index}`, dirname(resolve(source)), secret, (problem) => problems.push(problem)),
      ...(partners && partners.length > 0 ? { agencyPartners: partners } : {}),
    })),
    ...(partners ? { agency: { partners } } : {}),
  };
  problems.push(...sharedCredentials(config.tenants));
  if (problems.length > 0) throw new ConfigError(source, problems, lang);
  return config;
}

/** The tenants' language when they all say the same (settings.language, Portuguese by default), else English. */
function fileLang(raw: unknown): Lang {
  const tenants = typeof raw === 'object' && raw !== null && Array.isArray((raw as { tenants?: unknown }).tenants) ? ((raw as { tenants: unknown[] }).tenants) : [];
  // Portuguese unless a tenant names another language (the setting's default).
  const languages = new Set(tenants.map((tenant) => readLang((tenant as { settings?: { language?: unknown } } | null)?.settings?.language) ?? 'pt'));
  return languages.size > 1 ? 'en' : languages.has('en') ? 'en' : 'pt';
}

/** zod's issues, each worded in English and (zod's own Portuguese for its built-in messages) in Portuguese. */
function schemaProblems(raw: unknown, error: z.ZodError): ConfigProblem[] {
  const portuguese = ConnectorConfigSchema.safeParse(raw, { error: z.locales.pt().localeError });
  const ptIssues = portuguese.success ? [] : portuguese.error.issues;
  return error.issues.map((issue, index) => {
    const path = issue.path.map(String).join('.');
    // Our own rules carry a code of the config catalogue (configIssue): worded in both languages there.
    const params = 'params' in issue && typeof issue.params === 'object' && issue.params !== null ? (issue.params as Record<string, unknown>) : undefined;
    return issueProblem(path, { message: issue.message, params }) ?? { path, message: issue.message, pt: ptIssues[index]?.message ?? issue.message };
  });
}

/** Every `${NAME}` / `{ env: NAME }` in the raw file whose variable is not set. */
function missingVariables(raw: unknown, env: NodeJS.ProcessEnv, origin: EnvOrigin): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const walk = (value: unknown, path: string[]): void => {
    const name = referencedVariable(value);
    if (name !== undefined) {
      if (env[name] === undefined || env[name] === '') problems.push(configProblem(path.join('.'), 'env-missing', { name, ...origin }));
      return;
    }
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, String(index)]));
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
  };
  walk(raw, []);
  return problems;
}

/**
 * Two tenants that would issue into the same company's numbering under the same ExternalIds (one
 * partner token; or one account with one ExternalId prefix) are refused: one shop's order 1001
 * would be taken for the other's, or a shop would invoice in another client's name. Compared after
 * the secrets are resolved: two env references may hold one value.
 */
function sharedCredentials(tenants: readonly TenantConfig[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const byPartnerToken = new Map<string, string>();
  const byAccount = new Map<string, string>();
  tenants.forEach((tenant, index) => {
    const token = tenant.invoicing.partnerToken;
    if (token) {
      const other = byPartnerToken.get(token);
      if (other) problems.push(configProblem(`tenants.${index}.invoicing.partnerToken`, 'shared-partner-token', { tenant: other }));
      else byPartnerToken.set(token, tenant.id);
      return;
    }
    const account = JSON.stringify([tenant.invoicing.baseUrl, tenant.invoicing.email, tenant.invoicing.token, tenant.settings.mapping.externalIdPrefix]);
    const other = byAccount.get(account);
    if (other) {
      problems.push(configProblem(`tenants.${index}.settings.mapping.externalIdPrefix`, 'shared-account-prefix', { tenant: other, prefix: tenant.settings.mapping.externalIdPrefix }));
    } else byAccount.set(account, tenant.id);
  });
  return problems;
}

function resolveTenant(
  tenant: TenantFile,
  at: string,
  baseDir: string,
  secret: (ref: SecretRef, path: string, kind?: SecretKind) => string,
  problem: (problem: ConfigProblem) => void,
): TenantConfig {
  const invoicing: TenantConfig['invoicing'] = {
    email: tenant.invoicing.email,
    token: secret(tenant.invoicing.token, `${at}.invoicing.token`),
    partnerTokensForm: tenant.invoicing.partnerTokensForm,
    baseUrl: tenant.invoicing.baseUrl.replace(/\/+$/, ''),
    timeoutMs: tenant.invoicing.timeoutMs,
  };
  if (tenant.invoicing.partnerToken !== undefined) {
    invoicing.partnerToken = secret(tenant.invoicing.partnerToken, `${at}.invoicing.partnerToken`);
  }
  if (tenant.invoicing.companyNif !== undefined) invoicing.companyNif = tenant.invoicing.companyNif;
  if (tenant.invoicing.password !== undefined) invoicing.password = secret(tenant.invoicing.password, `${at}.invoicing.password`);
  return {
    id: tenant.id,
    ...(tenant.name ? { name: tenant.name } : {}),
    platform: tenant.platform,
    ...shopOf(tenant, at, secret),
    invoicing,
    settings: settingsOf(tenant),
    ...(tenant.alerts ? { alerts: resolveAlerts(tenant.alerts, `${at}.alerts`, secret, problem) } : {}),
    ...(tenant.accountant
      ? { accountant: { to: tenant.accountant.email, day: tenant.accountant.day, language: tenant.accountant.language ?? tenant.settings.language, markerDir: resolve(baseDir, tenant.accountant.markerDir ?? 'month-mail') } }
      : {}),
    ...(tenant.vies ? { vies: tenant.vies } : {}),
    ...(tenant.exchangeRates ? { exchangeRates: tenant.exchangeRates } : {}),
  };
}

/**
 * The tenant's settings; a Shopify tenant that names no trigger statuses gets Shopify's (the
 * defaults, processing and completed, are WooCommerce's and no Shopify order ever has them).
 */
function settingsOf(tenant: TenantFile): TenantSettings {
  const wooDefault = tenant.settings.triggerStatuses.join() === 'processing,completed';
  return tenant.platform === 'shopify' && wooDefault ? { ...tenant.settings, triggerStatuses: [...SHOPIFY_TRIGGER_STATUSES] } : tenant.settings;
}

/** The operator's key for secrets kept at rest, read and checked (32 bytes as hex or base64); never echoed in a problem. */
function secretsKeyOf(ref: SecretRef | undefined, secret: (ref: SecretRef, path: string, kind?: SecretKind | 'not-secret') => string, problems: ConfigProblem[]): string | undefined {
  if (ref === undefined) return undefined;
  const text = secret(ref, 'server.secretsKey', 'not-secret');
  if (text === '') return undefined;
  if (!parseSecretsKey(text)) {
    problems.push({
      path: 'server.secretsKey',
      message: 'must be 32 random bytes written as 64 hex digits or base64 (e.g. `openssl rand -hex 32`)',
      pt: 'tem de ter 32 bytes aleatórios escritos em 64 dígitos hexadecimais ou base64 (ex.: `openssl rand -hex 32`)',
    });
    return undefined;
  }
  return text;
}

/** The tenant's platform block, its secrets read (the schema made sure the platform's block is there). */
function shopOf(tenant: TenantFile, at: string, secret: (ref: SecretRef, path: string, kind?: SecretKind) => string): Pick<TenantConfig, 'shop' | 'shopify'> {
  if (tenant.shopify) {
    const store = tenant.shopify;
    const adminUrl = (store.adminUrl ?? `https://${store.shopDomain}`).replace(/\/+$/, '');
    const clientSecret = secret(store.clientSecret, `${at}.shopify.clientSecret`);
    const shopify: ShopifyTenantConfig = {
      shopDomain: store.shopDomain,
      ...(store.accessToken ? { accessToken: secret(store.accessToken, `${at}.shopify.accessToken`) } : {}),
      ...(store.clientId ? { clientId: store.clientId } : {}),
      clientSecrets: [clientSecret, ...(store.previousClientSecret ? [secret(store.previousClientSecret, `${at}.shopify.previousClientSecret`)] : [])],
      ...(store.apiVersion ? { apiVersion: store.apiVersion } : {}),
      adminUrl,
      timeoutMs: store.timeoutMs,
      sale: store.sale,
    };
    return { shop: { url: adminUrl, consumerKey: '', consumerSecret: '', webhookSecret: clientSecret, timeoutMs: store.timeoutMs }, shopify };
  }
  const shop = tenant.shop as NonNullable<TenantFile['shop']>;
  return {
    shop: {
      url: shop.url.replace(/\/+$/, ''),
      consumerKey: secret(shop.consumerKey, `${at}.shop.consumerKey`),
      consumerSecret: secret(shop.consumerSecret, `${at}.shop.consumerSecret`),
      webhookSecret: secret(shop.webhookSecret, `${at}.shop.webhookSecret`, 'password'),
      timeoutMs: shop.timeoutMs,
      ...(shop.tlsCaFile ? { tlsCaFile: shop.tlsCaFile } : {}),
    },
  };
}
