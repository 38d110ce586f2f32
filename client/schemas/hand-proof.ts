/**
 * Pieces of a hand proof of a zod schema: a reading that gives zod's own output for a value in its
 * plain form, or FAIL where zod must decide (and word the refusal). Used where zod's walk of an
 * answer read on every order cost more than the work around it (issue 29): the service's answers
 * (common-answers.ts), WooCommerce's order (platforms/woocommerce/order-fast-path.ts) and the
 * document request (law/request-fast-path.ts). Each use
 * has a test holding it to zod's answer, as the same object and the same JSON text.
 */

/** A field's reading, or FAIL when the hand proof does not cover the value (zod decides). */
export type Field = (value: unknown) => unknown;
export const FAIL: unique symbol = Symbol('zod decides');

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** z.looseObject: the shape's keys read in order, the others copied after them. */
export function loose(shape: Record<string, Field>): Field {
  return objectReader(shape, true);
}

/** z.object: the shape's keys the input has, in the shape's order; the others left out. */
export function object(shape: Record<string, Field>): (input: unknown) => Record<string, unknown> | typeof FAIL {
  return objectReader(shape, false);
}

function objectReader(shape: Record<string, Field>, keepOthers: boolean): (input: unknown) => Record<string, unknown> | typeof FAIL {
  const keys = Object.keys(shape);
  const fields = keys.map((key) => shape[key] as Field);
  const known = new Set(keys);
  return (input) => {
    if (!isRecord(input)) return FAIL;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const value = (fields[i] as Field)(input[key]);
      if (value === FAIL) return FAIL;
      if (value !== undefined || key in input) out[key] = value;
    }
    if (keepOthers) {
      for (const key of Object.keys(input)) {
        if (!known.has(key)) out[key] = input[key];
      }
    }
    return out;
  };
}

/**
 * A z.looseObject read from its own shape: each field's reading found by the field's zod schema
 * (the shared types a schema file names, `byType`), or given for the others. The keys and their
 * order are the schema's, so a field added there is read here too; one of a type no reading covers
 * stops the module from loading instead of being proven wrongly.
 */
export function looseFromShape(shape: Record<string, unknown>, byType: ReadonlyMap<unknown, Field>, given: Record<string, Field> = {}): Field {
  const fields: Record<string, Field> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const field = given[key] ?? byType.get(schema);
    if (!field) throw new Error(`hand proof: no reading for the field ${key}`);
    fields[key] = field;
  }
  return loose(fields);
}

/** z.array(item), or with `absentAsEmpty` z.array(item).optional().transform((l) => l ?? []). */
export function list(item: Field, absentAsEmpty: boolean): Field {
  return (value) => {
    if (value === undefined) return absentAsEmpty ? [] : FAIL;
    if (!Array.isArray(value)) return FAIL;
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const read = item(value[i]);
      if (read === FAIL) return FAIL;
      out[i] = read;
    }
    return out;
  };
}

/** `.nullish()`: undefined and null as they are, anything else read by `field`. */
export function nullish(field: Field): Field {
  return (value) => (value === undefined || value === null ? value : field(value));
}

export const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
