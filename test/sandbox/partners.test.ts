import { OTHER_ACCOUNT, RunningSandbox, startTestSandbox } from '../support/sandbox';
import { documentBody } from './bodies';
import { admin, advanceClock, api, Credentials, objectOf, OWN } from './http';

/** Partner invoicing end to end, Client Get and TaxId Validation. */

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await admin(sandbox, 'POST', '/reset');
});

interface Outbox {
  emails: { kind: string; to: string; subject: string }[];
}
interface TokenItem {
  TaxId: string;
  CompanyName: string;
  Email: string;
  Token: string;
}

async function tokenFor(taxId: string): Promise<string> {
  const items = objectOf<TokenItem[]>(await api(sandbox, 'GET', `/partner/tokens?taxId=${taxId}`));
  return items[0].Token;
}

describe('AddPartner for a company the service does not know', () => {
  it('registers and associates it at once; its token is available and invoices land in its account', async () => {
    const added = await api(sandbox, 'POST', '/partner', {
      body: { CompanyTaxId: '508000009', CompanyLegalName: 'Tipografia do Mondego', UserName: 'Rui', UserEmail: 'rui@tipografia.example', CompanyCountry: 'PT' },
    });
    expect(added.status).toBe(200);
    expect(added.envelope.Object).toMatchObject({ CompanyTaxId: '508000009', Status: 'AccessGranted', AllowedDocumentTypes: ['T', 'C'] });
    const [item] = objectOf<TokenItem[]>(await api(sandbox, 'GET', '/partner/tokens?taxId=508000009'));
    expect(item).toMatchObject({ TaxId: '508000009', CompanyName: 'Tipografia do Mondego', Email: 'rui@tipografia.example' });
    expect(item.Token).toMatch(/^partner-[0-9a-f]{24}$/);

    const asPartner: Credentials = { email: OWN.email, token: item.Token };
    const created = objectOf<{ DocumentId: number }>(await api(sandbox, 'POST', '/document', { body: documentBody(), credentials: asPartner }));
    const docs = await admin<{ documents: { id: number; accountTaxId: string; createdByPartnerOf?: string }[] }>(sandbox, 'GET', '/documents?accountTaxId=508000009');
    expect(docs.body.documents).toEqual([expect.objectContaining({ id: created.DocumentId, accountTaxId: '508000009', createdByPartnerOf: '509442013' })]);
    // The partner's series start at 1 and the document is read back with the partner token, not the own one.
    await advanceClock(sandbox, 60_000);
    expect(objectOf<{ DocumentNumber: string }>(await api(sandbox, 'GET', `/document?documentId=${created.DocumentId}`, { credentials: asPartner })).DocumentNumber).toBe('FR A/1');
    expect((await api(sandbox, 'GET', `/document?documentId=${created.DocumentId}`)).envelope.ErrorValue?.Value).toBe(6);
  });

  it('is idempotent: adding the same company again answers the same partnership', async () => {
    await api(sandbox, 'POST', '/partner', { body: { CompanyTaxId: '508000009' } });
    const again = await api(sandbox, 'POST', '/partner', { body: { CompanyTaxId: '508000009' } });
    expect(again.envelope.Object).toMatchObject({ Status: 'AccessGranted' });
  });
});

describe('AddPartner for a company already registered', () => {
  it('records an access request, e-mails the company, and grants the token after approval', async () => {
    const added = await api(sandbox, 'POST', '/partner', { body: { CompanyTaxId: OTHER_ACCOUNT.taxId } });
    expect(added.envelope.Object).toMatchObject({ Status: 'AccessRequested' });
    const outbox = (await admin<Outbox>(sandbox, 'GET', '/outbox')).body.emails;
    expect(outbox).toEqual([expect.objectContaining({ kind: 'partner-access-request', to: OTHER_ACCOUNT.email })]);

    const before = await api(sandbox, 'GET', `/partner/tokens?taxId=${OTHER_ACCOUNT.taxId}`);
    expect(before.status).toBe(404);
    expect(before.envelope.ErrorValue).toEqual({ Value: 38, Name: 'PartnershipNotFound' });

    const approved = await admin(sandbox, 'POST', '/partners/approve', { partnerTaxId: '509442013', companyTaxId: OTHER_ACCOUNT.taxId });
    expect(approved.status).toBe(200);
    expect(await tokenFor(OTHER_ACCOUNT.taxId)).toBe(OTHER_ACCOUNT.token);
  });

  it.each([
    ['either way round', { partnerTaxId: OTHER_ACCOUNT.taxId, companyTaxId: '509442013' }, 200],
    ['with only the company', { companyTaxId: OTHER_ACCOUNT.taxId }, 200],
    ['for a request that does not exist', { companyTaxId: '505123452' }, 404],
    ['without tax ids', {}, 400],
  ])('approval %s -> %s', async (_name, body, status) => {
    await api(sandbox, 'POST', '/partner', { body: { CompanyTaxId: OTHER_ACCOUNT.taxId } });
    expect((await admin(sandbox, 'POST', '/partners/approve', body)).status).toBe(status);
  });
});

describe('partner tokens invoice types T and C by default', () => {
  let partner: Credentials;
  beforeEach(async () => {
    await api(sandbox, 'POST', '/partner', { body: { CompanyTaxId: '510000002' } });
    partner = { email: OWN.email, token: await tokenFor('510000002') };
  });

  it.each([
    ['T', true],
    ['C', true],
    ['I', false],
    ['S', false],
    ['D', false],
  ])('type %s allowed: %s', async (type, allowed) => {
    const result = await api(sandbox, 'POST', '/document', { body: documentBody({ Type: type, DocumentReference: 'FR A/1' }), credentials: partner });
    expect(result.envelope.Type).toBe(allowed ? 0 : 1);
    if (!allowed) {
      expect(result.status).toBe(400);
      expect(result.envelope.ValidationErrors).toEqual([expect.objectContaining({ Type: 'DocumentTypeNotAllowedForPartner', Field: 'DocumentDetailType' })]);
    }
  });

  it('more types once the partnership enables them', async () => {
    await admin(sandbox, 'POST', '/partners/approve', { companyTaxId: '510000002', allowedTypes: ['T', 'C', 'I'] });
    expect((await api(sandbox, 'POST', '/document', { body: documentBody({ Type: 'I' }), credentials: partner })).envelope.Type).toBe(0);
  });

  it.each([
    ['AddPartner', 'POST', '/partner'],
    ['Get Partner Access Tokens', 'GET', '/partner/tokens?taxId=510000002'],
    ['Client Get', 'GET', '/client?countryCode=PT&taxId=505123452'],
    ['TaxId Validation', 'GET', '/taxIdValidation?countryCode=PT&taxId=505123452'],
  ] as const)('%s needs the account\'s own token, not a partner token (401)', async (_name, method, path) => {
    const result = await api(sandbox, method, path, { credentials: partner, body: { CompanyTaxId: '505123452' } });
    expect(result.status).toBe(401);
  });

  it('a partner token with another e-mail is not accepted', async () => {
    const result = await api(sandbox, 'POST', '/document', { body: documentBody(), credentials: { email: OTHER_ACCOUNT.email, token: partner.token } });
    expect(result.status).toBe(401);
  });
});

describe('AddPartner validation', () => {
  it.each([
    ['CompanyTaxId is required', {}, 'Required', 'CompanyTaxId'],
    ['CompanyTaxId is a valid tax id', { CompanyTaxId: '123456780' }, 'InvalidTaxId', 'CompanyTaxId'],
    ['CompanyCountry is ISO 3166-1', { CompanyTaxId: '508000009', CompanyCountry: 'XX' }, 'InvalidCountryCode', 'CompanyCountry'],
    ['UserEmail is an e-mail', { CompanyTaxId: '508000009', UserEmail: 'rui' }, 'InvalidEmail', 'UserEmail'],
    ['CompanyLegalName is S(50)', { CompanyTaxId: '508000009', CompanyLegalName: 'x'.repeat(51) }, 'TooLong', 'CompanyLegalName'],
    ['a company is not its own partner', { CompanyTaxId: '509442013' }, 'CannotPartnerWithOwnCompany', 'CompanyTaxId'],
  ])('%s', async (_rule, body, type, field) => {
    const result = await api(sandbox, 'POST', '/partner', { body });
    expect(result.status).toBe(400);
    expect(result.envelope.ErrorValue?.Value).toBe(2);
    expect(result.envelope.ValidationErrors).toContainEqual(expect.objectContaining({ Type: type, Field: field }));
  });
});

describe('Client Get: registered company data for a tax id', () => {
  it.each([
    ['a built-in company', 'PT', '505123452', { NIF: '505123452', Name: 'Livraria Atlântica', City: 'Porto', PostCode: '4000-447', CountryCode: 'PT' }],
    ['a foreign built-in company', 'ES', 'B12345678', { NIF: 'B12345678', CountryCode: 'ES', City: 'Madrid' }],
    ['an account of the service', 'PT', OTHER_ACCOUNT.taxId, { NIF: OTHER_ACCOUNT.taxId, Name: OTHER_ACCOUNT.companyName, Email: OTHER_ACCOUNT.email }],
  ])('finds %s', async (_name, country, taxId, expected) => {
    const result = await api(sandbox, 'GET', `/client?countryCode=${country}&taxId=${taxId}`);
    expect(result.status).toBe(200);
    expect(result.envelope.Object).toMatchObject(expected);
  });

  it.each([
    ['an invalid tax id', 'countryCode=PT&taxId=123456780', 400, 2, { Type: 'InvalidTaxId', Field: 'TaxId', Value: '123456780' }],
    ['a valid tax id nobody registered', 'countryCode=PT&taxId=100000002', 404, 6, { Type: 'ElementDoesNotExist', Field: 'TaxId' }],
    ['a missing taxId', 'countryCode=PT', 400, 2, { Type: 'Required', Field: 'TaxId' }],
    ['a bad countryCode', 'countryCode=ZZ&taxId=505123452', 400, 2, { Type: 'InvalidCountryCode', Field: 'CountryCode' }],
  ])('refuses %s', async (_name, query, status, errorValue, item) => {
    const result = await api(sandbox, 'GET', `/client?${query}`);
    expect(result.status).toBe(status);
    expect(result.envelope.ErrorValue?.Value).toBe(errorValue);
    expect(result.envelope.ValidationErrors).toContainEqual(expect.objectContaining(item));
  });
});

describe('TaxId Validation', () => {
  it.each([
    ['PT', '509442013', true],
    ['PT', '999999990', true],
    ['PT', 'PT505123452', true],
    ['PT', '505123453', false],
    ['PT', '812345670', false],
    ['PT', '12345678', false],
    ['ES', 'B12345678', true],
    ['ES', 'ESB12345678', true],
    ['ES', '1234', false],
    ['DE', '123456789', true],
    ['US', '12-3456789', true],
    ['US', '!', false],
  ])('%s %s valid: %s', async (country, taxId, valid) => {
    const result = await api(sandbox, 'GET', `/taxIdValidation?countryCode=${country}&taxId=${encodeURIComponent(taxId)}`);
    if (valid) {
      expect(result.status).toBe(200);
      expect(result.envelope).toMatchObject({ Type: 0, Object: null });
    } else {
      expect(result.status).toBe(400);
      expect(result.envelope).toMatchObject({ Type: 1, ErrorValue: { Value: 4, Name: 'InvalidTaxId' } });
      expect(result.envelope.ValidationErrors).toEqual([expect.objectContaining({ Type: 'InvalidTaxId', Field: 'TaxId', Value: taxId })]);
    }
  });
});
