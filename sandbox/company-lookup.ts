import { BUILT_IN_COMPANIES } from './company-registry';
import { elementDoesNotExist, failure, SandboxAnswer, success, ValidationErrorItem } from './envelope';
import { COUNTRY_CODES } from './reference-data';
import type { SandboxStore } from './store';
import { isValidTaxId, normaliseTaxId } from './tax-id';

/** Client Get and TaxId Validation: the service's tax id checks and its company register. */

function queryProblems(countryCode: string | undefined, taxId: string | undefined): ValidationErrorItem[] {
  const problems: ValidationErrorItem[] = [];
  if (!countryCode) problems.push({ Type: 'Required', Field: 'CountryCode', ElementNumber: 0, Value: '', Detail: 'countryCode is required' });
  else if (!COUNTRY_CODES.has(countryCode.toUpperCase())) {
    problems.push({ Type: 'InvalidCountryCode', Field: 'CountryCode', ElementNumber: 0, Value: countryCode, Detail: 'countryCode must be an ISO 3166-1 alpha-2 code' });
  }
  if (!taxId) problems.push({ Type: 'Required', Field: 'TaxId', ElementNumber: 0, Value: '', Detail: 'taxId is required' });
  return problems;
}

function invalidTaxId(taxId: string): ValidationErrorItem {
  return { Type: 'InvalidTaxId', Field: 'TaxId', ElementNumber: 0, Value: taxId, Detail: 'Invalid Tax Id' };
}

export function validateTaxId(countryCode: string | undefined, taxId: string | undefined): SandboxAnswer {
  const problems = queryProblems(countryCode, taxId);
  if (problems.length > 0) return failure('ValidationError', 'ValidationError', problems);
  if (!isValidTaxId(countryCode as string, taxId as string)) {
    return failure('InvalidTaxId', 'Invalid Tax Id', [invalidTaxId(taxId as string)]);
  }
  return success(null);
}

export function clientGet(store: SandboxStore, countryCode: string | undefined, taxId: string | undefined): SandboxAnswer {
  const problems = queryProblems(countryCode, taxId);
  if (problems.length > 0) return failure('ValidationError', 'ValidationError', problems);
  const country = (countryCode as string).toUpperCase();
  if (!isValidTaxId(country, taxId as string)) return failure('ValidationError', 'ValidationError', [invalidTaxId(taxId as string)]);
  const wanted = normaliseTaxId(taxId as string);
  const known = BUILT_IN_COMPANIES.find((c) => normaliseTaxId(c.NIF) === wanted && c.CountryCode === country);
  if (known) return success({ ...known });
  const account = country === 'PT' ? store.accountByTaxId(wanted) : undefined;
  if (account) {
    return success({
      NIF: account.taxId,
      Name: account.companyName,
      Address: account.address ?? '',
      City: account.city ?? '',
      PostCode: account.postCode ?? '',
      CountryCode: 'PT',
      PhoneNumber: '',
      CountryName: 'Portugal',
      LegalName: account.companyName,
      Email: account.email,
      IBAN: '',
    });
  }
  const answer = elementDoesNotExist(wanted);
  if (answer.envelope.ValidationErrors) {
    answer.envelope.ValidationErrors[0] = {
      Type: 'ElementDoesNotExist',
      Field: 'TaxId',
      ElementNumber: 0,
      Value: taxId as string,
      Detail: `No company registered with tax id ${taxId}`,
    };
  }
  return answer;
}
