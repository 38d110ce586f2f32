import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliNodeArgs } from '../../support/cli-process';

const REPO = join(__dirname, '..', '..', '..');

/** This test file's folder for config files (they hold test secrets): removed when the file's tests end. */
let configDir: string | undefined;
afterAll(() => {
  if (configDir) rmSync(configDir, { recursive: true, force: true });
  configDir = undefined;
});

/** Writes a config object as the JSON file the CLI reads (removed with its folder after the test file). */
export function writeConfigFile(config: unknown, name: string): string {
  configDir ??= mkdtempSync(join(tmpdir(), 'mf-test-configs-'));
  const path = join(configDir, `${name}-${process.pid}-${Date.now()}.json`);
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

/** `magnifinance connector work --config FILE` in a child process (the CLI compiled for this run, like a deployment runs dist). */
export function spawnWorker(configPath: string): ChildProcess {
  const child = spawn(process.execPath, cliNodeArgs(['connector', 'work', '--config', configPath]), {
    cwd: REPO,
    env: { ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'ignore', process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore'],
  });
  return child;
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Runs the CLI to completion without blocking this process (the fake shop lives here). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliNodeArgs(args), { cwd: REPO, env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}
