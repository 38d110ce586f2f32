import { ServiceValidationError } from '../../client/errors';
import { addDays, localDateTime } from '../../webhooks/woocommerce/shop-date';
import type { Ledger } from '../ledger';

/**
 * The day a document is issued: today in the shop's time zone, and never before the latest date
 * this tenant already issued (a worker whose clock runs a little ahead may have crossed midnight
 * first; the service refuses a date before the series' latest closed document).
 */
export async function issueDateFor(ledger: Ledger, tenant: string, timeZone: string, now: number): Promise<string> {
  const today = localDateTime(new Date(now), timeZone).date;
  const latest = await ledger.latestIssueDate(tenant);
  // A floor more than a day ahead is not a clock difference: dating into the future is not ours to do.
  return latest !== null && latest > today && latest <= addDays(today, 1) ? latest : today;
}

/**
 * MagniFinance refused the date: a closed document of the series has a later one (made in the
 * back-office, or by another installation). Returns that date when the service names it.
 */
export function laterSeriesDate(error: unknown): string | null | undefined {
  if (!(error instanceof ServiceValidationError)) return undefined;
  const issue = error.validationErrors.find((v) => v.Type === 'MustBePosteriorToMostCurrentClosedDocument');
  if (!issue) return undefined;
  return /\b(\d{4}-\d{2}-\d{2})\b/.exec(`${issue.Detail ?? ''} ${issue.Value ?? ''}`)?.[1] ?? null;
}
