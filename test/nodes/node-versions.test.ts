/**
 * Saved workflows keep working when the node grows a version: n8n keeps each node's typeVersion and
 * fills the parameters a workflow did not save with that version's defaults. Version 3 made Order
 * Record "In the Shop" the default (and with it the shop credential); a node saved with version 2
 * (or 1) must go on with "None" and the one credential it was saved with.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, savedNode, type SentRequest } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';

const day2025 = '2025-04-03T10:00:00';
const order963 = {
  ...(JSON.parse(readFileSync(join('/work/shared/fixtures/woocommerce', 'wc-ios-order-963-coupon-tax.json'), 'utf8')) as IDataObject),
  status: 'processing',
  date_created: day2025,
  date_created_gmt: day2025,
  date_paid: day2025,
  date_paid_gmt: day2025,
} as IDataObject;

/** A from-order node as a workflow saves it: only what differs from the defaults (no Order Record). */
const saved: INodeParameters = {
  resource: 'document',
  operation: 'createFromOrder',
  mappingSettings: JSON.stringify({ dispatchRegion: 'azores', euroRates: { USD: '0.92' } }),
  waitForDocument: false,
};

describe('what n8n makes of a saved from-order node, by version', () => {
  it.each([1, 2])('version %d: Order Record "None", and only the MagniFinance credential is asked for', (version) => {
    const node = savedNode(saved, version);
    expect(node.parameters.orderRecord).toBe('none');
    expect(node.credentials).toEqual(['magniFinanceApi']);
  });

  it('version 3 (a new node): Order Record "In the Shop", and the shop credential with it', () => {
    const node = savedNode(saved, 3);
    expect(node.parameters.orderRecord).toBe('shop');
    expect(node.credentials).toEqual(['magniFinanceApi', 'magniFinanceWooCommerceApi']);
  });

  it('a version-2 node whose user chose "In the Shop" asks for the shop credential too', () => {
    expect(savedNode({ ...saved, orderRecord: 'shop' }, 2).credentials).toEqual(['magniFinanceApi', 'magniFinanceWooCommerceApi']);
  });

  it('operations without an order record never ask for the shop credential, whatever the version', () => {
    for (const version of [1, 2, 3]) {
      expect(savedNode({ resource: 'document', operation: 'get', documentId: 1 }, version).credentials).toEqual(['magniFinanceApi']);
    }
  });
});

describe('a saved version-2 workflow runs as before, with its one credential', () => {
  let s: NodeSandbox;
  beforeEach(async () => {
    s = await startNodeSandbox();
  });
  afterEach(async () => {
    await s.close();
  });

  it('version 2 issues the order\'s invoice under its External ID, with no shop credential and no request to a shop', async () => {
    const { output, requests } = await runNode({ credentials: s.credentials, parameters: saved, typeVersion: 2, items: [{ json: order963 }] });
    expect(output[0][0].json).toMatchObject({ orderId: 963, externalId: 'wc-963', held: false, alreadyIssued: false, documentId: expect.any(Number) });
    expect(requests.every((request) => request.url.startsWith(s.sandbox.baseUrl))).toBe(true);
  });

  it('version 3 keeps version 2\'s forms: the same Client Details send the same request', async () => {
    const parameters: INodeParameters = {
      resource: 'document',
      operation: 'create',
      clientName: 'Maria Silva',
      clientDetails: { address: 'Rua Augusta 100', city: 'Lisboa', postalCode: '1100-053', legalName: 'Maria Silva' },
      lines: { line: [{ Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 1, TaxValue: 23 }] },
      waitForDocument: false,
    };
    const bodies = [];
    for (const typeVersion of [2, 3]) {
      const { output, requests } = await runNode({ credentials: s.credentials, parameters, typeVersion });
      expect(output[0][0].json.error).toBeUndefined();
      bodies.push((JSON.parse(requests[0].body ?? '{}') as { Client: unknown }).Client);
    }
    expect(bodies[0]).toMatchObject({ Address: 'Rua Augusta 100', City: 'Lisboa', PostCode: '1100-053', LegalName: 'Maria Silva' });
    expect(bodies[1]).toEqual(bodies[0]);
  });

  it('version 3 without the shop credential fails as n8n fails a node whose credential is not set, and issues nothing', async () => {
    const sent: SentRequest[] = [];
    await expect(runNode({ credentials: s.credentials, parameters: saved, typeVersion: 3, items: [{ json: order963 }], sent })).rejects.toThrow(
      'Node does not have any credentials set for "magniFinanceWooCommerceApi"',
    );
    expect(sent).toEqual([]);
  });
});
