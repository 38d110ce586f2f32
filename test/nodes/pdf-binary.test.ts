import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { pdfFileName } from '../../nodes/MagniFinance/helpers/pdf-binary';
import { buildRefund } from '../law/support/woo-cart';
import { invoiceThroughNode } from './support/invoice';
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

/**
 * A create that waits for the number hands the PDF on too, ready for an e-mail node (issue 10.6).
 * Each case waits the service's 10 s before its first Get Document; they run side by side.
 */
describe('Create ... with "Wait for Number and PDF" and "Download PDF": the PDF as binary property "data"', () => {
  const order = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'orders', 'pt-001-mainland-23-single.json'), 'utf8')) as IDataObject;
  const today = new Date().toISOString().slice(0, 10);

  /** The order's invoice (its number and id: the credit note reads the buyer it carried). */
  async function invoiceOf(sandbox: NodeSandbox): Promise<{ invoiceNumber: string; invoiceDocumentId: number }> {
    const { documentNumber, documentId } = await invoiceThroughNode(sandbox, { resource: 'document', operation: 'createFromOrder' }, order);
    return { invoiceNumber: documentNumber, invoiceDocumentId: documentId };
  }

  it.concurrent.each<[string, (sandbox: NodeSandbox) => Promise<{ parameters: INodeParameters; items?: INodeExecutionData[] }>]>([
    ['Document > Create', async () => ({ parameters: { resource: 'document', operation: 'create', clientName: 'Maria Silva', lines: mugLines } })],
    ['Document > Create From WooCommerce Order', async () => ({ parameters: { resource: 'document', operation: 'createFromOrder', orderRecord: 'none' }, items: [{ json: order }] })],
    [
      'Document > Create Credit Note From WooCommerce Refund',
      async (sandbox) => ({
        parameters: { resource: 'document', operation: 'createCreditNoteFromRefund', orderRecord: 'none', refund: '={{ $json.refund }}', order: '={{ $json.order }}', ...(await invoiceOf(sandbox)) },
        items: [{ json: { order, refund: buildRefund(order, { id: 7101, items: [{ index: 0, quantity: 1 }] }) } }],
      }),
    ],
    [
      'Waybill > Create',
      async () => ({
        parameters: {
          resource: 'waybill',
          operation: 'create',
          waybillType: 'W',
          clientName: 'Loja do Porto',
          loadDateTime: `${today}T23:59`,
          loadAddress: { address: { address: 'Rua Augusta 100', city: 'Lisboa', postalCode: '1100-053', countryCode: 'PT' } },
          destinationAddress: { address: { address: 'Rua de Santa Catarina 1', city: 'Porto', postalCode: '4000-447' } },
          lines: mugLines,
        },
      }),
    ],
  ])('%s', async (_name, build) => {
    const sandbox = await startNodeSandbox({ finalizeDelayMs: 0 });
    try {
      const { parameters, items } = await build(sandbox);
      const { output } = await runNode({ credentials: sandbox.credentials, parameters: { ...parameters, waitForDocument: true, downloadPdf: true }, items });
      const [item] = output[0];
      expect(item.json).toMatchObject({ finalized: true, documentNumber: expect.stringMatching(/\S+\/\d+/) });
      expect(item.binary?.data).toMatchObject({ mimeType: 'application/pdf', fileName: pdfFileName(item.json.documentNumber as string) });
      expect(Buffer.from(item.binary?.data.data as string, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    } finally {
      await sandbox.close();
    }
  }, 40_000);

  it('not numbered within the wait: the created document is reported, JSON only (no PDF to attach yet)', async () => {
    const sandbox = await startNodeSandbox({ finalizeDelayMs: 3_600_000 });
    try {
      const { output, requests } = await runNode({
        credentials: sandbox.credentials,
        parameters: { resource: 'document', operation: 'create', clientName: 'Maria Silva', lines: mugLines, waitForDocument: true, downloadPdf: true, options: { waitTimeoutSeconds: 10 } },
      });
      expect(output[0][0].json).toMatchObject({ documentId: expect.any(Number), finalized: false });
      expect(output[0][0].binary).toBeUndefined();
      expect(requests.map((r) => r.method)).toEqual(['POST', 'GET']);
    } finally {
      await sandbox.close();
    }
  }, 40_000);
});
