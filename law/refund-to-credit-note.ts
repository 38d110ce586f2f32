import { abs, add, compare, Decimal, divide, formatDecimal, fromCents, isZero, multiply, parseDecimal, round, shift, subtract, sum, toCents } from '../client/money';
import { CreateDocumentRequest, CreateDocumentRequestSchema, InvoiceDocument } from '../client/schemas/document';
import { invoicedBuyer } from './buyer-identity';
import { clientFromBilling, usableEmail } from './document-client';
import { currencyFields, finishLines, holdTexts, saleDate, saleTaxDay, settingsFrom } from './order-to-document';
import { currencyFor } from './document-rules';
import { externalIdForRefund } from './external-id';
import { PlannedLine } from './line-plan';
import { configuredExemption, configuredFeeExemption } from './exemption-rules';
import { itemType, specialSupply } from './line-type';
import { heldNote, info, MappingNote, mappingError, noteNamingPlatform, refusedFields } from './mapping-errors';
import { currencyParam, type MappingMessage, namingPlatform } from './mapping-messages';
import { MappingSettings, MappingSettingsInput } from './mapping-settings';
import { amountLine, asInvoiced, feeDescription, grossByRate, invoicedLines, itemCode, itemDescription, shippingDescription, shopTaxByRate, spreadFeesAsDiscount } from './order-lines';
import { lineTax, platformId, productLinesOf, saleNumber, saleRef, type Sale, type SaleRefund, type SaleRefundLine } from './sale';
import { creditLimitHolds } from './credit-limits';
import { admitRefund, admitSale } from './sale-schema';
import { issueDay, lateIssueNote, type IssueOptions } from './issue-date';
import { addDays, shopDay } from './shop-date';
import { regimeOn } from './small-business-regime';
import { vouchersRefunded } from './vouchers';
import { lineRate, resolveTaxRates, type SaleRates } from './tax-rates';
import { clipText, plainText } from './text';

export interface CreditNote {
  request: CreateDocumentRequest;
  notes: MappingNote[];
  /** Refund amount minus credit note total, when per-rate rounding cannot reach it (see OrderDocument). */
  totalDifference?: string;
  /** Do not issue yet: a person must act first (the reasons are warnings in `notes`). */
  hold: boolean;
  /**
   * The reasons that made `hold` true, in English (each also a warning in `notes`); empty when not held.
   * The English of `holds` (mappingText words them in any language), for the library's and the n8n node's users.
   */
  holdReasons: string[];
  /** The reasons that made `hold` true, coded, in the order of `holdReasons`; empty when not held. */
  holds: MappingMessage[];
}

const ONE = parseDecimal(1);

/** The sale's line a refund line refunds, for its code, type and attributes. */
function refundedItem(sale: Sale, line: SaleRefundLine) {
  return line.saleLineId === undefined ? undefined : productLinesOf(sale).find((item) => item.id === line.saleLineId);
}

const linesOfKind = (refund: SaleRefund, kind: SaleRefundLine['kind']): SaleRefundLine[] => refund.lines.filter((line) => line.kind === kind);

function refundItemLines(sale: Sale, refund: SaleRefund, rates: SaleRates, settings: MappingSettings, notes: MappingNote[], invoiced: readonly PlannedLine[]): PlannedLine[] {
  const lines: PlannedLine[] = [];
  const orderId = saleRef(sale);
  for (const item of linesOfKind(refund, 'product')) {
    const source = refundedItem(sale, item) ?? item;
    const description = itemDescription(source);
    const total = round(abs(parseDecimal(item.total)), 2);
    if (isZero(total)) continue;
    // A value-only refund of a line returns no quantity (0): one unit of that value.
    const quantity = item.quantity === 0 ? ONE : abs(parseDecimal(item.quantity));
    const subtotal = item.subtotal === undefined ? total : abs(parseDecimal(item.subtotal));
    const type = itemType(sale, source, settings);
    const special = specialSupply(source, type, settings);
    lines.push({
      code: itemCode(source),
      description,
      type,
      ...(special ? { special } : {}),
      unit: settings.unit,
      quantity,
      listNet: compare(subtotal, total) >= 0 ? subtotal : total,
      targetNet: total,
      rate: lineRate(orderId, description, item.taxes, total, rates, notes),
      adjustable: true,
      exemption: configuredExemption(source, settings),
    });
  }
  // A refunded fee comes positive; a negative one undoes a negative (discount) fee and is spread
  // over the refunded products like the discount was, so the credit note has no negative line.
  // A refund's fee taxes come rounded to cents: its reversal is shared over the refunded products by their gross.
  const fees = linesOfKind(refund, 'fee');
  spreadFeesAsDiscount(orderId, fees.filter((fee) => parseDecimal(fee.total).units < 0n), [...lines], notes, undefined, sale.currency);
  for (const shipping of linesOfKind(refund, 'shipping')) {
    const total = round(abs(parseDecimal(shipping.total)), 2);
    if (isZero(total)) continue;
    // Credited at the rates its invoice carried (re-rated or split by shippingRate), not the shop's.
    lines.push(...asInvoiced(amountLine(orderId, settings.shippingLineCode, shippingDescription(shipping.name), shipping.taxes, total, { rates, settings, notes }), invoiced, settings.shippingLineCode));
  }
  for (const fee of fees) {
    if (parseDecimal(fee.total).units <= 0n) continue;
    const total = round(abs(parseDecimal(fee.total)), 2);
    // Credited at the rates its invoice carried (a fee follows the goods by shippingRate), not the shop's.
    const line = amountLine(orderId, settings.feeLineCode, feeDescription(fee), fee.taxes, total, { rates, settings, notes });
    // A fee with its own code (exemptions.byFee) is credited with it, as its invoice carried it.
    const exemption = configuredFeeExemption(fee.name, settings);
    if (exemption) line.exemption = exemption;
    lines.push(...asInvoiced(line, invoiced, settings.shippingLineCode));
  }
  return lines;
}

/** Gross (net + tax) refunded through the refund's lines, in the order products, shipping, fees. */
function refundLinesGross(refund: SaleRefund): Decimal {
  const parts: Decimal[] = [];
  for (const kind of ['product', 'shipping', 'fee'] as const) {
    for (const line of linesOfKind(refund, kind)) parts.push(parseDecimal(line.total), lineTax(line));
  }
  return abs(round(sum(parts), 2));
}

/**
 * An amount refunded without lines (WooCommerce's "refund amount" box) as one line per VAT rate of
 * the order, in proportion to the order's gross per rate: one line for a single-rate order.
 */
function amountLines(
  sale: Sale,
  refund: SaleRefund,
  amount: Decimal,
  rates: SaleRates,
  settings: MappingSettings,
  credited: readonly PlannedLine[],
): PlannedLine[] {
  const invoiced = grossByRate(invoicedLines(sale, rates, settings)).filter((g) => !isZero(g.gross));
  // What remains per rate after the earlier credit notes: the refund WooCommerce makes of "the rest"
  // when the status is set to Refunded credits exactly that (never a rate already credited in full).
  const already = new Map(grossByRate(credited).map((g) => [round(g.rate, 6).units.toString(), g.gross]));
  const remaining = invoiced
    .map((g) => {
      const left = subtract(g.gross, already.get(round(g.rate, 6).units.toString()) ?? parseDecimal(0));
      return { ...g, gross: left.units > 0n ? left : parseDecimal(0) };
    })
    .filter((g) => toCents(g.gross) > 0n);
  const groups = remaining.length > 0 ? remaining : invoiced;
  if (groups.length === 0) groups.push({ rate: parseDecimal(0), gross: ONE, type: 'P' });
  const totalGross = sum(groups.map((g) => g.gross));
  const reason = plainText(refund.reason);
  const base = `Reembolso da encomenda #${saleNumber(sale)}${reason ? `: ${reason}` : ''}`;
  let left = toCents(amount);
  return groups.map((group, i) => {
    const share = i === groups.length - 1 ? left : toCents(divide(multiply(amount, group.gross), totalGross, 2));
    left -= share;
    const net = round(divide(fromCents(share), add(ONE, shift(group.rate, 2)), 6), 2);
    const description = groups.length > 1 ? `${base} (IVA ${formatDecimal(group.rate)}%)` : base;
    // Typed by what the order sold at this rate (issue 21.5): goods refunded without lines stay goods (M16/M05, not M40).
    return {
      code: 'REEMBOLSO',
      description: clipText(description, 200),
      type: group.type,
      unit: settings.unit,
      quantity: ONE,
      listNet: net,
      targetNet: net,
      rate: group.rate,
      adjustable: true,
      ...(group.exemption ? { exemption: group.exemption } : {}),
    };
  });
}

/** The planned lines of a refund's credit note: its items, shipping and fees, and any amount beyond them. */
function creditLines(
  sale: Sale,
  refund: SaleRefund,
  rates: SaleRates,
  settings: MappingSettings,
  notes: MappingNote[],
  credited: readonly PlannedLine[] = [],
): PlannedLine[] {
  const amount = round(abs(parseDecimal(refund.amount)), 2);
  const planned = refundItemLines(sale, refund, rates, settings, notes, invoicedLines(sale, rates, settings));
  const uncovered = subtract(amount, refundLinesGross(refund));
  if (planned.length === 0) {
    planned.push(...amountLines(sale, refund, amount, rates, settings, credited));
    notes.push(info('refund-without-items', { refund: platformId(refund.id) }));
  } else if (toCents(uncovered) > BigInt(planned.length + 2)) {
    // Items plus an extra amount typed into the refund box.
    planned.push(...amountLines(sale, refund, uncovered, rates, settings, credited));
    notes.push(info('refund-beyond-items', { refund: platformId(refund.id), amount: formatDecimal(uncovered, 2), ...currencyParam(sale.currency) }));
  }
  return planned;
}

/**
 * The day the tax of the invoice a credit note corrects became due: the credit note takes that
 * day's VAT rates, regime and exchange rate, as its invoice did (CIVA art. 8(1), 18(9), 29(7)):
 * from the invoice's date (`invoiceDate`, yyyy-mm-dd) when the caller knows it (the payment's day
 * when paid before it, else the invoice's own day when issued in time, else the deadline's:
 * issue-date.ts taxDueDay), else the sale's day.
 */
export function creditedTaxDay(sale: Sale, settings: MappingSettings, invoiceDate: string | undefined): string {
  return invoiceDate !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(invoiceDate) ? saleTaxDay(sale, settings, invoiceDate) : saleDate(sale, settings);
}

/**
 * A sale's refund as the credit note (C) that corrects the sale's invoice. Quantities and amounts
 * are positive on the credit note; the total is the refund amount to the cent. The sale and its
 * refunds come from a platform's adapter (platforms/<name>/).
 */
export function creditNoteForRefund(
  sale: Sale,
  given: SaleRefund,
  invoiceNumber: string,
  settingsInput?: MappingSettingsInput | MappingSettings,
  issue?: IssueOptions,
  /** The sale's refunds credited before this one (their credit notes count against the invoice). */
  earlierRefunds: readonly SaleRefund[] = [],
): CreditNote {
  admitSale(sale);
  admitRefund(given, sale);
  for (const earlierRefund of earlierRefunds) admitRefund(earlierRefund, sale);
  const parsed = settingsFrom(settingsInput);
  const invoiceTaxDay = creditedTaxDay(sale, parsed, issue?.invoiceDate);
  const settings = parsed.exemptions.regimeUntil === undefined ? parsed : regimeOn(parsed, invoiceTaxDay);
  const orderId = saleRef(sale);
  const notes: MappingNote[] = [];
  // Gift cards sold were no supply and are not on the invoice: giving their money back credits nothing (vouchers.ts).
  const vouchers = vouchersRefunded(sale, given, settings);
  const refund = vouchers.rest;
  if (refund === undefined) {
    throw mappingError(orderId, 'only-vouchers-refunded', { refund: platformId(given.id), names: vouchers.names.map((n) => `"${n}"`).join(', '), count: vouchers.names.length });
  }
  if (vouchers.names.length > 0) {
    notes.push(info('voucher-refund-left-out', { refund: platformId(given.id), names: vouchers.names.map((n) => `"${n}"`).join(', '), count: vouchers.names.length, amount: formatDecimal(vouchers.gross, 2), ...currencyParam(sale.currency) }));
  }
  const refundId = platformId(refund.id);
  const reference = invoiceNumber.trim();
  if (!reference) throw mappingError(orderId, 'refund-needs-invoice', { refund: refundId });
  if (reference.length > 50) throw mappingError(orderId, 'invoice-number-too-long', { invoice: reference });
  const amount = round(abs(parseDecimal(refund.amount)), 2);
  if (isZero(amount)) throw mappingError(orderId, 'refund-zero', { refund: refundId });

  // The buyer its invoice carried (CIVA art. 29(7), 78(2)), when the caller knows it.
  const buyer = invoicedBuyer(sale, settings, notes, issue?.invoiceBuyer);
  const client = clientFromBilling(sale.billing, buyer, notes);
  const currency = currencyFor(sale, settings, notes);
  const rates = resolveTaxRates(sale, notes);

  // CIVA art. 29(7), 78(2): never more than the invoice, net of the credit notes of earlier refunds.
  const earlier = earlierRefunds.filter((r) => r.id !== refund.id).flatMap((r) => vouchersRefunded(sale, r, settings).rest ?? []);
  const earlierLines = earlier.map((r) => creditLines(sale, r, rates, settings, []));
  const planned = creditLines(sale, refund, rates, settings, notes, earlierLines.flat());
  const limitHolds = creditLimitHolds(
    invoicedLines(sale, rates, settings),
    earlierLines,
    planned,
    // A refund whose id is the sale's own is the whole invoice credited (the connector's cancellation, fullRefundOf).
    { refundId, invoiceNumber: reference, currency: sale.currency, wholeInvoice: refund.id === sale.id },
  );
  // The rates are those of the sale the credit note corrects (CIVA art. 18(9)), not of today.
  const { lines, exemptionCode, totalDifference, holds } = finishLines(
    sale,
    planned,
    { kind: 'refund', amount: formatDecimal(amount, 2), currency: sale.currency },
    shopTaxByRate(sale, rates),
    buyer,
    settings,
    notes,
    invoiceTaxDay,
  );
  holds.unshift(...limitHolds);
  // An amount the shop recorded apart from the lines, without a rate: credited across the invoice's rates above, held unless the accountant chose so.
  if (refund.withoutLines && settings.refundWithoutLines === 'hold') {
    holds.unshift({ code: 'refund-without-lines-held', params: { refund: refundId, amount: formatDecimal(round(abs(parseDecimal(refund.withoutLines.amount)), 2), 2), ...currencyParam(sale.currency) } });
  }
  for (const reason of holds) notes.push(heldNote(reason));

  const refunded =
    shopDay(refund.created, settings.shopTimeZone) ??
    (() => {
      throw mappingError(orderId, 'refund-no-date', { refund: refundId });
    })();
  // Dated the day it is issued, and never before its invoice.
  const date = issueDay(issue, settings.shopTimeZone);
  const late = lateIssueNote({ subject: 'refund', id: refundId }, refunded, date);
  if (late) notes.push(late);
  const reason = plainText(refund.reason);
  const document: InvoiceDocument = {
    Type: 'C',
    Date: date,
    DueDate: addDays(date, settings.dueDays),
    Description: clipText(`Reembolso ${refund.id} de ${refunded} da encomenda #${saleNumber(sale)}${reason ? `: ${reason}` : ''}`, 300),
    DocumentReference: reference,
    ExternalId: externalIdForRefund(orderId, refund.id, settings),
    ...currencyFields(currency),
    Lines: lines,
  };
  if (settings.series.C) document.Serie = settings.series.C;
  if (exemptionCode) document.TaxExemptionReasonCode = exemptionCode;
  const request: CreateDocumentRequest = { IsToClose: settings.closeDocuments, Client: client, Document: document };
  const email = usableEmail(sale.billing);
  if (settings.sendToCustomer && email) request.SendTo = email;
  const result = CreateDocumentRequestSchema.safeParse(request);
  if (!result.success) {
    throw mappingError(orderId, 'credit-note-invalid', { refund: refundId, ...refusedFields(result.error) });
  }
  // As the client's schema reads it (the form the service is sent): callers need not check it again.
  // The notes that send a person to the platform name the sale's (law/sale.ts `platformTitle`).
  const named = holds.map((hold) => namingPlatform(hold, sale.platformTitle));
  return {
    request: result.data,
    notes: notes.map((note) => noteNamingPlatform(note, sale.platformTitle)),
    hold: named.length > 0,
    holdReasons: holdTexts(named),
    holds: named,
    ...(totalDifference ? { totalDifference } : {}),
  };
}
