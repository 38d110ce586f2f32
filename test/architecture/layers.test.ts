import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The house's layers (docs/layout.md): the law is pure and platform-neutral, each shop platform
 * sits behind the registry, and the connector's core depends on no feature. Read from the
 * sources' import statements (type imports included: a type from a platform is a dependency on it).
 */

const ROOT = resolve(__dirname, '..', '..');

function sourcesUnder(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, folder))) {
    const path = join(folder, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sourcesUnder(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Every module a source file imports, as a path from the repository's root (packages as their name). */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...source.matchAll(/^(?:import|export)\s[^'";]*?from\s+'([^']+)'/gm)].map((match) => match[1]);
  return specifiers.map((specifier) => (specifier.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : specifier));
}

const within = (path: string, folder: string): boolean => path === folder || path.startsWith(`${folder}/`);

/**
 * The law's modules that still read WooCommerce's order type, until the mapping takes the neutral
 * sale of law/sale.ts (issue 25, point 1). This list only shrinks: a new law module takes the sale.
 */
const LAW_STILL_READING_WOO_ORDERS = new Set<string>([]);

describe('the law is pure Portuguese law over a neutral sale', () => {
  const law = sourcesUnder('law');

  it.each(law)('%s imports only zod, the client, the words (messages/) and the law', (file) => {
    const outside = importsOf(file).filter(
      (target) => target !== 'zod' && !within(target, 'law') && !within(target, 'client') && !within(target, 'messages') && !(LAW_STILL_READING_WOO_ORDERS.has(file) && target === 'platforms/woocommerce/order-schema'),
    );
    expect(outside).toEqual([]);
  });

  it.each(law)('%s uses no timers, no process and no I/O', (file) => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    expect(source).not.toMatch(/\bset(Timeout|Interval|Immediate)\(|\bprocess\.|from 'node:/);
  });
});

describe('the words (messages/) are pure: formatting with Intl, no platform, no connector', () => {
  const messages = sourcesUnder('messages');

  it.each(messages)('%s imports only zod and messages/', (file) => {
    expect(importsOf(file).filter((target) => target !== 'zod' && !within(target, 'messages'))).toEqual([]);
  });

  it.each(messages)('%s uses no timers, no process and no I/O', (file) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).not.toMatch(/\bset(Timeout|Interval|Immediate)\(|\bprocess\.|from 'node:/);
  });
});

describe('only the registry knows the shop platforms', () => {
  const platformFolders = readdirSync(join(ROOT, 'platforms')).filter((name) => statSync(join(ROOT, 'platforms', name)).isDirectory());
  const outsiders = ['connector', 'cli', 'client', 'sandbox'].flatMap(sourcesUnder);

  it('has a folder per platform and a registry', () => {
    expect(platformFolders).toContain('woocommerce');
    expect(importsOf('platforms/registry.ts')).toEqual(expect.arrayContaining(platformFolders.map((name) => expect.stringMatching(new RegExp(`^platforms/${name}/`)))));
  });

  it.each(outsiders)('%s imports no platform folder', (file) => {
    const direct = importsOf(file).filter((target) => platformFolders.some((name) => within(target, `platforms/${name}`)));
    expect(direct).toEqual([]);
  });

  it('keeps the list of old direct imports honest (a module that no longer imports WooCommerce leaves it)', () => {
    const staleLaw = [...LAW_STILL_READING_WOO_ORDERS].filter((file) => !importsOf(file).includes('platforms/woocommerce/order-schema'));
    expect(staleLaw).toEqual([]);
  });

  it.each(platformFolders)('platforms/%s imports no other platform', (name) => {
    for (const file of sourcesUnder(`platforms/${name}`)) {
      const others = importsOf(file).filter((target) => within(target, 'platforms') && !within(target, `platforms/${name}`) && target !== 'platforms/shop-platform');
      expect({ file, others }).toEqual({ file, others: [] });
    }
  });
});

describe("the connector's core depends on no feature", () => {
  const FEATURES = ['pipeline', 'ingest', 'sweep', 'console', 'doctor', 'alerts', 'admin', 'history', 'main', 'pdf', 'vies', 'rates', 'cli', 'month'];

  it.each(sourcesUnder('connector/core'))('%s imports no feature folder', (file) => {
    const features = importsOf(file).filter((target) => FEATURES.some((feature) => within(target, `connector/${feature}`)) || within(target, 'platforms'));
    expect(features).toEqual([]);
  });
});

describe("the connector's modules import one way", () => {
  /** Strongly connected groups of more than one module in the import graph (Tarjan). */
  function cycles(files: string[]): string[][] {
    const graph = new Map(files.map((file) => [file, importsOf(file).map((target) => `${target}.ts`).filter((target) => files.includes(target))]));
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const found: string[][] = [];
    const visit = (node: string): void => {
      index.set(node, index.size);
      low.set(node, index.get(node) as number);
      stack.push(node);
      for (const next of graph.get(node) ?? []) {
        if (!index.has(next)) {
          visit(next);
          low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
        } else if (stack.includes(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
      if (low.get(node) === index.get(node)) {
        const group: string[] = [];
        let top: string;
        do {
          top = stack.pop() as string;
          group.push(top);
        } while (top !== node);
        if (group.length > 1) found.push(group.sort());
      }
    };
    for (const file of files) if (!index.has(file)) visit(file);
    return found;
  }

  it('has no import cycle inside connector/ (types included: alerts read the sweep report from the core, the console its deps from console-deps.ts)', () => {
    expect(cycles(sourcesUnder('connector'))).toEqual([]);
  });
});
