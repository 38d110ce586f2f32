import { z } from 'zod';
import { DocumentDetails, toDocumentDetails } from './document-details';
import { ApiErrorDetails, MagniFinanceError, ResponseFormatError, ServiceValidationIssue, TransportNetworkError } from './errors';
import { validateInput } from './local-validation';
import type { AddPartnerResult, CallOptions, CreateDocumentResult, CreateWaybillResult } from './rest-client';
import { CreateDocumentRequestInput, SoapCreateDocumentRequestSchema } from './schemas/document';
import { PartnerInformation, PartnerInformationSchema } from './schemas/partner';
import { DocumentGetOutSchema } from './schemas/responses';
import { CreateWaybillRequestInput, SoapCreateWaybillRequestSchema } from './schemas/waybill';
import { callAbortable, notifyHook, RequestEvent, RequestHooks, ResponseEvent } from './request-hooks';
import { readServiceDescription, SoapServiceDescription } from './soap-wsdl';
import { errorForFailure } from './service-errors';
import {
  buildAddPartner,
  buildDocumentCreate,
  buildDocumentIdOperation,
  buildWaybillCreate,
  parseSoapXml,
  SoapEnvelopeOptions,
  XmlObject,
  XmlValue,
} from './soap-xml';
import type { Transport } from './transport';

export const DEFAULT_SOAP_URL = 'https://bo.magnifinance.com/MagniAPI/Invoicing.asmx';
export const DEFAULT_SOAP_NAMESPACE = 'http://MagniAPI/Invoicing/';

export interface MagniFinanceSoapClientOptions {
  email: string;
  token: string;
  soapUrl?: string;
  namespace?: string;
  transport?: Transport;
  timeoutMs?: number;
  /** '1.1' sends text/xml + SOAPAction (the spec's form); '1.2' sends application/soap+xml. */
  soapVersion?: '1.1' | '1.2';
  /** As for the REST client: false sends input unchecked and lets the service judge it. */
  validateLocally?: boolean;
  /** As for the REST client: called around every request, never given the credentials. */
  onRequest?: (event: RequestEvent) => void;
  onResponse?: (event: ResponseEvent) => void;
  /** The hooks' clock (ms); defaults to Date.now. */
  now?: () => number;
}

/** Per-call options of the SOAP client: as REST's, without retries (SOAP calls are made once). */
export type SoapCallOptions = Omit<CallOptions, 'maxRetries'>;

const SoapText = z.string();
const SoapErrorValueSchema = z.looseObject({ Value: z.coerce.number().int(), Name: SoapText });
const SoapValidationErrorSchema = z.looseObject({
  Type: SoapText,
  Field: SoapText.optional(),
  ElementNumber: SoapText.optional(),
  Value: SoapText.optional(),
  Detail: SoapText.optional(),
});

/** The Response element (values are XML text; empty elements parse as ""). */
const SoapResponseSchema = z.looseObject({
  RequestId: SoapText.optional(),
  Type: z.enum(['Success', 'Error', '0', '1'], { message: 'must be Success or Error' }),
  Object: z.unknown().optional(),
  ErrorValue: z.union([SoapErrorValueSchema, z.literal('')]).optional(),
  ErrorHumanReadable: SoapText.optional(),
  ValidationErrors: z
    .union([z.looseObject({ ValidationError: z.array(SoapValidationErrorSchema).optional() }), z.literal('')])
    .optional(),
});
type SoapResponse = z.infer<typeof SoapResponseSchema>;

const SoapCreateObjectSchema = z.looseObject({
  DocumentId: z.coerce.number().int(),
  DocumentNumber: SoapText.optional(),
  ErrorMessage: SoapText.optional(),
});

interface SoapAnswer {
  response: SoapResponse;
  status: number;
  rawBody: string;
}

function isObject(value: XmlValue | undefined): value is XmlObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Number fields of DocumentGetOut whose XML text must become numbers for the shared schema. */
const NUMBER_FIELDS = new Set([
  'Id', 'Amount', 'WithoutTax', 'Tax', 'Discount', 'Retention', 'AmountBeforeDiscountAndTax',
  'TotalAmountWithExchangeRate', 'TotalCreditAmount', 'TotalDebitAmount',
]);

/** SOAP DocumentGetOut -> the JSON shape REST gives, so one schema reads both. */
function jsonShape(value: XmlValue, name?: string, inTotalsOrDocument = false): unknown {
  if (Array.isArray(value)) return value.map((item) => jsonShape(item, undefined, inTotalsOrDocument));
  if (typeof value === 'string') {
    if (value === '') return null;
    if (name !== undefined && inTotalsOrDocument && NUMBER_FIELDS.has(name) && /^-?\d+(\.\d+)?$/.test(value)) {
      return Number(value);
    }
    return value;
  }
  if (name === 'Lines') return (Array.isArray(value.APIInvoicingProduct) ? value.APIInvoicingProduct : []).map((l) => jsonShape(l));
  const out: Record<string, unknown> = {};
  const numeric = name === 'Totals' || name === 'Document';
  for (const [key, member] of Object.entries(value)) out[key] = jsonShape(member, key, numeric);
  return out;
}

/**
 * The SOAP client: same inputs, results and errors as the REST client for the operations the
 * SOAP form has. Credentials travel in the body (Authentication), never in headers.
 */
export class MagniFinanceSoapClient {
  private readonly email: string;
  private readonly token: string;
  private readonly soapUrl: string;
  private readonly envelopeOptions: SoapEnvelopeOptions;
  private transport?: Transport;
  private readonly timeoutMs: number;
  private readonly validateLocally: boolean;
  private readonly hooks: RequestHooks;
  private readonly now: () => number;

  constructor(options: MagniFinanceSoapClientOptions) {
    this.email = options.email;
    this.token = options.token;
    this.soapUrl = options.soapUrl ?? DEFAULT_SOAP_URL;
    this.envelopeOptions = { namespace: options.namespace ?? DEFAULT_SOAP_NAMESPACE, soapVersion: options.soapVersion ?? '1.1' };
    if (options.transport) this.transport = options.transport;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.validateLocally = options.validateLocally ?? true;
    this.hooks = {};
    if (options.onRequest) this.hooks.onRequest = options.onRequest;
    if (options.onResponse) this.hooks.onResponse = options.onResponse;
    this.now = options.now ?? Date.now;
  }

  /** Unchecked input is still written field by field in spec order (the builder reads known names). */
  private checked<S extends z.ZodType>(schema: S, input: z.input<S>): z.output<S> {
    return this.validateLocally ? validateInput(schema, input) : (input as z.output<S>);
  }

  /** DocumentReference may have 100 characters here (S(100) in SOAP) and IsToClose any xsd:boolean. */
  async documentCreate(request: CreateDocumentRequestInput, options?: SoapCallOptions): Promise<CreateDocumentResult> {
    const valid = this.checked(SoapCreateDocumentRequestSchema, request);
    const answer = await this.call('DocumentCreate', buildDocumentCreate(valid, this.credentials(options), this.envelopeOptions), options);
    const object = this.parseObject(SoapCreateObjectSchema, answer);
    return { documentId: object.DocumentId, errorMessage: object.ErrorMessage || null, requestId: answer.response.RequestId ?? null };
  }

  async waybillCreate(request: CreateWaybillRequestInput, options?: SoapCallOptions): Promise<CreateWaybillResult> {
    const valid = this.checked(SoapCreateWaybillRequestSchema, request);
    const answer = await this.call('WaybillCreate', buildWaybillCreate(valid, this.credentials(options), this.envelopeOptions), options);
    const object = this.parseObject(SoapCreateObjectSchema, answer);
    const result: CreateWaybillResult = {
      documentId: object.DocumentId,
      errorMessage: object.ErrorMessage || null,
      requestId: answer.response.RequestId ?? null,
    };
    if (object.DocumentNumber) result.documentNumber = object.DocumentNumber;
    return result;
  }

  async addPartner(information: PartnerInformation, options?: SoapCallOptions): Promise<AddPartnerResult> {
    const valid = this.checked(PartnerInformationSchema, information);
    const answer = await this.call('AddPartner', buildAddPartner(valid, this.credentials(options), this.envelopeOptions), options);
    return { requestId: answer.response.RequestId ?? null, object: answer.response.Object ?? null };
  }

  async documentGet(documentId: number, options?: SoapCallOptions): Promise<DocumentDetails> {
    validateInput(z.number().int().positive({ message: 'must be a positive integer' }), documentId, 'documentId');
    const answer = await this.call(
      'DocumentGet',
      buildDocumentIdOperation('DocumentGet', documentId, this.credentials(options), this.envelopeOptions),
      options,
    );
    const object = answer.response.Object;
    const shaped = isObject(object as XmlValue) ? jsonShape(object as XmlObject) : object;
    const parsed = DocumentGetOutSchema.safeParse(shaped);
    if (!parsed.success) {
      throw new ResponseFormatError(`Unexpected DocumentGet Object: ${parsed.error.message}`, answer.status, answer.rawBody);
    }
    return toDocumentDetails(parsed.data);
  }

  async documentCancel(documentId: number, options?: SoapCallOptions): Promise<void> {
    validateInput(z.number().int().positive({ message: 'must be a positive integer' }), documentId, 'documentId');
    await this.call(
      'DocumentCancel',
      buildDocumentIdOperation('DocumentCancel', documentId, this.credentials(options), this.envelopeOptions),
      options,
    );
  }

  /**
   * Reads the endpoint's WSDL (`GET <soapUrl>?wsdl`): its operations, their messages and SOAP
   * actions, its namespace and addresses. Check it before pointing the client at a new endpoint.
   */
  async describeService(options?: SoapCallOptions): Promise<SoapServiceDescription> {
    const signal = options?.signal;
    signal?.throwIfAborted();
    const transport = await this.transportInUse();
    const url = `${this.soapUrl}?wsdl`;
    let response;
    try {
      response = await callAbortable(
        transport,
        { method: 'GET', url, headers: { accept: 'text/xml' }, timeoutMs: options?.timeoutMs ?? this.timeoutMs, ...(signal ? { signal } : {}) },
        signal,
      );
    } catch (thrown) {
      if (signal?.aborted) throw signal.reason;
      if (thrown instanceof MagniFinanceError) throw thrown;
      throw new TransportNetworkError(`GET ${url} failed: ${String(thrown)}`, undefined, { cause: thrown });
    }
    if (response.status >= 400) {
      throw errorForFailure({ status: response.status, requestId: null, errorHumanReadable: null, validationErrors: [], rawBody: response.body });
    }
    return readServiceDescription(response.body, response.status);
  }

  private credentials(options?: SoapCallOptions): { email: string; token: string } {
    return { email: this.email, token: options?.token ?? this.token };
  }

  private async call(operation: string, xml: string, options?: SoapCallOptions): Promise<SoapAnswer> {
    const { namespace, soapVersion } = this.envelopeOptions;
    const action = `${namespace}${namespace.endsWith('/') ? '' : '/'}${operation}`;
    const headers: Record<string, string> =
      soapVersion === '1.2'
        ? { 'content-type': `application/soap+xml; charset=utf-8; action="${action}"` }
        : { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${action}"` };
    const signal = options?.signal;
    signal?.throwIfAborted();
    const transport = await this.transportInUse();
    const event = { method: 'POST' as const, url: this.soapUrl, attempt: 1 };
    const startedAt = this.now();
    notifyHook(this.hooks.onRequest, event);
    let status: number;
    let rawBody: string;
    try {
      const response = await callAbortable(
        transport,
        { method: 'POST', url: this.soapUrl, headers, body: xml, timeoutMs: options?.timeoutMs ?? this.timeoutMs, ...(signal ? { signal } : {}) },
        signal,
      );
      status = response.status;
      rawBody = response.body;
    } catch (thrown) {
      if (signal?.aborted) throw signal.reason;
      const error =
        thrown instanceof MagniFinanceError
          ? thrown
          : new TransportNetworkError(`SOAP ${operation} failed: ${String(thrown)}`, undefined, { cause: thrown });
      notifyHook(this.hooks.onResponse, { ...event, durationMs: this.now() - startedAt, requestId: null, error });
      throw error;
    }
    let response: SoapResponse;
    try {
      response = readResponse(operation, status, rawBody);
    } catch (error) {
      notifyHook(this.hooks.onResponse, { ...event, status, durationMs: this.now() - startedAt, requestId: null, error: error as Error });
      throw error;
    }
    notifyHook(this.hooks.onResponse, { ...event, status, durationMs: this.now() - startedAt, requestId: response.RequestId ?? null });
    const failed = response.Type === 'Error' || response.Type === '1';
    if (failed || status >= 400) throw errorForFailure(failureDetails(response, status, rawBody));
    return { response, status, rawBody };
  }

  private parseObject<S extends z.ZodType>(schema: S, answer: SoapAnswer): z.output<S> {
    const parsed = schema.safeParse(answer.response.Object);
    if (parsed.success) return parsed.data;
    throw new ResponseFormatError(`Unexpected Object in the SOAP answer: ${parsed.error.message}`, answer.status, answer.rawBody);
  }

  private async transportInUse(): Promise<Transport> {
    if (!this.transport) {
      const { createUndiciTransport } = await import('./undici-transport');
      this.transport = createUndiciTransport();
    }
    return this.transport;
  }
}

/** Finds <OperationResponse><Response> (or <OperationResult>) in the SOAP body and checks it. */
export function readResponse(operation: string, status: number, rawBody: string): SoapResponse {
  let tree: XmlObject;
  try {
    tree = parseSoapXml(rawBody);
  } catch (error) {
    return unreadable(`not XML (${String(error)})`, status, rawBody);
  }
  const envelope = tree.Envelope;
  const body = isObject(envelope) ? envelope.Body : undefined;
  if (!isObject(body)) return unreadable('no SOAP Body', status, rawBody);
  const fault = body.Fault;
  if (isObject(fault)) {
    // SOAP 1.1: faultcode/faultstring; SOAP 1.2: Code/Value and Reason/Text.
    const reason = fault.faultstring ?? (isObject(fault.Reason) ? fault.Reason.Text : undefined);
    const code = fault.faultcode ?? (isObject(fault.Code) ? fault.Code.Value : undefined);
    const text = typeof reason === 'string' ? reason : 'SOAP Fault';
    throw errorForFailure({
      status,
      requestId: null,
      errorHumanReadable: typeof code === 'string' && code !== '' ? `${code}: ${text}` : text,
      validationErrors: [],
      rawBody,
    });
  }
  const wrapper = body[`${operation}Response`];
  const inner = isObject(wrapper) ? (wrapper.Response ?? wrapper[`${operation}Result`]) : undefined;
  const parsed = SoapResponseSchema.safeParse(inner);
  if (!parsed.success) return unreadable(`no valid ${operation}Response/Response: ${parsed.error.message}`, status, rawBody);
  return parsed.data;
}

function unreadable(problem: string, status: number, rawBody: string): never {
  if (status >= 400) {
    throw errorForFailure({ status, requestId: null, errorHumanReadable: null, validationErrors: [], rawBody });
  }
  throw new ResponseFormatError(`The SOAP answer is not the service's: ${problem}`, status, rawBody);
}

function failureDetails(response: SoapResponse, status: number, rawBody: string): ApiErrorDetails {
  const items = response.ValidationErrors === '' ? [] : (response.ValidationErrors?.ValidationError ?? []);
  const validationErrors: ServiceValidationIssue[] = items.map((item) => {
    const issue: ServiceValidationIssue = {
      Type: item.Type,
      Field: item.Field ?? '',
      ElementNumber: item.ElementNumber === undefined || item.ElementNumber === '' ? null : elementNumber(item.ElementNumber),
      Detail: item.Detail ?? '',
    };
    if (item.Value !== undefined) issue.Value = item.Value;
    return issue;
  });
  const details: ApiErrorDetails = {
    status,
    requestId: response.RequestId ?? null,
    errorHumanReadable: response.ErrorHumanReadable || null,
    validationErrors,
    rawBody,
  };
  if (response.ErrorValue) {
    details.errorValue = { Value: response.ErrorValue.Value, Name: response.ErrorValue.Name };
  }
  const object = response.Object;
  if (isObject(object as XmlValue) && typeof (object as XmlObject).ErrorMessage === 'string') {
    details.errorMessage = (object as XmlObject).ErrorMessage as string;
  }
  return details;
}

/** REST gives ElementNumber as an int; keep SOAP's text as a number when it is one. */
function elementNumber(text: string): number | string {
  return /^-?\d+$/.test(text) ? Number(text) : text;
}
