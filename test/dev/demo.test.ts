import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * The README's first command, `npm run demo`, as a user runs it: a WooCommerce shop and a Shopify
 * store side by side, and it must end with every document on its order and exit 0. (It once broke
 * unseen: a demo order whose shipping rate the mapping later learned to hold.) The script's own
 * Redis choice applies: REDIS_URL from the tests' global setup.
 */
describe('npm run demo', () => {
  it('issues 6 invoices and 2 credit notes on a WooCommerce shop and a Shopify store, and exits 0', async () => {
    const repo = join(__dirname, '../..');
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'dev/demo.ts'], { cwd: repo, env: { ...process.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(out).toContain('2 shops, 6 invoices and 2 credit notes');
    // Each document printed as it landed on its own shop's order: WooCommerce's meta, Shopify's metafields.
    expect(out.match(/^ {2}WooCommerce {2}#\d+ +invoice .+ PDF http\S+ {2}\(order meta\)$/gm)).toHaveLength(4);
    expect(out.match(/^ {2}Shopify {6}#\d+ +invoice .+ PDF http\S+ {2}\(order metafields\)$/gm)).toHaveLength(2);
    expect(out).toMatch(/^ {2}WooCommerce {2}#1001 +credit note .+ PDF http\S+ {2}\(order meta\)$/m);
    expect(out).toMatch(/^ {2}Shopify {6}#1001 +credit note .+ PDF http\S+ {2}\(order metafields\)$/m);
    expect(code).toBe(0);
  }, 120_000);
});
