import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox';

/**
 * The README's client example, extracted from README.md and run as a program against the sandbox
 * over HTTP (its demo account). The one change: the package name resolves to this checkout's
 * client/ (as it would after `npm install n8n-nodes-magnifinance`).
 */

const ROOT = resolve(__dirname, '../..');

function readmeClientExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The client in one example'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('README has no ts block under "The client in one example"');
  return match[1];
}

let sandbox: RunningSandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ finalizeDelayMs: 10_000 });
  dir = mkdtempSync(join(ROOT, '.readme-sample-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await sandbox.close();
});

it('runs as written: prints the number, the link and the total as 20.00, and JSON-serialises the total', async () => {
  const source = readmeClientExample().replace(`from 'n8n-nodes-magnifinance'`, `from ${JSON.stringify(join(ROOT, 'client'))}`);
  const file = join(dir, 'example.ts');
  writeFileSync(file, source);
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [require.resolve('ts-node/dist/bin.js'), '--transpile-only', file], {
    cwd: ROOT,
    env: { ...process.env, MAGNIFINANCE_BASE_URL: sandbox.baseUrl, MAGNIFINANCE_EMAIL: '', MAGNIFINANCE_TOKEN: '' },
    timeout: 120_000,
  });
  expect(stderr.replace(/npm warn.*\n/g, '')).toBe('');
  const lines = stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^FR A\/1 http:\/\/127\.0\.0\.1:\d+\/_files\/documents\/1\.pdf\?\S+ 20\.00$/);
  expect(lines[1]).toBe('{"total":"20.00"}');
}, 150_000);
