/**
 * Pieces of a hand proof of a zod schema: a reading that gives zod's own output for a value in its
 * plain form, or FAIL where zod must decide (and word the refusal). Used where zod's walk of an
 * answer read on every order cost more than the work around it (issue 29): the service's answers
 * (common-answers.ts) and WooCommerce's order (platforms/woocommerce/order-fast-path.ts). Each use
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
  return reader(shape, true);
}

/** z.object: the shape's keys the input has, read in the shape's order; the others left out. */
export function known(shape: Record<string, Field>): Field {
  return reader(shape, false);
}

/**
 * Each shape gets a reader of its own, written from the shape's keys (our schema's names, quoted as
 * JSON text: nothing of the value read goes into the code): its property reads and writes then have
 * inline caches of their own. One closure shared by every shape had caches that had seen every
 * shape's keys (megamorphic), and took about three times as long on the shop's order (issue 29).
 */
function reader(shape: Record<string, Field>, copyOthers: boolean): Field {
  const keys = Object.keys(shape);
  const fields = keys.map((key) => shape[key] as Field);
  const names = new Set(keys);
  let body = 'if (!isRecord(input)) return FAIL;\nconst out = {};\nlet value;\n';
  keys.forEach((key, i) => {
    const name = JSON.stringify(key);
    body += `value = fields[${i}](input[${name}]);\nif (value === FAIL) return FAIL;\nif (value !== undefined || ${name} in input) out[${name}] = value;\n`;
  });
  if (copyOthers) body += 'for (const key of Object.keys(input)) if (!names.has(key)) out[key] = input[key];\n';
  body += 'return out;';
  const make = new Function('fields', 'names', 'FAIL', 'isRecord', `return function shapeReader(input) {\n${body}\n};`) as (fields: Field[], names: Set<string>, fail: typeof FAIL, record: typeof isRecord) => Field;
  return make(fields, names, FAIL, isRecord);
}

/** The same reading for each of `keys` (a schema's fields of one kind, its keys read from the schema's shape). */
export function eachOf(keys: readonly string[], field: Field): Record<string, Field> {
  return Object.fromEntries(keys.map((key) => [key, field]));
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
