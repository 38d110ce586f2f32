import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { clientForNode } from '../helpers/client-for-node';
import { errorItem, nodeErrorFor } from '../helpers/node-errors';
import { ItemWithBinary } from '../helpers/pdf-binary';
import * as client from './client';
import * as document from './document';
import type { MagniFinanceType, OperationExecute } from './node.type';
import * as partner from './partner';
import * as taxId from './taxId';
import * as waybill from './waybill';

function operationFor(pair: MagniFinanceType): OperationExecute | undefined {
  switch (pair.resource) {
    case 'document':
      return document[pair.operation]?.execute;
    case 'waybill':
      return waybill[pair.operation]?.execute;
    case 'partner':
      return partner[pair.operation]?.execute;
    case 'client':
      return client[pair.operation]?.execute;
    case 'taxId':
      return taxId[pair.operation]?.execute;
    default:
      return undefined;
  }
}

/**
 * Runs the chosen operation once per input item. Each item has its own try/catch: with
 * "Continue On Fail" or "Continue (using error output)" a failed item becomes an error item paired
 * to its input (n8n then routes it to the error output when that is chosen), and the others still
 * run; without it the first failure stops the node with an error naming the item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
  const items = this.getInputData();
  const pair = {
    resource: this.getNodeParameter('resource', 0),
    operation: this.getNodeParameter('operation', 0),
  } as MagniFinanceType;
  const execute = operationFor(pair);
  if (!execute) {
    throw new NodeOperationError(
      this.getNode(),
      `The operation "${pair.operation}" of "${pair.resource}" is not supported`,
    );
  }

  const client = await clientForNode.call(this);
  const returnData: INodeExecutionData[] = [];
  for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
    try {
      const output = await execute.call(this, itemIndex, client);
      if (output instanceof ItemWithBinary) {
        returnData.push({ json: output.json, binary: output.binary, pairedItem: { item: itemIndex } });
        continue;
      }
      returnData.push(
        ...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(output), {
          itemData: { item: itemIndex },
        }),
      );
    } catch (error) {
      const nodeError = nodeErrorFor(this.getNode(), error, itemIndex);
      // A cancelled execution stops here: the next items would only start work nobody waits for.
      if (this.continueOnFail() && !this.getExecutionCancelSignal()?.aborted) {
        returnData.push(errorItem(nodeError, itemIndex, this.getNode().onError));
        continue;
      }
      throw nodeError;
    }
  }
  return [returnData];
}
