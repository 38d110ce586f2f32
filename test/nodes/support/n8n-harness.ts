/**
 * A small, real IExecuteFunctions for running the MagniFinance node outside n8n.
 *
 * What is real: n8n-workflow's Workflow (it fills parameter defaults from the node description,
 * exactly as n8n does when it loads a workflow), its expression engine (`={{ $json.x }}` resolves
 * against the input items), the credential's own `authenticate` and `test` definitions, and HTTP:
 * `helpers.httpRequestWithAuthentication` sends a real request over the network (fetch) with the
 * credential's headers applied, honouring `returnFullResponse`, `ignoreHttpStatusErrors`,
 * `encoding`, `qs`, `baseURL` and `timeout` the way n8n's request helper does.
 * Binary data is kept in the item, base64-encoded, as n8n-core does in its default in-memory mode.
 * What is left out: everything the node does not use (static data, sub-workflows).
 */
import type {
  Workflow,
  ICredentialDataDecryptedObject,
  IAdditionalCredentialOptions,
  IBinaryData,
  IDataObject,
  IExecuteFunctions,
  IHttpRequestOptions,
  INode,
  INodeExecutionData,
  INodeParameters,
  INodeType,
  INodeTypes,
  IRequestOptionsSimplified,
  JsonObject,
  NodeParameterValueType,
} from 'n8n-workflow';

import { resolve as resolvePath } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';

import type { MagniFinanceApi as MagniFinanceApiType } from '../../../credentials/MagniFinanceApi.credentials';
import type { MagniFinanceWooCommerceApi as MagniFinanceWooCommerceApiType } from '../../../credentials/MagniFinanceWooCommerceApi.credentials';
import type { MagniFinanceShopifyApi as MagniFinanceShopifyApiType } from '../../../credentials/MagniFinanceShopifyApi.credentials';
import type { MagniFinance as MagniFinanceType } from '../../../nodes/MagniFinance/MagniFinance.node';

/**
 * The node under test: the sources by default; with MAGNIFINANCE_N8N_PACKAGE set to the folder of
 * an installed n8n-nodes-magnifinance (node_modules/n8n-nodes-magnifinance), the built package's
 * bundles and the n8n-workflow installed beside it (CI runs the node tests so, once with
 * n8n-workflow 1.x and once with 2.x: scripts/test-n8n-package.sh).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- sources or installed package, chosen at run time */
const installed = process.env.MAGNIFINANCE_N8N_PACKAGE;
const fromPackage = (path: string): string => require.resolve(path, { paths: [installed as string] });
if (installed && !fromPackage('n8n-workflow').startsWith(resolvePath(installed, '..'))) {
  throw new Error(`MAGNIFINANCE_N8N_PACKAGE=${installed}: its n8n-workflow resolves outside the install (${fromPackage('n8n-workflow')})`);
}
const n8nWorkflow: typeof import('n8n-workflow') = installed ? require(fromPackage('n8n-workflow')) : require('n8n-workflow');
const { MagniFinance } = (
  installed ? require(`${installed}/dist/nodes/MagniFinance/MagniFinance.node.js`) : require('../../../nodes/MagniFinance/MagniFinance.node')
) as { MagniFinance: typeof MagniFinanceType };
const { MagniFinanceApi } = (
  installed ? require(`${installed}/dist/credentials/MagniFinanceApi.credentials.js`) : require('../../../credentials/MagniFinanceApi.credentials')
) as { MagniFinanceApi: typeof MagniFinanceApiType };
const { MagniFinanceWooCommerceApi } = (
  installed
    ? require(`${installed}/dist/credentials/MagniFinanceWooCommerceApi.credentials.js`)
    : require('../../../credentials/MagniFinanceWooCommerceApi.credentials')
) as { MagniFinanceWooCommerceApi: typeof MagniFinanceWooCommerceApiType };
const { MagniFinanceShopifyApi } = (
  installed ? require(`${installed}/dist/credentials/MagniFinanceShopifyApi.credentials.js`) : require('../../../credentials/MagniFinanceShopifyApi.credentials')
) as { MagniFinanceShopifyApi: typeof MagniFinanceShopifyApiType };
/* eslint-enable @typescript-eslint/no-require-imports */
const { NodeApiError, Workflow: WorkflowClass } = n8nWorkflow;
/** The error classes of the n8n-workflow the node runs with (for instanceof checks in tests). */
export const n8nErrors = { NodeApiError: n8nWorkflow.NodeApiError, NodeOperationError: n8nWorkflow.NodeOperationError };

export const NODE_TYPE = 'n8n-nodes-magnifinance.magniFinance';

export interface Credentials extends ICredentialDataDecryptedObject {
  email: string;
  token: string;
  baseUrl: string;
}

/** The MagniFinance: WooCommerce Shop API credential, and the test certificate the shop serves (trusted for its origin only). */
export interface ShopCredentials extends ICredentialDataDecryptedObject {
  url: string;
  consumerKey: string;
  consumerSecret: string;
}

/** The MagniFinance: Shopify Shop API credential (the fake Shopify's address and token). */
export interface ShopifyShopCredentials extends ICredentialDataDecryptedObject {
  shopUrl: string;
  accessToken: string;
}

export interface RunOptions {
  parameters: INodeParameters;
  credentials: Credentials;
  /** For Order Record "In the Shop". */
  shop?: { credentials: ShopCredentials; certificate: string };
  /** For Order Record "In the Shop" with Shop Platform "Shopify". */
  shopify?: ShopifyShopCredentials;
  /** Aborting it cancels the execution (n8n's Stop, or the process going away mid-run). */
  cancel?: AbortController;
  /** n8n's execution id (getExecutionId). */
  executionId?: string;
  items?: INodeExecutionData[];
  /** Same as `onError: 'continueRegularOutput'` (the node setting's older form). */
  continueOnFail?: boolean;
  /**
   * The node's "On Error" setting. `continueErrorOutput` gives the node a second (error) output and
   * moves failed items to it as n8n-core does after the node ran (`routeToErrorOutput`).
   */
  onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
  timezone?: string;
  /** Cancels the execution (its cancel signal) this many ms after the start, as n8n's Stop does. */
  cancelAfterMs?: number;
  /** Where the requests are logged as they are sent: the caller reads it when the run throws. */
  sent?: SentRequest[];
  /** The node's typeVersion in the workflow; the description's defaultVersion (what a new node gets) when left out. */
  typeVersion?: number;
}

/** Every request the node sent, as it went on the wire (auth headers included). */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** When it was sent (ms since epoch): lets tests check the 10 s rule before Get Document. */
  at: number;
}

export interface RunResult {
  output: INodeExecutionData[][];
  requests: SentRequest[];
}

const node = new MagniFinance();
const defaultVersion = node.description.defaultVersion ?? 1;
const nodeTypes: INodeTypes = {
  getByName: () => node as INodeType,
  getByNameAndVersion: () => node as INodeType,
  getKnownTypes: () => ({}),
};

function workflowFor(
  parameters: INodeParameters,
  timezone: string,
  typeVersion: number,
  onError?: INode['onError'],
): { workflow: Workflow; node: INode } {
  const definition: INode = {
    id: 'magnifinance-node',
    name: 'MagniFinance',
    type: NODE_TYPE,
    typeVersion,
    position: [0, 0],
    parameters,
    ...(onError ? { onError } : {}),
  };
  const workflow = new WorkflowClass({
    id: 'test-workflow',
    nodes: [definition],
    connections: {},
    active: false,
    nodeTypes,
    settings: { timezone },
  });
  return { workflow, node: workflow.getNode('MagniFinance') as INode };
}

function valueAt(source: INodeParameters, path: string): unknown {
  let current: unknown = source;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** n8n resolves `={{$credentials.x}}` in authenticate/test definitions with the decrypted data. */
function resolveWithCredentials(workflow: Workflow, n8nNode: INode, value: unknown, credentials: IDataObject): unknown {
  if (typeof value !== 'string' || !value.startsWith('=')) return value;
  return workflow.expression.getSimpleParameterValue(n8nNode, value, 'manual', { $credentials: credentials }, undefined, undefined);
}

function applyAuthentication(
  workflow: Workflow,
  n8nNode: INode,
  options: IHttpRequestOptions,
  credentials: IDataObject,
  auth: { properties: { headers?: IDataObject } } = new MagniFinanceApi().authenticate,
): IHttpRequestOptions {
  const headers: Record<string, string> = { ...((options.headers as Record<string, string>) ?? {}) };
  for (const [name, value] of Object.entries(auth.properties.headers ?? {})) {
    headers[name] = String(resolveWithCredentials(workflow, n8nNode, value, credentials));
  }
  return { ...options, headers };
}

function joinUrl(baseURL: string | undefined, url: string): string {
  if (!baseURL || /^https?:\/\//.test(url)) return url;
  return `${baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

/**
 * n8n's helper returns axios's response headers: an AxiosHeaders instance (a class with
 * `toJSON`), not a plain object. Mimicked so an adapter that expects a plain record fails here too.
 */
class AxiosLikeHeaders {
  [name: string]: unknown;

  constructor(values: Record<string, string>) {
    Object.assign(this, values);
  }

  toJSON(): Record<string, string> {
    return Object.fromEntries(Object.entries(this).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  }
}

/** n8n's request helper semantics, over a real HTTP call. */
async function sendOverHttp(
  n8nNode: INode,
  options: IHttpRequestOptions,
  log: SentRequest[],
  certificate?: string,
): Promise<unknown> {
  const url = new URL(joinUrl(options.baseURL, options.url));
  for (const [key, value] of Object.entries((options.qs as IDataObject) ?? {})) {
    url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = { ...((options.headers as Record<string, string>) ?? {}) };
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined && options.body !== null) {
    body = JSON.stringify(options.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  if (options.json && !Object.keys(headers).some((h) => h.toLowerCase() === 'accept')) headers.accept = 'application/json';
  const method = options.method ?? 'GET';
  log.push({ method, url: url.toString(), headers, ...(body !== undefined ? { body } : {}), at: Date.now() });
  let response: Response;
  try {
    const init = { method, headers, body: method === 'GET' ? undefined : body, signal: AbortSignal.timeout(options.timeout ?? 300_000) };
    // A shop served with a test certificate: trusted like a CA the machine knows (n8n checks certificates by default).
    response = certificate
      ? ((await undiciFetch(url, { ...init, dispatcher: trustingAgent(certificate) })) as unknown as Response)
      : await fetch(url, init);
  } catch (error) {
    // n8n's helper throws NodeApiError around axios's error, which carries the socket code
    // (ECONNREFUSED, ECONNABORTED for timeouts) on `code`; fetch buries it in `cause`.
    throw new NodeApiError(n8nNode, wireErrorLikeAxios(error) as unknown as JsonObject);
  }
  if (options.encoding === 'arraybuffer' && response.ok) {
    // n8n's helper hands back the body as a Buffer for encoding "arraybuffer".
    const data = Buffer.from(await response.arrayBuffer());
    return options.returnFullResponse ? { statusCode: response.status, headers: {}, body: data } : data;
  }
  const text = await response.text();
  if (!options.ignoreHttpStatusErrors && response.status >= 400) {
    throw new NodeApiError(n8nNode, { message: `Request failed with status code ${response.status}`, httpCode: String(response.status), body: text } as JsonObject);
  }
  let parsed: unknown = text;
  if (options.encoding !== 'text' && options.json !== false) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!options.returnFullResponse) return parsed;
  return {
    statusCode: response.status,
    statusMessage: response.statusText,
    headers: new AxiosLikeHeaders(Object.fromEntries(response.headers.entries())),
    body: parsed,
  };
}

const agents = new Map<string, Agent>();
function trustingAgent(certificate: string): Agent {
  let agent = agents.get(certificate);
  if (!agent) {
    agent = new Agent({ connect: { ca: certificate } });
    agents.set(certificate, agent);
  }
  return agent;
}

/** n8n's generic `authenticate` with `auth`: HTTP Basic from the credential's values. */
function applyBasicAuthentication(workflow: Workflow, n8nNode: INode, options: IHttpRequestOptions, credentials: IDataObject): IHttpRequestOptions {
  const auth = new MagniFinanceWooCommerceApi().authenticate.properties.auth;
  if (!auth) throw new Error('the shop credential has no basic auth');
  const user = String(resolveWithCredentials(workflow, n8nNode, auth.username, credentials));
  const password = String(resolveWithCredentials(workflow, n8nNode, auth.password, credentials));
  const headers = { ...((options.headers as Record<string, string>) ?? {}), authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
  return { ...options, headers };
}

function wireErrorLikeAxios(error: unknown): Error {
  // Duck-typed: under jest, fetch's errors come from another realm and fail `instanceof Error`.
  const failure = (error ?? {}) as { name?: unknown; message?: unknown; cause?: unknown };
  const message = typeof failure.message === 'string' ? failure.message : String(error);
  if (failure.name === 'TimeoutError' || failure.name === 'AbortError') {
    return Object.assign(new Error('timeout exceeded'), { code: 'ECONNABORTED' });
  }
  let cause: unknown = failure.cause;
  while (cause && typeof cause === 'object') {
    const link = cause as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof link.code === 'string') return Object.assign(new Error(message), { code: link.code });
    const first = Array.isArray(link.errors) ? (link.errors[0] as { code?: unknown } | undefined) : undefined;
    if (typeof first?.code === 'string') return Object.assign(new Error(message), { code: first.code });
    cause = link.cause;
  }
  return new Error(message);
}

/**
 * A node as n8n loads it from a saved workflow (its parameters as saved, defaults filled in by
 * n8n-workflow's Workflow for its typeVersion) and the credentials n8n then asks it for: the
 * node's credential descriptions whose displayOptions hold for those parameters
 * (NodeHelpers.displayParameter, the check the editor and the executor make).
 */
export function savedNode(parameters: INodeParameters, typeVersion: number): { parameters: INodeParameters; credentials: string[] } {
  const { node: n8nNode } = workflowFor(parameters, 'Europe/Lisbon', typeVersion);
  const credentials = (node.description.credentials ?? [])
    .filter((credential) => n8nWorkflow.NodeHelpers.displayParameter(n8nNode.parameters, credential, n8nNode, node.description))
    .map((credential) => credential.name);
  return { parameters: n8nNode.parameters, credentials };
}

export async function runNode(options: RunOptions): Promise<RunResult> {
  const items = options.items ?? [{ json: {} }];
  const timezone = options.timezone ?? 'Europe/Lisbon';
  const onError = options.onError ?? (options.continueOnFail ? 'continueRegularOutput' : undefined);
  const { workflow, node: n8nNode } = workflowFor(options.parameters, timezone, options.typeVersion ?? defaultVersion, onError);
  const requests: SentRequest[] = options.sent ?? [];
  const cancel = options.cancel ?? new AbortController();
  const stop = options.cancelAfterMs === undefined ? undefined : setTimeout(() => cancel.abort(), options.cancelAfterMs);

  const context = {
    getNode: () => n8nNode,
    getWorkflow: () => ({ id: workflow.id, name: workflow.name, active: false }),
    getInputData: () => items,
    getMode: () => 'manual',
    getTimezone: () => timezone,
    // n8n-core: true for both "Continue" settings of On Error.
    continueOnFail: () => onError === 'continueRegularOutput' || onError === 'continueErrorOutput',
    getExecutionCancelSignal: () => cancel.signal,
    getExecutionId: () => options.executionId ?? 'test-execution',
    getCredentials: async (type: string) => {
      if (type === 'magniFinanceWooCommerceApi' && options.shop) return { ...options.shop.credentials };
      if (type === 'magniFinanceShopifyApi' && options.shopify) return { ...options.shopify };
      // n8n: a node whose credential is not set fails with this message.
      if (type !== 'magniFinanceApi') throw new Error(`Node does not have any credentials set for "${type}"`);
      return { ...options.credentials };
    },
    getNodeParameter(name: string, itemIndex: number, fallbackValue?: unknown): NodeParameterValueType | object {
      const value = valueAt(n8nNode.parameters, name);
      if (value === undefined) {
        if (fallbackValue !== undefined) return fallbackValue as NodeParameterValueType;
        throw new Error(`Could not get parameter "${name}"`);
      }
      return workflow.expression.getParameterValue(
        value as NodeParameterValueType,
        null,
        0,
        itemIndex,
        n8nNode.name,
        items,
        'manual',
        {},
      );
    },
    helpers: {
      returnJsonArray(jsonData: IDataObject | IDataObject[]): INodeExecutionData[] {
        return (Array.isArray(jsonData) ? jsonData : [jsonData]).map((json) => ({ json }));
      },
      constructExecutionMetaData(
        inputData: INodeExecutionData[],
        metadata: { itemData: { item: number } | Array<{ item: number }> },
      ): INodeExecutionData[] {
        return inputData.map((data) => ({ ...data, pairedItem: metadata.itemData }));
      },
      /** n8n's plain request helper (no credential applied). */
      async httpRequest(requestOptions: IHttpRequestOptions): Promise<unknown> {
        return await sendOverHttp(n8nNode, requestOptions, requests);
      },
      /** As n8n-core's in-memory binary mode: the data base64-encoded in the item. */
      async prepareBinaryData(data: Buffer, fileName?: string, mimeType?: string): Promise<IBinaryData> {
        const extension = fileName?.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1) : undefined;
        return {
          data: data.toString('base64'),
          mimeType: mimeType ?? 'application/octet-stream',
          ...(fileName ? { fileName } : {}),
          ...(extension ? { fileExtension: extension } : {}),
          fileSize: `${data.length} B`,
        };
      },
      async httpRequestWithAuthentication(
        credentialsType: string,
        requestOptions: IHttpRequestOptions,
        additional?: IAdditionalCredentialOptions,
      ): Promise<unknown> {
        if (credentialsType === 'magniFinanceWooCommerceApi' && options.shop) {
          const shop = options.shop;
          return await sendOverHttp(n8nNode, applyBasicAuthentication(workflow, n8nNode, requestOptions, shop.credentials), requests, shop.certificate);
        }
        if (credentialsType === 'magniFinanceShopifyApi' && options.shopify) {
          return await sendOverHttp(n8nNode, applyAuthentication(workflow, n8nNode, requestOptions, options.shopify, new MagniFinanceShopifyApi().authenticate), requests);
        }
        if (credentialsType !== 'magniFinanceApi') throw new Error(`Unknown credential ${credentialsType}`);
        const credentials = (additional?.credentialsDecrypted?.data ?? options.credentials) as IDataObject;
        const authenticated = applyAuthentication(workflow, n8nNode, requestOptions, credentials);
        return await sendOverHttp(n8nNode, authenticated, requests);
      },
    },
  };

  // The node only touches the members above; the cast is the price of not faking the other ~80.
  try {
    const output = (await node.execute.call(context as unknown as IExecuteFunctions)) as INodeExecutionData[][];
    return { output: asN8nKeepsIt(onError === 'continueErrorOutput' ? routeToErrorOutput(output, items) : output), requests };
  } finally {
    clearTimeout(stop);
  }
}

/**
 * What n8n-core (1.123.81, WorkflowExecute.handleNodeErrorOutput) does with a node's items when
 * its On Error setting is "Continue (using error output)": the node gets one more output, the last;
 * an item counts as failed when `item.error` is set, or when its JSON is `error` alone (or `error`
 * and `message` alone; 2.41 also accepts `details` among them); a failed item moves to that last
 * output with its paired input item's JSON under its own. Every other item stays where the node
 * put it.
 */
function routeToErrorOutput(output: INodeExecutionData[][], input: INodeExecutionData[]): INodeExecutionData[][] {
  const failed = (item: INodeExecutionData): boolean => {
    const keys = Object.keys(item.json);
    if (item.error) return true;
    if (!item.json.error) return false;
    return keys.length === 1 || (keys.length === 2 && item.json.message !== undefined);
  };
  const errors: INodeExecutionData[] = [];
  const routed = output.map((items) =>
    items.filter((item) => {
      if (!failed(item)) return true;
      const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
      const source = typeof paired === 'object' && paired !== undefined ? input[paired.item] : undefined;
      errors.push(source ? { ...item, json: { ...source.json, ...item.json } } : item);
      return false;
    }),
  );
  return [...routed, errors];
}

/**
 * What n8n-core (same version) then keeps of every output item, whatever the setting: an item with
 * `item.error` set keeps `{ error: <its message> }` as its JSON and nothing else.
 */
function asN8nKeepsIt(output: INodeExecutionData[][]): INodeExecutionData[][] {
  return output.map((items) => items.map((item) => (item.error ? { ...item, json: { error: item.error.message } } : item)));
}

export interface CredentialTestResult {
  status: 'OK' | 'Error';
  message: string;
  httpStatus?: number;
}

/**
 * The credential's own test, as n8n runs it: its `test.request` with `authenticate` applied,
 * sent over HTTP; a non-2xx answer or a matching `responseSuccessBody` rule fails the test.
 */
/** The credential test's request with its expressions resolved, as n8n sends it. */
export function credentialTestRequest(credentials: Credentials): IHttpRequestOptions {
  const type = new MagniFinanceApi();
  const { workflow, node: n8nNode } = workflowFor({}, 'Europe/Lisbon', defaultVersion);
  const request = type.test.request as IRequestOptionsSimplified & IHttpRequestOptions;
  return {
    url: String(resolveWithCredentials(workflow, n8nNode, request.url, credentials)),
    baseURL: String(resolveWithCredentials(workflow, n8nNode, request.baseURL, credentials)),
    method: request.method ?? 'GET',
    qs: request.qs as IDataObject,
    json: true,
    returnFullResponse: true,
  };
}

export async function testCredential(credentials: Credentials): Promise<CredentialTestResult> {
  const type = new MagniFinanceApi();
  const { workflow, node: n8nNode } = workflowFor({}, 'Europe/Lisbon', defaultVersion);
  const resolved = credentialTestRequest(credentials);
  try {
    const answer = (await sendOverHttp(n8nNode, applyAuthentication(workflow, n8nNode, resolved, credentials), [])) as {
      statusCode: number;
      body: unknown;
    };
    for (const rule of type.test.rules ?? []) {
      if (rule.type !== 'responseSuccessBody') continue;
      if (valueAt(answer.body as INodeParameters, rule.properties.key) === rule.properties.value) {
        return { status: 'Error', message: rule.properties.message, httpStatus: answer.statusCode };
      }
    }
    return { status: 'OK', message: 'Connection successful!', httpStatus: answer.statusCode };
  } catch (error) {
    const httpCode = error instanceof NodeApiError && error.httpCode ? Number(error.httpCode) : undefined;
    return { status: 'Error', message: (error as Error).message, ...(httpCode ? { httpStatus: httpCode } : {}) };
  }
}

/**
 * An n8n expression (`={{ ... }}` or text with `{{ }}` parts) evaluated by n8n-workflow's expression
 * engine with `$json` = the given item, as a node downstream of it would see it.
 */
export function evaluateExpression(expression: string, json: IDataObject): unknown {
  const { workflow, node: n8nNode } = workflowFor({}, 'Europe/Lisbon', defaultVersion);
  return workflow.expression.getParameterValue(expression, null, 0, 0, n8nNode.name, [{ json }], 'manual', {});
}

/** The MagniFinance: Shopify Shop API credential's own test, as n8n runs it (its request resolved, its header applied, sent over HTTP). */
export async function testShopifyCredential(credentials: ShopifyShopCredentials): Promise<CredentialTestResult> {
  const type = new MagniFinanceShopifyApi();
  const { workflow, node: n8nNode } = workflowFor({}, 'Europe/Lisbon', defaultVersion);
  const request = type.test.request as IRequestOptionsSimplified & IHttpRequestOptions;
  const resolved: IHttpRequestOptions = {
    url: String(resolveWithCredentials(workflow, n8nNode, request.url, credentials)),
    baseURL: String(resolveWithCredentials(workflow, n8nNode, request.baseURL, credentials)),
    method: request.method ?? 'GET',
    body: request.body as IDataObject,
    json: true,
    returnFullResponse: true,
  };
  try {
    const answer = (await sendOverHttp(n8nNode, applyAuthentication(workflow, n8nNode, resolved, credentials, type.authenticate), [])) as { statusCode: number };
    return { status: 'OK', message: 'Connection successful!', httpStatus: answer.statusCode };
  } catch (error) {
    const httpCode = error instanceof NodeApiError && error.httpCode ? Number(error.httpCode) : undefined;
    return { status: 'Error', message: (error as Error).message, ...(httpCode ? { httpStatus: httpCode } : {}) };
  }
}
