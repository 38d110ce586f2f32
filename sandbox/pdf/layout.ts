import PDFDocument from 'pdfkit';
import { compare, formatDecimal, isZero } from '../../client/money';
import type { StoredDocument } from '../state';
import { DocumentFacts, FINAL_CONSUMER_NIF, Party } from './document-facts';
import { formatDatePt, formatMoneyPt, formatNumberPt, formatPlainPt } from './format';
import { drawQr } from './qr-drawing';

/**
 * The page layout of a Portuguese certified document, on A4: issuer and buyer with NIF and
 * address, type name and number, ATCUD on every page and above the QR code, lines, VAT summary
 * by rate with the exemption's legal text, totals, the QR code, the 4 signature characters with
 * "Processado por programa certificado", page numbers, and the sandbox mark on every page.
 */

const PAGE = { width: 595.28, height: 841.89 };
const LEFT = 40;
const RIGHT = PAGE.width - 40;
const WIDTH = RIGHT - LEFT;
const BODY_TOP_CONTINUED = 80;
const FOOTER_TOP = 770;
const QR_SIDE = 92; // ≈ 32 mm, above the specification's 30 mm minimum
/** Clear space between the ATCUD line and the QR code (the specification asks for a 2.5 mm margin). */
const QR_QUIET = 22;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const GREY = '#555555';
const LINE_GREY = '#bbbbbb';
export const SANDBOX_MARK = 'DOCUMENTO DE SANDBOX, SEM VALIDADE FISCAL · SANDBOX DOCUMENT, NO FISCAL VALUE';

type Pdf = PDFKit.PDFDocument;

interface Column {
  title: string;
  x: number;
  width: number;
  align: 'left' | 'right';
}

const COLUMNS: Column[] = [
  { title: 'Código', x: LEFT, width: 62, align: 'left' },
  { title: 'Descrição', x: 104, width: 168, align: 'left' },
  { title: 'Qtd.', x: 274, width: 44, align: 'right' },
  { title: 'Un.', x: 322, width: 26, align: 'left' },
  { title: 'Preço unit.', x: 350, width: 62, align: 'right' },
  { title: 'Desc. %', x: 414, width: 38, align: 'right' },
  { title: 'IVA %', x: 454, width: 32, align: 'right' },
  { title: 'Total líquido', x: 488, width: RIGHT - 488, align: 'right' },
];

function text(pdf: Pdf, value: string, x: number, y: number, options: PDFKit.Mixins.TextOptions & { font?: string; size?: number; color?: string } = {}): void {
  const { font = FONT, size = 8.5, color = 'black', ...rest } = options;
  pdf.font(font).fontSize(size).fillColor(color).text(value, x, y, { lineBreak: rest.width !== undefined, ...rest });
}

function rule(pdf: Pdf, y: number, color = LINE_GREY): void {
  pdf.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.6).strokeColor(color).stroke();
}

function partyBlock(pdf: Pdf, title: string, party: Party, x: number, y: number, width: number): number {
  text(pdf, title, x, y, { size: 7, color: GREY });
  let cursor = y + 10;
  pdf.font(BOLD).fontSize(10).fillColor('black');
  pdf.text(party.name, x, cursor, { width });
  cursor = pdf.y + 1;
  for (const line of party.addressLines) {
    text(pdf, line, x, cursor, { width });
    cursor = pdf.y;
  }
  const nif = party.taxId === FINAL_CONSUMER_NIF ? `${party.taxId} (Consumidor final)` : party.taxId;
  text(pdf, `NIF: ${party.countryCode && party.countryCode !== 'PT' ? `${party.countryCode} ` : ''}${nif}`, x, cursor + 2, { font: BOLD, width });
  return pdf.y;
}

function detailRows(doc: StoredDocument, facts: DocumentFacts): [string, string][] {
  const d = doc.document;
  const rows: [string, string][] = [['Data', formatDatePt(d.Date)]];
  if (d.DueDate) rows.push(['Vencimento', formatDatePt(d.DueDate)]);
  rows.push(['ATCUD', facts.atcud]);
  if (facts.currency !== 'EUR') rows.push(['Moeda', `${facts.currency} (câmbio ${formatPlainPt(d.EuroRate ?? '1')})`]);
  if (d.PurchaseOrder) rows.push(['Requisição', d.PurchaseOrder]);
  if (d.DocumentReference) {
    rows.push([d.Type === 'C' || d.Type === 'D' ? 'Documento de origem' : 'Referência', d.DocumentReference]);
  }
  if (d.LoadDateTime) rows.push(['Início do transporte', formatDatePt(d.LoadDateTime)]);
  if (d.VehicleLicence) rows.push(['Viatura', d.VehicleLicence]);
  if (doc.atCode) rows.push(['Código AT', doc.atCode]);
  return rows;
}

/** Header of the first page; returns where the body starts. */
function firstPageHeader(pdf: Pdf, doc: StoredDocument, facts: DocumentFacts): number {
  const issuerBottom = partyBlock(pdf, 'EMITENTE', facts.issuer, LEFT, 50, 250);
  text(pdf, facts.typeName, 330, 48, { font: BOLD, size: 18, width: RIGHT - 330, align: 'right' });
  text(pdf, facts.number, 330, pdf.y + 2, { font: BOLD, size: 13, width: RIGHT - 330, align: 'right' });
  text(pdf, 'Original', 330, pdf.y + 2, { size: 8, color: GREY, width: RIGHT - 330, align: 'right' });

  let y = Math.max(issuerBottom, pdf.y) + 16;
  const detailsTop = y;
  for (const [label, value] of detailRows(doc, facts)) {
    text(pdf, label, LEFT, y, { size: 7.5, color: GREY });
    text(pdf, value, LEFT + 95, y, { font: BOLD, size: 8.5, width: 190 });
    y = Math.max(y + 12, pdf.y + 2);
  }
  const buyerBottom = partyBlock(pdf, doc.document.Type === 'W' || doc.document.Type === 'Y' ? 'DESTINATÁRIO' : 'CLIENTE (ADQUIRENTE)', facts.buyer, 330, detailsTop, RIGHT - 330);
  y = Math.max(y, buyerBottom) + 8;

  const d = doc.document;
  if (d.LoadAddress && d.DestinationAddress) {
    const load = `Local de carga: ${d.LoadAddress.AddressDetail}, ${d.LoadAddress.PostalCode} ${d.LoadAddress.City} (${d.LoadAddress.CountryCode})`;
    const unload = `Local de descarga: ${d.DestinationAddress.AddressDetail}, ${d.DestinationAddress.PostalCode} ${d.DestinationAddress.City} (${d.DestinationAddress.CountryCode})`;
    text(pdf, load, LEFT, y, { width: WIDTH });
    text(pdf, unload, LEFT, pdf.y + 1, { width: WIDTH });
    y = pdf.y + 6;
  }
  if ((d.Type === 'C' || d.Type === 'D') && d.DocumentReference) {
    const kind = d.Type === 'C' ? 'Nota de crédito' : 'Nota de débito';
    text(pdf, `${kind} referente ao documento ${d.DocumentReference}`, LEFT, y, { font: BOLD, size: 9.5, width: WIDTH });
    y = pdf.y + 6;
  }
  if (d.Description) {
    text(pdf, `Observações: ${d.Description}`, LEFT, y, { width: WIDTH });
    y = pdf.y + 6;
  }
  return y + 4;
}

function continuedHeader(pdf: Pdf, facts: DocumentFacts): number {
  text(pdf, `${facts.typeName} ${facts.number} (continuação)`, LEFT, 48, { font: BOLD, size: 11 });
  text(pdf, `${facts.issuer.name} · NIF ${facts.issuer.taxId}`, LEFT, 64, { size: 8, color: GREY });
  text(pdf, `ATCUD: ${facts.atcud}`, 330, 48, { font: BOLD, size: 9, width: RIGHT - 330, align: 'right' });
  return BODY_TOP_CONTINUED;
}

function tableHeader(pdf: Pdf, y: number): number {
  pdf.rect(LEFT, y, WIDTH, 16).fillColor('#eeeeee').fill();
  for (const c of COLUMNS) text(pdf, c.title, c.x + (c.align === 'left' ? 3 : 0), y + 4.5, { font: BOLD, size: 7.5, width: c.width - 3, align: c.align });
  return y + 20;
}

function lineCells(doc: StoredDocument, facts: DocumentFacts, i: number): string[] {
  const line = doc.document.Lines[i];
  return [
    line.Code,
    line.Description,
    formatPlainPt(line.Quantity),
    line.Unit,
    formatNumberPt(line.UnitPrice, 2),
    formatPlainPt(line.ProductDiscount),
    formatPlainPt(line.TaxValue),
    formatNumberPt(facts.totals.lineNets[i]),
  ];
}

function rowHeight(pdf: Pdf, cells: string[]): number {
  pdf.font(FONT).fontSize(8.5);
  return Math.max(...cells.map((cell, i) => pdf.heightOfString(cell, { width: COLUMNS[i].width - 3 }))) + 5;
}

/** The space the closing block (VAT summary, totals, exemption, ATCUD and QR) needs on the last page. */
function closingHeight(facts: DocumentFacts): number {
  const t = facts.totals;
  const summary = 24 + t.byRate.length * 13;
  const totalRows = 3 + (isZero(t.discountAmount) ? 0 : 1) + (facts.currency !== 'EUR' ? 2 : 0) + (isZero(t.retentionAmount) ? 0 : 1);
  const totals = totalRows * 13 + 20;
  return Math.max(summary, totals) + 6 + (facts.exemption ? 30 : 0) + QR_QUIET + QR_SIDE + 8;
}

function vatSummary(pdf: Pdf, doc: StoredDocument, facts: DocumentFacts, y: number): number {
  text(pdf, 'Quadro resumo do IVA', LEFT, y, { font: BOLD, size: 9 });
  y += 13;
  const rates = [...facts.totals.byRate].sort((a, b) => compare(a.rate, b.rate));
  const withExemption = rates.some((r) => isZero(r.rate)) && doc.document.TaxExemptionReasonCode !== undefined;
  const cols: [string, number, number, 'left' | 'right'][] = [
    ['Taxa', LEFT, 50, 'left'],
    ['Incidência', LEFT + 50, 80, 'right'],
    ['IVA', LEFT + 130, 70, 'right'],
    ...(withExemption ? [['Motivo de isenção', LEFT + 215, 85, 'left'] as [string, number, number, 'left']] : []),
  ];
  for (const [title, x, w, align] of cols) text(pdf, title, x, y, { font: BOLD, size: 7.5, width: w, align });
  y += 11;
  for (const r of rates) {
    const exempt = isZero(r.rate);
    text(pdf, `${formatPlainPt(formatDecimal(r.rate))}%`, LEFT, y, { width: 50 });
    text(pdf, formatMoneyPt(r.base, facts.currency), LEFT + 50, y, { width: 80, align: 'right' });
    text(pdf, formatMoneyPt(r.tax, facts.currency), LEFT + 130, y, { width: 70, align: 'right' });
    if (exempt && doc.document.TaxExemptionReasonCode) text(pdf, doc.document.TaxExemptionReasonCode, LEFT + 215, y, { width: 85 });
    y += 13;
  }
  return y;
}

function totalsBox(pdf: Pdf, facts: DocumentFacts, y: number): number {
  const t = facts.totals;
  const x = 345;
  const rows: [string, string, boolean][] = [['Total ilíquido', formatMoneyPt(t.amountBeforeDiscountAndTax, facts.currency), false]];
  if (!isZero(t.discountAmount)) rows.push(['Descontos', formatMoneyPt(t.discountAmount, facts.currency), false]);
  rows.push(['Total sem IVA', formatMoneyPt(t.withoutTax, facts.currency), false]);
  rows.push(['Total IVA', formatMoneyPt(t.tax, facts.currency), false]);
  rows.push(['Total', formatMoneyPt(t.amount, facts.currency), true]);
  if (facts.currency !== 'EUR' && !isZero(t.totalWithExchangeRate)) {
    rows.push(['Total em EUR (contravalor)', formatMoneyPt(t.totalWithExchangeRate), false]);
    rows.push(['IVA em EUR (contravalor)', formatMoneyPt(facts.taxInEuro), false]);
  }
  if (!isZero(t.retentionAmount)) rows.push([`Retenção na fonte (${formatPlainPt(formatDecimal(t.retentionPercent))}%)`, formatMoneyPt(t.retentionAmount, facts.currency), false]);
  for (const [label, value, strong] of rows) {
    if (strong) {
      pdf.rect(x, y - 3, RIGHT - x, 18).fillColor('#eeeeee').fill();
      text(pdf, label, x + 4, y + 1, { font: BOLD, size: 10.5 });
      text(pdf, value, x, y + 1, { font: BOLD, size: 10.5, width: RIGHT - x - 4, align: 'right' });
      y += 20;
    } else {
      text(pdf, label, x + 4, y, { size: 8.5 });
      text(pdf, value, x, y, { size: 8.5, width: RIGHT - x - 4, align: 'right' });
      y += 13;
    }
  }
  return y;
}

function closingBlock(pdf: Pdf, doc: StoredDocument, facts: DocumentFacts, top: number): void {
  const left = vatSummary(pdf, doc, facts, top);
  const right = totalsBox(pdf, facts, top);
  let y = Math.max(left, right) + 6;
  if (facts.exemption) {
    text(pdf, `Motivo de isenção: ${facts.exemption}`, LEFT, y, { font: BOLD, size: 8.5, width: WIDTH });
    y = pdf.y + 8;
  }
  // The QR code sits at the foot of the last page with the ATCUD immediately above it.
  const qrTop = Math.max(y + QR_QUIET, FOOTER_TOP - QR_SIDE - 8);
  text(pdf, `ATCUD: ${facts.atcud}`, LEFT, qrTop - QR_QUIET + 2, { font: BOLD, size: 8.5 });
  drawQr(pdf, facts.qr, LEFT, qrTop, QR_SIDE);
  const noteX = LEFT + QR_SIDE + 14;
  text(pdf, `${facts.hash4} - Processado por programa certificado n.º ${facts.certificate}/AT`, noteX, qrTop + 4, { font: BOLD, size: 8.5, width: RIGHT - noteX });
  text(
    pdf,
    `O número de certificado ${facts.certificate} e o código de validação da série (SBX…) são fictícios: este documento foi emitido ` +
      'pelo emulador local (sandbox) e não foi comunicado à Autoridade Tributária. / The certificate number and the series validation ' +
      'code are made up by the local sandbox; this document was not reported to the tax authority.',
    noteX,
    pdf.y + 4,
    { size: 7.5, color: GREY, width: RIGHT - noteX },
  );
  if (doc.document.Type === 'T' || doc.document.Type === 'S') {
    text(pdf, 'Documento pago na data de emissão.', noteX, pdf.y + 4, { size: 7.5, width: RIGHT - noteX });
  }
}

function pageDecorations(pdf: Pdf, facts: DocumentFacts, page: number, pages: number): void {
  // Sandbox banner on top, a faint diagonal watermark, and the legal footer.
  pdf.rect(0, 0, PAGE.width, 26).fillColor('#c62828').fill();
  text(pdf, SANDBOX_MARK, LEFT, 9, { font: BOLD, size: 9, color: 'white', width: WIDTH, align: 'center' });
  pdf.save();
  pdf.rotate(-35, { origin: [PAGE.width / 2, PAGE.height / 2] });
  pdf.font(BOLD).fontSize(110).fillColor('#c62828').fillOpacity(0.07);
  pdf.text('SANDBOX', 0, PAGE.height / 2 - 55, { width: PAGE.width, align: 'center', lineBreak: false });
  pdf.restore();
  if (facts.cancelled) {
    pdf.save();
    pdf.rotate(-30, { origin: [PAGE.width / 2, 420] });
    pdf.font(BOLD).fontSize(72).fillColor('red').fillOpacity(0.35);
    pdf.text('ANULADO', 0, 380, { width: PAGE.width, align: 'center', lineBreak: false });
    pdf.fontSize(24).text('CANCELLED', 0, 455, { width: PAGE.width, align: 'center', lineBreak: false });
    pdf.restore();
  }
  pdf.fillOpacity(1);
  rule(pdf, FOOTER_TOP + 4);
  text(pdf, `${facts.hash4} - Processado por programa certificado n.º ${facts.certificate}/AT`, LEFT, FOOTER_TOP + 9, { size: 7.5 });
  text(pdf, `ATCUD: ${facts.atcud}`, LEFT, FOOTER_TOP + 19, { size: 7.5 });
  text(pdf, `${facts.typeName} ${facts.number} · Página ${page}/${pages}`, 300, FOOTER_TOP + 9, { size: 7.5, width: RIGHT - 300, align: 'right' });
  text(pdf, SANDBOX_MARK, LEFT, FOOTER_TOP + 33, { font: BOLD, size: 7.5, color: '#c62828', width: WIDTH, align: 'center' });
}

export function renderDocument(doc: StoredDocument, facts: DocumentFacts, info: PDFKit.DocumentInfo): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: 'A4', margin: 0, bufferPages: true, info });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);

    let y = tableHeader(pdf, firstPageHeader(pdf, doc, facts));
    const lines = doc.document.Lines;
    for (let i = 0; i < lines.length; i++) {
      const cells = lineCells(doc, facts, i);
      const height = rowHeight(pdf, cells);
      if (y + height > FOOTER_TOP - 10) {
        pdf.addPage({ size: 'A4', margin: 0 });
        y = tableHeader(pdf, continuedHeader(pdf, facts));
      }
      cells.forEach((cell, c) => {
        const col = COLUMNS[c];
        text(pdf, cell, col.x + (col.align === 'left' ? 3 : 0), y, { size: 8.5, width: col.width - 3, align: col.align });
      });
      y += height;
      rule(pdf, y - 2.5, '#e3e3e3');
    }
    if (y + 10 + closingHeight(facts) > FOOTER_TOP) {
      pdf.addPage({ size: 'A4', margin: 0 });
      y = continuedHeader(pdf, facts);
    }
    closingBlock(pdf, doc, facts, y + 10);

    const range = pdf.bufferedPageRange();
    for (let p = 0; p < range.count; p++) {
      pdf.switchToPage(range.start + p);
      pageDecorations(pdf, facts, p + 1, range.count);
    }
    pdf.end();
  });
}
