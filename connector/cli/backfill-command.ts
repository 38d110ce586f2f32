import type { PerLang } from '../../messages/lang';
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
import { shopInstant } from '../../law/shop-date';
import { EXIT, loadConfigOrExplain, parseCommandArgs } from './command-line';

const HELP = `Usage: magnifinance backfill --config FILE [--env-file FILE] --tenant ID --from DATE --to DATE [--quiet]

Enqueues every order of the tenant created in [from, to) that is in a trigger status and has no
document yet. The workers (magnifinance connector work|all) issue them. Dates: YYYY-MM-DD or ISO;
a date or time without a zone is the shop's (settings.mapping.shopTimeZone, Europe/Lisbon by
default): --from 2024-07-01 starts at the shop's midnight. Orders sold before the go-live cut-off
are issued too (that is what a backfill is for); another system's document never.
Safe to run twice: orders already documented are skipped, jobs are deduplicated.
The secret references read the .env given with --env-file, else the .env beside the tenants file.
Exit code 0 when the orders are queued, 1 for a wrong option or a failure, 2 when the tenants file
or its .env is refused.
`;

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})?)?$/;

/** The label before the shop's console page, in the shop's language. */
const SHOP_PAGE: PerLang = { pt: 'Página da loja', en: "The shop's page" };

export async function runBackfillCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(
    {
      args,
      options: { config: { type: 'string' }, 'env-file': { type: 'string' }, tenant: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean' }, quiet: { type: 'boolean' } },
    },
    HELP,
  );
  if (!parsed) return EXIT.notDone;
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return EXIT.done;
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
    return EXIT.notDone;
  }
  const config = loadConfigOrExplain(values.config as string, values['env-file']);
  if (!config) return EXIT.configRefused;
  const tenantConfig = config.tenants.find((t) => t.id === values.tenant);
  if (!tenantConfig) {
    process.stderr.write(`No tenant "${values.tenant}" in ${values.config} (known: ${config.tenants.map((t) => t.id).join(', ')})\n`);
    return EXIT.notDone;
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
    process.stdout.write(`${summary} ${SHOP_PAGE[lang]}: ${page}\n`);
    for (const problem of report.problems) process.stdout.write(`  ! ${problem}\n`);
    return EXIT.done;
  } catch (error) {
    if (current) bar.stop();
    process.stderr.write(`Backfill stopped: ${(error as Error).message}\n`);
    return EXIT.notDone;
  } finally {
    await queue.close();
    await redis.quit().catch(() => redis.disconnect());
  }
}
