/**
 * What the Order Record "In the Shop" tests for a Shopify order share (shopify-order-record*.test.ts,
 * two files so jest runs their real 10 s waits side by side): a fresh fake Shopify holding the
 * taxes-included order and a fresh sandbox for each test, the node run with the package's Shopify
 * credential, and readers of the order's app metafields and the service's documents.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FakeShopify, type JsonObject } from '../../support/fake-shopify';
import { TAXES_INCLUDED } from '../../platforms/shopify/fixtures/orders';
import { runNode, type RunResult } from './n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './sandbox';

export const ORDER = String(TAXES_INCLUDED.id);
export const wait = { waitForDocument: true, options: { firstCheckAfterSeconds: 10, checkIntervalSeconds: 1, waitTimeoutSeconds: 30 } };
export const invoice: INodeParameters = { resource: 'document', operation: 'createFromOrder', shopPlatform: 'shopify', orderRecord: 'shop', ...wait };
export const creditNote = (invoiceNumber: string): INodeParameters => ({
  resource: 'document',
  operation: 'createCreditNoteFromRefund',
  shopPlatform: 'shopify',
  orderRecord: 'shop',
  order: '={{ $json.order }}',
  refund: '={{ $json.refund }}',
  invoiceNumber,
  ...wait,
});

export interface SandboxDoc {
  id: number;
  status: string;
  client: { NIF: string };
  document: { ExternalId?: string };
}

export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 600; i += 1) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

export interface ShopifyRecord {
  /** This test's store and sandbox (new for each test). */
  readonly store: FakeShopify;
  readonly sandbox: NodeSandbox;
  run(parameters: INodeParameters, json: IDataObject, extra?: { cancel?: AbortController; executionId?: string; accessToken?: string }): Promise<RunResult>;
  /** The service's documents (drafts left out) under an External ID. */
  made(externalId: string): Promise<SandboxDoc[]>;
  /** The order's metafields in the app's own namespace, as the merchant's admin (and the connector) sees them. */
  metafields(): JsonObject[];
  metafield(key: string): string | undefined;
  /** The document id a claim metafield whose key starts with `prefix` names, once it names one. */
  namedDocument(prefix: string): number | undefined;
}

/** Registers the per-test store and sandbox (beforeEach / afterEach) of the calling test file. */
export function useShopifyRecord(): ShopifyRecord {
  let store: FakeShopify | undefined;
  let sandbox: NodeSandbox | undefined;
  beforeEach(async () => {
    store = new FakeShopify();
    await store.start();
    store.addOrder(TAXES_INCLUDED);
    sandbox = await startNodeSandbox();
  });
  afterEach(async () => {
    await store?.close();
    await sandbox?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the store and the sandbox start before each test');
    return value;
  };
  const record: ShopifyRecord = {
    get store() {
      return started(store);
    },
    get sandbox() {
      return started(sandbox);
    },
    run: (parameters, json, extra = {}) =>
      runNode({
        credentials: record.sandbox.credentials,
        shopify: { shopUrl: record.store.url, accessToken: extra.accessToken ?? record.store.accessToken },
        parameters,
        onError: 'continueErrorOutput',
        items: [{ json: structuredClone(json) }],
        ...(extra.cancel ? { cancel: extra.cancel } : {}),
        ...(extra.executionId ? { executionId: extra.executionId } : {}),
      }),
    made: async (externalId) =>
      ((await record.sandbox.admin('GET', '/documents')).body as { documents: SandboxDoc[] }).documents.filter((d) => d.status !== 'draft' && d.document.ExternalId === externalId),
    metafields: () => ((record.store.orders.get(ORDER)?.metafields ?? []) as JsonObject[]).filter((m) => String(m.namespace).startsWith('app--')),
    metafield: (key) => record.metafields().find((m) => m.key === key)?.value as string | undefined,
    namedDocument: (prefix) => {
      for (const m of record.metafields()) {
        if (!String(m.key).startsWith(prefix)) continue;
        const claim = JSON.parse(String(m.value)) as { documentId?: number };
        if (claim.documentId !== undefined) return claim.documentId;
      }
      return undefined;
    },
  };
  return record;
}
