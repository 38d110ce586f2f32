import { add, compare, parseDecimal, subtract, type Decimal } from '../../client/money';

/**
 * parseDecimal reads texts and numbers by hand (issue 29: it ran thousands of times per order in
 * the law and the sandbox). These tests hold it to the reading it replaced, kept here word for word:
 * the regex, `toFixed` at the shortest text's places, `BigInt` of the joined digits.
 */
const REFERENCE_TEXT = /^([+-])?(\d+)(?:[.,](\d+))?$/;

function referenceParse(value: string | number): { units: bigint; scale: number } {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`Not a finite amount: ${value}`);
    text = Number.isInteger(value) ? value.toFixed(0) : value.toFixed(referencePlaces(value));
  } else {
    text = value.trim();
  }
  const match = REFERENCE_TEXT.exec(text);
  if (!match) throw new RangeError(`Not a decimal amount: "${String(value)}"`);
  const [, sign, whole, fraction = ''] = match;
  return { units: BigInt(whole + fraction) * (sign === '-' ? -1n : 1n), scale: fraction.length };
}

function referencePlaces(value: number): number {
  const text = String(value);
  const exp = /e([+-]\d+)$/.exec(text);
  const mantissa = exp ? text.slice(0, exp.index) : text;
  const dot = mantissa.indexOf('.');
  const places = dot === -1 ? 0 : mantissa.length - dot - 1;
  return Math.min(100, Math.max(0, places - (exp ? Number(exp[1]) : 0)));
}

type Reading = { units: bigint; scale: number } | { error: string };

function reading(parse: (value: string | number) => Decimal | { units: bigint; scale: number }, value: string | number): Reading {
  try {
    const { units, scale } = parse(value);
    return { units, scale };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** A repeatable stream of numbers in [0, 1) (mulberry32). */
function randomNumbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_NUMBERS = [
  0, -0, 1, -1, 0.1, 0.1 + 0.2, 1.005, 1.015, 2.675, 4.37, 13.9633333333, 1e-7, -1e-7, 5e-324, 1e-6, 123e-20,
  2 ** 50 + 0.25, 2 ** 50 + 0.75, -(2 ** 50 + 0.25), 2 ** 51 + 0.5, 2 ** 49 + 0.125, 2 ** 52 - 0.5, 2 ** 53, 2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e20, 1e21, 1.5e21, 123456789012.345678, 9007199254740.993,
  Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity, 0.000001234, 99999999999999.99, 0.30000000000000004,
];

const ODD_TEXTS = [
  '', ' ', '-', '+', '.5', '5.', '5,', ',5', '1.2.3', '1,2,3', '1.2,3', '--1', '+-1', '1e5', '1E5', '0x10', '1_000',
  'Infinity', 'NaN', '١٢', '１２', '12 34', ' 12.5 ', '\t-3,75\n', '+0', '-0', '-0.00', '007.50', '0.000', '12.',
  '123456789012345', '1234567890123456', '12345678901234567890.123456789', '-99999999999999999999', '9007199254740993',
  '0.1234567890123456789', '1234567890,12345', '1.', '1..2', '1 ', ' 1', 'a1', '1a', '１', '۱',
];

describe('parseDecimal reads every number as the regex and toFixed did', () => {
  it.each(ODD_NUMBERS.map((value) => [value]))('%p', (value) => {
    expect(reading(parseDecimal, value)).toEqual(reading(referenceParse, value));
  });

  it('agrees on 20,000 random amounts of every size and precision', () => {
    const random = randomNumbers(29);
    const disagreements: number[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      const places = Math.floor(random() * 13);
      const magnitude = 10 ** Math.floor(random() * 22 - 6);
      const raw = (random() - 0.3) * magnitude;
      const value = i % 3 === 0 ? raw : Math.round(raw * 10 ** places) / 10 ** places;
      if (JSON.stringify(reading(parseDecimal, value), bigintText) !== JSON.stringify(reading(referenceParse, value), bigintText)) disagreements.push(value);
    }
    expect(disagreements).toEqual([]);
  });
});

describe('parseDecimal reads every text as the regex did', () => {
  it.each(ODD_TEXTS.map((value) => [value]))('%p', (value) => {
    expect(reading(parseDecimal, value)).toEqual(reading(referenceParse, value));
  });

  it('agrees on 20,000 random texts, signs, separators and lengths', () => {
    const random = randomNumbers(7);
    const pick = (options: string | readonly string[]): string => options[Math.floor(random() * options.length)];
    const disagreements: string[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      let text = pick(['', '', '-', '+', ' ']);
      const length = 1 + Math.floor(random() * 24);
      for (let c = 0; c < length; c += 1) text += random() < 0.9 ? pick('0123456789') : pick('.,-+ e');
      if (JSON.stringify(reading(parseDecimal, text), bigintText) !== JSON.stringify(reading(referenceParse, text), bigintText)) disagreements.push(text);
    }
    expect(disagreements).toEqual([]);
  });
});

describe('add, subtract and compare at equal and different scales', () => {
  const values = ['0', '1.5', '-1.50', '2.675', '-0.001', '123456789012345678.9', '7'].map((text) => parseDecimal(text));
  const pairs = values.flatMap((a) => values.map((b) => [a, b] as const));

  it.each(pairs)('%s and %s', (a, b) => {
    const scale = Math.max(a.scale, b.scale);
    const x = a.units * 10n ** BigInt(scale - a.scale);
    const y = b.units * 10n ** BigInt(scale - b.scale);
    expect({ units: add(a, b).units, scale: add(a, b).scale }).toEqual({ units: x + y, scale });
    expect({ units: subtract(a, b).units, scale: subtract(a, b).scale }).toEqual({ units: x - y, scale });
    expect(compare(a, b)).toBe(x < y ? -1 : x > y ? 1 : 0);
  });
});

function bigintText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}
