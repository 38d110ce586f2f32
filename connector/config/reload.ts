import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseEnv } from 'node:util';
import type { Lang } from '../../law/mapping-messages';
import { configProblem, fileCause, problemLine } from './config-messages';
import { ConfigError, loadConfigFile, type ConnectorConfig, type TenantConfig } from './load-config';
import type { TenantChanges, TenantSet } from './tenant-set';

/** Where the running config came from: read again, whole, on every reload. */
export interface ConfigSource {
  path: string;
  /** A .env file whose variables the config's secret references read (they win over the process's own). */
  envFile?: string;
}

/**
 * The tenants file and its .env, as every command that reads the file takes them: `--env-file FILE`
 * when given, else the `.env` beside the tenants file when there is one (the docs' layout:
 * tenants.yaml and .env side by side), else the process's environment only.
 */
export function configSource(path: string, envFile?: string): ConfigSource {
  if (envFile) return { path, envFile };
  const beside = join(dirname(path), '.env');
  return existsSync(beside) ? { path, envFile: beside } : { path };
}

export function loadConfigSource(source: ConfigSource, env: NodeJS.ProcessEnv = process.env): ConnectorConfig {
  if (!source.envFile) return loadConfigFile(source.path, env);
  return loadConfigFile(source.path, { ...env, ...readEnvFile(source.envFile) }, { envFile: source.envFile });
}

function readEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(path, [configProblem('', 'env-file-unreadable', { file: path, ...fileCause(error) })]);
  }
  return parseEnv(text) as Record<string, string>;
}

export type ReloadResult =
  | ({ ok: true; at: string; source: string; restartNeeded: string[] } & TenantChanges)
  /** problems in English (the API's and the logs' language), `pt` the same in Portuguese. */
  | { ok: false; at: string; source: string; problems: string[]; pt: { problems: string[] } };

/** A refused reload's problems in the reader's language. */
export function reloadProblems(lang: Lang, result: Extract<ReloadResult, { ok: false }>): string[] {
  return { pt: result.pt.problems, en: result.problems }[lang];
}

/** Sections only a restart applies (listeners, connections, workers are built from them once). `admin` applies on reload, except its accountant. */
const RESTART_SECTIONS = ['server', 'redis', 'sweep', 'pipeline', 'retention'] as const;

/**
 * Reads the tenants file (and its .env) again and swaps the tenants in one step. A file with any
 * mistake is refused whole: the running tenants stay, and the result says why. Changes outside
 * `tenants` (and a tenant's alerts block, which the alerter reads at start) are named: they wait for
 * the next restart. `beforeSwap` runs with the new tenants after the file is accepted and before any
 * of them takes a delivery (the go-live cut-off of an added tenant is written there).
 */
export async function reloadTenants(
  set: TenantSet,
  running: ConnectorConfig,
  source: ConfigSource,
  now: number = Date.now(),
  beforeSwap: (tenants: readonly TenantConfig[]) => Promise<void> = async () => undefined,
): Promise<ReloadResult> {
  const at = new Date(now).toISOString();
  let next: ConnectorConfig;
  try {
    next = loadConfigSource(source);
  } catch (error) {
    if (error instanceof ConfigError) {
      return { ok: false, at, source: source.path, problems: error.problems.map((p) => problemLine('en', p)), pt: { problems: error.problems.map((p) => problemLine('pt', p)) } };
    }
    return { ok: false, at, source: source.path, problems: [(error as Error).message], pt: { problems: [`«${(error as Error).message}»`] } };
  }
  const restartNeeded: string[] = RESTART_SECTIONS.filter((section) => JSON.stringify(next[section]) !== JSON.stringify(running[section]));
  if (JSON.stringify(next.admin.accountant ?? null) !== JSON.stringify(running.admin.accountant ?? null)) restartNeeded.push('admin.accountant');
  const alertsBefore = new Map(running.tenants.map((t) => [t.id, JSON.stringify(t.alerts ?? null)]));
  for (const tenant of next.tenants) {
    if ((alertsBefore.get(tenant.id) ?? 'null') !== JSON.stringify(tenant.alerts ?? null)) restartNeeded.push(`tenants.${tenant.id}.alerts`);
  }
  await beforeSwap(next.tenants);
  const changes = set.replace(next.tenants, { now, ms: running.server.webhookSecretOverlapMinutes * 60_000 });
  running.tenants = next.tenants;
  // The admin's user and password apply at once (the login reads them on every request); the accountant at the next restart.
  const accountant = running.admin.accountant;
  running.admin = { username: next.admin.username, password: next.admin.password, ...(accountant ? { accountant } : {}) };
  return { ok: true, at, source: source.path, restartNeeded, ...changes };
}

/** What the console's reload button and the admin API call: reload the tenants file, or say how the last reload went. */
export interface ReloadControl {
  reload(): Promise<ReloadResult>;
  last(): ReloadResult | undefined;
}
