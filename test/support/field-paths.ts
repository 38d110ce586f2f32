/**
 * The tests that hold a hand proof to zod's answer (test/law/*-fast-path, test/client/common-answers)
 * vary every field of a full value: each path to a field, and a copy with one field changed or gone.
 */

export type FieldPath = (string | number)[];

/** Every path to a field of `value` (keys of objects, indexes of lists), nested ones too. */
export function fieldPaths(value: unknown, at: FieldPath = []): FieldPath[] {
  if (value === null || typeof value !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => [[...at, key], ...fieldPaths((value as Record<string | number, unknown>)[key], [...at, key])]);
}

/** A copy of `input` with the field at `path` set to `value`, or removed. */
export function withField(input: unknown, path: FieldPath, value: unknown, remove = false): unknown {
  const copy = structuredClone(input) as Record<string | number, unknown>;
  let holder = copy;
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove) delete holder[last];
  else holder[last] = value;
  return copy;
}
