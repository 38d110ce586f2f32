import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const REPO = join(__dirname, '..', '..');

/** The environment variable naming the compiled CLI for this run (the jest workers inherit it). */
export const TEST_CLI_ENV = 'MAGNIFINANCE_TEST_CLI';

/**
 * Compiles `cli/magnifinance.ts` and what it imports from the sources into one CommonJS file, once per
 * jest run, so a test that starts the real command pays the command's own start, not ts-node
 * transpiling some hundred files again for every start (~7 s each on a loaded 2-core machine). Type
 * errors are `npm run typecheck`'s business, as with ts-jest's isolated modules. The packages stay
 * outside the file (required from node_modules as the built binary requires them), and the file sits
 * under node_modules/.cache so they resolve from there; one folder per run, removed by the teardown.
 */
export function buildTestCli(): { file: string; dir: string } {
  const dir = join(REPO, 'node_modules', '.cache', `magnifinance-test-cli-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'magnifinance.js');
  try {
    buildSync({
      entryPoints: [join(REPO, 'cli', 'magnifinance.ts')],
      outfile: file,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      tsconfig: join(REPO, 'tsconfig.json'),
      logLevel: 'error',
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { file, dir };
}
