import PDFDocument from 'pdfkit';
import { formatDecimalComma, parseDecimal } from '../client/money';
import { documentTotals } from './document-view';
import { DEFAULT_SERIE, TYPE_NAMES } from './reference-data';
import type { SandboxAccount, StoredDocument } from './state';

/**
 * The PDF of a closed (or cancelled) document: issuer, number, dates, client, lines, totals per
 * VAT rate, and a CANCELLED mark once cancelled. Rendered once per document and status and cached,
 * so repeated downloads cost nothing.
 */

function render(doc: StoredDocument, issuer: SandboxAccount | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Title and Keywords are uncompressed in the file, so a reader (or a test) can see number and status.
    const pdf = new PDFDocument({
      size: 'A4',
      margin: 50,
      info: {
        Title: doc.number ?? `Document ${doc.id}`,
        Keywords: doc.status === 'canceled' ? 'CANCELLED' : 'CLOSED',
        Author: issuer?.companyName ?? doc.accountTaxId,
      },
    });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);

    const d = doc.document;
    const totals = documentTotals(doc);
    pdf.fontSize(16).text(issuer?.companyName ?? 'Sandbox company');
    pdf.fontSize(9).text(`NIF ${issuer?.taxId ?? doc.accountTaxId}`);
    if (issuer?.address) pdf.text(`${issuer.address}, ${issuer.postCode ?? ''} ${issuer.city ?? ''}`);
    pdf.moveDown();
    pdf.fontSize(14).text(`${TYPE_NAMES[d.Type]} ${doc.number ?? ''}`);
    pdf.fontSize(9).text(`Series ${d.Serie ?? DEFAULT_SERIE}   Date ${d.Date}${d.DueDate ? `   Due ${d.DueDate}` : ''}`);
    if (d.DocumentReference) pdf.text(`Reference: ${d.DocumentReference}`);
    if (doc.atCode) pdf.text(`AT code: ${doc.atCode}`);
    pdf.moveDown();
    pdf.fontSize(10).text(doc.client.LegalName ?? doc.client.Name);
    pdf.fontSize(9).text(`NIF ${doc.client.NIF} (${doc.client.CountryCode})`);
    if (doc.client.Address) pdf.text(`${doc.client.Address}, ${doc.client.PostCode ?? ''} ${doc.client.City ?? ''}`);
    if (d.LoadAddress && d.DestinationAddress) {
      pdf.text(`Load: ${d.LoadAddress.AddressDetail}, ${d.LoadAddress.PostalCode} ${d.LoadAddress.City} at ${d.LoadDateTime ?? ''}`);
      pdf.text(`Destination: ${d.DestinationAddress.AddressDetail}, ${d.DestinationAddress.PostalCode} ${d.DestinationAddress.City}`);
    }
    pdf.moveDown();
    pdf.fontSize(9).text('Code | Description | Qty | Unit price | Disc. % | VAT % | Net');
    d.Lines.forEach((line, i) => {
      pdf.text(
        `${line.Code} | ${line.Description} | ${line.Quantity} ${line.Unit} | ${formatDecimalComma(parseDecimal(line.UnitPrice), 2)} | ` +
          `${line.ProductDiscount} | ${line.TaxValue} | ${formatDecimalComma(totals.lineNets[i])}`,
      );
    });
    pdf.moveDown();
    for (const rate of totals.byRate) {
      pdf.text(`VAT ${formatDecimalComma(rate.rate, 0)}%: base ${formatDecimalComma(rate.base)}  tax ${formatDecimalComma(rate.tax)}`);
    }
    if (d.TaxExemptionReasonCode) pdf.text(`Exemption: ${d.TaxExemptionReasonCode}`);
    pdf.moveDown();
    pdf.fontSize(11).text(`Without tax ${formatDecimalComma(totals.withoutTax)}   Tax ${formatDecimalComma(totals.tax)}   Total ${formatDecimalComma(totals.amount)} EUR`);
    if (doc.status === 'canceled') {
      pdf.save();
      pdf.rotate(-30, { origin: [300, 420] });
      pdf.fontSize(72).fillColor('red').fillOpacity(0.4).text('CANCELLED', 90, 380);
      pdf.restore();
    }
    pdf.end();
  });
}

export class PdfCache {
  private readonly cache = new Map<string, Promise<Buffer>>();

  constructor(private readonly maxEntries = 1000) {}

  pdfFor(doc: StoredDocument, issuer: SandboxAccount | undefined): Promise<Buffer> {
    const key = `${doc.id}:${doc.status}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    if (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    const rendering = render(doc, issuer);
    this.cache.set(key, rendering);
    rendering.catch(() => this.cache.delete(key));
    return rendering;
  }

  clear(): void {
    this.cache.clear();
  }
}
