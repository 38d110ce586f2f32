import { ApiError, AuthenticationError, ElementDoesNotExistError, LocalValidationError, MagniFinanceClient, ServiceValidationError } from '../../client';
import type { RunningSandbox } from '../../sandbox/server';
import { invoiceRequest } from './requests';
import { DEFAULT_SANDBOX_PASSWORD as SANDBOX_PASSWORD } from '../../sandbox/options';
import { admin, KNOWN_COMPANY, OWNER, outbox, restClient, startTestSandbox, uniqueExternalId } from './sandbox-harness';

let sandbox: RunningSandbox;
let owner: MagniFinanceClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  owner = restClient(sandbox, OWNER, { password: SANDBOX_PASSWORD });
});
afterAll(() => sandbox.close());

async function documentsOf(taxId: string): Promise<{ id: number }[]> {
  const { body } = await admin<{ documents: { id: number }[] }>(sandbox, 'GET', `/documents?accountTaxId=${taxId}`);
  return body.documents;
}

describe('partnership with a company already registered: requested, approved, then invoiced for', () => {
  let partnerToken = '';

  it('AddPartner records an access request and e-mails the company', async () => {
    const added = await owner.addPartner({ CompanyTaxId: KNOWN_COMPANY.taxId, CompanyCountry: 'PT', UserName: 'Ana Dono' });
    expect(added.requestId).toEqual(expect.any(String));
    expect(added.object).toMatchObject({ Status: 'AccessRequested' });
    const emails = await outbox(sandbox, KNOWN_COMPANY.email);
    expect(emails.map((e) => e.kind)).toContain('partner-access-request');
  });

  it('before approval there is no token (PartnershipNotFound)', async () => {
    await expect(owner.getPartnerAccessTokens(KNOWN_COMPANY.taxId)).rejects.toMatchObject({
      errorValue: { Value: 38, Name: 'PartnershipNotFound' },
    });
  });

  it('after the company approves, Get Partner Access Tokens gives its token', async () => {
    const approval = await admin(sandbox, 'POST', '/partners/approve', { companyTaxId: KNOWN_COMPANY.taxId, ownerTaxId: OWNER.taxId });
    expect(approval.status).toBe(200);
    const tokens = await owner.getPartnerAccessTokens(KNOWN_COMPANY.taxId);
    expect(tokens).toEqual([expect.objectContaining({ token: KNOWN_COMPANY.token })]);
    partnerToken = tokens[0].token;
  });

  it('a document created with the partner token lands in the partner account', async () => {
    const created = await owner.createDocument(invoiceRequest({ ExternalId: uniqueExternalId('partner') }), { token: partnerToken });
    expect((await documentsOf(KNOWN_COMPANY.taxId)).map((d) => d.id)).toContain(created.documentId);
    expect((await documentsOf(OWNER.taxId)).map((d) => d.id)).not.toContain(created.documentId);
    await expect(owner.getDocumentProperty(created.documentId)).rejects.toBeInstanceOf(ElementDoesNotExistError);
    await expect(owner.getDocumentProperty(created.documentId, { token: partnerToken })).resolves.toMatchObject({
      details: { document: expect.objectContaining({ Id: created.documentId }) },
    });
  });

  it.each([
    ['T', true],
    ['C', true],
    ['I', false],
    ['S', false],
    ['D', false],
  ] as const)('partner invoicing type %s allowed by default: %s', async (type, allowed) => {
    const reference = type === 'C' || type === 'D' ? { DocumentReference: 'FR A/1' } : {};
    const call = owner.createDocument(invoiceRequest({ Type: type, ExternalId: uniqueExternalId('partner'), ...reference }), {
      token: partnerToken,
    });
    if (allowed) {
      await expect(call).resolves.toMatchObject({ documentId: expect.any(Number) });
    } else {
      await expect(call).rejects.toBeInstanceOf(ServiceValidationError);
      await expect(call).rejects.toMatchObject({ validationErrors: [expect.objectContaining({ Field: 'DocumentDetailType' })] });
    }
  });

  it('the partner token does not open the partner-invoicing endpoints', async () => {
    await expect(owner.addPartner({ CompanyTaxId: '505000008' }, { token: partnerToken })).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('partnership with an unregistered company: associated at once', () => {
  it('AddPartner grants access immediately and the token is available', async () => {
    const added = await owner.addPartner({ CompanyTaxId: '503000000', CompanyLegalName: 'Nova Empresa, Lda.', CompanyCountry: 'PT' });
    expect(added.object).toMatchObject({ Status: 'AccessGranted' });
    const tokens = await owner.getPartnerAccessTokens('503000000');
    expect(tokens).toHaveLength(1);
    const created = await owner.createDocument(invoiceRequest({ ExternalId: uniqueExternalId('new-partner') }), { token: tokens[0].token });
    expect((await documentsOf('503000000')).map((d) => d.id)).toContain(created.documentId);
  });

  it('an invalid company tax id is refused by the client and, unchecked, by the service', async () => {
    const local = await owner.addPartner({ CompanyTaxId: '503000001', CompanyCountry: 'PT' }).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(LocalValidationError);
    const unchecked = restClient(sandbox, OWNER, { validateLocally: false });
    const error = await unchecked.addPartner({ CompanyTaxId: '503000001', CompanyCountry: 'PT' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).validationErrors.map((v) => v.Type)).toContain('InvalidTaxId');
  });
});
