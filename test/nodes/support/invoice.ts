import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MagniFinanceClient } from '../../../client/rest-client';
import type { CreateDocumentRequest } from '../../../client/schemas/document';
import { runNode } from './n8n-harness';
import { DEMO, type NodeSandbox } from './sandbox';

export interface IssuedInvoice {
  documentId: number;
  documentNumber: string;
}

/**
 * An order's invoice issued through the node (its create operation with Order Record "None") and
 * numbered: the sandbox of the node's tests numbers at once (finalizeDelayMs 0), so a Get gives it.
 */
export async function invoiceThroughNode(s: NodeSandbox, parameters: INodeParameters, json: IDataObject): Promise<IssuedInvoice> {
  const created = await runNode({ credentials: s.credentials, parameters: { orderRecord: 'none', ...parameters }, items: [{ json }] });
  return await numbered(s, created.output[0][0].json.documentId as number);
}

/** An invoice issued as another tool issued it (the connector after a VIES answer, a person by hand): the request as given, closed. */
export async function invoiceAsIssued(s: NodeSandbox, request: CreateDocumentRequest): Promise<IssuedInvoice> {
  const client = new MagniFinanceClient({ email: DEMO.email, token: DEMO.token, baseUrl: s.sandbox.baseUrl, retry: false });
  const { documentId } = await client.createDocument({ ...request, IsToClose: true });
  return await numbered(s, documentId);
}

async function numbered(s: NodeSandbox, documentId: number): Promise<IssuedInvoice> {
  const got = await runNode({ credentials: s.credentials, parameters: { resource: 'document', operation: 'get', documentId } });
  const documentNumber = got.output[0][0].json.documentNumber;
  if (typeof documentNumber !== 'string') throw new Error(`document ${documentId} has no number`);
  return { documentId, documentNumber };
}
