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
  // One pass over the parts (the first of each type), no closure and no search per field.
  let year, month, day, hour, minute, second: string | undefined;
  for (const part of formatFor(timeZone).formatToParts(instant)) {
    if (part.type === 'year') year ??= part.value;
    else if (part.type === 'month') month ??= part.value;
    else if (part.type === 'day') day ??= part.value;
    else if (part.type === 'hour') hour ??= part.value;
    else if (part.type === 'minute') minute ??= part.value;
    else if (part.type === 'second') second ??= part.value;
  }
  return { date: `${year ?? '00'}-${month ?? '00'}-${day ?? '00'}`, time: `${hour ?? '00'}:${minute ?? '00'}:${second ?? '00'}` };
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

/**
 * The days of the last zoned times placed, per time zone: the mapping asks for the same sale's
 * paid, completed and created days several times per document (its description, the tax's day, the
 * invoice's deadline), and each placing formats the instant with Intl. Bounded: cleared when full.
 */
const placedDays = new Map<string, Map<string, string>>();
const PLACED_DAYS_KEPT = 4_096;

/** An ISO time that names its zone ("Z", "+01:00"): an instant. */
const ZONED = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The shop-local calendar day of a sale's time (law/sale.ts `SaleTime`). An instant is placed in
 * the shop's zone exactly; a time without a zone (older payloads) already is the shop's day.
 */
export function shopDay(time: string | undefined, timeZone: string): string | null {
  if (!time) return null;
  if (!ZONED.test(time)) return time.slice(0, 10);
  const known = placedDays.get(timeZone)?.get(time);
  if (known !== undefined) return known;
  const instant = new Date(time);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Not a date: ${time}`);
  const day = localDateTime(instant, timeZone).date;
  let days = placedDays.get(timeZone);
  if (!days) placedDays.set(timeZone, (days = new Map()));
  if (days.size >= PLACED_DAYS_KEPT) days.clear();
  days.set(time, day);
  return day;
}

/** A date (or date-time) without a zone, read in the shop's time zone; one with a zone as it is. */
export function shopInstant(text: string, timeZone: string): number {
  if (/(Z|[+-]\d{2}:\d{2})$/.test(text)) return Date.parse(text);
  const wall = Date.parse(`${text.length === 10 ? `${text}T00:00:00` : text.length === 16 ? `${text}:00` : text}Z`);
  // The zone's offset at that wall time, read twice: the second read corrects a guess across a DST change.
  let instant = wall;
  for (let i = 0; i < 2; i += 1) {
    const local = localDateTime(new Date(instant), timeZone);
    instant = wall - (Date.parse(`${local.date}T${local.time}Z`) - instant);
  }
  return instant;
}

/** How far the zone's clock is ahead of UTC at an instant (ms; Lisbon in summer: one hour). */
function offsetAt(ms: number, timeZone: string): number {
  const { date, time } = localDateTime(new Date(ms), timeZone);
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi, s] = time.split(':').map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(ms / 1000) * 1000;
}

/**
 * The first instant of the shop's calendar day that holds `instant` (ms): the day's midnight in the
 * shop's zone, right on the days the clocks change (a day of 23 or 25 hours), which "now minus the
 * time since midnight" is not.
 */
export function startOfShopDay(instant: number, timeZone: string): number {
  const day = localDateTime(new Date(instant), timeZone).date;
  const [y, m, d] = day.split('-').map(Number);
  const midnightAsUtc = Date.UTC(y, m - 1, d);
  // The offset at midnight may differ from the offset now: ask it at the first guess, then again.
  let start = midnightAsUtc - offsetAt(midnightAsUtc, timeZone);
  start = midnightAsUtc - offsetAt(start, timeZone);
  // A zone whose clocks skip midnight itself: the day starts at the first instant that is that day.
  if (localDateTime(new Date(start), timeZone).date < day) start += 3_600_000;
  return start;
}
