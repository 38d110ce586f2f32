import { createLogger } from '../core/logger';
import { readLang } from '../../messages/lang';
import { MAX_DRY_RUN_ORDERS } from '../doctor/dry-run';
import { renderDoctorReport } from '../doctor/render';
import { runDoctor } from '../doctor/run-doctor';
import type { DoctorLang } from '../doctor/check';
import { EXIT, loadConfigOrExplain, parseCommandArgs } from './command-line';

const HELP = `Usage: magnifinance doctor --config FILE [--env-file FILE] [--tenant ID] [--dry-run N] [--lang pt|en] [--summary|--problems] [--json]

Checks that each tenant is ready to invoice, and says how to fix what is not:
  the shop's REST key (read, and write by a PUT of order 0 that changes nothing), WooCommerce's
  version, "Round tax at subtotal level", "Prices entered with tax", the Portuguese VAT rates
  (mainland, Madeira, Azores); the order webhooks (present, active, delivering to this connector,
  secret and API version v3 where the shop's REST API shows them); the MagniFinance credentials and
  partner token (a tax-id check, which creates nothing); the NIF meta keys on the last 20 orders;
  Redis (reachable, appendonly yes, maxmemory-policy noeviction).

  --env-file FILE  the .env the secret references read (its values win over the environment);
                by default the .env beside the tenants file, when there is one
  --tenant ID   only this tenant
  --dry-run N   also map the last N orders in a trigger status (at most ${MAX_DRY_RUN_ORDERS}) with the
                connector's own mapping and show the document each would get; nothing is issued
  --lang pt|en  the report's language; by default the tenants' settings.language when they all
                share one (pt by default), else English. The JSON carries both (each check's
                \`pt\` beside its English fields)
  --summary     one line per shop (its verdict, counts and failed checks): 30 shops at a glance
  --problems    only the checks that are not OK (shops with none are counted, not shown)
  --json        the report as JSON

Exit code 0 when ready (warnings allowed), 1 with the list of problems (or a wrong option), 2 when
the tenants file or its .env is refused (every mistake of it printed).
`;

/** --lang, else the one language all the checked tenants use (settings.language), else English. */
export function reportLang(asked: string | undefined, tenants: readonly { settings: { language: DoctorLang } }[]): DoctorLang {
  const named = readLang(asked);
  if (named) return named;
  const languages = new Set(tenants.map((tenant) => tenant.settings.language));
  return languages.size === 1 ? [...languages][0] : 'en';
}

export async function runDoctorCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(
    {
      args,
      options: { config: { type: 'string' }, 'env-file': { type: 'string' }, tenant: { type: 'string' }, 'dry-run': { type: 'string' }, lang: { type: 'string' }, json: { type: 'boolean' }, summary: { type: 'boolean' }, problems: { type: 'boolean' }, help: { type: 'boolean' } },
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
  const dryRunText = values['dry-run'];
  const dryRunOrders = dryRunText === undefined ? undefined : Number(dryRunText);
  if (dryRunOrders !== undefined && (!/^\d+$/.test(dryRunText ?? '') || dryRunOrders < 1 || dryRunOrders > MAX_DRY_RUN_ORDERS)) {
    problems.push(`--dry-run must be a number of orders from 1 to ${MAX_DRY_RUN_ORDERS}`);
  }
  if (values.lang !== undefined && !readLang(values.lang)) problems.push('--lang must be pt or en');
  if (values.summary && values.problems) problems.push('--summary and --problems are two views: choose one');
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n\n${HELP}`);
    return EXIT.notDone;
  }
  const asked = readLang(values.lang);
  const config = loadConfigOrExplain(values.config as string, values['env-file'], asked);
  if (!config) return EXIT.configRefused;
  const tenants = values.tenant ? config.tenants.filter((t) => t.id === values.tenant) : config.tenants;
  if (tenants.length === 0) {
    process.stderr.write(`No tenant "${values.tenant}" in ${values.config} (known: ${config.tenants.map((t) => t.id).join(', ')})\n`);
    return EXIT.notDone;
  }
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'silent' });
  const report = await runDoctor(config, tenants, logger, { dryRunOrders });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctorReport(report, values.config as string, reportLang(values.lang, tenants), values.summary ? 'summary' : values.problems ? 'problems' : 'full'));
  return report.ready ? EXIT.done : EXIT.notDone;
}
