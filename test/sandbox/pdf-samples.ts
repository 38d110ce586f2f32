import { request } from 'undici';
import type { RunningSandbox } from '../support/sandbox';
import { client, documentBody, Json, line } from './bodies';
import { advanceClock, api, objectOf } from './http';

/**
 * Documents whose PDFs show each part of the printed layout: several VAT rates with a discount,
 * an exempt intra-EU sale (M16), a credit note referencing its invoice, a long invoice spanning
 * pages. Used by the PDF tests and to look at the pages as images.
 */

const business = client({
  Name: 'Livraria Atlântica',
  LegalName: 'Livraria Atlântica, Lda.',
  NIF: '505123452',
  Address: 'Rua de Santa Catarina 200',
  City: 'Porto',
  PostCode: '4000-447',
});

export const SAMPLES: Record<'severalRates' | 'intraEu' | 'creditNote' | 'manyLines', Json> = {
  severalRates: documentBody(
    {
      Type: 'I',
      Date: '2026-03-02',
      DueDate: '2026-04-01',
      PurchaseOrder: 'Encomenda #1042',
      Lines: [
        line({ Code: 'LIV-001', Description: 'Os Lusíadas, edição anotada', UnitPrice: '1234.5', Quantity: 1, TaxValue: 6 }),
        line({ Code: 'CAF-250', Description: 'Café moído 250 g', UnitPrice: '3.99', Quantity: 3, TaxValue: 13, ProductDiscount: 10 }),
        line({ Code: 'CAN-01', Description: 'Caneca de cerâmica pintada à mão', UnitPrice: 12.5, Quantity: 2, TaxValue: 23 }),
        line({ Code: 'PORTES', Description: 'Portes de envio', UnitPrice: '4.07', Quantity: 1, Type: 'S', TaxValue: 23 }),
      ],
    },
    { Client: business },
  ),
  intraEu: documentBody(
    {
      Type: 'I',
      Date: '2026-03-02',
      DueDate: '2026-04-01',
      TaxExemptionReasonCode: 'M16',
      Lines: [
        line({ Code: 'AZU-20', Description: 'Azulejos pintados (caixa de 20)', UnitPrice: '89.9', Quantity: 4, TaxValue: 0 }),
        line({ Code: 'AZU-BOR', Description: 'Cercadura de azulejo', UnitPrice: '15', Quantity: 10, TaxValue: 0 }),
      ],
    },
    {
      Client: client({
        Name: 'Distribuciones Ibéricas',
        LegalName: 'Distribuciones Ibéricas, S.L.',
        NIF: 'B12345678',
        CountryCode: 'ES',
        CountryName: 'España',
        Address: 'Calle Mayor 10',
        City: 'Madrid',
        PostCode: '28013',
      }),
    },
  ),
  creditNote: documentBody(
    {
      Type: 'C',
      Date: '2026-03-05',
      DueDate: '2026-03-06',
      DocumentReference: 'FT A/1',
      Description: 'Devolução de uma caneca partida no transporte',
      Lines: [line({ Code: 'CAN-01', Description: 'Caneca de cerâmica pintada à mão', UnitPrice: 12.5, Quantity: 1, TaxValue: 23 })],
    },
    { Client: business },
  ),
  manyLines: documentBody(
    {
      Type: 'T',
      Date: '2026-03-06',
      DueDate: '2026-03-07',
      Lines: Array.from({ length: 70 }, (_, i) =>
        line({
          Code: `REF-${String(i + 1).padStart(3, '0')}`,
          Description: i % 9 === 4 ? `Artigo ${i + 1}: conjunto de talheres em aço inoxidável com estojo de madeira, gravação personalizada` : `Artigo ${i + 1}`,
          UnitPrice: (1.25 * (i + 1)).toFixed(2),
          Quantity: (i % 3) + 1,
          TaxValue: [23, 13, 6][i % 3],
        }),
      ),
    },
    { Client: business },
  ),
};

/** Creates the document over HTTP, lets the finalize delay pass, and downloads its PDF. */
export async function createAndDownload(sandbox: RunningSandbox, body: Json, finalizeDelayMs: number): Promise<{ id: number; number: string; pdf: Buffer }> {
  const { DocumentId: id } = objectOf<{ DocumentId: number }>(await api(sandbox, 'POST', '/document', { body }));
  await advanceClock(sandbox, finalizeDelayMs);
  const got = objectOf<{ DocumentNumber: string; DownloadUrl: string }>(await api(sandbox, 'GET', `/document?documentId=${id}`));
  const response = await request(got.DownloadUrl);
  if (response.statusCode !== 200) throw new Error(`PDF download answered ${response.statusCode}`);
  return { id, number: got.DocumentNumber, pdf: Buffer.from(await response.body.arrayBuffer()) };
}
