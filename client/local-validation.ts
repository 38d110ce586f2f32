import type { z } from 'zod';
import { LocalValidationError, LocalValidationIssue } from './errors';

/** zod path -> the service's way of naming a field: `Document.Lines[2].TaxValue`. */
export function formatIssuePath(path: readonly PropertyKey[], prefix?: string): string {
  let text = prefix ?? '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text === '' ? '(input)' : text;
}

/** Parses input with its schema or throws LocalValidationError listing every problem at once. */
export function validateInput<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues: LocalValidationIssue[] = result.error.issues.map((issue) => ({
    path: formatIssuePath(issue.path, prefix),
    message: issue.message,
  }));
  throw new LocalValidationError(issues);
}
