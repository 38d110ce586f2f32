import { failure, SandboxAnswer, ValidationErrorItem } from './envelope';
import type { Violation } from './validation/checker';

/**
 * Turns violations into the error envelope. ErrorValue is 2 ValidationError unless every
 * violation belongs to one specific error value (10 TaxExemptionDoesNotExist, 11
 * CurrencyDoesNotExist), as the service reports one ErrorValue per answer.
 */
export function violationAnswer(violations: readonly Violation[], withValue?: string): SandboxAnswer {
  const categories = new Set(violations.map((v) => v.category));
  const name = categories.size === 1 ? [...categories][0] : 'ValidationError';
  const items: ValidationErrorItem[] = violations.map(({ category: _category, ...item }) =>
    withValue === undefined ? item : { ...item, Value: item.Value ?? withValue },
  );
  return failure(name, name === 'ValidationError' ? 'ValidationError' : name, items);
}

export function violation(type: string, field: string, detail: string, element = 0): Violation {
  return { Type: type, Field: field, ElementNumber: element, Detail: detail, category: 'ValidationError' };
}
