import { ApiForm, dateDay, isEmailAddress, PERCENTAGE_RANGE, readIsToClose } from '../../client/input-rules';
import { compare, formatDecimal, parseDecimal } from '../../client/money';
import type { ErrorName, ValidationErrorItem } from '../envelope';

/** A failed rule: the service's ValidationError item plus the ErrorValue it belongs to. */
export interface Violation extends ValidationErrorItem {
  category: ErrorName;
}

export type RawObject = Record<string, unknown>;

export function isRawObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const EXPONENT = /^[+-]?\d+(\.\d+)?[eE][+-]?\d+$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

function isRealDay(year: string, month: string, day: string): boolean {
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(Number(year), m, 0)).getUTCDate();
}

export function isDateTimeText(value: string): boolean {
  const m = DATETIME.exec(value);
  return m !== null && isRealDay(m[1], m[2], m[3]) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 60;
}

export function isEmailText(value: string): boolean {
  return isEmailAddress(value);
}

interface FieldRule {
  required?: boolean;
  max: number;
  element?: number;
  /** The ErrorValue this field's violations belong to (default ValidationError). */
  category?: ErrorName;
}

/**
 * Collects every violation of one request (the service reports them all at once, not the first).
 * Raw values arrive as strings (JSON numbers are kept as their literal text by json-body.ts, SOAP
 * is text anyway); an empty or blank optional value counts as absent, as empty SOAP elements do.
 */
export class Checker {
  readonly violations: Violation[] = [];

  add(type: string, field: string, detail: string, element = 0, category: ErrorName = 'ValidationError'): void {
    this.violations.push({ Type: type, Field: field, ElementNumber: element, Detail: detail, category });
  }

  /** S(n) text; returns the value when present and acceptable. */
  text(source: RawObject, key: string, field: string, rule: FieldRule): string | undefined {
    const element = rule.element ?? 0;
    const category = rule.category ?? 'ValidationError';
    const raw = source[key];
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
      if (rule.required) this.add('Required', field, `${key} is required`, element, category);
      return undefined;
    }
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
      this.add('InvalidFormat', field, `${key} must be text`, element, category);
      return undefined;
    }
    const value = String(raw);
    if (value.length > rule.max) {
      this.add('TooLong', field, `${key} must be at most ${rule.max} characters`, element, category);
      return undefined;
    }
    return value;
  }

  /** A decimal given as a JSON number or decimal text; returned as exact decimal text. */
  decimal(source: RawObject, key: string, field: string, required: boolean, element = 0): string | undefined {
    const raw = source[key];
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
      if (required) this.add('Required', field, `${key} is required`, element);
      return undefined;
    }
    const text = typeof raw === 'number' || typeof raw === 'string' ? String(raw).trim() : '';
    if (DECIMAL.test(text)) return formatDecimal(parseDecimal(text));
    if (EXPONENT.test(text) && Number.isFinite(Number(text))) return formatDecimal(parseDecimal(Number(text)));
    this.add('InvalidDecimal', field, `${key} must be a decimal number written with a dot`, element);
    return undefined;
  }

  /** A percentage in [0, 100]. */
  percentage(source: RawObject, key: string, field: string, required: boolean, element = 0): string | undefined {
    const value = this.decimal(source, key, field, required, element);
    if (value === undefined) return undefined;
    const d = parseDecimal(value);
    if (compare(d, parseDecimal(PERCENTAGE_RANGE.min)) < 0 || compare(d, parseDecimal(PERCENTAGE_RANGE.max)) > 0) {
      this.add('InvalidPercentage', field, `${key} must be a percentage between 0 and 100`, element, 'InvalidPercentage');
      return undefined;
    }
    return value;
  }

  date(source: RawObject, key: string, field: string, required: boolean): string | undefined {
    const value = this.text(source, key, field, { required, max: 10 + 9 });
    if (value === undefined) return undefined;
    // The service's own output writes dates as "yyyy-mm-ddT00:00:00"; that echo is accepted too (input-rules.ts).
    const day = dateDay(value);
    if (day === undefined) {
      this.add('InvalidDate', field, `${key} must be a date written yyyy-mm-dd`);
      return undefined;
    }
    return day;
  }

  dateTime(source: RawObject, key: string, field: string, required: boolean): string | undefined {
    const value = this.text(source, key, field, { required, max: 19 });
    if (value === undefined) return undefined;
    if (!isDateTimeText(value)) {
      this.add('InvalidDateTime', field, `${key} must be a date and time written yyyy-mm-ddThh:mm:ss`);
      return undefined;
    }
    return value;
  }

  /** true / false, the text "true" / "false" as the spec's samples send it, and in SOAP 1 / 0 (xsd:boolean). */
  boolean(source: RawObject, key: string, field: string, form: ApiForm): boolean | undefined {
    const raw = source[key];
    const flag = readIsToClose(raw, form);
    if (flag !== undefined) return flag;
    if (raw === undefined || raw === null || raw === '') this.add('Required', field, `${key} is required`);
    else this.add('InvalidFormat', field, `${key} must be true or false`);
    return undefined;
  }

  /** A positive integer id. */
  id(source: RawObject, key: string, field: string): number | undefined {
    const raw = source[key];
    if (raw === undefined || raw === null || raw === '' || raw === '0' || raw === 0) return undefined;
    const text = String(raw).trim();
    if (!/^\d{1,15}$/.test(text)) {
      this.add('InvalidFormat', field, `${key} must be a positive integer`);
      return undefined;
    }
    return Number(text);
  }

  object(source: RawObject, key: string, field: string): RawObject | undefined {
    const raw = source[key];
    if (isRawObject(raw)) return raw;
    if (raw === undefined || raw === null || raw === '') this.add('Required', field, `${key} is required`);
    else this.add('InvalidFormat', field, `${key} must be an object`);
    return undefined;
  }
}
