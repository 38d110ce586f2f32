import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError, parseConfigText } from '../../connector/config/load-config';
import { rawTestConfig } from './support/harness';
import { runCli, writeConfigFile } from './support/worker-process';

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
    expect(config.tenants.map((t) => t.id)).toEqual(['loja1', 'cliente-agencia', 'loja-shopify']);
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

describe('the image and compose deploy as documented (issue 17, point 7)', () => {
  const dockerfile = read('Dockerfile');
  const compose = parseYaml(read('docker-compose.yml')) as { services: Record<string, { command?: string[]; ports?: string[]; volumes?: string[]; environment?: Record<string, string> }> };

  it('both stages run on Node 24, the current LTS', () => {
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])).toEqual(['node:24-bookworm-slim', 'node:24-bookworm-slim']);
  });

  it('the port is PORT for the connector and for the health check, not a hard-wired 8080', () => {
    expect(dockerfile).toMatch(/^ENV PORT=8080$/m);
    const healthcheck = /HEALTHCHECK[\s\S]*?CMD (.*)/.exec(dockerfile)?.[1] ?? '';
    expect(healthcheck).toContain("(process.env.PORT || 8080)");
    expect(compose.services['connector-web'].environment?.PORT).toBe('${CONNECTOR_PORT:-8080}');
  });

  it('compose publishes the web side on 127.0.0.1 by default (/metrics and /admin stay off the internet)', () => {
    expect(compose.services['connector-web'].ports).toEqual(['${CONNECTOR_BIND:-127.0.0.1}:${CONNECTOR_PORT:-8080}:${CONNECTOR_PORT:-8080}']);
    expect(compose.services['connector-worker'].ports).toBeUndefined();
  });

  it('both services read .env as a file too, so a reload (SIGHUP) picks up a rotated secret', () => {
    for (const service of ['connector-web', 'connector-worker']) {
      expect(compose.services[service].command).toEqual(expect.arrayContaining(['--env-file', '/config/.env']));
      expect(compose.services[service].volumes).toContain('./.env:/config/.env:ro');
    }
  });

  it('the documented docker run lines give REDIS_URL (tenants.yaml reads it) and show the doctor', () => {
    const runLines = dockerfile.split('\n').filter((line) => line.startsWith('#   docker run') && line.includes('--env-file .env'));
    expect(runLines.length).toBeGreaterThanOrEqual(2);
    for (const line of runLines) expect(line).toContain('-e REDIS_URL=redis://redis:6379');
    expect(dockerfile).toContain('magnifinance-connector doctor --config /config/tenants.yaml');
  });

  it('the connector takes PORT from the environment (as the image sets it) and refuses one that is not a port', async () => {
    const config = writeConfigFile(rawTestConfig({ prefix: 'unused', wooOrigin: 'http://shop.test', consumerKey: 'ck', consumerSecret: 'cs', baseUrl: 'http://sandbox.test/api/v1.1' }), 'port-env');
    const run = await runCli(['connector', 'all', '--config', config], { PORT: 'eighty' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('--port (or PORT) must be a port number, not "eighty"');
  }, 30_000);
});
