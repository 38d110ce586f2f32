import { buildSync } from 'esbuild';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');

/**
 * Compiles a TypeScript program and the sources it imports into one CommonJS file (esbuild: types
 * stripped file by file, as ts-node --transpile-only and ts-jest's isolated modules do; type errors
 * are `npm run typecheck`'s business). The packages stay outside the file, required from
 * node_modules as the built code requires them, so `outfile` must sit inside the checkout.
 */
export function compileProgram(entry: string, outfile: string): void {
  buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    tsconfig: join(REPO, 'tsconfig.json'),
    logLevel: 'error',
  });
}
