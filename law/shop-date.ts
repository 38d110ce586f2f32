/**
 * Calendar days and local times in the shop's time zone, with Intl only (no date library): the
 * invoice date is the day the customer paid as the shop sees it, not the UTC day.
 */

export interface LocalDateTime {
  date: string; // yyyy-mm-dd
  time: string; // hh:mm:ss
}

/** Building an Intl.DateTimeFormat costs far more than using one: one per time zone. */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  return format;
}

export function localDateTime(instant: Date, timeZone: string): LocalDateTime {
  const parts = formatFor(timeZone).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '00';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}:${get('second')}` };
}

/** A WooCommerce *_gmt timestamp ("2024-05-01T22:30:00", UTC without a zone) as an instant. */
export function instantFromGmt(text: string): Date {
  const instant = new Date(`${text.slice(0, 19)}Z`);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Not a date: ${text}`);
  return instant;
}

/** yyyy-mm-dd plus whole days (calendar arithmetic in UTC, where no day has 23 hours). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const shifted = new Date(Date.UTC(y, m - 1, d + days));
  return shifted.toISOString().slice(0, 10);
}

export interface WooDatePair {
  local: string | null;
  gmt: string | null;
}

/**
 * The shop-local calendar day of a WooCommerce date. With the *_gmt field the zone is applied
 * exactly; without it (older payloads) the site-local text already is the shop's day.
 */
export function shopDay(pair: WooDatePair, timeZone: string): string | null {
  if (pair.gmt) return localDateTime(instantFromGmt(pair.gmt), timeZone).date;
  if (pair.local) return pair.local.slice(0, 10);
  return null;
}
