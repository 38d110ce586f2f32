import type { ItemWithBinary } from '../helpers/pdf-binary';
import type { AllEntities, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { MagniFinanceClient } from '../../../client/rest-client';

/** Every resource with its operations: the router dispatches on exactly these pairs. */
type NodeMap = {
  document: 'create' | 'createCreditNoteFromRefund' | 'createFromOrder' | 'get' | 'getPaymentStatus' | 'cancel';
  waybill: 'create' | 'createFromOrder';
  partner: 'add' | 'getAccessTokens';
  client: 'get';
  taxId: 'validate';
};

export type MagniFinanceType = AllEntities<NodeMap>;

/**
 * One operation run for one input item. The router owns the item loop, the per-item try/catch,
 * `continueOnFail` and paired items, so an operation only turns parameters into a client call.
 */
export type OperationExecute = (
  this: IExecuteFunctions,
  itemIndex: number,
  client: MagniFinanceClient,
) => Promise<IDataObject | IDataObject[] | ItemWithBinary>;
