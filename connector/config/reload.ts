import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError, loadConfigFile, type ConnectorConfig, type TenantConfig } from './load-config';
import type { TenantChanges, TenantSet } from './tenant-set';

/** Where the running config came from: read again, whole, on every reload. */
export interface ConfigSource {
  path: string;
  /** A .env file whose variables the config's secret references read (they win over the process's own). */
  envFile?: string;
}

export function loadConfigSource(source: ConfigSource, env: NodeJS.ProcessEnv = process.env): ConnectorConfig {
  return loadConfigFile(source.path, source.envFile ? { ...env, ...readEnvFile(source.envFile) } : env);
}

function readEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(path, [{ path: '', message: `cannot read the env file: ${(error as Error).message}` }]);
  }
  return parseEnv(text) as Record<string, string>;
}

export type ReloadResult =
  | ({ ok: true; at: string; source: string; restartNeeded: string[] } & TenantChanges)
  | { ok: false; at: string; source: string; problems: string[] };

/** Sections only a restart applies (listeners, connections, workers are built from them once). */
const RESTART_SECTIONS = ['server', 'redis', 'admin', 'sweep', 'pipeline', 'retention'] as const;

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
    const problems = error instanceof ConfigError ? error.problems.map((p) => `${p.path || '(file)'}: ${p.message}`) : [(error as Error).message];
    return { ok: false, at, source: source.path, problems };
  }
  const restartNeeded: string[] = RESTART_SECTIONS.filter((section) => JSON.stringify(next[section]) !== JSON.stringify(running[section]));
  const alertsBefore = new Map(running.tenants.map((t) => [t.id, JSON.stringify(t.alerts ?? null)]));
  for (const tenant of next.tenants) {
    if ((alertsBefore.get(tenant.id) ?? 'null') !== JSON.stringify(tenant.alerts ?? null)) restartNeeded.push(`tenants.${tenant.id}.alerts`);
  }
  await beforeSwap(next.tenants);
  const changes = set.replace(next.tenants);
  running.tenants = next.tenants;
  return { ok: true, at, source: source.path, restartNeeded, ...changes };
}
