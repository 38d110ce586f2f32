import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { resolveAlerts, type AlertSettings } from '../alerts/alert-settings';
import type { ViesSettings } from '../vies/vies-registry';
import type { ExchangeRatesSettings } from '../rates/ecb-rates';
import { resolveSecret, type SecretRef } from './secret-ref';
import { ConnectorConfigSchema, type ConnectorConfigFile, type TenantFile, type TenantSettings } from './tenant-config';

export interface TenantConfig {
  id: string;
  shop: { url: string; consumerKey: string; consumerSecret: string; webhookSecret: string; timeoutMs: number; tlsCaFile?: string };
  invoicing: { email: string; token: string; partnerToken?: string; baseUrl: string; timeoutMs: number };
  settings: TenantSettings;
  alerts?: AlertSettings;
  vies?: ViesSettings;
  /** The ECB's reference rates for orders in another currency (absent: static euroRates only). */
  exchangeRates?: ExchangeRatesSettings;
}

export interface ConnectorConfig {
  server: Omit<ConnectorConfigFile['server'], 'linkSecret'> & { linkSecret: string };
  redis: Omit<ConnectorConfigFile['redis'], 'url'> & { url: string };
  admin: { username: string; password: string };
  sweep: ConnectorConfigFile['sweep'];
  pipeline: ConnectorConfigFile['pipeline'];
  retention: ConnectorConfigFile['retention'];
  tenants: TenantConfig[];
}

/** Every problem in the file, each with its path, so a user fixes them in one go. */
export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: { path: string; message: string }[],
  ) {
    super(`${source}: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p.path || '(root)'}: ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): ConnectorConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(path, [{ path: '', message: `cannot read the file: ${(error as Error).message}` }]);
  }
  return parseConfigText(text, path, env);
}

export function parseConfigText(text: string, source: string, env: NodeJS.ProcessEnv = process.env): ConnectorConfig {
  let raw: unknown;
  try {
    raw = extname(source).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(source, [{ path: '', message: `not valid ${extname(source) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}` }]);
  }
  return parseConfig(raw, source, env);
}

export function parseConfig(raw: unknown, source: string, env: NodeJS.ProcessEnv = process.env): ConnectorConfig {
  const parsed = ConnectorConfigSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(source, issuesOf(parsed.error));
  const problems: { path: string; message: string }[] = [];
  const secret = (ref: SecretRef, path: string): string => {
    const resolved = resolveSecret(ref, env);
    if ('error' in resolved) {
      problems.push({ path, message: resolved.error });
      return '';
    }
    return resolved.value;
  };
  const file = parsed.data;
  const config: ConnectorConfig = {
    server: { ...file.server, linkSecret: secret(file.server.linkSecret, 'server.linkSecret') },
    redis: { ...file.redis, url: secret(file.redis.url, 'redis.url') },
    admin: { username: file.admin.username, password: secret(file.admin.password, 'admin.password') },
    sweep: file.sweep,
    pipeline: file.pipeline,
    retention: file.retention,
    tenants: file.tenants.map((tenant, index) => resolveTenant(tenant, `tenants.${index}`, secret, (path, message) => problems.push({ path, message }))),
  };
  if (problems.length > 0) throw new ConfigError(source, problems);
  return config;
}

function resolveTenant(
  tenant: TenantFile,
  at: string,
  secret: (ref: SecretRef, path: string) => string,
  problem: (path: string, message: string) => void,
): TenantConfig {
  const invoicing: TenantConfig['invoicing'] = {
    email: tenant.invoicing.email,
    token: secret(tenant.invoicing.token, `${at}.invoicing.token`),
    baseUrl: tenant.invoicing.baseUrl.replace(/\/+$/, ''),
    timeoutMs: tenant.invoicing.timeoutMs,
  };
  if (tenant.invoicing.partnerToken !== undefined) {
    invoicing.partnerToken = secret(tenant.invoicing.partnerToken, `${at}.invoicing.partnerToken`);
  }
  return {
    id: tenant.id,
    shop: {
      url: tenant.shop.url.replace(/\/+$/, ''),
      consumerKey: secret(tenant.shop.consumerKey, `${at}.shop.consumerKey`),
      consumerSecret: secret(tenant.shop.consumerSecret, `${at}.shop.consumerSecret`),
      webhookSecret: secret(tenant.shop.webhookSecret, `${at}.shop.webhookSecret`),
      timeoutMs: tenant.shop.timeoutMs,
      ...(tenant.shop.tlsCaFile ? { tlsCaFile: tenant.shop.tlsCaFile } : {}),
    },
    invoicing,
    settings: tenant.settings,
    ...(tenant.alerts ? { alerts: resolveAlerts(tenant.alerts, `${at}.alerts`, secret, problem) } : {}),
    ...(tenant.vies ? { vies: tenant.vies } : {}),
    ...(tenant.exchangeRates ? { exchangeRates: tenant.exchangeRates } : {}),
  };
}

function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}
