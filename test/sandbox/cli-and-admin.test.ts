import { parseAccountFlag } from '../../sandbox/cli';
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
