import type { INodeParameters } from 'n8n-workflow';

import { runNode } from './support/n8n-harness';
import { DEMO, startNodeSandbox, type NodeSandbox } from './support/sandbox';

const PARTNER_TAX_ID = '501964843';

let s: NodeSandbox;
let partnerToken: string;
beforeAll(async () => {
  s = await startNodeSandbox();
  await runNode({ credentials: s.credentials, parameters: { resource: 'partner', operation: 'add', companyTaxId: PARTNER_TAX_ID } });
  const tokens = await runNode({
    credentials: s.credentials,
    parameters: { resource: 'partner', operation: 'getAccessTokens', partnerTaxId: PARTNER_TAX_ID, mainUserPassword: 'sandbox-password' },
  });
  partnerToken = tokens.output[0][0].json.token as string;
});
afterAll(async () => {
  await s.close();
});

const invoice = (options: INodeParameters): INodeParameters => ({
  resource: 'document',
  operation: 'create',
  clientName: 'Cliente do parceiro',
  lines: { line: [{ Code: 'SRV', Description: 'Serviço', UnitPrice: 50, Quantity: 1, Type: 'S' }] },
  options,
});

async function documentOwner(documentId: number): Promise<string | undefined> {
  const { body } = await s.admin('GET', '/documents');
  const documents = (body as { documents: { id: number; accountTaxId: string }[] }).documents;
  return documents.find((d) => d.id === documentId)?.accountTaxId;
}

describe('the Partner Token option invoices on behalf of the partner', () => {
  it.each([
    { case: 'with the partner token', useToken: true, owner: PARTNER_TAX_ID },
    { case: 'without it', useToken: false, owner: DEMO.taxId },
  ])('$case the document belongs to $owner', async ({ useToken, owner }) => {
    const { output, requests } = await runNode({
      credentials: s.credentials,
      parameters: invoice(useToken ? { partnerToken } : {}),
    });
    const documentId = output[0][0].json.documentId as number;
    expect(await documentOwner(documentId)).toBe(owner);
    // The credential still sends the account e-mail; only the token header changes.
    expect(requests[0].headers).toMatchObject({ email: DEMO.email, token: useToken ? partnerToken : DEMO.token });
  });

  it('reads the partner document back with the same token', async () => {
    const created = await runNode({ credentials: s.credentials, parameters: invoice({ partnerToken }) });
    const documentId = created.output[0][0].json.documentId as number;
    const { output, requests } = await runNode({
      credentials: s.credentials,
      parameters: { resource: 'document', operation: 'get', documentId, options: { partnerToken } },
    });
    expect(output[0][0].json).toMatchObject({ documentId, statusId: 'C' });
    expect(requests[0].headers.token).toBe(partnerToken);
  });
});
