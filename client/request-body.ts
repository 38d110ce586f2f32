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
  return isPlainJson(value, key) ? JSON.stringify(value) : writeWithDecimals(value, key);
}

/**
 * True when JSON.stringify writes what writeWithDecimals writes: no decimal text to turn into a
 * number, nothing the two treat differently (a non-finite number, a bigint, a symbol or function,
 * an undefined list element or top value, an object that is not plain: toJSON, Date, a class).
 * The law composes amounts as numbers, so the workers' requests take this path: one walk and the
 * native writer instead of a string per value (issue 29).
 */
function isPlainJson(value: unknown, key: string | undefined): boolean {
  switch (typeof value) {
    case 'string':
      return key === undefined || !DECIMAL_FIELDS.has(key) || !DECIMAL_TEXT.test(value);
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    case 'object':
      if (value === null) return true;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        for (let i = 0; i < value.length; i += 1) {
          const item: unknown = value[i];
          if (!isPlainJson(item, undefined)) return false;
        }
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const name in value) {
        if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
        const member: unknown = (value as Record<string, unknown>)[name];
        if (member !== undefined && !isPlainJson(member, name)) return false;
      }
      return true;
    default:
      return false;
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
