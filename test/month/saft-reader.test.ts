import { MagniFinanceClient } from '../../client/rest-client';
import { formatDecimal } from '../../client/money';
import { readSaft, SaftFileError } from '../../connector/month/saft-reader';
import { boxesOf } from '../../connector/month/vat-boxes';
import { xmlTree } from '../../connector/month/xml-tree';
import { startTestSandbox, TEST_ACCOUNT, type RunningSandbox } from '../support/sandbox';
import { documentRequest } from '../support/payloads';

/**
 * The SAF-T (PT) reader against files the sandbox exports as a MagniFinance user would (never a
 * hand-written expectation): UTF-8 and Windows-1252 read the same; regions, exempt codes and credit
 * notes land in the right boxes; a file that is not a SAF-T is refused with its reason.
 */
describe('the SAF-T (PT) 1.04_01 sales file: the sandbox exports it, the month pack reads it', () => {
  let sandbox: RunningSandbox;
  let client: MagniFinanceClient;
  const day = '2026-10-15';
  const line = (code: string, price: string, rate: number, description = 'Caneca de cerâmica €') => ({ Code: code, Description: description, UnitPrice: price, Quantity: 1, Unit: 'UN', Type: 'P' as const, TaxValue: rate, ProductDiscount: 0 });
  const issue = async (document: Record<string, unknown>, buyer: Record<string, string> = { NIF: '999999990', Name: 'Consumidor', CountryCode: 'PT' }): Promise<string> => {
    const created = await client.createDocument(documentRequest({ IsToClose: true, Client: buyer, Document: { Type: 'T', Date: day, DueDate: '2026-11-30', ...document } }));
    sandbox.store.clock.advance(60_000);
    return (await client.getDocument(created.documentId)).documentNumber ?? '';
  };
  const saftOf = async (encoding: string): Promise<Buffer> => {
    const response = await fetch(`${sandbox.origin}/_sandbox/saft?accountTaxId=${TEST_ACCOUNT.taxId}&month=2026-10&encoding=${encoding}`);
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    client = new MagniFinanceClient({ email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token, baseUrl: sandbox.baseUrl, retry: false });
    const invoice = await issue({ Lines: [line('A', '100.00', 23), line('B', '10.00', 6)] });
    await issue({ Lines: [line('C', '50.00', 22)] });
    await issue({ Lines: [line('D', '20.00', 16), line('E', '5.00', 4)] });
    await issue({ TaxExemptionReasonCode: 'M16', Lines: [line('F', '200.00', 0)] }, { NIF: 'ESB12345674', Name: 'Compradora SL', CountryCode: 'ES' });
    await issue({ TaxExemptionReasonCode: 'M05', Lines: [line('G', '80.00', 0)] }, { NIF: '999999990', Name: 'John Smith', CountryCode: 'US' });
    await issue({ Type: 'C', DocumentReference: invoice, Lines: [line('B', '10.00', 6)] });
  });
  afterAll(async () => sandbox.close());

  it('reads a Windows-1252 file exactly as the UTF-8 one, accents and euro sign included', async () => {
    const utf8 = await saftOf('utf-8');
    const cp1252 = await saftOf('windows-1252');
    expect(cp1252.toString('latin1')).toContain('encoding="Windows-1252"');
    expect(cp1252.includes(Buffer.from('cerâmica', 'utf8'))).toBe(false);
    const a = readSaft(utf8);
    const b = readSaft(cp1252);
    expect(a.encoding).toBe('utf-8');
    expect(b.encoding).toBe('windows-1252');
    expect(b.companyName).toBe(a.companyName);
    expect(JSON.stringify(b.documents, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).toBe(JSON.stringify(a.documents, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
    expect(a.controlTotalsMatch).toBe(true);
  });

  it('puts each rate in its region and box, exempt supplies in fields 7 and 8, and a credit note negative', async () => {
    const file = readSaft(await saftOf('utf-8'));
    expect(file.documents.map((d) => d.type)).toEqual(['NC', 'FR', 'FR', 'FR', 'FR', 'FR']);
    const boxes = boxesOf(file.documents);
    const text = (region: 'PT' | 'PT-AC' | 'PT-MA', field: '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9') => formatDecimal(boxes[region][field], 2);
    expect([text('PT', '3'), text('PT', '4'), text('PT', '1'), text('PT', '2')]).toEqual(['100.00', '23.00', '0.00', '0.00']);
    expect([text('PT-MA', '3'), text('PT-MA', '4')]).toEqual(['50.00', '11.00']);
    expect([text('PT-AC', '3'), text('PT-AC', '4'), text('PT-AC', '1'), text('PT-AC', '2')]).toEqual(['20.00', '3.20', '5.00', '0.20']);
    expect([text('PT', '7'), text('PT', '8')]).toEqual(['200.00', '80.00']);
    expect(file.documents[0].references).toHaveLength(1);
  });

  it("follows the XSD's structure where the checks of our own can see it (the XSD itself is the AT's file: checked locally with xmllint, docs/accountant.md)", async () => {
    const tree = xmlTree((await saftOf('utf-8')).toString('utf8'), new Set(['Invoice', 'Line', 'Customer', 'Product', 'TaxTableEntry']));
    const audit = tree.AuditFile as Record<string, Record<string, unknown>>;
    // The XSD's sequences: the order of the elements matters.
    expect(Object.keys(audit)).toEqual(['Header', 'MasterFiles', 'SourceDocuments']);
    expect(Object.keys(audit.Header)).toEqual(['AuditFileVersion', 'CompanyID', 'TaxRegistrationNumber', 'TaxAccountingBasis', 'CompanyName', 'CompanyAddress', 'FiscalYear', 'StartDate', 'EndDate', 'CurrencyCode', 'DateCreated', 'TaxEntity', 'ProductCompanyTaxID', 'SoftwareCertificateNumber', 'ProductID', 'ProductVersion']);
    expect(Object.keys(audit.MasterFiles)).toEqual(['Customer', 'Product', 'TaxTable']);
    const customers = new Set((audit.MasterFiles.Customer as Record<string, string>[]).map((c) => c.CustomerID));
    const products = new Set((audit.MasterFiles.Product as Record<string, string>[]).map((p) => p.ProductCode));
    const sales = (audit.SourceDocuments as Record<string, Record<string, unknown>>).SalesInvoices;
    expect(Object.keys(sales).slice(0, 3)).toEqual(['NumberOfEntries', 'TotalDebit', 'TotalCredit']);
    const invoices = sales.Invoice as Record<string, unknown>[];
    expect(Number(sales.NumberOfEntries)).toBe(invoices.length);
    expect(new Set(invoices.map((i) => i.InvoiceNo)).size).toBe(invoices.length);
    const money = /^-?\d+\.\d{2}$/;
    for (const invoice of invoices) {
      expect(Object.keys(invoice)).toEqual(['InvoiceNo', 'ATCUD', 'DocumentStatus', 'Hash', 'HashControl', 'Period', 'InvoiceDate', 'InvoiceType', 'SpecialRegimes', 'SourceID', 'SystemEntryDate', 'CustomerID', 'Line', 'DocumentTotals']);
      expect(customers.has(String(invoice.CustomerID))).toBe(true);
      for (const line of invoice.Line as Record<string, unknown>[]) {
        expect(products.has(String(line.ProductCode))).toBe(true);
        const tax = line.Tax as Record<string, string>;
        const exempt = Number(tax.TaxPercentage) === 0;
        // The XSD 1.1 assertions on a line: a 0 % line has both the exemption reason and its code, a taxed line neither.
        expect({ exempt, reason: 'TaxExemptionReason' in line, code: 'TaxExemptionCode' in line }).toEqual({ exempt, reason: exempt, code: exempt });
        expect(String(line.DebitAmount ?? line.CreditAmount)).toMatch(money);
        expect(['PT', 'PT-AC', 'PT-MA']).toContain(tax.TaxCountryRegion);
      }
      const totals = invoice.DocumentTotals as Record<string, string>;
      for (const key of ['TaxPayable', 'NetTotal', 'GrossTotal']) expect(totals[key]).toMatch(money);
    }
  });

  it('refuses a file that is not a SAF-T, naming why', () => {
    expect(() => readSaft(Buffer.from('<?xml version="1.0"?><Invoice/>'))).toThrow(SaftFileError);
    expect(() => readSaft(Buffer.from('not xml at all <'))).toThrow(SaftFileError);
    expect(() => readSaft(Buffer.from('<?xml version="1.0" encoding="UTF-8"?><AuditFile><Header/></AuditFile>'))).toThrow(/invalid/);
  });
});
