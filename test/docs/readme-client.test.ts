import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestSandbox, TEST_ACCOUNT, type RunningSandbox } from '../support/sandbox';

const REPO = join(__dirname, '..', '..');

/** The README's "client in one example": its tsconfig.json and its code block, exactly as a reader copies them. */
function readmeExample(): { tsconfig: string; code: string } {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The client in one example'));
  const tsconfig = /`tsconfig\.json`\s+holding `(\{[^`]+\})`/.exec(section)?.[1];
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code || !tsconfig) throw new Error('the README has no tsconfig.json or ts block under "The client in one example"');
  return { tsconfig, code };
}

/** A child process, without blocking this one (the sandbox answers from here). */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Issue 31 (7): the README's client example, run as written in a new folder against the packed
 * tarball (what `npm install magnifinance-woocommerce` gives a reader), with `npx ts-node example.ts`,
 * against the sandbox. Needs the build (`npm run build`, which CI runs before the tests; done here
 * when dist/ is missing).
 */
describe("the README's client example, as a reader runs it", () => {
  let sandbox: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox({});
    dir = mkdtempSync(join(tmpdir(), 'mf-readme-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs the packed tarball in a new folder and prints the number, the PDF link and the total', async () => {
    if (!existsSync(join(REPO, 'dist', 'client', 'index.js'))) expect((await run('npm', ['run', 'build'], REPO)).status).toBe(0);
    const pack = await run('npm', ['pack', '--pack-destination', dir, '--silent'], REPO);
    expect(pack.stderr).not.toMatch(/ERR!/);
    const tarball = join(dir, pack.stdout.trim().split('\n').pop() ?? '');
    expect(existsSync(tarball)).toBe(true);

    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'readme-reader', version: '1.0.0', private: true }));
    const tools = ['typescript', 'ts-node', '@types/node'].map((name) => `${name}@${(JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version}`);
    const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...tools], project);
    expect(install.stderr).not.toMatch(/ERR!/);
    expect(install.status).toBe(0);

    const { tsconfig, code } = readmeExample();
    writeFileSync(join(project, 'tsconfig.json'), tsconfig);
    writeFileSync(join(project, 'example.ts'), code);
    const example = await run('npx', ['ts-node', 'example.ts'], project, { MAGNIFINANCE_EMAIL: TEST_ACCOUNT.email, MAGNIFINANCE_TOKEN: TEST_ACCOUNT.token, MAGNIFINANCE_BASE_URL: sandbox.baseUrl });
    expect(example.stderr).toBe('');
    expect(example.status).toBe(0);
    const [first, second] = example.stdout.trim().split('\n');
    expect(first).toMatch(/^FR \S+\/\d+ http\S+ 20\.00$/);
    expect(second).toBe('{"total":"20.00"}');
  }, 600_000);
});
