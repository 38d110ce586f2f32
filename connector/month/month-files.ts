import type { Lang } from '../../messages/lang';
import { formatDecimal, subtract } from '../../client/money';
import { localDateTime } from '../../law/shop-date';
import type { MonthPack } from './month-pack';
import { boxRows } from './month-render';
import { MONTH_SENTENCES } from './month-sentences';
import { shopReportView } from './shop-report-view';
import { FIELD_LABELS, findingKind, formatFor, MONTH_LABELS, monthText, REGION_LABELS, signOffText } from './month-words';
import { BOX_FIELDS } from './vat-boxes';
import { TAX_REGIONS } from './month-document';

/**
 * The month pack as files for the accountant: a CSV (one table per section, amounts as plain
 * decimals a spreadsheet or an accounting program reads), an XLSX workbook (one sheet per section,
 * amounts as numbers in euros, written with exceljs) and a PDF summary of one page, or two when the shop's tax report does not fit (pdfkit). Words in
 * the reader's language, from the month's catalogue.
 */

const EXTRA = {
  kind: { pt: 'Tipo', en: 'Kind' },
  attention: { pt: 'atenção', en: 'attention' },
  explained: { pt: 'explicada', en: 'explained' },
  region: { pt: 'Região', en: 'Region' },
  field: { pt: 'Campo', en: 'Field' },
  number: { pt: 'Número', en: 'Number' },
  type: { pt: 'Tipo', en: 'Type' },
  date: { pt: 'Data', en: 'Date' },
  status: { pt: 'Estado', en: 'Status' },
  order: { pt: 'Encomenda', en: 'Order' },
  net: { pt: 'Base', en: 'Net' },
  gross: { pt: 'Total', en: 'Gross' },
  currency: { pt: 'Moeda', en: 'Currency' },
  summary: { pt: 'Resumo', en: 'Summary' },
  vatSheet: { pt: 'IVA', en: 'VAT' },
  more: { pt: 'mais, no ficheiro XLSX e na consola', en: 'more, in the XLSX file and the console' },
  noSaft: { pt: 'não carregado', en: 'not uploaded' },
} as const;

function csvCell(value: string | number | undefined): string {
  const text = value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180, comma-separated, UTF-8 with a BOM (so a spreadsheet reads the accents): one table per section. */
export function packCsv(pack: MonthPack, lang: Lang): string {
  const f = formatFor(lang, { oneLine: true });
  const rows: (string | number | undefined)[][] = [];
  const table = (title: string, head: string[], body: (string | number | undefined)[][]): void => {
    if (rows.length > 0) rows.push([]);
    rows.push([title], head, ...body);
  };
  table(
    `${MONTH_LABELS.title[lang]} ${pack.month} · ${pack.tenant}`,
    [EXTRA.kind[lang], 'code', MONTH_LABELS.why[lang], MONTH_LABELS.action[lang]],
    pack.findings.map((x) => {
      const words = monthText(lang, x, f);
      return [EXTRA[findingKind(x)][lang], x.code, words.why, words.action];
    }),
  );
  table(
    MONTH_LABELS.boxes[lang],
    [EXTRA.region[lang], EXTRA.field[lang], MONTH_LABELS.ours[lang], MONTH_LABELS.saft[lang], MONTH_LABELS.difference[lang]],
    TAX_REGIONS.flatMap((region) =>
      BOX_FIELDS.flatMap((field) => {
        const ours = pack.boxes.ours[region][field];
        const saft = pack.boxes.saft?.[region][field];
        if (ours.units === 0n && (saft === undefined || saft.units === 0n)) return [];
        return [[REGION_LABELS[region][lang], FIELD_LABELS[field][lang], formatDecimal(ours, 2), saft === undefined ? '' : formatDecimal(saft, 2), saft === undefined ? '' : formatDecimal(subtract(ours, saft), 2)]];
      }),
    ),
  );
  const report = shopReportView(pack, lang, { oneLine: true });
  const shopRates = pack.shopReport.status === 'compared' ? pack.shopReport.rates : [];
  table(
    `${report.title}${report.notes.length > 0 ? `: ${report.notes.join(' ')}` : ''}`,
    [report.heads.rate, report.heads.shop, report.heads.orders, report.heads.ours, report.heads.base, report.heads.difference, report.heads.why],
    shopRates.map((r, i) => [r.percent, r.shopTax, r.shopOrders, r.ourTax, r.ourBase, r.difference, report.rows[i]?.why.join(' ')]),
  );
  table(MONTH_LABELS.exemptions[lang], [MONTH_LABELS.code[lang], MONTH_LABELS.documents[lang], MONTH_LABELS.base[lang]], pack.exemptions.map((e) => [e.code, e.documents, e.base]));
  const quarter = pack.oss.quarter;
  table(
    `${MONTH_LABELS.oss[lang]}: ${MONTH_LABELS.ossMonth[lang]}`,
    [MONTH_LABELS.country[lang], MONTH_LABELS.documents[lang], MONTH_LABELS.base[lang], MONTH_LABELS.vat[lang], MONTH_LABELS.rates[lang]],
    pack.oss.month.map((r) => [r.country, r.documents, r.base, r.vat, r.rates.join(' ')]),
  );
  if (quarter) {
    table(
      `${MONTH_LABELS.oss[lang]}: ${MONTH_LABELS.ossQuarter[lang]} ${quarter.quarter}${quarter.missing.length > 0 ? ` (${MONTH_LABELS.ossMissing[lang]} ${quarter.missing.join(' ')})` : ''}`,
      [MONTH_LABELS.country[lang], MONTH_LABELS.documents[lang], MONTH_LABELS.base[lang], MONTH_LABELS.vat[lang], MONTH_LABELS.rates[lang]],
      quarter.countries.map((r) => [r.country, r.documents, r.base, r.vat, r.rates.join(' ')]),
    );
  }
  table(
    MONTH_LABELS.documents[lang],
    [EXTRA.number[lang], EXTRA.type[lang], EXTRA.date[lang], EXTRA.status[lang], EXTRA.order[lang], MONTH_LABELS.country[lang], EXTRA.net[lang], MONTH_LABELS.vat[lang], EXTRA.gross[lang], EXTRA.currency[lang]],
    pack.documents.map((d) => [d.number, d.type, d.date, d.status, d.orderId, d.customerCountry, formatDecimal(d.net, 2), formatDecimal(d.tax, 2), formatDecimal(d.gross, 2), d.currency]),
  );
  return `\ufeff${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

const EURO = '#,##0.00 "€";-#,##0.00 "€"';

/** One sheet per section; amounts are numbers (euros), so the accountant can add them up. */
export async function packXlsx(pack: MonthPack, lang: Lang): Promise<Buffer> {
  const f = formatFor(lang, { oneLine: true });
  // Loaded when a pack is asked for: exceljs and pdfkit weigh 43 MB of RSS a connector rarely needs.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = 'magnifinance month';
  book.created = new Date(pack.computedAt);
  const sheet = (name: string, columns: { header: string; width: number; money?: boolean }[], body: (string | number | undefined)[][]): void => {
    const ws = book.addWorksheet(name.slice(0, 31));
    ws.columns = columns.map((c) => ({ header: c.header, width: c.width, style: c.money ? { numFmt: EURO } : {} }));
    ws.getRow(1).font = { bold: true };
    ws.views = [{ state: 'frozen', ySplit: 1 }];
    for (const row of body) ws.addRow(row);
  };
  const amount = (text: string): number => Number(text);
  sheet(
    EXTRA.summary[lang],
    [{ header: EXTRA.kind[lang], width: 12 }, { header: 'code', width: 26 }, { header: MONTH_LABELS.why[lang], width: 90 }, { header: MONTH_LABELS.action[lang], width: 70 }],
    pack.findings.map((x) => {
      const words = monthText(lang, x, f);
      return [EXTRA[findingKind(x)][lang], x.code, words.why, words.action];
    }),
  );
  sheet(
    EXTRA.vatSheet[lang],
    [{ header: EXTRA.region[lang], width: 12 }, { header: EXTRA.field[lang], width: 52 }, { header: MONTH_LABELS.ours[lang], width: 18, money: true }, { header: MONTH_LABELS.saft[lang], width: 18, money: true }, { header: MONTH_LABELS.difference[lang], width: 14, money: true }],
    TAX_REGIONS.flatMap((region) =>
      BOX_FIELDS.flatMap((field) => {
        const ours = pack.boxes.ours[region][field];
        const saft = pack.boxes.saft?.[region][field];
        if (ours.units === 0n && (saft === undefined || saft.units === 0n)) return [];
        const o = amount(formatDecimal(ours, 2));
        const s = saft === undefined ? undefined : amount(formatDecimal(saft, 2));
        return [[REGION_LABELS[region][lang], FIELD_LABELS[field][lang], o, s, s === undefined ? undefined : Math.round((o - s) * 100) / 100]];
      }),
    ),
  );
  const report = shopReportView(pack, lang, { oneLine: true });
  const shopRates = pack.shopReport.status === 'compared' ? pack.shopReport.rates : [];
  sheet(
    report.heads.shop,
    [
      { header: report.heads.rate, width: 8 }, { header: report.heads.shop, width: 16, money: true }, { header: report.heads.orders, width: 12 }, { header: report.heads.ours, width: 18, money: true },
      { header: report.heads.base, width: 18, money: true }, { header: report.heads.difference, width: 14, money: true }, { header: report.heads.why, width: 120 },
    ],
    [
      ...shopRates.map((r, i) => [Number(r.percent), r.shopTax === undefined ? undefined : amount(r.shopTax), r.shopOrders, amount(r.ourTax), amount(r.ourBase), amount(r.difference), report.rows[i]?.why.join(' ')]),
      ...report.notes.map((n) => [undefined, undefined, undefined, undefined, undefined, undefined, n]),
    ],
  );
  sheet(MONTH_LABELS.exemptions[lang], [{ header: MONTH_LABELS.code[lang], width: 10 }, { header: MONTH_LABELS.documents[lang], width: 12 }, { header: MONTH_LABELS.base[lang], width: 18, money: true }], pack.exemptions.map((e) => [e.code, e.documents, amount(e.base)]));
  const ossColumns = [{ header: MONTH_LABELS.country[lang], width: 10 }, { header: MONTH_LABELS.documents[lang], width: 12 }, { header: MONTH_LABELS.base[lang], width: 18, money: true }, { header: MONTH_LABELS.vat[lang], width: 16, money: true }, { header: MONTH_LABELS.rates[lang], width: 14 }];
  sheet(`OSS ${pack.month}`, ossColumns, pack.oss.month.map((r) => [r.country, r.documents, amount(r.base), amount(r.vat), r.rates.join(' ')]));
  if (pack.oss.quarter) sheet(`OSS ${pack.oss.quarter.quarter}`, ossColumns, pack.oss.quarter.countries.map((r) => [r.country, r.documents, amount(r.base), amount(r.vat), r.rates.join(' ')]));
  sheet(
    MONTH_LABELS.documents[lang],
    [
      { header: EXTRA.number[lang], width: 16 }, { header: EXTRA.type[lang], width: 6 }, { header: EXTRA.date[lang], width: 12 }, { header: EXTRA.status[lang], width: 8 }, { header: EXTRA.order[lang], width: 12 },
      { header: MONTH_LABELS.country[lang], width: 8 }, { header: EXTRA.net[lang], width: 14, money: true }, { header: MONTH_LABELS.vat[lang], width: 14, money: true }, { header: EXTRA.gross[lang], width: 14, money: true }, { header: EXTRA.currency[lang], width: 8 },
    ],
    pack.documents.map((d) => [d.number, d.type, d.date, d.status, d.orderId, d.customerCountry, amount(formatDecimal(d.net, 2)), amount(formatDecimal(d.tax, 2)), amount(formatDecimal(d.gross, 2)), d.currency]),
  );
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The explanations the PDF gives under each rate of the shop's tax report; the others are counted on one line, and are in the XLSX and the CSV. */
const PDF_REASONS_PER_RATE = 2;

/**
 * One A4 page: the figures, what needs attention (the first ones), the VAT boxes, exemptions, OSS,
 * the sign-off, and the comparison with the shop's own tax report (per rate the shop's VAT and ours,
 * the difference and its first explanations; or why there is none). When that comparison does not fit
 * below the rest it starts a second page, whole; a row that would fall off a page goes to the next one.
 */
export async function packPdf(pack: MonthPack, lang: Lang, shopName: string): Promise<Buffer> {
  const f = formatFor(lang, { oneLine: true });
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `${MONTH_LABELS.title[lang]} ${pack.month} · ${shopName}`, Author: 'magnifinance month' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const width = doc.page.width - 80;
  const top = 40;
  const bottom = doc.page.height - 60;
  const ROW = 12;
  const HEADING = 24;
  /** A new page when `height` more would pass the bottom. */
  const room = (height: number): void => {
    if (doc.y + height > bottom) doc.addPage();
  };
  const heading = (text: string): void => {
    room(HEADING + ROW);
    doc.moveDown(0.6).font('Helvetica-Bold').fontSize(11).fillColor('#222').text(text, 40);
    doc.moveDown(0.2).font('Helvetica').fontSize(8.5);
  };
  doc.font('Helvetica-Bold').fontSize(16).fillColor('#222').text(`${MONTH_LABELS.title[lang]} ${pack.month} · ${shopName}`);
  const attention = pack.findings.filter((x) => findingKind(x) === 'attention');
  const explained = pack.findings.filter((x) => findingKind(x) === 'explained');
  const computed = localDateTime(new Date(pack.computedAt), pack.timeZone);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#555')
    .text(`${MONTH_LABELS.orders[lang]}: ${pack.orders.ofMonth} · ${MONTH_LABELS.documents[lang]}: ${pack.documents.length} · ${MONTH_LABELS.attention[lang]}: ${attention.length} · ${MONTH_LABELS.explained[lang]}: ${explained.length} · SAF-T: ${pack.saft ? `${pack.saft.documents} ${MONTH_LABELS.documents[lang].toLowerCase()}` : EXTRA.noSaft[lang]} · ${f.day(computed.date)} ${computed.time.slice(0, 5)}`);
  if (pack.signOff) {
    const closed = localDateTime(new Date(pack.signOff.at), pack.timeZone);
    doc.fillColor('#1a7f37').text(signOffText(lang, pack.signOff.by, closed.date, closed.time.slice(0, 5)));
  }
  heading(`${MONTH_LABELS.attention[lang]} (${attention.length})`);
  doc.fillColor('#222');
  if (attention.length === 0) doc.text(MONTH_LABELS.nothing[lang], { width });
  const shown = attention.slice(0, 8);
  for (const x of shown) doc.text(`• ${monthText(lang, x, f).why}`, { width });
  if (attention.length > shown.length) doc.fillColor('#555').text(`+ ${attention.length - shown.length} ${EXTRA.more[lang]}`, { width });
  heading(MONTH_LABELS.boxes[lang]);
  /** One row of a table: cells at the column offsets, amounts (from `rightFrom` on) right-aligned. */
  const tableRow = (columns: readonly number[], cells: (string | undefined)[], options: { bold?: boolean; rightFrom: number; boldFirst?: boolean }): void => {
    room(ROW);
    const y = doc.y;
    doc.fontSize(8.5).fillColor('#222');
    cells.forEach((cell, i) => {
      doc.font(options.bold || (options.boldFirst && i === 0) ? 'Helvetica-Bold' : 'Helvetica');
      const x = 40 + columns[i];
      const w = (columns[i + 1] ?? width) - columns[i] - 6;
      doc.text(cell ?? '', x, y, { width: w, align: i >= options.rightFrom ? 'right' : 'left', lineBreak: false });
    });
    doc.font('Helvetica').text('', 40, y + ROW);
  };
  const rows = boxRows(pack, lang, { oneLine: true });
  const columns = pack.saft ? [0, 70, 320, 400, 470] : [0, 70, 400];
  const line = (cells: (string | undefined)[], bold = false): void => tableRow(columns, cells, { bold, rightFrom: 2 });
  line(['', '', MONTH_LABELS.ours[lang], ...(pack.saft ? [MONTH_LABELS.saft[lang], MONTH_LABELS.difference[lang]] : [])], true);
  for (const r of rows) line([r.region, r.label, r.ours, ...(pack.saft ? [r.saft, r.difference] : [])]);
  if (pack.exemptions.length > 0) {
    heading(MONTH_LABELS.exemptions[lang]);
    for (const e of pack.exemptions) line([e.code, `${e.documents} ${MONTH_LABELS.documents[lang].toLowerCase()}`, f.money(e.base, 'EUR')]);
  }
  const quarter = pack.oss.quarter;
  heading(`${MONTH_LABELS.oss[lang]}${quarter ? ` · ${quarter.quarter}` : ''}`);
  const ossRows = quarter?.countries ?? pack.oss.month;
  if (ossRows.length === 0) doc.fillColor('#555').text(MONTH_LABELS.ossNone[lang], 40);
  for (const r of ossRows) line([r.country, `${r.documents} ${MONTH_LABELS.documents[lang].toLowerCase()} · ${r.rates.map((x) => `${x} %`).join(', ')}`, `${MONTH_LABELS.base[lang]} ${f.money(r.base, 'EUR')}`, `${MONTH_LABELS.vat[lang]} ${f.money(r.vat, 'EUR')}`]);
  if (quarter && quarter.missing.length > 0) doc.fillColor('#555').text(`${MONTH_LABELS.ossMissing[lang]} ${quarter.missing.join(', ')}`, 40);

  // The shop's own tax report beside ours (the page's, the CLI's, the CSV's and the XLSX's words).
  const report = shopReportView(pack, lang, { oneLine: true });
  const shopColumns = [0, 62, 162, 226, 356, 446];
  const INDENT = 12;
  const reasons = report.rows.map((r) => r.why.slice(0, PDF_REASONS_PER_RATE));
  const hidden = report.rows.reduce((n, r) => n + Math.max(0, r.why.length - PDF_REASONS_PER_RATE), 0);
  const more = hidden > 0 ? MONTH_SENTENCES.say(lang, 'shop-report-more', { platform: pack.shopReport.platform, more: hidden }) : undefined;
  doc.font('Helvetica').fontSize(8);
  const noteHeight = (text: string, indent = 0): number => doc.heightOfString(text, { width: width - indent }) + 1;
  const reasonText = (text: string): string => `– ${text}`;
  const sectionHeight =
    HEADING +
    report.notes.reduce((h, n) => h + noteHeight(n), 0) +
    (report.rows.length > 0 ? 6 + ROW : 0) +
    report.rows.reduce((h, _r, i) => h + ROW + reasons[i].reduce((rh, w) => rh + noteHeight(reasonText(w), INDENT), 0) + 2, 0) +
    (more ? noteHeight(more) : 0);
  // Whole on this page when it fits, else whole on a page of its own (flowing on when longer than a page).
  if (doc.y + sectionHeight > bottom && sectionHeight <= bottom - top) doc.addPage();
  heading(report.title);
  const note = (text: string, indent = 0): void => {
    doc.font('Helvetica').fontSize(8);
    room(noteHeight(text, indent));
    doc.fillColor('#555').text(text, 40 + indent, doc.y, { width: width - indent });
  };
  for (const n of report.notes) note(n);
  if (report.rows.length > 0) {
    doc.moveDown(0.6);
    tableRow(shopColumns, [report.heads.rate, report.heads.shop, report.heads.orders, report.heads.ours, report.heads.base, report.heads.difference], { bold: true, rightFrom: 1 });
    report.rows.forEach((r, i) => {
      tableRow(shopColumns, [r.rate, r.shop, r.shopOrders, r.ours, r.base, r.difference], { boldFirst: true, rightFrom: 1 });
      for (const why of reasons[i]) note(reasonText(why), INDENT);
      doc.text('', 40, doc.y + 2);
    });
  }
  if (more) note(more);
  doc.end();
  return done;
}
