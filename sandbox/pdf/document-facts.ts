import { Decimal, isZero, multiply, parseDecimal, round } from '../../client/money';
import type { DocumentTotals } from '../../client/totals';
import { documentTotals } from '../document-view';
import { DEFAULT_SERIE, NUMBER_PREFIX, TYPE_NAMES } from '../reference-data';
import type { SandboxAccount, StoredDocument } from '../state';
import { exemptionText } from './exemption-reasons';
import {
  atcud,
  hashCharacters,
  SANDBOX_CERTIFICATE_NUMBER,
  sandboxSignature,
  seriesValidationCode,
} from './legal-marks';
import { qrAmount, qrPayload } from './qr-payload';

/**
 * Everything a printed document shows beyond its input, derived from the stored document and its
 * issuer's account: type name, ATCUD, signature characters, the QR message, the exemption text.
 * Nothing here is stored; it is recomputed on each (cached) render.
 */

export const FINAL_CONSUMER_NIF = '999999990';

export interface Party {
  name: string;
  taxId: string;
  addressLines: string[];
  countryCode?: string;
}

export interface DocumentFacts {
  typeName: string;
  number: string;
  atcud: string;
  hash4: string;
  certificate: string;
  qr: string;
  issuer: Party;
  buyer: Party;
  totals: DocumentTotals;
  currency: string;
  /** The VAT in euros (the document's own currency when that is EUR). */
  taxInEuro: Decimal;
  exemption?: string;
  cancelled: boolean;
}

function issuerParty(doc: StoredDocument, issuer: SandboxAccount | undefined): Party {
  const place = [issuer?.postCode, issuer?.city].filter(Boolean).join(' ');
  const lines = [issuer?.address, place].filter((line): line is string => Boolean(line));
  return {
    name: issuer?.companyName ?? 'Sandbox company',
    taxId: issuer?.taxId ?? doc.accountTaxId,
    // An account started without an address says so rather than print a made-up one.
    addressLines: lines.length > 0 ? lines : ['(morada não configurada na conta de sandbox)'],
    countryCode: 'PT',
  };
}

function buyerParty(doc: StoredDocument): Party {
  const c = doc.client;
  const place = [c.PostCode, c.City].filter(Boolean).join(' ');
  const country = c.CountryName ?? (c.CountryCode === 'PT' ? 'Portugal' : c.CountryCode);
  return {
    name: c.LegalName ?? c.Name,
    taxId: c.NIF,
    addressLines: [c.Address, place, country].filter((line): line is string => Boolean(line)),
    countryCode: c.CountryCode,
  };
}

/** QR amounts are in euros: a foreign-currency document converts with its EuroRate. */
function toEuro(doc: StoredDocument): (value: Decimal) => Decimal {
  const currency = (doc.document.Currency ?? 'EUR').toUpperCase();
  if (currency === 'EUR' || doc.document.EuroRate === undefined) return (value) => value;
  const rate = parseDecimal(doc.document.EuroRate);
  return (value) => round(multiply(value, rate), 2);
}

export function documentFacts(doc: StoredDocument, issuerAccount: SandboxAccount | undefined): DocumentFacts {
  const d = doc.document;
  const serie = d.Serie ?? DEFAULT_SERIE;
  const number = doc.number ?? `${NUMBER_PREFIX[d.Type]} ${serie}/-`;
  const totals = documentTotals(doc);
  const code = atcud(seriesValidationCode(doc.accountTaxId, d.Type, serie), doc.sequence);
  const signature = sandboxSignature({
    date: d.Date,
    entryTime: doc.closedAt ?? doc.createdAt,
    number,
    grossTotal: qrAmount(totals.amount),
  });
  const hash4 = hashCharacters(signature);
  const issuer = issuerParty(doc, issuerAccount);
  const buyer = buyerParty(doc);
  const euro = toEuro(doc);
  const qr = qrPayload({
    issuerTaxId: issuer.taxId,
    buyerTaxId: buyer.taxId,
    buyerCountry: doc.client.CountryCode,
    documentType: NUMBER_PREFIX[d.Type],
    status: doc.status === 'canceled' ? 'A' : 'N',
    date: d.Date,
    documentId: number,
    atcud: code,
    rates: totals.byRate.map((r) => ({ rate: r.rate, base: euro(r.base), tax: euro(r.tax) })),
    notSubject: d.TaxExemptionReasonCode === 'M99',
    totalTax: euro(totals.tax),
    grossTotal: euro(totals.amount),
    withholding: isZero(totals.retentionAmount) ? undefined : euro(totals.retentionAmount),
    hash4,
    certificate: SANDBOX_CERTIFICATE_NUMBER,
  });
  return {
    typeName: TYPE_NAMES[d.Type],
    number,
    atcud: code,
    hash4,
    certificate: SANDBOX_CERTIFICATE_NUMBER,
    qr,
    issuer,
    buyer,
    totals,
    currency: (d.Currency ?? 'EUR').toUpperCase(),
    taxInEuro: euro(totals.tax),
    exemption: d.TaxExemptionReasonCode ? exemptionText(d.TaxExemptionReasonCode) : undefined,
    cancelled: doc.status === 'canceled',
  };
}
