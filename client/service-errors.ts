import {
  ApiError,
  ApiErrorDetails,
  AuthenticationError,
  DocumentDuplicateError,
  ElementDoesNotExistError,
  RateLimitError,
  ServiceValidationError,
} from './errors';

/**
 * From a failed answer (REST envelope or SOAP Response, already normalised) to the one error
 * class that says what went wrong. Shared by both clients so REST and SOAP fail the same way.
 */
const AUTHENTICATION_ERROR = 1;
const ELEMENT_DOES_NOT_EXIST = 6;
/** Error values whose cause is the request content (FACTS.md lists them from the public docs). */
const INPUT_ERROR_VALUES = new Set([2, 4, 7, 10, 11, 14, 18, 19, 22, 38]);

export function errorForFailure(details: ApiErrorDetails): ApiError {
  const value = details.errorValue?.Value;
  const name = details.errorValue?.Name;
  if (details.status === 401 || value === AUTHENTICATION_ERROR || name === 'AuthenticationError') {
    return new AuthenticationError(details);
  }
  if (details.status === 429) return new RateLimitError(details);
  if (value === ELEMENT_DOES_NOT_EXIST || name === 'ElementDoesNotExist') return new ElementDoesNotExistError(details);
  if (details.validationErrors.some((issue) => issue.Type === 'DocumentIsADuplicate')) {
    return new DocumentDuplicateError(details);
  }
  if ((value !== undefined && INPUT_ERROR_VALUES.has(value)) || details.validationErrors.length > 0) {
    return new ServiceValidationError(details);
  }
  return new ApiError(details);
}
