/**
 * JSON writing for request bodies. Decimal fields given as text ("12.3456") are written as JSON
 * number literals character for character, so no amount ever passes through a binary float on its
 * way to the service. Everything else is ordinary JSON.
 */

/** The decimal fields of the spec's request resources. */
export const DECIMAL_FIELDS: ReadonlySet<string> = new Set([
  'UnitPrice',
  'Quantity',
  'TaxValue',
  'ProductDiscount',
  'EuroRate',
  'Retention',
]);

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** "007.50" is not a JSON number; "7.50" is. Trailing zeros are kept (they are valid JSON). */
function asNumberLiteral(text: string): string {
  return text.replace(/^(-?)0+(?=\d)/, '$1');
}

export function writeRequestJson(value: unknown, key?: string): string {
  if (typeof value !== 'object' || value === null) return writeWithDecimals(value, key);
  const decimals = decimalTextsIn(value, key);
  if (decimals === NOT_PLAIN) return writeWithDecimals(value, key);
  const json = JSON.stringify(value);
  if (decimals === 0) return json;
  // Each member written as a number loses the two quotes of its text.
  const literal = json.replace(DECIMAL_MEMBER, '"$1":$2');
  return json.length - literal.length === 2 * decimals ? literal : writeWithDecimals(value, key);
}

/**
 * A decimal member as JSON.stringify writes it (a decimal text needs no escaping). A quote inside
 * a text or a key is written \", so only a key holding a quote before a decimal field's name can
 * match outside a member: then the count differs from decimalTextsIn's and writeWithDecimals writes.
 */
const DECIMAL_MEMBER = new RegExp(`"(${[...DECIMAL_FIELDS].join('|')})":"(-?\\d+(?:\\.\\d+)?)"`, 'g');
const NOT_PLAIN = -1;
const LEADING_ZERO = /^-?0\d/;

/**
 * How many decimal texts the value holds in decimal fields, or NOT_PLAIN when JSON.stringify does
 * not write the rest as writeWithDecimals does (a non-finite number, a bigint, a symbol or function,
 * an undefined list element, an object that is not plain: toJSON, Date, a class; a decimal text
 * with a leading zero). The law writes
 * amounts as decimal text, so its requests take the native writer, their decimal texts turned into
 * numbers after it: one walk and one replace instead of a string per value (issue 29).
 */
function decimalTextsIn(value: unknown, key: string | undefined): number {
  switch (typeof value) {
    case 'string':
      if (key === undefined || !DECIMAL_FIELDS.has(key) || !DECIMAL_TEXT.test(value)) return 0;
      // "007.50" is written 7.50: the writer's own work (the law writes no such text).
      return LEADING_ZERO.test(value) ? NOT_PLAIN : 1;
    case 'number':
      return Number.isFinite(value) ? 0 : NOT_PLAIN;
    case 'boolean':
      return 0;
    case 'object': {
      if (value === null) return 0;
      let count = 0;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN;
        for (let i = 0; i < value.length; i += 1) {
          const inside = decimalTextsIn(value[i], undefined);
          if (inside === NOT_PLAIN) return NOT_PLAIN;
          count += inside;
        }
        return count;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return NOT_PLAIN;
      for (const name in value) {
        if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
        const member: unknown = (value as Record<string, unknown>)[name];
        if (member === undefined) continue;
        const inside = decimalTextsIn(member, name);
        if (inside === NOT_PLAIN) return NOT_PLAIN;
        count += inside;
      }
      return count;
    }
    default:
      return NOT_PLAIN;
  }
}

function writeWithDecimals(value: unknown, key?: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string') {
    if (key !== undefined && DECIMAL_FIELDS.has(key) && DECIMAL_TEXT.test(value)) return asNumberLiteral(value);
    return JSON.stringify(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${key ?? 'value'} is not a finite number`);
    return JSON.stringify(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) {
    // Inside a list, elements inherit no field name; lines are objects whose own keys decide.
    return `[${value.map((item) => (item === undefined ? 'null' : writeWithDecimals(item))).join(',')}]`;
  }
  if (typeof value === 'object') {
    const parts: string[] = [];
    for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
      if (member === undefined || typeof member === 'function') continue;
      parts.push(`${JSON.stringify(name)}:${writeWithDecimals(member, name)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return 'null';
}
