import { startTestSandbox, TEST_ACCOUNT, type RunningSandbox } from '../support/sandbox';
import { runCli } from './support/worker-process';

describe('agency mode from the command line: partner add, then partner tokens', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => sandbox.close());

  it('adds an unregistered company (associated at once) and lists its token', async () => {
    const env = { MAGNIFINANCE_EMAIL: TEST_ACCOUNT.email, MAGNIFINANCE_TOKEN: TEST_ACCOUNT.token, MAGNIFINANCE_BASE_URL: sandbox.baseUrl };
    const added = await runCli(['partner', 'add', '--tax-id', '232013969', '--legal-name', 'Cliente Novo, Lda.', '--user-email', 'dono@cliente.pt'], env);
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toContain('Partner 232013969 added');
    // The documented form: GET /partner/accessTokens with the main user's password from the environment.
    const tokens = await runCli(['partner', 'tokens', '--tax-id', '232013969'], { ...env, MAGNIFINANCE_PASSWORD: 'sandbox-password' });
    expect(tokens.stderr).toBe('');
    expect(tokens.status).toBe(0);
    expect(tokens.stdout).toMatch(/"description":"Cliente Novo, Lda\. \(232013969\)","token":"[^"]+"/);
    const wrong = await runCli(['partner', 'tokens', '--tax-id', '232013969'], { ...env, MAGNIFINANCE_PASSWORD: 'wrong' });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('AuthenticationError');
    // The spec's form needs no password.
    const spec = await runCli(['partner', 'tokens', '--tax-id', '232013969', '--spec-form'], env);
    expect(spec.status).toBe(0);
    expect(spec.stdout).toMatch(/"taxId":"232013969","name":"Cliente Novo, Lda\.".*"token":"[^"]+"/);
  }, 180_000);

  it('partner tokens names the missing password', async () => {
    const result = await runCli(['partner', 'tokens', '--tax-id', '232013969'], { MAGNIFINANCE_EMAIL: 'a@b.pt', MAGNIFINANCE_TOKEN: 't', MAGNIFINANCE_PASSWORD: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Missing: MAGNIFINANCE_PASSWORD');
  }, 60_000);

  it('refuses to run without credentials in the environment, naming what is missing', async () => {
    const result = await runCli(['partner', 'add', '--tax-id', '232013969'], { MAGNIFINANCE_EMAIL: '', MAGNIFINANCE_TOKEN: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Missing: MAGNIFINANCE_EMAIL, MAGNIFINANCE_TOKEN');
  }, 60_000);
});
