import { RunningSandbox, startTestSandbox } from '../support/sandbox';
import { readPdf, ReadPdf } from '../support/pdf-reader';
import { client, documentBody, line } from './bodies';
import { admin, api } from './http';
import { createAndDownload, SAMPLES } from './pdf-samples';
import { request } from 'undici';

/**
 * The downloaded PDF read back as a person sees it: its text (pdf2json) and its QR code (decoded
 * with jsQR from the squares drawn on the page), for the layouts of pdf-samples.ts.
 */

const DELAY = 10_000;
const MARK = 'DOCUMENTO DE SANDBOX, SEM VALIDADE FISCAL · SANDBOX DOCUMENT, NO FISCAL VALUE';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ finalizeDelayMs: DELAY });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await admin(sandbox, 'POST', '/reset');
});

async function rendered(body: Parameters<typeof createAndDownload>[1]): Promise<ReadPdf & { id: number }> {
  const { id, pdf } = await createAndDownload(sandbox, body, DELAY);
  return { id, ...(await readPdf(pdf)) };
}

/** The printed ATCUD and 4 signature characters of a page. */
function marks(text: string): { atcud: string; hash: string } {
  const atcud = /ATCUD: (SBX[A-Z2-9]{5}-\d+)/.exec(text)?.[1];
  const hash = /(\S{4}) - Processado por programa certificado n\.º 0000\/AT/.exec(text)?.[1];
  if (!atcud || !hash) throw new Error(`No ATCUD or hash characters in: ${text}`);
  return { atcud, hash };
}

describe('an invoice with several VAT rates', () => {
  it('shows both parties with NIF and address, type, number, ATCUD, lines, VAT summary and totals in Portuguese format', async () => {
    const { pages } = await rendered(SAMPLES.severalRates);
    expect(pages).toHaveLength(1);
    const text = pages[0];
    for (const expected of [
      MARK,
      'Demo Comércio, Lda. Rua Augusta 100 1100-053 Lisboa NIF: 509442013',
      'Fatura FT A/1',
      'Livraria Atlântica, Lda. Rua de Santa Catarina 200 4000-447 Porto Portugal NIF: 505123452',
      'Data 02-03-2026 Vencimento 01-04-2026',
      'Requisição Encomenda #1042',
      'LIV-001 Os Lusíadas, edição anotada 1 UN 1 234,50 0 6 1 234,50',
      'CAF-250 Café moído 250 g 3 UN 3,99 10 13 10,77',
      '6% 1 234,50 € 74,07 €',
      '13% 10,77 € 1,40 €',
      '23% 29,07 € 6,69 €',
      'Total IVA 82,16 €',
      'Total 1 356,50 €',
      'Página 1/1',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/ATCUD SBX[A-Z2-9]{5}-1 /);
  });

  it("carries the tax authority's QR code, whose Q and H match the printed hash characters and ATCUD", async () => {
    const { pages, qrCodes } = await rendered(SAMPLES.severalRates);
    const { atcud, hash } = marks(pages[0]);
    expect(qrCodes).toEqual([
      `A:509442013*B:505123452*C:PT*D:FT*E:N*F:20260302*G:FT A/1*H:${atcud}*I1:PT*I3:1234.50*I4:74.07*I5:10.77*I6:1.40*I7:29.07*I8:6.69*N:82.16*O:1356.50*Q:${hash}*R:0000`,
    ]);
  });

  it('once cancelled, is re-rendered with ANULADO and status A in the QR code', async () => {
    const { id } = await rendered(SAMPLES.severalRates);
    expect((await api(sandbox, 'PATCH', `/document?documentId=${id}`)).status).toBe(200);
    const got = await api(sandbox, 'GET', `/document?documentId=${id}`);
    const url = (got.envelope.Object as { DownloadUrl: string }).DownloadUrl;
    const { pages, qrCodes } = await readPdf(Buffer.from(await (await request(url)).body.arrayBuffer()));
    expect(pages[0]).toContain('ANULADO');
    expect(qrCodes[0]).toContain('*E:A*');
  });
});

describe('an exempt intra-EU invoice', () => {
  it('prints the exemption reason with its legal text and the foreign NIF with its country', async () => {
    const { pages, qrCodes } = await rendered(SAMPLES.intraEu);
    expect(pages[0]).toContain('Distribuciones Ibéricas, S.L. Calle Mayor 10 28013 Madrid España NIF: ES B12345678');
    expect(pages[0]).toContain('0% 509,60 € 0,00 € M16');
    expect(pages[0]).toContain('Motivo de isenção: M16 - Isento artigo 14.º do RITI');
    expect(qrCodes).toHaveLength(1);
    expect(qrCodes[0]).toMatch(/^A:509442013\*B:B12345678\*C:ES\*D:FT\*E:N\*F:20260302\*G:FT A\/1\*H:SBX[A-Z2-9]{5}-1\*I1:PT\*I2:509\.60\*N:0\.00\*O:509\.60\*Q:\S{4}\*R:0000$/);
  });
});

describe('a credit note', () => {
  it('names its type and the invoice it corrects', async () => {
    const { pages, qrCodes } = await rendered(SAMPLES.creditNote);
    expect(pages[0]).toContain('Nota de Crédito NC A/1');
    expect(pages[0]).toContain('Documento de origem FT A/1');
    expect(pages[0]).toContain('Nota de crédito referente ao documento FT A/1');
    expect(pages[0]).toContain('Total 15,38 €');
    expect(qrCodes[0]).toContain('*D:NC*E:N*F:20260305*G:NC A/1*');
    expect(qrCodes[0]).toContain('*I1:PT*I7:12.50*I8:2.88*N:2.88*O:15.38*');
  });
});

describe('a long invoice-receipt', () => {
  it('spans pages with the ATCUD, page number and sandbox mark on each, every line once, one QR code', async () => {
    const { pages, qrCodes } = await rendered(SAMPLES.manyLines);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const atcud = marks(pages[0]).atcud;
    pages.forEach((text, i) => {
      expect(text).toContain(`ATCUD: ${atcud}`);
      expect(text).toContain(MARK);
      expect(text).toContain(`Fatura-Recibo FR A/1 · Página ${i + 1}/${pages.length}`);
    });
    const all = pages.join(' ');
    for (let n = 1; n <= 70; n++) {
      expect(all.split(`REF-${String(n).padStart(3, '0')} `)).toHaveLength(2);
    }
    expect(pages[pages.length - 1]).toContain('Total 6 875,38 €');
    expect(qrCodes).toHaveLength(1);
    expect(qrCodes[0]).toContain('*D:FR*');
  });
});

describe('a simplified invoice to a final consumer', () => {
  it('shows the consumer NIF 999999990 as such', async () => {
    const body = documentBody({ Type: 'S', Lines: [line({ UnitPrice: '0.65', Quantity: 1 })] }, { Client: client() });
    const { pages, qrCodes } = await rendered(body);
    expect(pages[0]).toContain('Fatura Simplificada FS A/1');
    expect(pages[0]).toContain('Maria Silva Portugal NIF: 999999990 (Consumidor final)');
    expect(qrCodes[0]).toMatch(/^A:509442013\*B:999999990\*C:PT\*D:FS\*E:N\*F:20260302\*G:FS A\/1\*H:SBX[A-Z2-9]{5}-1\*I1:PT\*I7:0\.65\*I8:0\.15\*N:0\.15\*O:0\.80\*Q:\S{4}\*R:0000$/);
  });
});

describe('an invoice in a foreign currency with withholding', () => {
  it('prints the euro counter-values and puts euro amounts in the QR code (P for the withholding)', async () => {
    const body = documentBody(
      { Type: 'I', Currency: 'USD', EuroRate: '0.92', Retention: '25', Lines: [line({ UnitPrice: '1500', Quantity: 1, Type: 'S' })] },
      { Client: client({ Name: 'Acme Inc.', NIF: '123456789', CountryCode: 'US' }) },
    );
    const { pages, qrCodes } = await rendered(body);
    expect(pages[0]).toContain('Total 1 845,00 USD');
    expect(pages[0]).toContain('Total em EUR (contravalor) 1 697,40 €');
    expect(pages[0]).toContain('IVA em EUR (contravalor) 317,40 €');
    expect(pages[0]).toContain('Retenção na fonte (25%) 461,25 USD');
    // 1500 × 0.92 = 1380.00; 345 × 0.92 = 317.40; 1845 × 0.92 = 1697.40; 461.25 × 0.92 = 424.35.
    expect(qrCodes[0]).toContain('*C:US*D:FT*');
    expect(qrCodes[0]).toContain('*I1:PT*I7:1380.00*I8:317.40*N:317.40*O:1697.40*P:424.35*Q:');
  });
});
