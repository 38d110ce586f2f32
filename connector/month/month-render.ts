import { formatDecimal, subtract, type Decimal } from '../../client/money';
import type { Lang } from '../../messages/lang';
import { TAX_REGIONS, type MonthDocument } from './month-document';
import type { MonthPack } from './month-pack';
import { FIELD_LABELS, findingKind, formatFor, MONTH_LABELS, monthText, REGION_LABELS } from './month-words';
import { BOX_FIELDS, type VatBoxes } from './vat-boxes';
import { shopReportView } from './shop-report-view';

/**
 * The pack for its readers: as JSON (the admin API and `--json`: codes, facts and the words in
 * both languages), as text (the CLI), and the rows of the VAT table the console lays out.
 */

function boxesJson(boxes: VatBoxes): Record<string, Record<string, string>> {
  return Object.fromEntries(TAX_REGIONS.map((region) => [region, Object.fromEntries(BOX_FIELDS.map((field) => [field, formatDecimal(boxes[region][field], 2)]))]));
}

function documentJson(doc: MonthDocument & { orderId?: number; purpose?: string }): Record<string, unknown> {
  const text = (value: Decimal | undefined): string | undefined => (value === undefined ? undefined : formatDecimal(value, 2));
  return {
    number: doc.number,
    type: doc.type,
    date: doc.date,
    status: doc.status,
    order: doc.orderId,
    purpose: doc.purpose,
    customerCountry: doc.customerCountry,
    net: text(doc.net),
    tax: text(doc.tax),
    gross: text(doc.gross),
    currency: doc.currency,
    currencyGross: text(doc.currencyGross),
    euroRate: doc.euroRate,
    references: doc.references,
    parts: doc.parts.map((p) => ({ region: p.region, percent: p.percent, base: formatDecimal(p.base, 2), tax: formatDecimal(p.tax, 2), exemptionCode: p.exemptionCode })),
  };
}

export function packJson(pack: MonthPack): Record<string, unknown> {
  const pt = formatFor('pt');
  const en = formatFor('en');
  return {
    tenant: pack.tenant,
    month: pack.month,
    timeZone: pack.timeZone,
    computedAt: new Date(pack.computedAt).toISOString(),
    computeMs: pack.computeMs,
    orders: pack.orders,
    saft: pack.saft,
    findings: pack.findings.map((f) => ({ ...f, kind: findingKind(f), pt: monthText('pt', f, pt), en: monthText('en', f, en) })),
    boxes: { ours: boxesJson(pack.boxes.ours), saft: pack.boxes.saft ? boxesJson(pack.boxes.saft) : undefined },
    exemptions: pack.exemptions,
    signOff: pack.signOff ? { by: pack.signOff.by, at: new Date(pack.signOff.at).toISOString() } : undefined,
    oss: pack.oss,
    shopReport: { ...pack.shopReport, pt: shopReportView(pack, 'pt'), en: shopReportView(pack, 'en') },
    documents: pack.documents.map(documentJson),
  };
}

export interface BoxRow {
  region: string;
  field: string;
  label: string;
  ours: string;
  saft?: string;
  difference?: string;
}

/** The non-zero fields of either side, region by region, formatted in the reader's language. */
export function boxRows(pack: MonthPack, lang: Lang, options: { oneLine?: boolean } = {}): BoxRow[] {
  const f = formatFor(lang, options);
  const rows: BoxRow[] = [];
  for (const region of TAX_REGIONS) {
    for (const field of BOX_FIELDS) {
      const ours = pack.boxes.ours[region][field];
      const saft = pack.boxes.saft?.[region][field];
      if (ours.units === 0n && (saft === undefined || saft.units === 0n)) continue;
      const difference = saft === undefined ? undefined : formatDecimal(subtract(ours, saft), 2);
      rows.push({
        region: REGION_LABELS[region][lang],
        field,
        label: FIELD_LABELS[field][lang],
        ours: f.money(formatDecimal(ours, 2), 'EUR'),
        saft: saft === undefined ? undefined : f.money(formatDecimal(saft, 2), 'EUR'),
        difference: difference === undefined ? undefined : f.money(difference, 'EUR'),
      });
    }
  }
  return rows;
}

export function packText(pack: MonthPack, lang: Lang): string {
  const f = formatFor(lang);
  const out: string[] = [`${MONTH_LABELS.title[lang]} ${pack.month} · ${pack.tenant}`, ''];
  const attention = pack.findings.filter((x) => findingKind(x) === 'attention');
  const explained = pack.findings.filter((x) => findingKind(x) === 'explained');
  if (attention.length === 0) out.push(MONTH_LABELS.nothing[lang]);
  else {
    out.push(`${MONTH_LABELS.attention[lang]} (${attention.length})`);
    for (const finding of attention) {
      const words = monthText(lang, finding, f);
      out.push(`  ! ${words.why}`, `    ${MONTH_LABELS.action[lang]}: ${words.action}`);
    }
  }
  if (explained.length > 0) {
    out.push('', `${MONTH_LABELS.explained[lang]} (${explained.length})`);
    for (const finding of explained) out.push(`  - ${monthText(lang, finding, f).why}`);
  }
  out.push('', MONTH_LABELS.boxes[lang]);
  if (!pack.saft) out.push(`  ${MONTH_LABELS.noSaft[lang]}`);
  for (const row of boxRows(pack, lang)) {
    out.push(`  ${row.region.padEnd(10)} ${row.label.padEnd(58)} ${row.ours.padStart(16)}${row.saft === undefined ? '' : ` ${row.saft.padStart(16)} ${row.difference?.padStart(12) ?? ''}`}`);
  }
  const report = shopReportView(pack, lang);
  out.push('', report.title);
  for (const note of report.notes) out.push(`  ${note}`);
  for (const r of report.rows) {
    out.push(`  ${r.rate.padEnd(10)} ${report.heads.shop}: ${r.shop || '-'} · ${report.heads.ours}: ${r.ours} · ${report.heads.difference}: ${r.difference}`);
    for (const why of r.why) out.push(`    - ${why}`);
  }
  if (pack.exemptions.length > 0) {
    out.push('', MONTH_LABELS.exemptions[lang]);
    for (const e of pack.exemptions) out.push(`  ${e.code}  ${String(e.documents).padStart(5)}  ${f.money(e.base, 'EUR').padStart(16)}`);
  }
  out.push('', MONTH_LABELS.oss[lang]);
  const quarter = pack.oss.quarter;
  if (pack.oss.month.length === 0 && (quarter?.countries.length ?? 0) === 0) out.push(`  ${MONTH_LABELS.ossNone[lang]}`);
  for (const [label, rows] of [[MONTH_LABELS.ossMonth[lang], pack.oss.month], [`${MONTH_LABELS.ossQuarter[lang]} ${quarter?.quarter ?? ''}`, quarter?.countries ?? []]] as const) {
    if (rows.length === 0) continue;
    out.push(`  ${label}`);
    for (const r of rows) out.push(`    ${r.country}  ${String(r.documents).padStart(5)}  ${f.money(r.base, 'EUR').padStart(16)}  ${f.money(r.vat, 'EUR').padStart(14)}  ${r.rates.map((x) => `${x} %`).join(', ')}`);
  }
  if (quarter && quarter.missing.length > 0) out.push(`  ${MONTH_LABELS.ossMissing[lang]} ${quarter.missing.join(', ')}`);
  out.push('', `${MONTH_LABELS.orders[lang]}: ${pack.orders.ofMonth} · ${MONTH_LABELS.documents[lang]}: ${pack.documents.length} · ${MONTH_LABELS.computedIn[lang]} ${pack.computeMs} ms`);
  return `${out.join('\n')}\n`;
}
