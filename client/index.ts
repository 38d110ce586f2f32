/** Public surface of the MagniFinance client. */
export {
  MagniFinanceClient,
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUT_MS,
} from './rest-client';
export type {
  MagniFinanceClientOptions,
  CallOptions,
  CreateDocumentResult,
  CreateWaybillResult,
  AddPartnerResult,
  PartnerAccessToken,
  TaxIdValidationResult,
  FreshPdfLink,
  PartnerTokensForm,
  PartnerTokensOptions,
} from './rest-client';
export { DocumentNotNumberedError, MINIMUM_FIRST_READ_MS, plannedReadTimes } from './wait-for-document';
export type { WaitForDocumentOptions } from './wait-for-document';
export { MagniFinanceSoapClient, DEFAULT_SOAP_URL, DEFAULT_SOAP_NAMESPACE } from './soap-client';
export type { MagniFinanceSoapClientOptions, SoapCallOptions } from './soap-client';
export { readServiceDescription } from './soap-wsdl';
export type { SoapServiceDescription, SoapOperationDescription } from './soap-wsdl';
export type { RequestEvent, ResponseEvent } from './request-hooks';
// Reads process.env: exported here for Node users, never imported by the n8n bundle.
export { clientFromEnvironment, soapClientFromEnvironment, settingsFromEnvironment, ENVIRONMENT_VARIABLES } from './env';
export type { EnvironmentSettings } from './env';
export * as inputRules from './input-rules';
export { toDocumentDetails, exactTotals, parseServiceAmount } from './document-details';
export type { DocumentDetails } from './document-details';
export {
  MagniFinanceError,
  ApiError,
  AuthenticationError,
  RateLimitError,
  ElementDoesNotExistError,
  DocumentDuplicateError,
  ServiceValidationError,
  LocalValidationError,
  TransportTimeoutError,
  TransportNetworkError,
  ResponseFormatError,
} from './errors';
export type { ApiErrorDetails, LocalValidationIssue, ServiceErrorValue, ServiceValidationIssue } from './errors';
export { isValidPortugueseNif, portugueseNifCheckDigit, CONSUMER_NIF } from './nif';
export { shouldRetry, backoffDelayMs, parseRetryAfterMs, DEFAULT_RETRY } from './retry';
export type { RetryOptions, RetryContext } from './retry';
export { validateInput, formatIssuePath } from './local-validation';
export { writeRequestJson } from './request-body';
export type { Transport, TransportRequest, TransportResponse, HttpMethod } from './transport';
export * from './schemas';
export * as money from './money';
export { computeTotals } from './totals';
export type { DocumentTotals } from './totals';
