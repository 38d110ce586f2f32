import { failure, SandboxAnswer, ValidationErrorItem } from './envelope';
import type { Violation } from './validation/checker';

/**
 * Turns violations into the error envelope, one ErrorValue per answer: the specific value when
 * every violation belongs to it (7 TypeInvalid, 10 TaxExemptionDoesNotExist, 11
 * CurrencyDoesNotExist, 22 InvalidPercentage), otherwise `general`: 2 ValidationError, or for a
 * failed create 14 SaveFailed with the details (MagniFinance's public docs and the spec's error
 * table; `createFailure: 'validation-error'` keeps 2).
 */
export function violationAnswer(
  violations: readonly Violation[],
  withValue?: string,
  general: 'ValidationError' | 'SaveFailed' = 'ValidationError',
): SandboxAnswer {
  const categories = new Set(violations.map((v) => v.category));
  const only = categories.size === 1 ? [...categories][0] : 'ValidationError';
  const name = only === 'ValidationError' ? general : only;
  const items: ValidationErrorItem[] = violations.map(({ category: _category, ...item }) =>
    withValue === undefined ? item : { ...item, Value: item.Value ?? withValue },
  );
  // ErrorHumanReadable: the docs show "ValidationError" for a duplicate, whatever the value.
  return failure(name, name === 'ValidationError' || name === 'SaveFailed' ? 'ValidationError' : name, items);
}

/** The general ErrorValue of a failed create under the sandbox's `createFailure` setting. */
export function createFailureName(config: { createFailure: 'save-failed' | 'validation-error' }): 'SaveFailed' | 'ValidationError' {
  return config.createFailure === 'save-failed' ? 'SaveFailed' : 'ValidationError';
}

export function violation(type: string, field: string, detail: string, element = 0): Violation {
  return { Type: type, Field: field, ElementNumber: element, Detail: detail, category: 'ValidationError' };
}
