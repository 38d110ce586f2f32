import { existsSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');

/**
 * The node arguments that start `magnifinance ARGS` as its own process: the CLI the jest run compiled
 * once (test/global/cli-build.ts, named by MAGNIFINANCE_TEST_CLI), else the sources through ts-node
 * (a test file run outside jest's global setup).
 */
export function cliNodeArgs(args: readonly string[]): string[] {
  const compiled = process.env.MAGNIFINANCE_TEST_CLI;
  if (compiled && existsSync(compiled)) return [compiled, ...args];
  return [join(REPO, 'node_modules/ts-node/dist/bin.js'), '--transpile-only', join(REPO, 'cli/magnifinance.ts'), ...args];
}
