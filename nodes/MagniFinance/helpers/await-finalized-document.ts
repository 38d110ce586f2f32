import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { DocumentDetails } from '../../../client/document-details';
import { ElementDoesNotExistError } from '../../../client/errors';
import type { MagniFinanceClient } from '../../../client/rest-client';
import { cancellableSleep } from './cancellable-sleep';
import { documentJson } from './document-output';
import { withPdf, type ItemWithBinary } from './pdf-binary';

/** The service allocates number and PDF on a Get Document made at least 10 s after the create. */
export const MINIMUM_FIRST_CHECK_SECONDS = 10;

export interface WaitSettings {
  firstCheckAfterSeconds: number;
  checkIntervalSeconds: number;
  waitTimeoutSeconds: number;
}

export function readWaitSettings(context: IExecuteFunctions, itemIndex: number): WaitSettings {
  const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
  const number = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  return {
    firstCheckAfterSeconds: Math.max(
      MINIMUM_FIRST_CHECK_SECONDS,
      number(options.firstCheckAfterSeconds, MINIMUM_FIRST_CHECK_SECONDS),
    ),
    checkIntervalSeconds: Math.max(1, number(options.checkIntervalSeconds, 5)),
    waitTimeoutSeconds: number(options.waitTimeoutSeconds, 60),
  };
}

/**
 * How many Get Document calls fit in the timeout: the first at `firstCheckAfter`, then one per
 * interval. Counting checks instead of reading a clock keeps the wait deterministic.
 */
export function plannedChecks(settings: WaitSettings): number {
  const room = settings.waitTimeoutSeconds - settings.firstCheckAfterSeconds;
  return 1 + Math.max(0, Math.floor(room / settings.checkIntervalSeconds));
}

/**
 * Waits with n8n's own sleep (cancelled with the execution) and polls Get Document until the
 * closed document has its number and PDF link. "Not numbered yet" is waiting, whichever way the
 * service says it: a document without number or link, or error 6 ElementDoesNotExist for the id it
 * has just given out (the real service answers so until the number is allocated). Giving up is not
 * an error: the document exists, and failing here would tempt a retry that creates a second one. So
 * any other failed read also ends the wait with `finalized: false` and the reason in `waitError`;
 * only cancelling the execution stops it.
 */
export async function awaitFinalizedDocument(
  this: IExecuteFunctions,
  client: MagniFinanceClient,
  documentId: number,
  settings: WaitSettings,
  token: string | undefined,
): Promise<IDataObject> {
  const signal = this.getExecutionCancelSignal();
  const checks = plannedChecks(settings);
  await cancellableSleep(settings.firstCheckAfterSeconds * 1000, signal);
  let details: DocumentDetails | undefined;
  for (let check = 1; check <= checks; check += 1) {
    try {
      details = await client.getDocument(documentId, token ? { token } : undefined);
    } catch (error) {
      if (!(error instanceof ElementDoesNotExistError)) {
        const waitError = error instanceof Error ? error.message : String(error);
        return { ...(details ? documentJson(documentId, details) : { documentId }), finalized: false, checks: check, waitError };
      }
      details = undefined; // not numbered yet
    }
    if (details?.documentNumber && details.downloadUrl) {
      return { ...documentJson(documentId, details), finalized: true, checks: check };
    }
    if (check < checks) await cancellableSleep(settings.checkIntervalSeconds * 1000, signal);
  }
  return {
    ...(details ? documentJson(documentId, details) : { documentId }),
    finalized: false,
    checks,
  };
}

/** The part of a create answer every create operation outputs. */
export interface CreatedDocument {
  documentId: number;
  requestId: string | null;
  errorMessage: string | null;
}

/**
 * The output of a create operation: what the caller already knows (order summary, waybill number),
 * the service's answer, and, when a closed document was asked to be waited for, its number and PDF
 * link, and with "Download PDF" the PDF itself as binary property `data` (once numbered).
 */
export async function createdDocumentOutput(
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
  created: CreatedDocument,
  closed: boolean,
  token: string | undefined,
  known: IDataObject = {},
): Promise<IDataObject | ItemWithBinary> {
  const result: IDataObject = {
    ...known,
    documentId: created.documentId,
    requestId: created.requestId,
    closed,
    alreadyIssued: false,
    ...(created.errorMessage ? { errorMessage: created.errorMessage } : {}),
  };
  const wait = closed && (this.getNodeParameter('waitForDocument', itemIndex, false) as boolean);
  if (!wait) return result;
  const finalized = await awaitFinalizedDocument.call(this, client, created.documentId, readWaitSettings(this, itemIndex), token);
  const json = { ...result, ...finalized };
  if (finalized.finalized !== true || !(this.getNodeParameter('downloadPdf', itemIndex, false) as boolean)) return json;
  return await withPdf.call(this, json);
}
