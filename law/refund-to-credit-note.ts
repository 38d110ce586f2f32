import { z } from 'zod';
import { abs, add, compare, Decimal, divide, formatDecimal, fromCents, isZero, multiply, parseDecimal, round, shift, subtract, sum, toCents } from '../client/money';
import { CreateDocumentRequest, CreateDocumentRequestSchema, InvoiceDocument } from '../client/schemas/document';
import { resolveBuyer } from './buyer-identity';
import { clientFromBilling, usableEmail } from './document-client';
import { currencyFields, finishLines, holdTexts, saleDate, settingsFrom, WooOrderInput } from './order-to-document';
import { currencyFor } from './document-rules';
import { externalIdForRefund } from './external-id';
import { PlannedLine } from './line-plan';
import { configuredExemption } from './exemption-rules';
import { itemType } from './line-type';
import { heldNote, info, MappingNote, mappingError, refusedFields } from './mapping-errors';
import { currencyParam, type MappingMessage } from './mapping-messages';
import { MappingSettings, MappingSettingsInput } from './mapping-settings';
import { parseWooOrder, parseWooRefund, WooOrder, WooRefund, WooRefundSchema } from '../platforms/woocommerce/order-schema';
import { amountLine, feeDescription, grossByRate, invoicedLines, itemCode, itemDescription, shippingDescription, spreadFeesAsDiscount, wooTaxByRate } from './order-lines';
import { creditLimitHolds } from './credit-limits';
import { issueDay, lateIssueNote, type IssueOptions } from './issue-date';
import { addDays, shopDay } from './shop-date';
import { lineRate, resolveTaxRates, ResolvedRate } from './tax-rates';
import { clipText, plainText } from './text';

export type WooRefundInput = z.input<typeof WooRefundSchema>;

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

/** The order line a refund line refers to (`_refunded_item_id`), for its code, type and attributes. */
function refundedItem(order: WooOrder, meta: readonly { key: string; value: unknown }[]) {
  const id = meta.find((m) => m.key === '_refunded_item_id')?.value;
  const numeric = typeof id === 'string' || typeof id === 'number' ? Number(id) : NaN;
  return order.line_items.find((item) => item.id === numeric);
}

function refundItemLines(order: WooOrder, refund: WooRefund, rates: Map<number, ResolvedRate>, settings: MappingSettings, notes: MappingNote[]): PlannedLine[] {
  const lines: PlannedLine[] = [];
  for (const item of refund.line_items) {
    const original = refundedItem(order, item.meta_data);
    const source = original ?? { ...item, sku: item.sku, name: item.name };
    const description = itemDescription(source);
    const total = round(abs(parseDecimal(item.total)), 2);
    if (isZero(total)) continue;
    // WooCommerce writes refunded quantities negative; a value-only refund of a line has quantity 0.
    const quantity = item.quantity === 0 ? ONE : abs(parseDecimal(item.quantity));
    const subtotal = item.subtotal === undefined ? total : abs(parseDecimal(item.subtotal));
    lines.push({
      code: itemCode(source),
      description,
      type: itemType(order, source, settings),
      unit: settings.unit,
      quantity,
      listNet: compare(subtotal, total) >= 0 ? subtotal : total,
      targetNet: total,
      rate: lineRate(order.id, description, item.taxes, total, rates, notes),
      adjustable: true,
      exemption: configuredExemption(source, settings),
    });
  }
  // A refunded fee comes negative; a positive one undoes a negative (discount) fee and is spread
  // over the refunded products like the discount was, so the credit note has no negative line.
  // A refund's fee taxes come rounded to cents: its reversal is shared over the refunded products by their gross.
  spreadFeesAsDiscount(order.id, refund.fee_lines.filter((fee) => parseDecimal(fee.total).units > 0n), [...lines], notes, undefined, order.currency);
  for (const shipping of refund.shipping_lines) {
    const total = round(abs(parseDecimal(shipping.total)), 2);
    if (isZero(total)) continue;
    lines.push(amountLine(order.id, settings.shippingLineCode, shippingDescription(shipping.method_title), shipping.taxes, total, { rates, settings, notes }));
  }
  for (const fee of refund.fee_lines) {
    if (parseDecimal(fee.total).units >= 0n) continue;
    const total = round(abs(parseDecimal(fee.total)), 2);
    lines.push(amountLine(order.id, settings.feeLineCode, feeDescription(fee), fee.taxes, total, { rates, settings, notes }));
  }
  return lines;
}

/** Gross (net + tax) WooCommerce refunded through the refund's lines (they are written negative). */
function refundLinesGross(refund: WooRefund): Decimal {
  const parts: Decimal[] = [];
  for (const line of [...refund.line_items, ...refund.shipping_lines, ...refund.fee_lines]) {
    parts.push(parseDecimal(line.total), parseDecimal(line.total_tax ?? '0'));
  }
  return abs(round(sum(parts), 2));
}

/**
 * An amount refunded without lines (WooCommerce's "refund amount" box) as one line per VAT rate of
 * the order, in proportion to the order's gross per rate: one line for a single-rate order.
 */
function amountLines(
  order: WooOrder,
  refund: WooRefund,
  amount: Decimal,
  rates: Map<number, ResolvedRate>,
  settings: MappingSettings,
  credited: readonly PlannedLine[],
): PlannedLine[] {
  const invoiced = grossByRate(invoicedLines(order, rates, settings)).filter((g) => !isZero(g.gross));
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
  const base = `Reembolso da encomenda #${order.number ?? order.id}${reason ? `: ${reason}` : ''}`;
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
  order: WooOrder,
  refund: WooRefund,
  rates: Map<number, ResolvedRate>,
  settings: MappingSettings,
  notes: MappingNote[],
  credited: readonly PlannedLine[] = [],
): PlannedLine[] {
  const amount = round(abs(parseDecimal(refund.amount)), 2);
  const planned = refundItemLines(order, refund, rates, settings, notes);
  const uncovered = subtract(amount, refundLinesGross(refund));
  if (planned.length === 0) {
    planned.push(...amountLines(order, refund, amount, rates, settings, credited));
    notes.push(info('refund-without-items', { refund: refund.id }));
  } else if (toCents(uncovered) > BigInt(planned.length + 2)) {
    // Items plus an extra amount typed into the refund box.
    planned.push(...amountLines(order, refund, uncovered, rates, settings, credited));
    notes.push(info('refund-beyond-items', { refund: refund.id, amount: formatDecimal(uncovered, 2), ...currencyParam(order.currency) }));
  }
  return planned;
}

/**
 * A WooCommerce refund as the credit note (C) that corrects the order's invoice. Quantities and
 * amounts are positive on the credit note (WooCommerce stores them negative); the total is the
 * refund amount to the cent.
 */
export function creditNoteForRefund(
  orderInput: WooOrderInput,
  refundInput: WooRefundInput,
  invoiceNumber: string,
  settingsInput?: MappingSettingsInput | MappingSettings,
  issue?: IssueOptions,
  /** The order's refunds credited before this one (their credit notes count against the invoice). */
  earlierRefunds: readonly WooRefundInput[] = [],
): CreditNote {
  const order = parseWooOrder(orderInput);
  const refund = parseWooRefund(refundInput, order.id);
  const settings = settingsFrom(settingsInput);
  const notes: MappingNote[] = [];
  const reference = invoiceNumber.trim();
  if (!reference) throw mappingError(order.id, 'refund-needs-invoice', { refund: refund.id });
  if (reference.length > 50) throw mappingError(order.id, 'invoice-number-too-long', { invoice: reference });
  const amount = round(abs(parseDecimal(refund.amount)), 2);
  if (isZero(amount)) throw mappingError(order.id, 'refund-zero', { refund: refund.id });

  const buyer = resolveBuyer(order, settings, notes);
  const client = clientFromBilling(order.billing, buyer, notes);
  const currency = currencyFor(order, settings, notes);
  const rates = resolveTaxRates(order, notes);

  // CIVA art. 29(7), 78(2): never more than the invoice, net of the credit notes of earlier refunds.
  const earlier = earlierRefunds.map((input) => parseWooRefund(input, order.id)).filter((r) => r.id !== refund.id);
  const earlierLines = earlier.map((r) => creditLines(order, r, rates, settings, []));
  const planned = creditLines(order, refund, rates, settings, notes, earlierLines.flat());
  const limitHolds = creditLimitHolds(
    invoicedLines(order, rates, settings),
    earlierLines,
    planned,
    { refundId: refund.id, invoiceNumber: reference, currency: order.currency },
  );
  // The rates are those of the sale the credit note corrects (CIVA art. 18(9)), not of today.
  const { lines, exemptionCode, totalDifference, holds } = finishLines(
    order,
    planned,
    { kind: 'refund', amount: formatDecimal(amount, 2), currency: order.currency },
    wooTaxByRate(order, rates),
    buyer,
    settings,
    notes,
    saleDate(order, settings),
  );
  holds.unshift(...limitHolds);
  for (const reason of holds) notes.push(heldNote(reason));

  const refunded =
    shopDay({ local: refund.date_created, gmt: refund.date_created_gmt }, settings.shopTimeZone) ??
    (() => {
      throw mappingError(order.id, 'refund-no-date', { refund: refund.id });
    })();
  // Dated the day it is issued, and never before its invoice.
  const date = issueDay(issue, settings.shopTimeZone);
  const late = lateIssueNote({ subject: 'refund', id: refund.id }, refunded, date);
  if (late) notes.push(late);
  const reason = plainText(refund.reason);
  const document: InvoiceDocument = {
    Type: 'C',
    Date: date,
    DueDate: addDays(date, settings.dueDays),
    Description: clipText(`Reembolso ${refund.id} de ${refunded} da encomenda #${order.number ?? order.id}${reason ? `: ${reason}` : ''}`, 300),
    DocumentReference: reference,
    ExternalId: externalIdForRefund(order.id, refund.id, settings),
    ...currencyFields(currency),
    Lines: lines,
  };
  if (settings.series.C) document.Serie = settings.series.C;
  if (exemptionCode) document.TaxExemptionReasonCode = exemptionCode;
  const request: CreateDocumentRequest = { IsToClose: settings.closeDocuments, Client: client, Document: document };
  const email = usableEmail(order.billing);
  if (settings.sendToCustomer && email) request.SendTo = email;
  const result = CreateDocumentRequestSchema.safeParse(request);
  if (!result.success) {
    throw mappingError(order.id, 'credit-note-invalid', { refund: refund.id, ...refusedFields(result.error) });
  }
  return { request, notes, hold: holds.length > 0, holdReasons: holdTexts(holds), holds, ...(totalDifference ? { totalDifference } : {}) };
}
