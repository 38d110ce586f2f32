import { stripUnsafe } from '../../law/text';
import { checkWords, dryRunWords, type Check, type DoctorLang, type DryRunOrder } from './check';
import { DOCTOR } from './doctor-messages';
import type { DoctorReport } from './run-doctor';

const LABEL: Record<DoctorLang, Record<Check['status'], string>> = {
  en: { ok: 'OK', warn: 'WARN', fail: 'FAIL' },
  pt: { ok: 'OK', warn: 'AVISO', fail: 'FALHA' },
};
const OUTCOME: Record<DoctorLang, Record<DryRunOrder['outcome'], string>> = {
  en: { issue: 'would issue', hold: 'would HOLD', refuse: 'would REFUSE', done: 'already done', 'not-invoiced': 'NOT invoiced' },
  pt: { issue: 'emitiria', hold: 'RETERIA', refuse: 'RECUSARIA', done: 'já feita', 'not-invoiced': 'NÃO faturada' },
};

/** The report's own words (headings, the verdict) in each language (doctor-messages.ts). */
function frame(lang: DoctorLang) {
  return {
    tenant: (tenant: string, shop: string) => DOCTOR.say(lang, 'tenant-heading', { tenant, shop }),
    fix: DOCTOR.say(lang, 'fix'),
    counts: (problems: number, warnings: number) => DOCTOR.say(lang, 'counts', { problems, warnings }),
    ready: DOCTOR.say(lang, 'ready'),
    notReady: DOCTOR.say(lang, 'not-ready'),
    dryRun: (orders: number) => DOCTOR.say(lang, 'dry-run-heading', { orders }),
    none: DOCTOR.say(lang, 'dry-run-none'),
    shopTotal: DOCTOR.say(lang, 'shop-total'),
    shop: DOCTOR.say(lang, 'shop'),
    exemption: DOCTOR.say(lang, 'exemption'),
    allFine: DOCTOR.say(lang, 'all-fine'),
    onlyProblems: (shops: number) => DOCTOR.say(lang, 'quiet-shops', { shops }),
  };
}

/**
 * How much the report shows: every check (`full`, the default), one line per shop (`summary`, for an
 * agency's 30 shops at a glance), or only the checks that are not OK (`problems`).
 */
export type DoctorView = 'full' | 'summary' | 'problems';

/**
 * The report as a person reads it in a terminal: aligned columns, the fix under every WARN and FAIL,
 * the problems again at the end. In `lang` (the doctor's --lang; by default the tenants' language).
 */
export function renderDoctorReport(report: DoctorReport, source: string, lang: DoctorLang = 'en', view: DoctorView = 'full'): string {
  if (view === 'summary') return renderSummary(report, source, lang);
  const words = frame(lang);
  const out: string[] = [`magnifinance doctor: ${source}`, ''];
  const named = (check: Check) => checkWords(lang, check);
  const width = Math.max(...[report.redis, ...report.tenants.map((t) => t.checks)].flat().map((check) => named(check).name.length));
  const labelWidth = Math.max(...Object.values(LABEL[lang]).map((label) => label.length));
  const section = (title: string, checks: readonly Check[]): void => {
    out.push(title);
    for (const check of checks) {
      const said = named(check);
      out.push(`  ${LABEL[lang][check.status].padEnd(labelWidth)}  ${said.name.padEnd(width)}  ${said.detail}`);
      if (said.fix) out.push(`  ${''.padEnd(labelWidth)}  ${''.padEnd(width)}  ${words.fix}: ${said.fix}`);
    }
    out.push('');
  };
  const shown = (checks: readonly Check[]) => (view === 'problems' ? checks.filter((check) => check.status !== 'ok') : checks);
  section('Redis', shown(report.redis));
  let quiet = 0;
  for (const tenant of report.tenants) {
    const checks = shown(tenant.checks);
    if (view === 'problems' && checks.length === 0) {
      quiet += 1;
      continue;
    }
    section(words.tenant(tenant.tenant, tenant.shop), checks);
    if (tenant.dryRun && view === 'full') out.push(...renderDryRun(tenant.dryRun, lang), '');
  }
  if (quiet > 0) out.push(words.onlyProblems(quiet), '');
  const problems = [...report.redis.map((c) => ({ where: 'redis', check: c })), ...report.tenants.flatMap((t) => t.checks.map((c) => ({ where: t.tenant, check: c })))];
  const failures = problems.filter((p) => p.check.status === 'fail');
  const warnings = problems.filter((p) => p.check.status === 'warn');
  const counts = words.counts(failures.length, warnings.length);
  if (failures.length === 0) {
    out.push(`${words.ready} (${counts})`);
  } else {
    out.push(`${words.notReady} (${counts}):`);
    for (const { where, check } of failures) out.push(`  - ${where}: ${named(check).name}: ${named(check).fix ?? named(check).detail}`);
  }
  // Order data (names, notes, the shop's answers) is printed here: no terminal escape reaches the screen.
  return `${stripUnsafe(out.join('\n'), 'keep-lines')}\n`;
}

/** One line per shop: its verdict, its counts and the names of its failed checks; Redis on one line; the verdict. */
function renderSummary(report: DoctorReport, source: string, lang: DoctorLang): string {
  const words = frame(lang);
  const verdict = (ready: boolean) => (ready ? words.ready : words.notReady);
  const width = Math.max(words.ready.length, words.notReady.length);
  const idWidth = Math.max(5, ...report.tenants.map((t) => t.tenant.length));
  const line = (ready: boolean, id: string, checks: readonly Check[], shop = ''): string => {
    const failed = checks.filter((c) => c.status === 'fail');
    const warned = checks.filter((c) => c.status === 'warn').length;
    const counts = failed.length === 0 && warned === 0 ? words.allFine : words.counts(failed.length, warned);
    const names = failed.map((c) => checkWords(lang, c).name).join(', ');
    return `  ${verdict(ready).padEnd(width)}  ${id.padEnd(idWidth)}  ${counts}${names ? `: ${names}` : ''}${shop ? `  ${shop}` : ''}`;
  };
  const out = [`magnifinance doctor: ${source}`, '', line(!report.redis.some((c) => c.status === 'fail'), 'Redis', report.redis)];
  for (const tenant of report.tenants) out.push(line(tenant.ready, tenant.tenant, tenant.checks, tenant.shop));
  const all = [...report.redis, ...report.tenants.flatMap((t) => t.checks)];
  out.push('', `${verdict(report.ready)} (${words.counts(all.filter((c) => c.status === 'fail').length, all.filter((c) => c.status === 'warn').length)})`);
  return `${stripUnsafe(out.join('\n'), 'keep-lines')}\n`;
}

function renderDryRun(orders: readonly DryRunOrder[], lang: DoctorLang): string[] {
  const words = frame(lang);
  const triggered = orders.filter((order) => !order.beyondTriggers).length;
  const lines = [`  ${words.dryRun(triggered)}`];
  if (triggered === 0) lines.push(`    ${words.none}`);
  // How many, which (the lines below) and why: payments received before the supply (CIVA art. 36(1)(c)).
  const advances = orders.filter((order) => order.advancePayment).length;
  if (advances > 0) lines.push(`    ${DOCTOR.say(lang, 'dry-run-advance-payments', { orders: advances })}`);
  if (orders.length === 0) return lines;
  const idWidth = Math.max(...orders.map((o) => `#${o.orderId}`.length));
  const statusWidth = Math.max(...orders.map((o) => o.status.length));
  const outcomeWidth = Math.max(...Object.values(OUTCOME[lang]).map((outcome) => outcome.length));
  for (const order of orders) {
    const head = `    ${`#${order.orderId}`.padEnd(idWidth)}  ${order.status.padEnd(statusWidth)}  ${OUTCOME[lang][order.outcome].padEnd(outcomeWidth)}`;
    const said = dryRunWords(lang, order);
    const type = said.documentType;
    const document =
      order.documentType !== undefined
        ? `  ${type}  ${order.documentTotal} ${order.currency} ${order.documentTotal === order.shopTotal ? '=' : '!='} ${words.shop} ${order.shopTotal}${order.exemptionCodes.length > 0 ? `  ${words.exemption} ${order.exemptionCodes.join(', ')}` : ''}`
        : `  ${words.shopTotal} ${order.shopTotal} ${order.currency}`;
    lines.push(`${head}${document}`);
    for (const note of said.notes) lines.push(`    ${''.padEnd(idWidth)}  ${''.padEnd(statusWidth)}  - ${note}`);
  }
  return lines;
}
