import { MagniFinanceApi } from '../../credentials/MagniFinanceApi.credentials';
import { runNode, testCredential } from './support/n8n-harness';
import { DEMO, startNodeSandbox, type NodeSandbox } from './support/sandbox';

let s: NodeSandbox;
beforeAll(async () => {
  s = await startNodeSandbox();
});
afterAll(async () => {
  await s.close();
});

describe('the credential test tells a good token from a bad one', () => {
  it.each([
    { case: 'good e-mail and token', email: DEMO.email, token: DEMO.token, status: 'OK', httpStatus: 200 },
    { case: 'wrong token', email: DEMO.email, token: 'not-the-token', status: 'Error', httpStatus: 401 },
    { case: 'unknown e-mail', email: 'nobody@example.com', token: DEMO.token, status: 'Error', httpStatus: 401 },
    { case: 'empty token', email: DEMO.email, token: '', status: 'Error', httpStatus: 401 },
  ])('$case -> $status ($httpStatus)', async ({ email, token, status, httpStatus }) => {
    const result = await testCredential({ email, token, baseUrl: s.sandbox.baseUrl });
    expect(result).toMatchObject({ status, httpStatus });
  });

  it('tolerates a trailing slash on the base URL', async () => {
    const result = await testCredential({ ...s.credentials, baseUrl: `${s.sandbox.baseUrl}/` });
    expect(result.status).toBe('OK');
  });
});

describe('the credential owns authentication', () => {
  it('defaults the base URL to the real service', () => {
    const baseUrl = new MagniFinanceApi().properties.find((p) => p.name === 'baseUrl');
    expect(baseUrl?.default).toBe('https://bo.magnifinance.com/api/v1.1');
  });

  it('keeps the token in a password field', () => {
    const token = new MagniFinanceApi().properties.find((p) => p.name === 'token');
    expect(token?.typeOptions?.password).toBe(true);
  });

  it('sends exactly one email and one token header on every node request', async () => {
    const { requests } = await runNode({
      credentials: s.credentials,
      parameters: { resource: 'taxId', operation: 'validate', countryCode: 'PT', taxId: '509442013' },
    });
    expect(requests).toHaveLength(1);
    const names = Object.keys(requests[0].headers).map((h) => h.toLowerCase());
    expect(names.filter((n) => n === 'email')).toHaveLength(1);
    expect(names.filter((n) => n === 'token')).toHaveLength(1);
    expect(requests[0].headers).toMatchObject({ email: DEMO.email, token: DEMO.token });
  });
});
