import { readFileSync } from 'node:fs';
import { Ledger } from '../core/ledger';
import { createLogger } from '../core/logger';
import { MONTH_TEXT, tenantMonthPack } from '../month/month-service';
import { packJson, packText } from '../month/month-render';
import { findingKind } from '../month/month-words';
import { SaftFileError } from '../month/saft-reader';
import { buildTenantRuntime } from '../pipeline/tenant-runtime';
import { connectRedis } from '../core/redis-connection';
import { EXIT, loadConfigOrExplain, parseCommandArgs } from './command-line';
import { LangSchema } from '../../messages/lang';

const HELP = `Usage: magnifinance month --config FILE [--env-file FILE] --tenant ID --month YYYY-MM [--saft FILE] [--json] [--lang pt|en]

The accountant's month of a shop: its orders and refunds of the month, every document the connector
issued, and (with --saft) the month's SAF-T (PT) sales file exported from MagniFinance, reconciled:
orders without a document, documents without an order (both ways), totals that differ, refunds
without a credit note, cancelled documents, and the VAT per rate and region as the periodic return's
boxes, from our documents and from the SAF-T. Reads only; changes nothing. Exit code 0 when nothing
needs attention, 3 when something does.
`;

export async function runMonthCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(
    {
      args,
      options: { config: { type: 'string' }, 'env-file': { type: 'string' }, tenant: { type: 'string' }, month: { type: 'string' }, saft: { type: 'string' }, json: { type: 'boolean' }, lang: { type: 'string' }, help: { type: 'boolean' } },
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
  if (!values.month || !MONTH_TEXT.test(values.month)) problems.push('--month must be a month like 2026-11');
  if (values.lang !== undefined && !LangSchema.safeParse(values.lang).success) problems.push('--lang must be pt or en');
  let saft: Buffer | undefined;
  if (values.saft) {
    try {
      saft = readFileSync(values.saft);
    } catch (error) {
      problems.push(`--saft ${values.saft}: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n\n${HELP}`);
    return EXIT.notDone;
  }
  const config = loadConfigOrExplain(values.config as string, values['env-file'], LangSchema.safeParse(values.lang).data);
  if (!config) return EXIT.configRefused;
  const tenantConfig = config.tenants.find((t) => t.id === values.tenant);
  if (!tenantConfig) {
    process.stderr.write(`No tenant "${values.tenant}" in ${values.config} (known: ${config.tenants.map((t) => t.id).join(', ')})\n`);
    return EXIT.notDone;
  }
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn' });
  const redis = connectRedis(config.redis, 'worker', logger);
  try {
    const pack = await tenantMonthPack(buildTenantRuntime(tenantConfig), { redis, prefix: config.redis.prefix, ledger: new Ledger(redis, config.redis.prefix) }, values.month as string, saft);
    const lang = LangSchema.safeParse(values.lang).data ?? tenantConfig.settings.language;
    process.stdout.write(values.json ? `${JSON.stringify(packJson(pack), null, 2)}\n` : packText(pack, lang));
    return pack.findings.some((f) => findingKind(f) === 'attention') ? 3 : 0;
  } catch (error) {
    if (error instanceof SaftFileError) {
      process.stderr.write(`--saft ${values.saft}: not a SAF-T (PT) 1.04 sales file (${error.code}: ${error.detail})\n`);
      return EXIT.notDone;
    }
    process.stderr.write(`The month pack stopped: ${(error as Error).message}\n`);
    return EXIT.notDone;
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
