import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { compileProgram } from '../support/compile-program';

const REPO = join(__dirname, '..', '..');

/** The environment variable naming the compiled CLI for this run (the jest workers inherit it). */
export const TEST_CLI_ENV = 'MAGNIFINANCE_TEST_CLI';

/**
 * Compiles `cli/magnifinance.ts` and what it imports from the sources into one CommonJS file, once per
 * jest run, so a test that starts the real command pays the command's own start, not ts-node
 * transpiling some hundred files again for every start (~11 s of CPU each, 30-60 s on a loaded
 * 2-core machine). The file sits under node_modules/.cache so the packages resolve from there; one
 * folder per run, removed by the teardown.
 */
export function buildTestCli(): { file: string; dir: string } {
  const dir = join(REPO, 'node_modules', '.cache', `magnifinance-test-cli-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'magnifinance.js');
  try {
    compileProgram(join(REPO, 'cli', 'magnifinance.ts'), file);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { file, dir };
}
