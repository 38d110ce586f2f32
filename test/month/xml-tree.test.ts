import { XMLParser } from 'fast-xml-parser';
import { xmlTree, XmlError } from '../../connector/month/xml-tree';
import { saftSalesFile } from '../../sandbox/saft/saft-export';
import type { StoredDocument } from '../../sandbox/state';

/**
 * The SAF-T's XML reader: the same tree as a general parser (fast-xml-parser, configured as the
 * reader used it before) for what the SAF-T holds, and a clear refusal of what is not well-formed.
 */
const LISTS = new Set(['Invoice', 'Line']);
const general = (text: string): unknown =>
  new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false, trimValues: true, processEntities: false, isArray: (name) => LISTS.has(name) }).parse(text, true);

describe('xmlTree reads well-formed XML into plain objects', () => {
  it('gives the tree a general parser gives: namespaces dropped, attributes skipped, lists, empty elements, comments, CDATA, entities as written', () => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE AuditFile>
<!-- exported > by hand -->
<s:AuditFile xmlns:s="urn:OECD:StandardAuditFile-Tax:PT_1.04_01" note="a > b">
  <s:Header><CompanyName>Caf&#233; &amp; Bolos, Lda.</CompanyName><Empty/><Blank></Blank></s:Header>
  <Invoice><InvoiceNo>FR A/1</InvoiceNo><Line><Amount> 10.00 </Amount></Line></Invoice>
  <Invoice><InvoiceNo><![CDATA[FR A/2]]></InvoiceNo><Line><Amount>1</Amount></Line><Line><Amount>2</Amount></Line></Invoice>
  <Twice>1</Twice><Twice>2</Twice>
</s:AuditFile>`;
    expect(xmlTree(text, LISTS).AuditFile).toEqual((general(text) as { AuditFile: unknown }).AuditFile);
    expect(xmlTree(text, LISTS)).toMatchObject({ AuditFile: { Header: { CompanyName: 'Caf&#233; &amp; Bolos, Lda.', Empty: '', Blank: '' }, Twice: ['1', '2'] } });
  });

  it("reads the sandbox's SAF-T export as the general parser does", () => {
    const line = (i: number) => ({ Code: `P${i}`, Description: 'Caneca <azul> & "bonita"', UnitPrice: '10.00', Quantity: '1', Unit: 'UN', Type: 'P' as const, TaxValue: '23', ProductDiscount: '0' });
    const documents = [1, 2, 3].map((n): StoredDocument => ({
      id: n, kind: 'document', accountTaxId: '509442013', status: 'closed', number: `FR A/${n}`, sequence: n, createdAt: Date.UTC(2026, 9, 1), updatedAt: Date.UTC(2026, 9, 1), closedAt: Date.UTC(2026, 9, 1), payments: [],
      client: { NIF: '999999990', Name: 'Consumidor', CountryCode: 'PT' },
      document: { Type: 'T', Date: '2026-10-01', DueDate: '2026-10-31', Lines: [line(1), line(2)] },
    }));
    const text = saftSalesFile({ account: { email: 'demo@example.pt', token: 'demo', atCommunication: true, taxId: '509442013', companyName: 'Demo', address: 'Rua 1', city: 'Lisboa', postCode: '1100-001' }, documents, month: '2026-10', now: Date.UTC(2026, 10, 1) });
    expect(xmlTree(text, LISTS).AuditFile).toEqual((general(text) as { AuditFile: unknown }).AuditFile);
  });

  it.each([
    ['an end tag that closes another element', '<a><b></a></b>'],
    ['an element never closed', '<a><b></b>'],
    ['a tag that does not end', '<a><b </a>'],
    ['text outside the root', '<a/>text'],
    ['a second root', '<a/><b/>'],
    ['nothing at all', '   '],
    ['not XML', 'not xml at all <'],
  ])('refuses %s', (_what, text) => {
    expect(() => xmlTree(text, LISTS)).toThrow(XmlError);
  });
});
