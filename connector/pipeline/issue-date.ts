import { addDays, localDateTime } from '../../law/shop-date';
import type { ServiceValidationError } from '../../client/errors';
import type { Ledger } from '../core/ledger';

/**
 * The legal date of a document is the day it is issued (CIVA art. 36), in the shop's time zone,
 * and a series only accepts dates on or after its latest closed document. So the connector dates
 * every document with the later of: today in the shop's zone, the latest date it has issued (or
 * learnt the service has) in that series, and, for a credit note, its invoice's date. The order's
 * own date stays on the document as information (the mapping puts it in the Description).
 */

/**
 * The last shop day answered per time zone and the UTC minute it holds for: every document asks for
 * today (its composition, the series' date), and Intl's formatting was most of that (issue 29).
 */
const todays = new Map<string, { minute: number; day: string }>();

export function shopToday(now: number, timeZone: string): string {
  const minute = Math.floor(now / 60_000);
  const known = todays.get(timeZone);
  if (known?.minute === minute) return known.day;
  // Kept for the rest of this UTC minute when the whole minute is one shop day at one UTC offset:
  // then the shop's clock runs straight through it and cannot pass a midnight (a zone's offset and
  // its changes come in whole minutes since 1972; an older odd-second offset simply fails the check).
  const start = minute * 60_000;
  const first = localDateTime(new Date(start), timeZone);
  const last = localDateTime(new Date(start + 59_000), timeZone);
  if (first.date === last.date && offsetOf(first, start) === offsetOf(last, start + 59_000)) {
    todays.set(timeZone, { minute, day: first.date });
    return first.date;
  }
  return localDateTime(new Date(now), timeZone).date;
}

/** The zone's offset at a whole-second instant, from its wall clock there (ms). */
function offsetOf(local: { date: string; time: string }, instant: number): number {
  return Date.parse(`${local.date}T${local.time}Z`) - instant;
}

/** The series a document lands in, as the ledger tracks dates: per document type and series name. */
export function seriesOf(type: string, serie: string | undefined): string {
  return `${type}:${serie ?? 'default'}`;
}

export interface IssueDate {
  /** The date to put on the document. */
  date: string;
  /** Set when `date` is after today: the document must wait until that shop day. */
  notBefore?: string;
}

/** Today, unless the series (or the invoice a credit note corrects) already carries a later date. */
export async function issueDateFor(
  ledger: Ledger,
  tenant: string,
  series: string,
  today: string,
  atLeast?: string,
): Promise<IssueDate> {
  const latest = await ledger.seriesDate(tenant, series);
  const floor = [latest, atLeast].filter((d): d is string => !!d).sort().pop();
  if (!floor || floor <= today) return { date: today };
  return { date: floor, notBefore: floor };
}

/** Milliseconds until the shop's calendar reaches `date` (0 when it already has), plus a minute of margin. */
export function msUntilShopDay(date: string, now: number, timeZone: string): number {
  if (shopToday(now, timeZone) >= date) return 0;
  // Walk forward by hours: time zones shift by whole or half hours; an hour's step is exact enough.
  let at = now;
  while (shopToday(at, timeZone) < date) at += 3_600_000;
  // Step back to the first minute of that day, within the last hour.
  while (shopToday(at - 60_000, timeZone) >= date) at -= 60_000;
  return at - now + 60_000;
}

/**
 * MustBePosteriorToMostCurrentClosedDocument: the series has a closed document dated after ours
 * (made in the back-office, or by another installation). The service's detail names that date
 * where it can; otherwise the earliest day that can work is tomorrow.
 */
export function laterDateFromRefusal(error: ServiceValidationError, documentDate: string): string | null {
  const issue = error.validationErrors.find((v) => v.Type === 'MustBePosteriorToMostCurrentClosedDocument');
  if (!issue) return null;
  const named = /\d{4}-\d{2}-\d{2}/.exec(`${issue.Detail ?? ''} ${error.message}`)?.[0];
  return named && named > documentDate ? named : addDays(documentDate, 1);
}
