import type { IDataObject, INode } from 'n8n-workflow';

import { DocumentDuplicateError } from '../../../client/errors';
import { nodeErrorFor } from './node-errors';

/** The service refused a create as DocumentIsADuplicate: a document with this External ID exists. */
export class AlreadyIssued {
  constructor(readonly externalId: string) {}
}

/**
 * Runs a create; "already issued for this External ID" is the success a repeated delivery should
 * get (the document it asks for exists), not a failure. Without an External ID there is no such
 * promise, so the error stays an error.
 */
export async function createOnce<T>(
  node: INode,
  itemIndex: number,
  externalId: string | undefined,
  create: () => Promise<T>,
): Promise<T | AlreadyIssued> {
  try {
    return await create();
  } catch (error) {
    if (error instanceof DocumentDuplicateError && externalId) return new AlreadyIssued(externalId);
    throw nodeErrorFor(node, error, itemIndex);
  }
}

/**
 * The output for an already issued document. The service has no search by External ID (spec:
 * Create Document rule 3, and no read by ExternalId), so its id and number cannot be looked up
 * here: they are where the run that issued it put them.
 */
export function alreadyIssuedJson(already: AlreadyIssued, known: IDataObject = {}): IDataObject {
  return {
    ...known,
    externalId: already.externalId,
    alreadyIssued: true,
    documentId: null,
    documentNumber: null,
    message: `Already issued: MagniFinance has a document with External ID ${already.externalId} for this client, so no second one was made. The service cannot look a document up by External ID: its number is where the run that issued it put it (the order's meta, in the example workflow).`,
  };
}
