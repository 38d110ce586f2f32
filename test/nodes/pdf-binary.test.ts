import { pdfFileName } from '../../nodes/MagniFinance/helpers/pdf-binary';
import { runNode } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';

let s: NodeSandbox;
beforeAll(async () => {
  s = await startNodeSandbox({ finalizeDelayMs: 0 });
});
afterAll(async () => {
  await s.close();
});

const mugLines = { line: [{ Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 2, TaxValue: 23 }] };

async function createInvoice(isToClose = true): Promise<number> {
  const { output } = await runNode({
    credentials: s.credentials,
    parameters: { resource: 'document', operation: 'create', clientName: 'Maria Silva', lines: mugLines, isToClose },
  });
  return output[0][0].json.documentId as number;
}

describe('Document > Get with "Download PDF": the PDF as binary property "data"', () => {
  it('attaches the PDF the service serves, named after the document number', async () => {
    const documentId = await createInvoice();
    const { output, requests } = await runNode({
      credentials: s.credentials,
      parameters: { resource: 'document', operation: 'get', documentId, downloadPdf: true },
    });
    const [item] = output[0];
    const number = item.json.documentNumber as string;
    expect(number).toMatch(/\S+\/\d+/);
    const pdf = item.binary?.data;
    expect(pdf).toMatchObject({ mimeType: 'application/pdf', fileName: pdfFileName(number), fileExtension: 'pdf' });
    const bytes = Buffer.from(pdf?.data as string, 'base64');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The same bytes as the link serves, fetched once by the node through n8n's helper.
    const download = requests.find((r) => r.url === item.json.downloadUrl);
    expect(download).toBeDefined();
    expect(download?.headers).not.toHaveProperty('token');
    const direct = Buffer.from(await (await fetch(item.json.downloadUrl as string)).arrayBuffer());
    expect(bytes.equals(direct)).toBe(true);
    expect(item.pairedItem).toEqual({ item: 0 });
  });

  it('a draft has no number and no PDF: JSON only, no binary, no download', async () => {
    const documentId = await createInvoice(false);
    const { output, requests } = await runNode({
      credentials: s.credentials,
      parameters: { resource: 'document', operation: 'get', documentId, downloadPdf: true },
    });
    expect(output[0][0].json).toMatchObject({ documentNumber: null, downloadUrl: null });
    expect(output[0][0].binary).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it('without the option the output stays JSON only', async () => {
    const documentId = await createInvoice();
    const { output, requests } = await runNode({ credentials: s.credentials, parameters: { resource: 'document', operation: 'get', documentId } });
    expect(output[0][0].binary).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it('file names never carry a path separator', () => {
    expect(pdfFileName('FR A/12')).toBe('FR A-12.pdf');
    expect(pdfFileName('NC 2026\\3')).toBe('NC 2026-3.pdf');
  });
});
