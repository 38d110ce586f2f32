import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * The README's first command, `npm run demo`, as a user runs it: it must end with every document on
 * its order and exit 0. (It once broke unseen: a demo order whose shipping rate the mapping later
 * learned to hold.) The script's own Redis choice applies: REDIS_URL from the tests' global setup.
 */
describe('npm run demo', () => {
  it('issues 4 invoices and 1 credit note and exits 0', async () => {
    const repo = join(__dirname, '../..');
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'dev/demo.ts'], { cwd: repo, env: { ...process.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(out).toContain('4 invoices and 1 credit note');
    expect(code).toBe(0);
  }, 120_000);
});
