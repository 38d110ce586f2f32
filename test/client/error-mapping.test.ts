import { ApiError, AuthenticationError, DocumentDuplicateError, ElementDoesNotExistError, ServiceValidationError } from '../../client';
import { errorForFailure } from '../../client/service-errors';

/** The spec's known error values (Errors section) and the class each becomes, REST and SOAP alike. */
describe('error values map to one class each', () => {
  const base = { requestId: 'r', errorHumanReadable: 'x', rawBody: '{}' };
  it.each([
    ['HTTP 401 without envelope', 401, undefined, [], AuthenticationError],
    ['1 AuthenticationError', 200, { Value: 1, Name: 'AuthenticationError' }, [], AuthenticationError],
    ['2 ValidationError', 400, { Value: 2, Name: 'ValidationError' }, [], ServiceValidationError],
    ['3 GeneralUnknownError', 500, { Value: 3, Name: 'GeneralUnknownError' }, [], ApiError],
    ['4 InvalidTaxId', 400, { Value: 4, Name: 'InvalidTaxId' }, [], ServiceValidationError],
    ['6 ElementDoesNotExist', 404, { Value: 6, Name: 'ElementDoesNotExist' }, [], ElementDoesNotExistError],
    ['14 SaveFailed', 400, { Value: 14, Name: 'SaveFailed' }, [], ServiceValidationError],
    ['38 PartnershipNotFound', 404, { Value: 38, Name: 'PartnershipNotFound' }, [], ServiceValidationError],
    [
      'DocumentIsADuplicate',
      400,
      { Value: 2, Name: 'ValidationError' },
      [{ Type: 'DocumentIsADuplicate', Field: 'DocumentDetailExternalId', ElementNumber: 0, Detail: 'Duplicate Document' }],
      DocumentDuplicateError,
    ],
    ['HTTP 502 without envelope', 502, undefined, [], ApiError],
  ])('%s', (_name, status, errorValue, validationErrors, errorClass) => {
    const error = errorForFailure({ ...base, status, validationErrors, ...(errorValue ? { errorValue } : {}) });
    expect(error).toBeInstanceOf(errorClass);
    expect(error.constructor).toBe(errorClass);
    expect(error).toMatchObject({ status, requestId: 'r', rawBody: '{}' });
    expect(error.name).toBe(errorClass.name);
  });

  it('the message names the error value, the fields and the request id', () => {
    const error = errorForFailure({
      ...base,
      status: 400,
      errorValue: { Value: 2, Name: 'ValidationError' },
      validationErrors: [{ Type: 'TooShort', Field: 'DocumentDetailDescription', ElementNumber: 0, Detail: 'too short' }],
    });
    expect(error.message).toBe('MagniFinance ValidationError (2): x - DocumentDetailDescription[0] TooShort (too short) [RequestId r]');
  });
});
