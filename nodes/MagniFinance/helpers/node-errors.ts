import type { IDataObject, INode, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeError, NodeOperationError } from 'n8n-workflow';

import {
  ApiError,
  AuthenticationError,
  LocalValidationError,
  MagniFinanceError,
  ResponseFormatError,
  TransportNetworkError,
  TransportTimeoutError,
} from '../../../client/errors';
import type { LocalValidationIssue } from '../../../client/errors';
import { OrderMappingError } from '../../../law/mapping-errors';
import { displayNameOf, LATEST_NODE_VERSION, nodeVersionOf, SERVICE_NAMES } from './address-fields';

/**
 * Service paths (`Document.Lines[2].TaxValue`) told in the words of the node's UI, so a failed
 * field can be found in the form. Paths not listed fall back to the service's own name.
 */
const FIELD_LABELS: Record<string, string> = {
  'Client.Name': 'Client Name',
  'Client.NIF': 'Client Tax ID',
  'Client.CountryCode': 'Client Country Code',
  IsToClose: 'Close Document',
  SendTo: 'Additional Fields > Send To',
  Type: 'Document Type',
  Date: 'Date',
  DueDate: 'Due Date',
  Lines: 'Lines',
  LoadDateTime: 'Load Date and Time',
  TaxExemptionReasonCode: 'Additional Fields > Tax Exemption Reason Code',
  DocumentReference: 'Additional Fields > Document Reference',
  Description: 'Additional Fields > Description',
  Serie: 'Additional Fields > Series',
  Currency: 'Additional Fields > Currency',
  EuroRate: 'Additional Fields > Euro Rate',
  Retention: 'Additional Fields > Retention (%)',
  ExternalId: 'Additional Fields > External ID',
  documentId: 'Document ID',
  taxId: 'Tax ID',
  countryCode: 'Country Code',
};

/** The form's words for the service's line fields. */
export const LINE_LABELS: Record<string, string> = {
  Code: 'Code',
  Description: 'Description',
  UnitPrice: 'Unit Price',
  Quantity: 'Quantity',
  Unit: 'Unit',
  Type: 'Type',
  TaxValue: 'Tax Rate (%)',
  ProductDiscount: 'Discount (%)',
  CostCenter: 'Cost Center',
};

const SERVICE_NAMES_OF_PARTNER = new Set<string>(Object.values(SERVICE_NAMES.partnerFields));

export function fieldLabel(path: string, version: number = LATEST_NODE_VERSION): string {
  if (FIELD_LABELS[path]) return FIELD_LABELS[path];
  const line = /^(?:Document|Waybill)\.Lines\[(\d+)\](?:\.(\w+))?/.exec(path);
  if (line) {
    const field = line[2] ? ` > ${LINE_LABELS[line[2]] ?? line[2]}` : '';
    return `Lines > line ${Number(line[1]) + 1}${field}`;
  }
  const address = /^Waybill\.(LoadAddress|DestinationAddress)\.?(\w*)/.exec(path);
  if (address) {
    const group = address[1] === 'LoadAddress' ? 'Load Address' : 'Destination Address';
    return address[2] ? `${group} > ${displayNameOf('waybillAddress', address[2], version)}` : group;
  }
  const client = /^Client\.(\w+)/.exec(path);
  if (client) return `Client Details > ${displayNameOf('clientDetails', client[1], version)}`;
  if (SERVICE_NAMES_OF_PARTNER.has(path)) return `Partner Fields > ${displayNameOf('partnerFields', path, version)}`;
  const head = /^(?:Document|Waybill)\.(\w+)$/.exec(path);
  if (head && FIELD_LABELS[head[1]]) return FIELD_LABELS[head[1]];
  return path;
}

function describeIssue(issue: LocalValidationIssue, version: number): string {
  const label = fieldLabel(issue.path, version);
  return label === issue.path ? `${issue.path} ${issue.message}` : `${label} (${issue.path}) ${issue.message}`;
}

/** Turns anything an operation threw into the n8n error the UI and `continueOnFail` expect. */
export function nodeErrorFor(node: INode, error: unknown, itemIndex: number): NodeError {
  if (error instanceof NodeError) return error;

  if (error instanceof LocalValidationError) {
    const [first] = error.issues;
    return new NodeOperationError(
      node,
      first ? `Invalid field: ${describeIssue(first, nodeVersionOf(node))}` : error.message,
      {
        itemIndex,
        description: error.issues.map((issue) => describeIssue(issue, nodeVersionOf(node))).join('\n'),
      },
    );
  }

  if (error instanceof ApiError) {
    const details: IDataObject = {
      status: error.status,
      requestId: error.requestId,
      errorValue: error.errorValue ? { ...error.errorValue } : null,
      errorHumanReadable: error.errorHumanReadable,
      validationErrors: error.validationErrors.map((v) => ({ ...v })),
      errorMessage: error.errorMessage,
    };
    const apiError = new NodeApiError(node, details as JsonObject, {
      message:
        error instanceof AuthenticationError
          ? `MagniFinance refused the e-mail or token: ${error.message}`
          : error.message,
      description: describeServiceError(error),
      httpCode: String(error.status),
      itemIndex,
    });
    Object.assign(apiError.context, details);
    return apiError;
  }

  if (
    error instanceof TransportTimeoutError ||
    error instanceof TransportNetworkError ||
    error instanceof ResponseFormatError
  ) {
    // Passing the error itself keeps it as `cause` and lets n8n explain codes like ECONNREFUSED.
    return new NodeApiError(node, error as unknown as JsonObject, {
      description:
        error instanceof TransportTimeoutError
          ? 'The service did not answer in time. A create may still have happened: retry with the same External ID, a duplicate is then refused.'
          : undefined,
      itemIndex,
    });
  }

  if (error instanceof OrderMappingError) return refusedOrderError(node, error, itemIndex);

  if (error instanceof MagniFinanceError || error instanceof Error) {
    return new NodeOperationError(node, error, { itemIndex });
  }
  return new NodeOperationError(node, String(error), { itemIndex });
}

/**
 * The mapping refused the order: nothing was sent. Which refusal it is stays the mapping's
 * business; every one is told the same way, with its own message and the one fix (`fix`: in the
 * shop's words, WooCommerce's by default).
 */
export function refusedOrderError(node: INode, error: OrderMappingError, itemIndex: number, fix: string = REFUSED_ORDER_FIX): NodeOperationError {
  const refused = new NodeOperationError(node, error.message, { itemIndex, description: fix });
  Object.assign(refused.context, {
    refused: true,
    ...(error.orderId !== undefined ? { orderId: error.orderId } : {}),
    // The refusal coded (code and facts), for a workflow that branches on why (the message is English prose).
    why: { code: error.code, params: { ...error.params } },
    whatToDo: fix,
  });
  return refused;
}

/** What a person does about an order the mapping refused (the message says why). */
export const REFUSED_ORDER_FIX =
  'Nothing was sent to MagniFinance. Correct the order in WooCommerce (or the Mapping Settings) and run the order again: with a WooCommerce Trigger, saving the order sends it again.';

function describeServiceError(error: ApiError): string {
  const lines: string[] = [];
  if (error.errorValue) lines.push(`Error value: ${error.errorValue.Name} (${error.errorValue.Value})`);
  if (error.errorHumanReadable) lines.push(`Service message: ${error.errorHumanReadable}`);
  if (error.errorMessage) lines.push(`Error message: ${error.errorMessage}`);
  for (const v of error.validationErrors) {
    const element = v.ElementNumber !== null && v.ElementNumber !== '' ? ` [element ${v.ElementNumber}]` : '';
    lines.push(`Validation: ${v.Field}${element} ${v.Type}${v.Detail ? ` - ${v.Detail}` : ''}${v.Value ? ` (value ${v.Value})` : ''}`);
  }
  if (error.requestId) lines.push(`Request ID: ${error.requestId}`);
  lines.push(`HTTP status: ${error.status}`);
  return lines.join('\n');
}

/** The facts an error item carries beside its message, when the error has them (context keys). */
const ERROR_ITEM_FACTS = [
  'errorValue',
  'validationErrors',
  'requestId',
  'errorHumanReadable',
  'orderId',
  // A Shopify order's name as its admin shows it ("#1001"), and the refund a credit note is for.
  'orderName',
  'refundId',
  'externalId',
  'held',
  'refused',
  'reasons',
  'why',
  'holds',
  'notes',
  'whatToDo',
  // The order record (shop/): the document a person is told about, and the reason in Portuguese.
  'documentId',
  'documentNumber',
  'whyPt',
] as const;

/** The JSON of a failed item: the message, the description and the facts a branch can act on. */
export function errorItemJson(error: NodeError): IDataObject {
  const json: IDataObject = { error: error.message };
  if (error.description) json.description = error.description;
  if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
  for (const key of ERROR_ITEM_FACTS) {
    const value = error.context[key];
    if (value !== undefined && value !== null) json[key] = value as IDataObject;
  }
  return json;
}

/**
 * A failed item, paired with its input item. Its shape depends on the node's On Error setting,
 * because n8n-core decides by the item's shape alone which output an item leaves by:
 * - "Continue On Fail" / "Continue (regular output)": the flat JSON of `errorItemJson` (`error` is
 *   the message, the facts beside it), as this node has always output it.
 * - "Continue (using error output)": n8n moves an item to the error output only when its JSON is
 *   `error` alone (or `error` and `message`), or when `item.error` is set; but it then replaces the
 *   JSON of an item with `item.error` by the bare message, losing the facts. So the message and the
 *   facts go under `error` as one object: `{ error: { message, description, ... } }`, which n8n
 *   routes and keeps (it puts the input item's JSON beside it on the error branch).
 */
export function errorItem(error: NodeError, itemIndex: number, onError: string | undefined): INodeExecutionData {
  const { error: message, ...facts } = errorItemJson(error);
  const json: IDataObject = onError === 'continueErrorOutput' ? { error: { message, ...facts } } : { error: message, ...facts };
  return { json, pairedItem: { item: itemIndex } };
}
