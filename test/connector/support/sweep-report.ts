import type { SweepReport } from '../../../connector/core/sweep-report';

/** A sweep's report with only the findings a test names; the rest as a sweep that found nothing writes it. */
export function sweepReport(findings: Partial<SweepReport>): SweepReport {
  return { tenant: 'loja', since: '', until: '', scanned: 0, enqueued: [], resumed: [], waitingForPerson: [], reviewed: [], inactiveWebhooks: [], missingTopics: [], problems: [], ...findings };
}
