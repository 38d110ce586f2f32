import { compare, Decimal, formatDecimalComma, parseDecimal, subtract, sum, toNumber } from '../client/money';
import { computeTotals, DocumentTotals } from '../client/totals';
import type { StoredDocument } from './state';

/**
 * DocumentGetOut, the Object of Get Document and Get Document Property. Totals come from
 * client/totals.ts computeTotals, the one rounding rule of the package.
 */

export function documentTotals(doc: StoredDocument): DocumentTotals {
  return computeTotals(doc.document.Lines, {
    retention: doc.document.Retention,
    currency: doc.document.Currency,
    euroRate: doc.document.EuroRate,
  });
}

const ZERO: Decimal = { units: 0n, scale: 2 };

/** The service's date output: the example shows "yyyy-mm-ddT00:00:00". */
function dateOut(date: string | undefined): string | null {
  return date === undefined ? null : `${date}T00:00:00`;
}

/**
 * Stored amounts are plain decimal text: Number() gives the double nearest their value, as toNumber
 * of their Decimal does (its text is the same value), without the Decimal; "-0" stays 0.
 */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

function numberOut(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!PLAIN_DECIMAL.test(text)) return toNumber(parseDecimal(text));
  const value = Number(text);
  return value === 0 ? 0 : value;
}

function pair(name: string, value: Decimal): Record<string, number | string> {
  return { [name]: toNumber(value), [`${name}Text`]: formatDecimalComma(value) };
}

const STATUS_ID = { draft: 'D', closed: 'C', canceled: 'A' } as const;
const STATUS_TEXT = { draft: 'Draft', closed: 'Closed', canceled: 'Cancelled' } as const;

/** Credit notes are amounts payable to the customer; everything else is to be received. */
function creditAndDebit(doc: StoredDocument, amount: Decimal): { credit: Decimal; debit: Decimal } {
  return doc.document.Type === 'C' ? { credit: amount, debit: ZERO } : { credit: ZERO, debit: amount };
}

export type PaymentStatus = 'NoPayment' | 'Incomplete' | 'Complete';

/**
 * Invoice-receipts (T) and simplified invoices (S) are paid when issued, so they are Complete once
 * closed; other types start NoPayment and move with recorded payments. A cancelled document owes
 * nothing.
 */
export function paymentState(doc: StoredDocument, amount: Decimal): { status: PaymentStatus; unpaid: Decimal } {
  if (doc.status === 'canceled') return { status: 'NoPayment', unpaid: ZERO };
  if (doc.status === 'closed' && (doc.document.Type === 'T' || doc.document.Type === 'S')) {
    return { status: 'Complete', unpaid: ZERO };
  }
  const paid = sum(doc.payments.map((p) => parseDecimal(p.amount)));
  if (paid.units === 0n) return { status: 'NoPayment', unpaid: amount };
  if (compare(paid, amount) >= 0) return { status: 'Complete', unpaid: ZERO };
  return { status: 'Incomplete', unpaid: subtract(amount, paid) };
}

export interface ViewLinks {
  /** Number and download link are handed out only once the document is finalized. */
  finalized: boolean;
  downloadUrl: string | null;
}

export function documentGetOut(doc: StoredDocument, links: ViewLinks): Record<string, unknown> {
  const totals = documentTotals(doc);
  const { credit, debit } = creditAndDebit(doc, totals.amount);
  const payment = paymentState(doc, totals.amount);
  const d = doc.document;
  const isWaybill = doc.kind === 'waybill';
  const receiverTaxId = /^\d{1,15}$/.test(doc.client.NIF) ? Number(doc.client.NIF) : doc.client.NIF;
  return {
    DocumentNumber: links.finalized ? (doc.number ?? null) : null,
    DownloadUrl: links.downloadUrl,
    PaymentStatus: payment.status,
    ErrorMessage: null,
    TotalAmount: formatDecimalComma(totals.amount),
    UnpaidAmount: formatDecimalComma(payment.unpaid),
    Details: {
      Document: {
        DocumentStatusId: STATUS_ID[doc.status],
        DocumentStatus: STATUS_TEXT[doc.status],
        ...(isWaybill
          ? {
              LoadDateTime: d.LoadDateTime ?? null,
              LoadAddress: d.LoadAddress ?? null,
              DestinationAddress: d.DestinationAddress ?? null,
              VehicleLicence: d.VehicleLicence ?? null,
              ATCode: doc.atCode ?? null,
            }
          : {}),
        TotalCredit: toNumber(credit),
        TotalDebit: toNumber(debit),
        Date: dateOut(d.Date),
        DueDate: dateOut(d.DueDate),
        Description: d.Description ?? null,
        Type: d.Type,
        Serie: d.Serie ?? 'A',
        Id: doc.id,
        TaxExemptionReasonCode: d.TaxExemptionReasonCode ?? null,
        DocumentReference: d.DocumentReference ?? null,
        Currency: d.Currency ?? 'EUR',
        Retention: numberOut(d.Retention) ?? 0,
        EuroRate: numberOut(d.EuroRate) ?? 1,
        ExternalId: d.ExternalId ?? null,
        Lines: d.Lines.map((line) => ({
          Code: line.Code,
          Description: line.Description,
          UnitPrice: numberOut(line.UnitPrice),
          Quantity: numberOut(line.Quantity),
          Unit: line.Unit,
          Type: line.Type,
          TaxValue: numberOut(line.TaxValue),
          ProductDiscount: numberOut(line.ProductDiscount),
          CostCenter: line.CostCenter ?? null,
        })),
        PurchaseOrder: d.PurchaseOrder ?? null,
      },
      Receiver: {
        TaxId: receiverTaxId,
        Name: doc.client.Name,
        Address: doc.client.Address ?? null,
        City: doc.client.City ?? null,
        PostCode: doc.client.PostCode ?? null,
        CountryCode: doc.client.CountryCode,
        PhoneNumber: doc.client.PhoneNumber ?? null,
        CountryName: doc.client.CountryName ?? null,
        CompanyLegalName: doc.client.LegalName ?? doc.client.Name,
        LegalName: doc.client.LegalName ?? doc.client.Name,
        Email: doc.client.Email ?? null,
        IBAN: doc.client.IBAN ?? null,
      },
      Totals: {
        ...pair('Amount', totals.amount),
        ...pair('WithoutTax', totals.withoutTax),
        ...pair('Tax', totals.tax),
        ...pair('Discount', totals.discountPercent),
        ...pair('Retention', totals.retentionPercent),
        ...pair('AmountBeforeDiscountAndTax', totals.amountBeforeDiscountAndTax),
        ...pair('TotalAmountWithExchangeRate', totals.totalWithExchangeRate),
        ...pair('TotalCreditAmount', credit),
        ...pair('TotalDebitAmount', debit),
      },
    },
  };
}
