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
    return `[${value.map((item) => (item === undefined ? 'null' : writeRequestJson(item))).join(',')}]`;
  }
  if (typeof value === 'object') {
    const parts: string[] = [];
    for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
      if (member === undefined || typeof member === 'function') continue;
      parts.push(`${JSON.stringify(name)}:${writeRequestJson(member, name)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return 'null';
}
