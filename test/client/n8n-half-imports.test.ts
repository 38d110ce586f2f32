import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The n8n half stays a dependency-free community package: from the node's entry, every module it
 * reaches imports only zod, n8n-workflow, node:crypto and relative paths, and uses no timers and no
 * `process` (n8n's scanner refuses both). client/env.ts (environment variables) and the undici
 * transport (timers; loaded lazily, replaced in the bundle) are for Node users and must stay
 * outside. Read from the sources' import statements, as esbuild follows them.
 */

const ROOT = resolve(__dirname, '..', '..');
const ENTRIES = ['nodes/MagniFinance/MagniFinance.node.ts', 'credentials/MagniFinanceApi.credentials.ts', 'credentials/MagniFinanceWooCommerceApi.credentials.ts'];
const ALLOWED_PACKAGES = new Set(['zod', 'n8n-workflow', 'node:crypto']);
/** Loaded lazily by the client and swapped for a stub by scripts/build-n8n-package.mjs. */
const LAZY = new Set(['client/undici-transport.ts']);

function resolveModule(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // try the next form
    }
  }
  throw new Error(`${relative(ROOT, from)} imports ${specifier}, which does not resolve`);
}

function reachable(): Map<string, string> {
  const seen = new Map<string, string>();
  const queue = ENTRIES.map((entry) => resolve(ROOT, entry));
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const name = relative(ROOT, file);
    if (seen.has(name)) continue;
    const source = readFileSync(file, 'utf8');
    seen.set(name, source);
    // Static imports and re-exports (not `import type`, which leaves nothing in the bundle).
    for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'/gm)) {
      const specifier = match[1];
      if (!specifier.startsWith('.')) continue;
      const target = resolveModule(file, specifier);
      if (!LAZY.has(relative(ROOT, target))) queue.push(target);
    }
  }
  return seen;
}

describe('the n8n half imports nothing it must not', () => {
  const modules = reachable();

  it('reaches the client, but never client/env.ts or the undici transport', () => {
    expect([...modules.keys()]).toContain('client/rest-client.ts');
    expect([...modules.keys()]).toContain('client/input-rules.ts');
    expect([...modules.keys()]).not.toContain('client/env.ts');
    expect([...modules.keys()]).not.toContain('client/undici-transport.ts');
  });

  it('imports only zod, n8n-workflow, node:crypto and relative paths', () => {
    const packages = [...modules.entries()].flatMap(([name, source]) =>
      [...source.matchAll(/^(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^'.][^']*)'/gm)].map((m) => `${name}: ${m[1]}`),
    );
    expect(packages.filter((entry) => !ALLOWED_PACKAGES.has(entry.split(': ')[1]))).toEqual([]);
  });

  it('uses no timers and no process', () => {
    const offenders = [...modules.entries()]
      .filter(([, source]) => /\b(setTimeout|setInterval|setImmediate)\s*\(|\bprocess\.(env|exit|argv|hrtime|nextTick)\b/.test(source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')))
      .map(([name]) => name);
    expect(offenders).toEqual([]);
  });
});
