import { localeOf, type Lang } from './lang';

/**
 * Dates and times as a person reads them, always in the shop's time zone (an order paid at 00:30 in
 * Lisbon is that day's, whatever the server's zone), formatted once, with Intl.
 */

const dateTimes = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(lang: Lang, timeZone: string): Intl.DateTimeFormat {
  const key = `${lang}:${timeZone}`;
  let format = dateTimes.get(key);
  if (!format) {
    // Day, month and the whole year, as Portuguese documents and accountants write them (dd/mm/aaaa):
    // pt-PT's `dateStyle: 'short'` would give a two-digit year (29/03/26).
    format = new Intl.DateTimeFormat(localeOf(lang), { timeZone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
    dateTimes.set(key, format);
  }
  return format;
}

/** An instant as the shop sees it: "29/03/2026, 01:30" (pt), "29/03/2026, 01:30" (en-GB). */
export function shopDateTime(lang: Lang, at: number | Date, timeZone: string): string {
  return dateTimeFormat(lang, timeZone).format(at);
}

/** A calendar day (yyyy-mm-dd, already the shop's) as the reader writes it: 10/03/2026 in both languages. */
export function calendarDay(lang: Lang, day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  // Both locales write dd/mm/yyyy; Intl in UTC keeps the day as it is (no zone shifts a date).
  return new Intl.DateTimeFormat(localeOf(lang), { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' }).format(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}
