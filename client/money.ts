/**
 * Exact decimal arithmetic for money. A Decimal is `units × 10^-scale` with bigint units, so
 * "0.1" + "0.2" is exactly "0.3" and nothing ever passes through binary floating point.
 *
 * The one rounding rule of the package is half away from zero (1.005 -> 1.01, -1.005 -> -1.01),
 * the rule Portuguese invoicing software and WooCommerce's `round()` both use.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_TEXT = /^([+-])?(\d+)(?:[.,](\d+))?$/;

/** 10^0 .. 10^40 made once: the law and the sandbox align and round amounts thousands of times per order. */
const POWERS_OF_TEN: readonly bigint[] = Array.from({ length: 41 }, (_, n) => 10n ** BigInt(n));

function pow10(n: number): bigint {
  return n < POWERS_OF_TEN.length ? POWERS_OF_TEN[n] : 10n ** BigInt(n);
}

/** Digits held in a double's integer part exactly (2^53 > 10^15). */
const EXACT_DIGITS = 15;
const ZERO_CODE = 48;
const NO_DECIMAL = Symbol('not a decimal');

/**
 * DECIMAL_TEXT read by hand (the regex, `BigInt` of the joined digits and the sign were most of
 * parseDecimal's time): the same texts accepted (ASCII digits, one `.` or `,` between digits, an
 * optional sign), the same units and scale; NO_DECIMAL where the regex would not match.
 */
function readDecimalText(text: string): Decimal | typeof NO_DECIMAL {
  const end = text.length;
  let at = 0;
  const first = text.charCodeAt(0);
  const negative = first === 45; // -
  if (negative || first === 43) at = 1; // +
  const wholeStart = at;
  let units = 0;
  while (at < end && isDigit(text.charCodeAt(at))) units = units * 10 + text.charCodeAt(at++) - ZERO_CODE;
  const wholeDigits = at - wholeStart;
  if (wholeDigits === 0) return NO_DECIMAL;
  let scale = 0;
  if (at < end) {
    const separator = text.charCodeAt(at);
    if (separator !== 46 && separator !== 44) return NO_DECIMAL; // . ,
    at += 1;
    const fractionStart = at;
    while (at < end && isDigit(text.charCodeAt(at))) units = units * 10 + text.charCodeAt(at++) - ZERO_CODE;
    scale = at - fractionStart;
    if (scale === 0 || at < end) return NO_DECIMAL;
  }
  if (wholeDigits + scale > EXACT_DIGITS) {
    const digits = scale === 0 ? text.slice(wholeStart) : text.slice(wholeStart, wholeStart + wholeDigits) + text.slice(end - scale);
    const exact = BigInt(digits);
    return decimal(negative ? -exact : exact, scale);
  }
  return decimal(BigInt(negative ? -units : units), scale);
}

function isDigit(code: number): boolean {
  return code >= ZERO_CODE && code <= 57;
}

/** Below this, a double's spacing is under 10^-places, so its shortest text is toFixed(places) (no tie between two texts). */
const TIE_FREE_BELOW = 2 ** 51;

/**
 * A finite non-integer's `toFixed(decimalPlacesOf(value))`, read without toFixed and the regex
 * when that text is its shortest one (`String(value)`): true whenever the double's spacing is
 * finer than the last decimal place, so the nearest text toFixed picks is the one String gives.
 * Beyond that (huge values, exponent notation) the general path below decides.
 */
function readShortNumber(value: number): Decimal | typeof NO_DECIMAL {
  const text = String(value);
  const dot = text.indexOf('.');
  if (dot === -1 || text.indexOf('e') !== -1) return NO_DECIMAL;
  const places = text.length - dot - 1;
  if (Math.abs(value) * 10 ** places >= TIE_FREE_BELOW) return NO_DECIMAL;
  return readDecimalText(text);
}

/** Parses "12.34", "12,34" (decimal comma), "-3", or a finite JS number (via its shortest text). */
export function parseDecimal(value: string | number): Decimal {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`Not a finite amount: ${value}`);
    if (Number.isSafeInteger(value)) return decimal(BigInt(value), 0);
    if (!Number.isInteger(value)) {
      const short = readShortNumber(value);
      if (short !== NO_DECIMAL) return short;
    }
    text = Number.isInteger(value) ? value.toFixed(0) : value.toFixed(decimalPlacesOf(value));
  } else {
    text = value.trim();
  }
  const read = readDecimalText(text);
  if (read === NO_DECIMAL) throw new RangeError(`Not a decimal amount: "${String(value)}"`);
  return read;
}

/** Shortest decimal places that reproduce the number exactly (handles 1e-7 style numbers). */
function decimalPlacesOf(value: number): number {
  const text = String(value);
  const exp = /e([+-]\d+)$/.exec(text);
  const mantissa = exp ? text.slice(0, exp.index) : text;
  const dot = mantissa.indexOf('.');
  const places = dot === -1 ? 0 : mantissa.length - dot - 1;
  return Math.min(100, Math.max(0, places - (exp ? Number(exp[1]) : 0)));
}

export function isDecimalText(value: string): boolean {
  return DECIMAL_TEXT.test(value.trim());
}

/**
 * The Decimal this module hands out: still `{units, scale}` for every function here and every
 * caller, and it prints and serialises as its decimal text ("20.00"): `JSON.stringify` gives the
 * string (a bigint alone would throw), `console.log` / util.inspect show it, `String()` too.
 */
class DecimalValue implements Decimal {
  constructor(
    readonly units: bigint,
    readonly scale: number,
  ) {}

  toString(): string {
    return formatDecimal(this, this.scale);
  }

  toJSON(): string {
    return formatDecimal(this, this.scale);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return formatDecimal(this, this.scale);
  }
}

export function decimal(units: bigint, scale: number): Decimal {
  return new DecimalValue(units, scale);
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale), scale];
}

export function add(a: Decimal, b: Decimal): Decimal {
  if (a.scale === b.scale) return decimal(a.units + b.units, a.scale);
  const [x, y, scale] = align(a, b);
  return decimal(x + y, scale);
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  if (a.scale === b.scale) return decimal(a.units - b.units, a.scale);
  const [x, y, scale] = align(a, b);
  return decimal(x - y, scale);
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return decimal(a.units * b.units, a.scale + b.scale);
}

export function negate(a: Decimal): Decimal {
  return decimal(-a.units, a.scale);
}

export function abs(a: Decimal): Decimal {
  return a.units < 0n ? negate(a) : a;
}

export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const x = a.scale >= b.scale ? a.units : a.units * pow10(b.scale - a.scale);
  const y = b.scale >= a.scale ? b.units : b.units * pow10(a.scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isZero(a: Decimal): boolean {
  return a.units === 0n;
}

/** Divides by 10^places exactly (percent -> fraction is `shift(p, 2)`). */
export function shift(a: Decimal, places: number): Decimal {
  return decimal(a.units, a.scale + places);
}

/** Rounds half away from zero to `places` decimals. */
export function round(a: Decimal, places: number): Decimal {
  if (a.scale <= places) return decimal(a.units * pow10(places - a.scale), places);
  const divisor = pow10(a.scale - places);
  const magnitude = a.units < 0n ? -a.units : a.units;
  let quotient = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) quotient += 1n;
  return decimal(a.units < 0n ? -quotient : quotient, places);
}

/** Exact division rounded half away from zero to `places` decimals. */
export function divide(a: Decimal, b: Decimal, places: number): Decimal {
  if (b.units === 0n) throw new RangeError('Division by zero');
  // a/b = (a.units / b.units) × 10^(b.scale - a.scale); compute with two guard digits beyond `places`.
  const extra = places + 2;
  const exponent = extra + b.scale - a.scale;
  const numerator = exponent >= 0 ? a.units * pow10(exponent) : a.units / pow10(-exponent);
  return round(decimal(numerator / b.units, extra), places);
}

/** Amount in cents (scale 2), rounded half away from zero. */
export function toCents(value: string | number | Decimal): bigint {
  const d = typeof value === 'object' ? value : parseDecimal(value);
  return round(d, 2).units;
}

export function fromCents(cents: bigint): Decimal {
  return decimal(cents, 2);
}

/** Plain text with a dot, trailing zeros kept to `minPlaces` ("12.30", "-0.05", "3"). */
export function formatDecimal(a: Decimal, minPlaces = 0): string {
  const trimmed = trimZeros(a, minPlaces);
  const negative = trimmed.units < 0n;
  const digits = (negative ? -trimmed.units : trimmed.units).toString().padStart(trimmed.scale + 1, '0');
  const whole = digits.slice(0, digits.length - trimmed.scale);
  const fraction = digits.slice(digits.length - trimmed.scale);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The service's decimal-comma text: "1234,50". */
export function formatDecimalComma(a: Decimal, places = 2): string {
  return formatDecimal(round(a, places), places).replace('.', ',');
}

function trimZeros(a: Decimal, minPlaces: number): Decimal {
  let { units, scale } = a;
  while (scale > minPlaces && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  if (scale < minPlaces) return decimal(units * pow10(minPlaces - scale), minPlaces);
  return decimal(units, scale);
}

/** For JSON output only: the nearest JS number (never used in arithmetic). */
export function toNumber(a: Decimal): number {
  return Number(formatDecimal(a));
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce(add, decimal(0n, 0));
}
