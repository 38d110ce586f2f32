import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { Ledger } from '../core/ledger';
import { createLogger } from '../core/logger';
import { ConnectorMetrics } from '../core/metrics';
import { buildTenantRuntime } from '../pipeline/tenant-runtime';
import { OrderHistory } from '../history/order-history';
import { sweepSummary } from '../words';
import { documentsQueue } from '../core/queues';
import { connectRedis } from '../core/redis-connection';
import { enqueueMissing, isoSeconds } from '../sweep/sweep';
import { localDateTime } from '../../law/shop-date';
import { loadConfigOrExplain } from './connector-command';

const HELP = `Usage: magnifinance backfill --config FILE --tenant ID --from DATE --to DATE

Enqueues every order of the tenant created in [from, to) that is in a trigger status and has no
document yet. The workers (magnifinance connector work|all) issue them. Dates: YYYY-MM-DD or ISO;
a date or time without a zone is the shop's (settings.mapping.shopTimeZone, Europe/Lisbon by
default): --from 2024-07-01 starts at the shop's midnight. Orders sold before the go-live cut-off
are issued too (that is what a backfill is for); another system's document never.
Safe to run twice: orders already documented are skipped, jobs are deduplicated.
`;

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

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})?)?$/;

export async function runBackfillCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { config: { type: 'string' }, tenant: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean' }, quiet: { type: 'boolean' } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const problems: string[] = [];
  if (!values.config) problems.push('--config FILE is required');
  if (!values.tenant) problems.push('--tenant ID is required');
  for (const name of ['from', 'to'] as const) {
    const value = values[name];
    if (!value || !DATE.test(value) || Number.isNaN(Date.parse(value))) problems.push(`--${name} must be a date like 2024-01-31`);
  }
  if (problems.length === 0 && shopInstant(values.to as string, 'UTC') <= shopInstant(values.from as string, 'UTC')) problems.push('--to must be after --from');
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n\n${HELP}`);
    return 1;
  }
  const config = loadConfigOrExplain(values.config as string);
  if (!config) return 2;
  const tenantConfig = config.tenants.find((t) => t.id === values.tenant);
  if (!tenantConfig) {
    process.stderr.write(`No tenant "${values.tenant}" in ${values.config} (known: ${config.tenants.map((t) => t.id).join(', ')})\n`);
    return 1;
  }
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn' });
  const redis = connectRedis(config.redis, 'worker', logger);
  const queue = documentsQueue(redis, config.redis.prefix, config.pipeline, config.retention);
  queue.on('error', () => undefined);
  const bar = new SingleBar({ format: '{status} |{bar}| {value}/{total} orders', hideCursor: true, noTTYOutput: true, notTTYSchedule: 2_000 }, Presets.shades_classic);
  const report = { scanned: 0, enqueued: [] as string[], resumed: [] as string[], waitingForPerson: [] as string[], problems: [] as string[] };
  let current = '';
  const runtime = buildTenantRuntime(tenantConfig);
  const zone = runtime.mapping.shopTimeZone;
  try {
    await enqueueMissing(
      runtime,
      {
        redis,
        prefix: config.redis.prefix,
        queue,
        ledger: new Ledger(redis, config.redis.prefix),
        metrics: new ConnectorMetrics({ defaultMetrics: false }),
        logger,
        // Each order sent to be issued is told in its story as received by a backfill.
        history: new OrderHistory(redis, config.redis.prefix, Math.round(config.retention.finishedLedgerDays * 86_400_000)),
      },
      // The listing's createdAfter is exclusive (WooCommerce's `after`): a second earlier makes --from inclusive, as [from, to) says.
      { createdAfter: isoSeconds(shopInstant(values.from as string, zone) - 1_000), createdBefore: isoSeconds(shopInstant(values.to as string, zone)), orderBy: 'id' },
      report,
      'backfill',
      ({ status, scanned, total }) => {
        if (values.quiet) return;
        if (status !== current) {
          if (current) bar.stop();
          current = status;
          bar.start(total, 0, { status: status.padEnd(10) });
        }
        bar.update(scanned, { status: status.padEnd(10) });
      },
    );
    if (current) bar.stop();
    // What was done, in the shop's language, and where to see the orders that wait for a person.
    const lang = tenantConfig.settings.language;
    const summary = sweepSummary(lang, { scanned: report.scanned, enqueued: report.enqueued.length, resumed: report.resumed.length, waitingForPerson: report.waitingForPerson.length });
    const page = `${config.server.publicUrl.replace(/\/+$/, '')}/console/${encodeURIComponent(tenantConfig.id)}`;
    process.stdout.write(`${summary} ${lang === 'pt' ? 'Página da loja' : "The shop's page"}: ${page}\n`);
    for (const problem of report.problems) process.stdout.write(`  ! ${problem}\n`);
    return 0;
  } catch (error) {
    if (current) bar.stop();
    process.stderr.write(`Backfill stopped: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await queue.close();
    await redis.quit().catch(() => redis.disconnect());
  }
}
