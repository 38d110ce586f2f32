/**
 * n8n's dateTime fields give ISO-like text ("2026-03-01T00:00:00" or with a zone). The service
 * wants the wall-clock date (yyyy-mm-dd) or date-time (yyyy-mm-ddThh:mm:ss) as the user typed it,
 * so the text is cut, never converted through a time zone. Text that is not a date passes through
 * unchanged, so the client's validation reports it under the field's name.
 */
const DATE_PREFIX = /^\d{4}-\d{2}-\d{2}(?:[T ](\d{2}:\d{2})(:\d{2})?)?/;

export function dateText(value: unknown): string {
  const text = String(value ?? '').trim();
  return DATE_PREFIX.test(text) ? text.slice(0, 10) : text;
}

export function dateTimeText(value: unknown): string {
  const text = String(value ?? '').trim();
  const match = DATE_PREFIX.exec(text);
  if (!match) return text;
  return `${text.slice(0, 10)}T${match[1] ?? '00:00'}${match[2] ?? ':00'}`;
}

/** Today's date in the workflow's time zone (a shop in Lisbon invoices on Lisbon's day). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

export function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/** True when a dateTime parameter was left empty. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}
