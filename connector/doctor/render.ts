import { stripUnsafe } from '../../webhooks/woocommerce/text';
import type { Check, DryRunOrder } from './check';
import type { DoctorReport } from './run-doctor';

const LABEL: Record<Check['status'], string> = { ok: 'OK', warn: 'WARN', fail: 'FAIL' };
const OUTCOME: Record<DryRunOrder['outcome'], string> = { issue: 'would issue', hold: 'would HOLD', refuse: 'would REFUSE', done: 'already done', 'not-invoiced': 'NOT invoiced' };

/** The report as a person reads it in a terminal: aligned columns, the fix under every WARN and FAIL, the problems again at the end. */
export function renderDoctorReport(report: DoctorReport, source: string): string {
  const out: string[] = [`magnifinance doctor: ${source}`, ''];
  const width = Math.max(...[report.redis, ...report.tenants.map((t) => t.checks)].flat().map((check) => check.name.length));
  const section = (title: string, checks: readonly Check[]): void => {
    out.push(title);
    for (const check of checks) {
      out.push(`  ${LABEL[check.status].padEnd(4)}  ${check.name.padEnd(width)}  ${check.detail}`);
      if (check.fix) out.push(`  ${''.padEnd(4)}  ${''.padEnd(width)}  fix: ${check.fix}`);
    }
    out.push('');
  };
  section('Redis', report.redis);
  for (const tenant of report.tenants) {
    section(`Tenant ${tenant.tenant} (${tenant.shop})`, tenant.checks);
    if (tenant.dryRun) out.push(...renderDryRun(tenant.dryRun), '');
  }
  const problems = [...report.redis.map((c) => ({ where: 'redis', check: c })), ...report.tenants.flatMap((t) => t.checks.map((c) => ({ where: t.tenant, check: c })))];
  const failures = problems.filter((p) => p.check.status === 'fail');
  const warnings = problems.filter((p) => p.check.status === 'warn');
  const counts = `${failures.length} problem${failures.length === 1 ? '' : 's'}, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
  if (failures.length === 0) {
    out.push(`READY (${counts})`);
  } else {
    out.push(`NOT READY (${counts}):`);
    for (const { where, check } of failures) out.push(`  - ${where}: ${check.name}: ${check.fix ?? check.detail}`);
  }
  // Order data (names, notes, the shop's answers) is printed here: no terminal escape reaches the screen.
  return `${stripUnsafe(out.join('\n'), 'keep-lines')}\n`;
}

function renderDryRun(orders: readonly DryRunOrder[]): string[] {
  const lines = [`  Dry run: the last ${orders.length} order${orders.length === 1 ? '' : 's'} in a trigger status (nothing issued)`];
  if (orders.length === 0) return [...lines, '    no orders in a trigger status'];
  const idWidth = Math.max(...orders.map((o) => `#${o.orderId}`.length));
  const statusWidth = Math.max(...orders.map((o) => o.status.length));
  for (const order of orders) {
    const head = `    ${`#${order.orderId}`.padEnd(idWidth)}  ${order.status.padEnd(statusWidth)}  ${OUTCOME[order.outcome].padEnd(12)}`;
    const document =
      order.documentType !== undefined
        ? `  ${order.documentType}  ${order.documentTotal} ${order.currency} ${order.documentTotal === order.shopTotal ? '=' : '!='} shop ${order.shopTotal}${order.exemptionCodes.length > 0 ? `  exemption ${order.exemptionCodes.join(', ')}` : ''}`
        : `  shop total ${order.shopTotal} ${order.currency}`;
    lines.push(`${head}${document}`);
    for (const note of order.notes) lines.push(`    ${''.padEnd(idWidth)}  ${''.padEnd(statusWidth)}  - ${note}`);
  }
  return lines;
}
