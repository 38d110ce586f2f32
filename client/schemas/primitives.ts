import { z } from 'zod';
import { isDecimalText, parseDecimal, Decimal, compare } from '../money';
import { dateDay, COUNTRY_CODES, CURRENCY_CODES, CURRENCY_FORM, FIELD_MAX, isBlank, readIsToClose, sendToAddresses, ApiForm } from '../input-rules';

/** Type error text: "is required" when absent, otherwise what was expected. */
export function requiredAs(expected: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${expected}`) };
}

/** S(n) of the spec: a string of at most n characters. */
export function sized(max: number) {
  return z.string().max(max, { message: `must be at most ${max} characters` });
}

/** A required S(n): present, not blank, at most n characters. */
export function requiredText(max: number) {
  return z
    .string(requiredAs('text'))
    .max(max, { message: `must be at most ${max} characters` })
    .refine((value) => !isBlank(value), { message: 'must not be empty' });
}

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

const DATETIME_TEXT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** yyyy-mm-dd naming a day that exists (2026-02-30 fails); the service's own `…T00:00:00` echo too. */
export const DateText = z.string(requiredAs('text')).refine((value) => dateDay(value) !== undefined, {
  message: 'must be a real date written yyyy-mm-dd',
});

/** yyyy-mm-ddThh:mm:ss, a real date and a real time of day, no zone (the service's local time). */
export const DateTimeText = z.string(requiredAs('text')).refine(
  (value) => {
    const m = DATETIME_TEXT.exec(value);
    return (
      m !== null &&
      isRealDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
      Number(m[4]) < 24 &&
      Number(m[5]) < 60 &&
      Number(m[6]) < 60
    );
  },
  { message: 'must be a real date and time written yyyy-mm-ddThh:mm:ss' },
);

/**
 * A decimal given as a JS number or as decimal text with a dot ("12.3456"). The value is kept as
 * given so the client can write it to JSON verbatim (a string never goes through a float).
 */
export const DecimalInput = z.union(
  [
    z.number().refine(Number.isFinite, { message: 'must be a finite number' }),
    z.string().regex(/^-?\d+(\.\d+)?$/, { message: 'must be a decimal written with a dot, like 12.34' }),
  ],
  { message: 'must be a number or a decimal string' },
);
export type DecimalInput = z.infer<typeof DecimalInput>;

export function toDecimal(value: DecimalInput): Decimal {
  return parseDecimal(value);
}

/**
 * zod runs refinements even after the union itself failed (issues are continuable), so range
 * checks read the value defensively and leave malformed input to the union's own message.
 */
function decimalOrUndefined(value: unknown): Decimal | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  try {
    return parseDecimal(value);
  } catch {
    return undefined;
  }
}

/** A decimal within [min, max] (percentages). */
export function boundedDecimal(min: number, max: number) {
  return DecimalInput.refine(
    (value) => {
      const d = decimalOrUndefined(value);
      return d === undefined || (compare(d, parseDecimal(min)) >= 0 && compare(d, parseDecimal(max)) <= 0);
    },
    { message: `must be between ${min} and ${max}` },
  );
}

export const PositiveDecimal = DecimalInput.refine(
  (value) => {
    const d = decimalOrUndefined(value);
    return d === undefined || d.units > 0n;
  },
  { message: 'must be greater than 0' },
);

export const CountryCode = z
  .string(requiredAs('text'))
  .refine((code) => COUNTRY_CODES.has(code), { message: 'must be an ISO 3166-1 alpha-2 country code in capitals, like PT' });

export const CurrencyCode = z
  .string()
  .refine((code) => CURRENCY_FORM.test(code) && CURRENCY_CODES.has(code), {
    message: 'must be an ISO 4217 currency code in capitals, like EUR',
  });

/**
 * IsToClose: true or false; REST also takes the text "true"/"false" (the spec's samples send it),
 * SOAP any xsd:boolean (true, false, 1, 0). The client sends a boolean whatever it was given.
 */
export function isToCloseSchema(form: ApiForm) {
  return z.union([z.boolean(), z.string()], requiredAs('true or false')).transform((value, ctx) => {
    const flag = readIsToClose(value, form);
    if (flag === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    }
    return flag;
  });
}

/** Decimal-comma text of the service's read endpoints ("1234,50"); a dot and "1.234,50" tolerated. */
export const DecimalCommaText = z
  .string()
  .refine(
    (value) => {
      const compact = value.trim().replace(/[\s\u00a0]/g, '');
      return isDecimalText(compact) || /^-?\d{1,3}(\.\d{3})+,\d+$/.test(compact);
    },
    { message: 'must be decimal text like 1234,50' },
  );

/** SendTo: one e-mail address, or several separated by ";" or ",". */
export const SendToText = z
  .string()
  .max(FIELD_MAX.SendTo, { message: `must be at most ${FIELD_MAX.SendTo} characters` })
  .refine((value) => isBlank(value) || sendToAddresses(value) !== undefined, {
    message: 'must be an e-mail address (several may be separated by ; or ,)',
  });

/** Portuguese postal code: 4 digits, hyphen, 3 digits. */
export const PORTUGUESE_POSTCODE = /^\d{4}-\d{3}$/;

/**
 * An optional field where blank text counts as absent, as the service reads it (an empty SOAP
 * element, a shop's ""): the value is then left out of the request.
 */
export function optionalField<S extends z.ZodType>(schema: S) {
  return z
    .preprocess(
      (value: z.input<S> | undefined) => (typeof value === 'string' && isBlank(value) ? undefined : value),
      schema.optional(),
    )
    .optional();
}
