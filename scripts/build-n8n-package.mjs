#!/usr/bin/env node
/**
 * Builds the n8n community package in packages/n8n-nodes-magnifinance/ from the sources in nodes/
 * and credentials/ (and the client/, law/ and platforms/ code they import), without moving any source.
 *
 * n8n's rule for community nodes: no runtime dependencies, `n8n-workflow` only as a peer. So each
 * entry (the node, the credential) is bundled by esbuild into one CommonJS file that carries zod,
 * the client and the mapping, with `n8n-workflow` left external (n8n provides it). Icons and the
 * codex file are copied beside the bundles, the README comes from docs/n8n.md, and the version must
 * match the main package's.
 *
 *   node scripts/build-n8n-package.mjs           # then: cd packages/n8n-nodes-magnifinance && npm pack
 */
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'packages', 'n8n-nodes-magnifinance');
const manifest = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'));
const main = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (manifest.version !== main.version) {
  console.error(`build-n8n-package: version ${manifest.version} in ${out}/package.json differs from the main package's ${main.version}`);
  process.exit(1);
}

const entries = {
  'nodes/MagniFinance/MagniFinance.node': 'nodes/MagniFinance/MagniFinance.node.ts',
  'credentials/MagniFinanceApi.credentials': 'credentials/MagniFinanceApi.credentials.ts',
  'credentials/MagniFinanceWooCommerceApi.credentials': 'credentials/MagniFinanceWooCommerceApi.credentials.ts',
  'credentials/MagniFinanceShopifyApi.credentials': 'credentials/MagniFinanceShopifyApi.credentials.ts',
};
/**
 * The client loads its undici transport lazily, only when no transport is given; the node always
 * gives n8n's (nodes/MagniFinance/transport). The bundle gets a module that says so instead of
 * undici (1.3 MB, and timers n8n forbids in community nodes).
 */
const withoutUndiciTransport = {
  name: 'without-undici-transport',
  setup(builder) {
    builder.onResolve({ filter: /\/undici-transport$/ }, (args) => ({ path: args.path, namespace: 'n8n-package' }));
    builder.onLoad({ filter: /.*/, namespace: 'n8n-package' }, () => ({
      contents:
        "const unavailable = () => { throw new Error('The n8n node sends requests through n8n (httpRequestWithAuthentication) only'); };\n" +
        'module.exports = { createUndiciTransport: unavailable, sleep: unavailable };\n',
      loader: 'js',
    }));
  },
};

rmSync(join(out, 'dist'), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: Object.entries(entries).map(([to, from]) => ({ in: from, out: to })),
  outdir: join(out, 'dist'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['n8n-workflow'],
  // Readable output: a reviewer (and n8n's scanner) reads what runs.
  minify: false,
  legalComments: 'inline',
  logLevel: 'warning',
  plugins: [withoutUndiciTransport],
  // zod keeps its config and schema registry on globalThis, to share them between zod copies in one
  // process. n8n forbids community nodes to touch globalThis; in this bundle zod's shared state lives
  // in a module-local object instead (nothing else in the node reads globals).
  define: { globalThis: 'bundleGlobals' },
  banner: { js: '"use strict";\nconst bundleGlobals = {};' },
});

const assets = [
  'nodes/MagniFinance/magnifinance.svg',
  'nodes/MagniFinance/magnifinance.dark.svg',
  'nodes/MagniFinance/MagniFinance.node.json',
  'credentials/magnifinance.svg',
  'credentials/magnifinance.dark.svg',
];
for (const asset of assets) {
  mkdirSync(dirname(join(out, 'dist', asset)), { recursive: true });
  cpSync(join(root, asset), join(out, 'dist', asset));
}
writeFileSync(join(out, 'README.md'), readFileSync(join(root, 'docs', 'n8n.md'), 'utf8'));
console.log(`build-n8n-package: ${manifest.name}@${manifest.version} built in ${out}`);
