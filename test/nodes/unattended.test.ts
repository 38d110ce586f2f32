/**
 * What a workflow left to run on its own depends on: failures reach the error output when the node
 * is set to "Continue (using error output)" and stay on the single output with "Continue On Fail";
 * a held or refused order is a failed item with its reason and the fix, never a success without a
 * document; a repeated delivery of an issued order is a success ("already issued"), not a failure.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { documentForOrder } from '../../platforms/woocommerce/documents';
import { n8nErrors, runNode } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';
import { mappingSettings, wooOrder } from '../support/payloads';

// Order 963's 4% lines are a Portuguese rate only in the Azores, and only from July 2021: dated 2025
// and mapped for a shop dispatching from the Azores (as test/nodes/from-order.test.ts does).
const day2025 = '2025-04-03T10:00:00';
const order963: IDataObject = {
  ...(JSON.parse(readFileSync(join('/work/shared/fixtures/woocommerce', 'wc-ios-order-963-coupon-tax.json'), 'utf8')) as IDataObject),
  date_created: day2025,
  date_created_gmt: day2025,
  date_paid: day2025,
  date_paid_gmt: day2025,
};
/** Order 963 billed in Lisbon without an address: from EUR 1 (setting) the invoice must name the buyer. */
const unidentifiedInLisbon: IDataObject = {
  ...order963,
  id: 964,
  billing: { ...(order963.billing as IDataObject), country: 'PT', postcode: '1100-053', city: 'Lisboa', address_1: '', address_2: '' },
};
const pending: IDataObject = { ...order963, id: 965, status: 'pending' };

const fromOrder: INodeParameters = {
  resource: 'document',
  operation: 'createFromOrder',
  // Order Record "None": the External ID alone (the record in the shop: order-record.test.ts).
  orderRecord: 'none',
  mappingSettings: JSON.stringify({ euroRates: { USD: '0.92' }, dispatchRegion: 'azores', identifiedBuyerFrom: '1', holdUnidentifiedConsumerInvoices: true }),
};

let s: NodeSandbox;
beforeEach(async () => {
  s = await startNodeSandbox();
});
afterEach(async () => {
  await s.close();
});

async function documentsOnService(): Promise<IDataObject[]> {
  return ((await s.admin('GET', '/documents')).body as { documents: IDataObject[] }).documents;
}

const json = (items: INodeExecutionData[]): IDataObject[] => items.map((item) => item.json);

describe('failed items: "Continue (using error output)" routes them to the error output, "Continue On Fail" keeps them on the output', () => {
  const items = [{ json: order963 }, { json: unidentifiedInLisbon }, { json: pending }];

  it('error output: the invoiced order on the success output; the held and the refused order on the error output, each with its order', async () => {
    const { output } = await runNode({ credentials: s.credentials, parameters: fromOrder, items, onError: 'continueErrorOutput' });
    expect(output).toHaveLength(2);
    const [success, errors] = output;
    expect(json(success)).toEqual([expect.objectContaining({ orderId: 963, held: false, alreadyIssued: false, documentId: expect.any(Number) })]);
    expect(success[0].pairedItem).toEqual({ item: 0 });
    expect(errors.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
    // n8n puts the failed item's JSON (all under `error`) beside its input item's: the order stays at hand for the alert.
    expect(json(errors)).toEqual([
      expect.objectContaining({
        id: 964,
        error: expect.objectContaining({ held: true, orderId: 964, externalId: 'wc-964', message: expect.stringContaining('Order #964 is held') }),
      }),
      expect.objectContaining({
        id: 965,
        // The refusal's code and facts beside the English message, for a workflow that branches on why.
        error: expect.objectContaining({
          refused: true,
          orderId: 965,
          why: { code: 'unpaid-status', params: { status: 'pending' } },
          message: expect.stringContaining('status "pending" is not a paid order'),
        }),
      }),
    ]);
    expect(await documentsOnService()).toHaveLength(1);
  });

  it.each([
    { setting: 'continueOnFail: true (older form)', run: { continueOnFail: true } },
    { setting: 'onError: continueRegularOutput', run: { onError: 'continueRegularOutput' as const } },
  ])('$setting: one output, every item in input order, the failed ones with `error`', async ({ run }) => {
    const { output } = await runNode({ credentials: s.credentials, parameters: fromOrder, items, ...run });
    expect(output).toHaveLength(1);
    expect(json(output[0])).toEqual([
      expect.objectContaining({ orderId: 963, documentId: expect.any(Number) }),
      expect.objectContaining({ held: true, orderId: 964, error: expect.stringContaining('held') }),
      expect.objectContaining({ refused: true, orderId: 965 }),
    ]);
    expect(output[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
  });

  it.each([
    {
      case: 'a service error (unknown document)',
      parameters: { resource: 'document', operation: 'get', documentId: 999999 },
      error: 'ElementDoesNotExist',
      facts: { httpCode: expect.any(String), errorValue: expect.objectContaining({ Name: 'ElementDoesNotExist' }) },
    },
    {
      case: 'a local validation error',
      parameters: { resource: 'document', operation: 'create', clientName: 'Maria', clientTaxId: '123456780', lines: { line: [{ Description: 'Caneca', UnitPrice: 10, Quantity: 1, TaxValue: 23 }] } },
      error: 'Client Tax ID (Client.NIF)',
      facts: { description: expect.stringContaining('Client.NIF') },
    },
  ])('every operation routes the same way: $case', async ({ parameters, error, facts }) => {
    const { output } = await runNode({ credentials: s.credentials, parameters, items: [{ json: { from: 'trigger' } }], onError: 'continueErrorOutput' });
    expect(output[0]).toEqual([]);
    expect(output[1][0].json).toEqual({ from: 'trigger', error: expect.objectContaining({ message: expect.stringContaining(error), ...facts }) });
  });
});

describe('a held order is a failed item with the reasons and the fix, and nothing is sent', () => {
  it('stops the execution by default, naming the order and why', async () => {
    let thrown: unknown;
    try {
      await runNode({ credentials: s.credentials, parameters: fromOrder, items: [{ json: unidentifiedInLisbon }] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(n8nErrors.NodeOperationError);
    const error = thrown as InstanceType<typeof n8nErrors.NodeOperationError>;
    expect(error.message).toMatch(/^Order #964 is held, not invoiced: .*name/);
    expect(error.description).toContain('Nothing was sent to MagniFinance');
    expect(await documentsOnService()).toHaveLength(0);
  });

  it('on the error output it carries what a person needs: reasons, notes, what to do', async () => {
    const { output, requests } = await runNode({
      credentials: s.credentials,
      parameters: fromOrder,
      items: [{ json: unidentifiedInLisbon }],
      onError: 'continueErrorOutput',
    });
    expect(requests).toHaveLength(0);
    expect(output[1][0].json.error).toMatchObject({
      held: true,
      orderId: 964,
      externalId: 'wc-964',
      reasons: expect.arrayContaining([expect.stringContaining('held until the billing name and address are on the order')]),
      notes: expect.arrayContaining([expect.objectContaining({ level: 'warning' })]),
      whatToDo: expect.stringContaining('run the order again'),
    });
    // The reasons are the hold's own, as the mapping names them, not every warning of the order.
    const mapped = documentForOrder(wooOrder(unidentifiedInLisbon), mappingSettings(JSON.parse(String(fromOrder.mappingSettings))));
    expect(mapped.holdReasons.length).toBeGreaterThan(0);
    expect((output[1][0].json.error as IDataObject).reasons).toEqual(mapped.holdReasons);
    // The same reasons coded, in the same order.
    expect((output[1][0].json.error as IDataObject).holds).toEqual(mapped.holds.map((hold) => ({ code: hold.code, params: hold.params })));
    expect(mapped.holds.map((hold) => hold.code)).toEqual(['consumer-invoice-unidentified-held', 'invoice-deadline']);
  });

  it('once the order has what was missing, the same order is invoiced', async () => {
    const completed = { ...unidentifiedInLisbon, billing: { ...(unidentifiedInLisbon.billing as IDataObject), address_1: 'Rua Augusta 1' } };
    const { output } = await runNode({ credentials: s.credentials, parameters: fromOrder, items: [{ json: completed }], onError: 'continueErrorOutput' });
    expect(output[1]).toEqual([]);
    expect(output[0][0].json).toMatchObject({ orderId: 964, held: false, documentId: expect.any(Number) });
  });
});

describe('repeated deliveries: "already issued for this External ID" is a success', () => {
  it('three deliveries of one order give one document and three successful runs', async () => {
    const runs = [];
    for (let delivery = 0; delivery < 3; delivery += 1) {
      runs.push(await runNode({ credentials: s.credentials, parameters: fromOrder, items: [{ json: order963 }], onError: 'continueErrorOutput' }));
    }
    expect(runs.map(({ output }) => output[1])).toEqual([[], [], []]);
    const [first, ...repeats] = runs.map(({ output }) => output[0][0].json);
    expect(first).toMatchObject({ orderId: 963, externalId: 'wc-963', alreadyIssued: false, documentId: expect.any(Number) });
    for (const repeat of repeats) {
      expect(repeat).toMatchObject({
        orderId: 963,
        externalId: 'wc-963',
        held: false,
        alreadyIssued: true,
        documentId: null,
        documentNumber: null,
        message: expect.stringContaining('Already issued'),
      });
    }
    expect(await documentsOnService()).toHaveLength(1);
  });

  it('Document > Create with an External ID: the second run is already issued, not an error', async () => {
    const parameters: INodeParameters = {
      resource: 'document',
      operation: 'create',
      clientName: 'Maria Silva',
      lines: { line: [{ Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 1, TaxValue: 23 }] },
      additionalFields: { ExternalId: 'shop-42' },
    };
    await runNode({ credentials: s.credentials, parameters });
    const again = await runNode({ credentials: s.credentials, parameters });
    expect(again.output[0][0].json).toMatchObject({ alreadyIssued: true, externalId: 'shop-42', documentId: null });
    expect(await documentsOnService()).toHaveLength(1);
  });

  it('without an External ID nothing says "already issued": a create is a create', async () => {
    const parameters: INodeParameters = {
      resource: 'document',
      operation: 'create',
      clientName: 'Maria Silva',
      lines: { line: [{ Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 1, TaxValue: 23 }] },
    };
    const first = await runNode({ credentials: s.credentials, parameters });
    expect(first.output[0][0].json).toMatchObject({ alreadyIssued: false, documentId: expect.any(Number) });
  });
});
