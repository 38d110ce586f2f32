import { randomUUID } from 'node:crypto';

/**
 * The service's common envelope and its error values. Every REST answer (and, as XML, every SOAP
 * answer) is built here so RequestId, Type, IsSuccess and IsError can never disagree.
 */

export const ErrorValues = {
  AuthenticationError: 1,
  ValidationError: 2,
  GeneralUnknownError: 3,
  InvalidTaxId: 4,
  ElementDoesNotExist: 6,
  TypeInvalid: 7,
  TaxExemptionDoesNotExist: 10,
  CurrencyDoesNotExist: 11,
  SaveFailed: 14,
  SerieDataNotMatch: 18,
  FailedToCreateNewProductUnit: 19,
  InvalidPercentage: 22,
  PartnershipNotFound: 38,
} as const;
export type ErrorName = keyof typeof ErrorValues;

export interface ValidationErrorItem {
  Type: string;
  Field: string;
  ElementNumber: number;
  Detail: string;
  /** Only on the read, cancel, tax-validation and client endpoints (as the spec lists it). */
  Value?: string;
}

export interface Envelope {
  RequestId: string;
  Type: 0 | 1;
  Object: unknown;
  ErrorValue: { Value: number; Name: ErrorName } | null;
  ErrorHumanReadable: string | null;
  ValidationErrors: ValidationErrorItem[] | null;
  IsSuccess: boolean;
  IsError: boolean;
}

/** An envelope together with the HTTP status the sandbox answers it with. */
export interface SandboxAnswer {
  status: number;
  envelope: Envelope;
}

export function success(object: unknown): SandboxAnswer {
  return {
    status: 200,
    envelope: {
      RequestId: randomUUID(),
      Type: 0,
      Object: object,
      ErrorValue: null,
      ErrorHumanReadable: null,
      ValidationErrors: null,
      IsSuccess: true,
      IsError: false,
    },
  };
}

/**
 * HTTP status per error value (the spec leaves the mapping open; docs/sandbox.md states it):
 * 401 authentication, 404 for things that do not exist, 500 for the generic server failure,
 * 400 for everything the caller can fix in the request.
 */
export function statusFor(name: ErrorName): number {
  switch (name) {
    case 'AuthenticationError':
      return 401;
    case 'ElementDoesNotExist':
    case 'PartnershipNotFound':
      return 404;
    case 'GeneralUnknownError':
      return 500;
    default:
      return 400;
  }
}

export function failure(
  name: ErrorName,
  humanReadable: string,
  validationErrors: ValidationErrorItem[] | null = null,
  object: unknown = null,
): SandboxAnswer {
  return {
    status: statusFor(name),
    envelope: {
      RequestId: randomUUID(),
      Type: 1,
      Object: object,
      ErrorValue: { Value: ErrorValues[name], Name: name },
      ErrorHumanReadable: humanReadable,
      ValidationErrors: validationErrors,
      IsSuccess: false,
      IsError: true,
    },
  };
}

export function authenticationFailure(): SandboxAnswer {
  return failure('AuthenticationError', 'Authentication failed: check the email and token');
}

export function elementDoesNotExist(documentId: string | number): SandboxAnswer {
  return failure('ElementDoesNotExist', 'ElementDoesNotExist', [
    {
      Type: 'ElementDoesNotExist',
      Field: 'DocumentId',
      ElementNumber: 0,
      Value: String(documentId),
      Detail: `Document ${documentId} does not exist`,
    },
  ]);
}

/** A closed document read before the service has numbered it: 6, as for an unknown id, with its own detail. */
export function notNumberedYet(documentId: string | number): SandboxAnswer {
  return failure('ElementDoesNotExist', 'ElementDoesNotExist', [
    {
      Type: 'ElementDoesNotExist',
      Field: 'DocumentId',
      ElementNumber: 0,
      Value: String(documentId),
      Detail: `Document ${documentId} is not available yet: read it at least 10 seconds after it was created`,
    },
  ]);
}

export function generalUnknownError(): SandboxAnswer {
  return failure('GeneralUnknownError', 'An unexpected error occurred. Please try again later.');
}
