import { request } from 'undici';
import { formatDecimalComma, toNumber } from '../../client/money';
import { computeTotals } from '../../client/totals';
import { RunningSandbox, startTestSandbox } from '../support/sandbox';
import { documentBody, line, LineBody } from './bodies';
import { admin, advanceClock, api, objectOf } from './http';

/** Get Document / Property: the finalize delay, details and totals, PDFs and their links, payments, outbox. */

// A long delay crossed by moving the sandbox clock: "before the delay" can never race real time.
const DELAY = 10_000;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ finalizeDelayMs: DELAY });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await admin(sandbox, 'POST', '/reset');
});

interface Got {
  DocumentNumber: string | null;
  DownloadUrl: string | null;
  PaymentStatus: string;
  TotalAmount: string;
  UnpaidAmount: string;
  ErrorMessage: string | null;
  Details: {
    Document: Record<string, unknown>;
    Receiver: Record<string, unknown>;
    Totals: Record<string, number | string>;
  };
}

async function createClosed(body = documentBody()): Promise<number> {
  return objectOf<{ DocumentId: number }>(await api(sandbox, 'POST', '/document', { body })).DocumentId;
}

/** Details are read with Get Document Property, which answers before the finalize delay too. */
async function get(id: number, path = '/document/property'): Promise<Got> {
  return objectOf<Got>(await api(sandbox, 'GET', `${path}?documentId=${id}`));
}

async function download(url: string): Promise<{ status: number; type: string | undefined; body: Buffer }> {
  const response = await request(url);
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, type: response.headers['content-type'] as string | undefined, body };
}

describe('finalize delay: number and link only once the delay has passed', () => {
  it('/document before the delay: 6 ElementDoesNotExist, as the public error list describes a document read too early', async () => {
    const id = await createClosed();
    const result = await api(sandbox, 'GET', `/document?documentId=${id}`);
    expect(result.status).toBe(404);
    expect(result.envelope).toMatchObject({ Type: 1, Object: null, ErrorValue: { Value: 6, Name: 'ElementDoesNotExist' } });
    expect(result.envelope.ValidationErrors?.[0]).toMatchObject({ Type: 'ElementDoesNotExist', Field: 'DocumentId', Value: String(id) });
    expect(result.envelope.ValidationErrors?.[0]?.Detail).toMatch(/not available yet/);
    await advanceClock(sandbox, DELAY);
    expect((await get(id, '/document')).DocumentNumber).toBe('FR A/1');
  });

  it('/document before the delay with notNumberedAnswer null-number (the spec): success, no number, no link', async () => {
    await admin(sandbox, 'POST', '/config', { notNumberedAnswer: 'null-number' });
    try {
      const got = await get(await createClosed(), '/document');
      expect(got.DocumentNumber).toBeNull();
      expect(got.DownloadUrl).toBeNull();
      expect(got.Details.Document.DocumentStatusId).toBe('C');
    } finally {
      await admin(sandbox, 'POST', '/config', { notNumberedAnswer: 'element-does-not-exist' });
    }
  });

  it('/document of a draft: the draft as it is (drafts are never numbered)', async () => {
    const id = await createClosed(documentBody({}, { IsToClose: false }));
    const got = await get(id, '/document');
    expect(got.DocumentNumber).toBeNull();
    expect(got.Details.Document.DocumentStatusId).toBe('D');
  });

  it('/document/property before the delay: success, no number, no link', async () => {
    const id = await createClosed();
    const got = await get(id, '/document/property');
    expect(got.DocumentNumber).toBeNull();
    expect(got.DownloadUrl).toBeNull();
    expect(got.Details.Document.DocumentStatusId).toBe('C');
    expect(got.TotalAmount).toBe('24,60');
  });

  it.each(['/document', '/document/property'])('%s after the delay: number and a signed link', async (path) => {
    const id = await createClosed();
    await advanceClock(sandbox, DELAY);
    const got = await get(id, path);
    expect(got.DocumentNumber).toBe('FR A/1');
    expect(got.DownloadUrl).toMatch(new RegExp(`^${sandbox.origin}/_files/documents/${id}\\.pdf\\?.*X-Amz-Expires=7200.*X-Amz-Signature=[0-9a-f]{64}`));
  });

  it('follows a runtime change of the delay', async () => {
    await admin(sandbox, 'POST', '/config', { finalizeDelayMs: 0 });
    const id = await createClosed();
    expect((await get(id)).DocumentNumber).toBe('FR A/1');
    await admin(sandbox, 'POST', '/config', { finalizeDelayMs: DELAY });
  });
});

describe('the PDF at DownloadUrl', () => {
  async function finalizedUrl(id: number): Promise<string> {
    await advanceClock(sandbox, DELAY);
    return (await get(id)).DownloadUrl as string;
  }

  it('is a real PDF with the document number', async () => {
    const pdf = await download(await finalizedUrl(await createClosed()));
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.body.toString('latin1')).toContain('(FR A/1)');
    expect(pdf.body.toString('latin1')).toContain('(CLOSED)');
  });

  it('is marked CANCELLED once the document is cancelled', async () => {
    const id = await createClosed();
    const before = await download(await finalizedUrl(id));
    await api(sandbox, 'PATCH', `/document?documentId=${id}`);
    const after = await download((await get(id)).DownloadUrl as string);
    expect(before.body.toString('latin1')).not.toContain('(CANCELLED)');
    expect(after.body.toString('latin1')).toContain('(CANCELLED)');
  });

  it.each([
    ['expired after 7200 s', async (url: string) => { await advanceClock(sandbox, 7201 * 1000); return url; }, 403, 'Request has expired'],
    ['still valid just before expiry', async (url: string) => { await advanceClock(sandbox, 7199 * 1000); return url; }, 200, ''],
    ['tampered expiry', async (url: string) => url.replace('X-Amz-Expires=7200', 'X-Amz-Expires=9999'), 403, 'signature'],
    ['tampered document id', async (url: string) => url.replace(/documents\/\d+\.pdf/, 'documents/2.pdf'), 403, 'signature'],
    ['no signature', async (url: string) => url.split('?')[0], 403, 'AccessDenied'],
  ])('link %s -> %s', async (_name, change, status, text) => {
    await createClosed();
    await createClosed(documentBody({ Date: '2026-03-03', DueDate: '2026-03-04' }));
    const url = await change(await finalizedUrl(1));
    const result = await download(url);
    expect(result.status).toBe(status);
    expect(result.body.toString('utf8')).toContain(text);
  });

  it('is not served for drafts', async () => {
    const id = objectOf<{ DocumentId: number }>(await api(sandbox, 'POST', '/document', { body: documentBody({}, { IsToClose: false }) })).DocumentId;
    const result = await download(`${sandbox.origin}/_files/documents/${id}.pdf`);
    expect(result.status).toBe(404);
  });
});

describe('details: Document, Receiver and Totals', () => {
  const totalsCases: { name: string; lines: LineBody[]; extra?: Record<string, unknown> }[] = [
    { name: 'one line at 23%', lines: [line({ UnitPrice: '10.125', Quantity: 3 })] },
    { name: 'mixed rates with a discount', lines: [line({ UnitPrice: '19.99', Quantity: 3, ProductDiscount: 10 }), line({ UnitPrice: '4.35', TaxValue: 6 }), line({ UnitPrice: '0.333', Quantity: 7, TaxValue: 13 })] },
    { name: 'per-rate rounding, not per line', lines: [line({ UnitPrice: '0.05', Quantity: 1 }), line({ UnitPrice: '0.05', Quantity: 1 }), line({ UnitPrice: '0.05', Quantity: 1 })] },
    { name: 'retention and a foreign currency', lines: [line({ UnitPrice: '100', Quantity: 1 })], extra: { Retention: 25, Currency: 'USD', EuroRate: '1.0825' } },
    { name: 'an exempt line', lines: [line({ UnitPrice: '12.5', TaxValue: 0 })], extra: { TaxExemptionReasonCode: 'M05' } },
  ];

  it.each(totalsCases)('totals follow client/totals.ts for $name', async ({ lines, extra }) => {
    const id = await createClosed(documentBody({ Lines: lines, ...(extra ?? {}) }));
    const got = await get(id);
    const expected = computeTotals(lines, {
      retention: extra?.Retention as number | undefined,
      currency: extra?.Currency as string | undefined,
      euroRate: extra?.EuroRate as string | undefined,
    });
    const pairs: [string, typeof expected.amount][] = [
      ['Amount', expected.amount],
      ['WithoutTax', expected.withoutTax],
      ['Tax', expected.tax],
      ['Discount', expected.discountPercent],
      ['Retention', expected.retentionPercent],
      ['AmountBeforeDiscountAndTax', expected.amountBeforeDiscountAndTax],
      ['TotalAmountWithExchangeRate', expected.totalWithExchangeRate],
      ['TotalDebitAmount', expected.amount],
    ];
    for (const [name, value] of pairs) {
      expect([name, got.Details.Totals[name], got.Details.Totals[`${name}Text`]]).toEqual([name, toNumber(value), formatDecimalComma(value)]);
    }
    expect(got.TotalAmount).toBe(formatDecimalComma(expected.amount));
  });

  it('a credit note is an amount payable (TotalCredit), an invoice one to receive (TotalDebit)', async () => {
    const invoice = await get(await createClosed(documentBody({ Type: 'I' })));
    const credit = await get(await createClosed(documentBody({ Type: 'C', DocumentReference: 'FT A/1' })));
    expect(invoice.Details.Document).toMatchObject({ TotalDebit: 24.6, TotalCredit: 0 });
    expect(credit.Details.Document).toMatchObject({ TotalDebit: 0, TotalCredit: 24.6 });
    expect(credit.Details.Totals).toMatchObject({ TotalCreditAmountText: '24,60', TotalDebitAmountText: '0,00' });
  });

  it('echoes the document and the receiver', async () => {
    const body = documentBody(
      { Type: 'I', Serie: 'WEB', Description: 'Order 1001', ExternalId: 'wc-1001', PurchaseOrder: 'PO-9', Lines: [line({ CostCenter: 'Shop' })] },
      { Client: { Name: 'Loja', NIF: '505123452', CountryCode: 'PT', Address: 'Rua 1', City: 'Porto', PostCode: '4000-447', LegalName: 'Loja, Lda.', Email: 'loja@example.com' } },
    );
    const got = await get(await createClosed(body));
    expect(got.Details.Document).toMatchObject({
      Type: 'I',
      Serie: 'WEB',
      Date: '2026-03-02T00:00:00',
      DueDate: '2026-03-03T00:00:00',
      Description: 'Order 1001',
      ExternalId: 'wc-1001',
      PurchaseOrder: 'PO-9',
      Currency: 'EUR',
      Lines: [{ Code: 'SKU-1', Description: 'Caneca de cerâmica', UnitPrice: 10, Quantity: 2, Unit: 'UN', Type: 'P', TaxValue: 23, ProductDiscount: 0, CostCenter: 'Shop' }],
    });
    expect(got.Details.Receiver).toMatchObject({ TaxId: 505123452, Name: 'Loja', City: 'Porto', PostCode: '4000-447', CompanyLegalName: 'Loja, Lda.', Email: 'loja@example.com' });
  });

  it('keeps long decimals exact (JSON number literals are read as text)', async () => {
    const id = await createClosed(documentBody({ Lines: [line({ UnitPrice: '0.1', Quantity: 3 }), line({ UnitPrice: 0.2, Quantity: '0.5' })] }));
    expect((await get(id)).Details.Totals.WithoutTaxText).toBe('0,40');
    const raw = `{"IsToClose":true,"Client":{"Name":"A","NIF":"999999990","CountryCode":"PT"},"Document":{"Type":"I","Date":"2026-03-04","DueDate":"2026-03-05","Lines":[{"Code":"X","Description":"Y","UnitPrice":0.30000000000000000001,"Quantity":1,"Unit":"UN","Type":"P","TaxValue":23,"ProductDiscount":0}]}}`;
    const created = objectOf<{ DocumentId: number }>(await api(sandbox, 'POST', '/document', { rawBody: raw }));
    const docs = await admin<{ documents: { id: number; document: { Lines: { UnitPrice: string }[] } }[] }>(sandbox, 'GET', '/documents');
    expect(docs.body.documents.find((d) => d.id === created.DocumentId)?.document.Lines[0].UnitPrice).toBe('0.30000000000000000001');
  });
});

describe('payments: PaymentStatus and UnpaidAmount of Get Document Property', () => {
  it('moves an invoice from NoPayment through Incomplete to Complete', async () => {
    const id = await createClosed(documentBody({ Type: 'I' }));
    const steps: [string | null, string, string][] = [
      [null, 'NoPayment', '24,60'],
      ['10.00', 'Incomplete', '14,60'],
      ['14.60', 'Complete', '0,00'],
    ];
    for (const [amount, status, unpaid] of steps) {
      if (amount) expect((await admin(sandbox, 'POST', '/payments', { documentId: id, amount })).status).toBe(200);
      const got = await get(id, '/document/property');
      expect([got.PaymentStatus, got.UnpaidAmount]).toEqual([status, unpaid]);
    }
  });

  it.each([
    ['T', 'Complete', '0,00'],
    ['S', 'Complete', '0,00'],
    ['I', 'NoPayment', '24,60'],
    ['D', 'NoPayment', '24,60'],
  ])('a closed %s starts %s', async (type, status, unpaid) => {
    const got = await get(await createClosed(documentBody({ Type: type, DocumentReference: 'FT A/1' })), '/document/property');
    expect([got.PaymentStatus, got.UnpaidAmount]).toEqual([status, unpaid]);
  });

  it.each([
    ['a draft', false, { amount: '1' }, 409],
    ['an unknown document', true, { documentId: 999, amount: '1' }, 404],
    ['a bad amount', true, { amount: '-3' }, 400],
  ])('refuses a payment on %s', async (_name, close, body, status) => {
    const id = objectOf<{ DocumentId: number }>(await api(sandbox, 'POST', '/document', { body: documentBody({ Type: 'I' }, { IsToClose: close }) })).DocumentId;
    expect((await admin(sandbox, 'POST', '/payments', { documentId: id, ...body })).status).toBe(status);
  });
});

describe('SendTo: an e-mail in the outbox when a document closes', () => {
  interface Outbox {
    emails: { kind: string; to: string; subject: string; documentId?: number; attachment?: string }[];
  }

  it('sends one e-mail per address on closing, none for drafts', async () => {
    const draft = objectOf<{ DocumentId: number }>(
      await api(sandbox, 'POST', '/document', { body: documentBody({}, { IsToClose: false, SendTo: 'x@example.com' }) }),
    ).DocumentId;
    expect((await admin<Outbox>(sandbox, 'GET', '/outbox')).body.emails).toHaveLength(0);
    await api(sandbox, 'POST', '/document', { body: documentBody({ Id: draft }, { SendTo: 'ana@example.com;rui@example.com' }) });
    const outbox = (await admin<Outbox>(sandbox, 'GET', '/outbox')).body.emails;
    expect(outbox.map((e) => e.to)).toEqual(['ana@example.com', 'rui@example.com']);
    expect(outbox[0]).toMatchObject({ kind: 'document', documentId: draft, attachment: 'FR_A_1.pdf' });
    expect(outbox[0].subject).toContain('FR A/1');
    expect((await admin<Outbox>(sandbox, 'GET', '/outbox?to=rui@example.com')).body.emails).toHaveLength(1);
  });
});
