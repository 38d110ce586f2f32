import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError, parseConfigText } from '../../connector/config/load-config';

/**
 * docker-compose.yml reads secrets from .env (documented as connector/env.example) and its own
 * `environment:` block. The example tenants file must start with exactly that environment: a
 * variable it references that the documented .env lacks is a restart loop for whoever copies both.
 */
const root = join(__dirname, '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

function envExample(): Record<string, string> {
  const entries = read('connector/env.example')
    .split('\n')
    .filter((line) => /^[A-Z0-9_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
  return Object.fromEntries(entries) as Record<string, string>;
}

/** What a person does after copying the example: every change-me value replaced by a secret of their own. */
function filledIn(environment: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, /change-me/.test(value) ? randomBytes(24).toString('hex') : value]));
}

function composeEnvironment(service: string): Record<string, string> {
  const compose = parseYaml(read('docker-compose.yml')) as { services: Record<string, { env_file?: string; environment?: Record<string, string> }> };
  const entry = compose.services[service];
  expect(entry.env_file).toBe('.env');
  return entry.environment ?? {};
}

/** Every `{ env: NAME }` and `${NAME}` among the parsed file's values (comments do not count). */
function referencedVariables(text: string): string[] {
  const names = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') for (const m of value.matchAll(/\$\{([A-Z0-9_]+)\}/g)) names.add(m[1]);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      if (entries.length === 1 && entries[0][0] === 'env' && typeof entries[0][1] === 'string') names.add(entries[0][1]);
      else entries.forEach(([, v]) => walk(v));
    }
  };
  walk(parseYaml(text));
  return [...names].sort();
}

describe('docker-compose: the documented .env matches the example tenants file', () => {
  const tenants = read('connector/tenants.example.yaml');

  it.each(['connector-web', 'connector-worker'])('%s starts with connector/env.example once its change-me values are filled in, and its compose environment', (service) => {
    const environment = { ...filledIn(envExample()), ...composeEnvironment(service) };
    const missing = referencedVariables(tenants).filter((name) => !(name in environment));
    expect(missing).toEqual([]);
    const config = parseConfigText(tenants, 'connector/tenants.example.yaml', environment);
    expect(config.tenants.map((t) => t.id)).toEqual(['loja1', 'cliente-agencia']);
  });

  it('with the example values left in place it refuses to start, naming every secret still to set', () => {
    const environment = { ...envExample(), ...composeEnvironment('connector-web') };
    let problems: string[] = [];
    try {
      parseConfigText(tenants, 'connector/tenants.example.yaml', environment);
    } catch (error) {
      problems = (error as ConfigError).problems.map((p) => p.path);
    }
    expect(problems).toEqual(expect.arrayContaining(['server.linkSecret', 'admin.password', 'tenants.0.shop.webhookSecret', 'tenants.0.invoicing.token']));
  });

  it('the example lists no variable the tenants file does not use', () => {
    const unused = Object.keys(envExample()).filter((name) => !referencedVariables(tenants).includes(name));
    expect(unused).toEqual([]);
  });

  it('the docs point at connector/env.example instead of a partial inline copy', () => {
    expect(read('docs/connector.md')).toContain('cp connector/env.example .env');
    expect(read('docker-compose.yml')).toContain('connector/env.example');
  });
});
