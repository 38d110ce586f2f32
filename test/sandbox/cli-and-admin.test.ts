import { parseAccountFlag } from '../../sandbox/cli';
import { cliNodeArgs } from '../support/cli-process';
import { RunningSandbox, startTestSandbox } from '../support/sandbox';
import { documentBody } from './bodies';
import { admin, api } from './http';

describe('magnifinance sandbox --account EMAIL:TOKEN[:TAXID[:NAME]]', () => {
  it.each([
    ['shop@example.com:tok', { email: 'shop@example.com', token: 'tok', taxId: '509442013', companyName: 'shop (sandbox)' }],
    ['shop@example.com:tok:505123452', { email: 'shop@example.com', token: 'tok', taxId: '505123452' }],
    ['shop@example.com:tok:505123452:Loja: Norte, Lda', { taxId: '505123452', companyName: 'Loja: Norte, Lda' }],
  ])('%s', (flag, expected) => {
    expect(parseAccountFlag(flag, false)).toMatchObject(expected);
  });

  it.each(['shop@example.com', ':tok', ''])('refuses "%s"', (flag) => {
    expect(() => parseAccountFlag(flag, false)).toThrow(/EMAIL:TOKEN/);
  });
});

describe('admin routes', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  it('adds an account that can then call the API', async () => {
    const account = { email: 'new@example.com', token: 'new-token', taxId: '100000002', companyName: 'Nova' };
    expect((await admin(sandbox, 'POST', '/accounts', account)).status).toBe(201);
    expect((await admin(sandbox, 'POST', '/accounts', account)).status).toBe(409);
    const created = await api(sandbox, 'POST', '/document', { body: documentBody(), credentials: { email: account.email, token: account.token } });
    expect(created.envelope.Type).toBe(0);
  });

  it('lists documents by account and resets everything but the accounts', async () => {
    await api(sandbox, 'POST', '/document', { body: documentBody({ Date: '2026-04-01', DueDate: '2026-04-02' }) });
    const mine = await admin<{ documents: { accountTaxId: string }[] }>(sandbox, 'GET', '/documents?accountTaxId=509442013');
    expect(mine.body.documents.length).toBeGreaterThan(0);
    expect(mine.body.documents.every((d) => d.accountTaxId === '509442013')).toBe(true);
    await admin(sandbox, 'POST', '/reset');
    expect((await admin<{ documents: unknown[] }>(sandbox, 'GET', '/documents')).body.documents).toHaveLength(0);
    expect((await admin<{ accounts: unknown[] }>(sandbox, 'GET', '/accounts')).body.accounts).toHaveLength(2);
  });

  it.each([
    ['GET', '/nothing', 404],
    ['POST', '/clock', 400],
  ] as const)('%s %s -> %s', async (method, path, status) => {
    expect((await admin(sandbox, method, path, method === 'POST' ? { advanceMs: -1 } : undefined)).status).toBe(status);
  });
});

describe('the magnifinance sandbox command', () => {
  it('prints its URLs and accounts, serves the API, and stops cleanly on SIGTERM', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(
      process.execPath,
      cliNodeArgs(['sandbox', '--port', '0', '--account', 'shop@example.com:tok:505123452:Loja Norte', '--at-communication']),
      { cwd: `${__dirname}/../..`, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /REST base URL: (\S+)/.exec(output);
        if (match && output.includes('Accounts')) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    const baseUrl = await listening;
    expect(output).toMatch(/SOAP URL:\s+http:\/\/127\.0\.0\.1:\d+\/soap/);
    expect(output).toContain('shop@example.com  tok  505123452  Loja Norte  [AT communication]');
    const response = await fetch(`${baseUrl}/taxIdValidation?countryCode=PT&taxId=505123452`, { headers: { email: 'shop@example.com', token: 'tok' } });
    expect(response.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
