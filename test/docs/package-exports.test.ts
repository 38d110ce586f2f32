import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The package's public entry points (package.json `exports`): the client (`magnifinance-woocommerce`),
 * the law (`/law`) and the WooCommerce adapter (`/woocommerce`), plus the old deep paths under
 * `dist/` (the deprecated `dist/webhooks/woocommerce/...` among them). Checked against what `npm pack`
 * puts in the tarball and resolved by the package's own name, as an installed copy resolves them.
 * Needs the build (`npm run build`, which CI runs before the tests).
 */
const ROOT = resolve(__dirname, '..', '..');
const built = existsSync(join(ROOT, 'dist', 'client', 'index.js'));
const describeBuilt = built ? describe : describe.skip;

type Exports = Record<string, string | { types: string; default: string }>;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Exports };

const ENTRIES: [string, string, string[]][] = [
  ['magnifinance-woocommerce', 'client', ['MagniFinanceClient', 'MagniFinanceSoapClient']],
  ['magnifinance-woocommerce/law', 'law', ['documentForSale', 'creditNoteForRefund', 'waybillForSale', 'parseMappingSettings', 'OrderMappingError', 'mappingText']],
  ['magnifinance-woocommerce/woocommerce', 'platforms/woocommerce', ['verifyWooSignature', 'parseWooOrder', 'saleOfWooOrder', 'documentForOrder', 'creditNoteForRefund']],
];

it('exports the client, the law and the WooCommerce adapter, each with its types, and keeps the old deep paths', () => {
  expect(pkg.exports['.']).toEqual({ types: './dist/client/index.d.ts', default: './dist/client/index.js' });
  expect(pkg.exports['./law']).toEqual({ types: './dist/law/index.d.ts', default: './dist/law/index.js' });
  expect(pkg.exports['./woocommerce']).toEqual({ types: './dist/platforms/woocommerce/index.d.ts', default: './dist/platforms/woocommerce/index.js' });
  expect(pkg.exports['./dist/*']).toBe('./dist/*.js');
  // Each entry has its source (the build of law/index.ts, platforms/woocommerce/index.ts, client/index.ts).
  for (const [, folder] of ENTRIES) expect(existsSync(join(ROOT, folder, 'index.ts'))).toBe(true);
});

describeBuilt('the packed tarball (npm pack) holds every entry, and each resolves by the package name', () => {
  const packed = new Set<string>(
    (JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })) as { files: { path: string }[] }[])[0].files.map((file) => file.path),
  );

  it.each(Object.entries(pkg.exports).filter(([key]) => !key.includes('*')))('%s is in the tarball', (_key, target) => {
    const targets = typeof target === 'string' ? [target] : [target.types, target.default];
    for (const path of targets) expect(packed.has(path.replace(/^\.\//, ''))).toBe(true);
  });

  it.each(ENTRIES)('%j loads %s with its public names', async (specifier, folder, names) => {
    const resolved = require.resolve(specifier, { paths: [ROOT] });
    expect(resolved).toBe(join(ROOT, 'dist', folder, 'index.js'));
    const loaded = (await import(resolved)) as Record<string, unknown>;
    for (const name of names) expect(typeof loaded[name]).toBe('function');
  });

  it('an old deep import still resolves: dist/webhooks/woocommerce/signature, with or without .js', () => {
    for (const specifier of ['magnifinance-woocommerce/dist/webhooks/woocommerce/signature', 'magnifinance-woocommerce/dist/webhooks/woocommerce/signature.js']) {
      expect(require.resolve(specifier, { paths: [ROOT] })).toBe(join(ROOT, 'dist', 'webhooks', 'woocommerce', 'signature.js'));
    }
    expect(packed.has('dist/webhooks/woocommerce/signature.js')).toBe(true);
  });
});
