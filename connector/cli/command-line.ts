import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Lang } from '../../law/mapping-messages';
import { ConfigError, type ConnectorConfig } from '../config/load-config';
import { configSource, loadConfigSource } from '../config/reload';

/**
 * One exit-code convention for every `magnifinance` command:
 * - 0: done (the doctor: ready, warnings allowed);
 * - 1: not done: a wrong or missing option (with the usage line), missing credentials, a failure
 *   while running, the doctor's "not ready";
 * - 2: the tenants file or its .env is refused (every problem printed, in the reader's language).
 */
export const EXIT = { done: 0, notDone: 1, configRefused: 2 } as const;

type Parsed<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/**
 * parseArgs (strict, its default), except that an unknown option, a missing value or a stray argument prints what
 * is wrong and the command's usage line (the first line of its help) instead of a stack trace.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T, help: string): Parsed<T> | undefined {
  try {
    return parseArgs(config);
  } catch (error) {
    const usage = help.split('\n')[0];
    process.stderr.write(`${(error as Error).message}\n${usage}\nRun it with --help for every option.\n`);
    return undefined;
  }
}

/**
 * The tenants file as every command reads it: with its .env (`--env-file`, else the `.env` beside the
 * file). A refused file is printed whole in `lang` (else the tenants' own language) and gives undefined.
 */
export function loadConfigOrExplain(path: string, envFile?: string, lang?: Lang): ConnectorConfig | undefined {
  try {
    return loadConfigSource(configSource(path, envFile));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.text(lang)}\n`);
      return undefined;
    }
    throw error;
  }
}
