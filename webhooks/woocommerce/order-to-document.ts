import { compare, Decimal, formatDecimal, fromCents, parseDecimal, round, toCents } from '../../client/money';
import { CreateDocumentRequest, CreateDocumentRequestSchema, InvoiceDocument } from '../../client/schemas/document';
import { computeTotals } from '../../client/totals';
import { BuyerIdentity, resolveBuyer } from './buyer-identity';
import { clientFromBilling, usableEmail } from './document-client';
import { atLeast, currencyFor, CurrencyChoice, euros, exemptionCodeFor, inEuros } from './document-rules';
import { balanceToTotal, plannedAmountCents } from './exact-total';
import { externalIdForOrder } from './external-id';
import { PlannedLine, solveLine } from './line-plan';
import { info, MappingNote, OrderMappingError, warning } from './mapping-errors';
import { MappingSettings, MappingSettingsInput, MappingSettingsSchema } from './mapping-settings';
import { parseWooOrder, WooOrder, WooOrderSchema } from './order-schema';
import { positiveFeeLines, productLines, shippingLines, spreadNegativeFees, wooTaxByRate } from './order-lines';
import { shopDay, addDays } from './shop-date';
import { resolveTaxRates } from './tax-rates';
import { z } from 'zod';

export type WooOrderInput = z.input<typeof WooOrderSchema>;

/** Block checkout keeps carts as orders in these statuses; their webhooks leak through (WooCommerce #66995). */
const DRAFT_STATUSES = ['checkout-draft', 'draft', 'auto-draft'];

export interface OrderDocument {
  request: CreateDocumentRequest;
  notes: MappingNote[];
  /** Do not issue yet: the law needs something the order lacks (a consumer invoice >= EUR 1000 without NIF). */
  hold: boolean;
}

export function settingsFrom(input: MappingSettingsInput | MappingSettings | undefined): MappingSettings {
  if (input === undefined) return MappingSettingsSchema.parse({});
  // A long-running caller passes the same settings object for every order: parse it once
  // (validating the settings, time zone included, was a tenth of the per-order mapping cost).
  const known = parsedSettings.get(input);
  if (known) return known;
  const parsed = MappingSettingsSchema.parse(input);
  parsedSettings.set(input, parsed);
  return parsed;
}

/** Parsed settings by input object; settings objects are treated as immutable once passed in. */
const parsedSettings = new WeakMap<object, MappingSettings>();

/**
 * Lines planned and balanced so the service's rule gives `target` cents; adds the exemption code the
 * 0% lines (or a rounding line) need. Shared by invoices and credit notes.
 */
export function finishLines(
  order: WooOrder,
  planned: PlannedLine[],
  target: string,
  totalLabel: string,
  wcTax: Map<string, Decimal>,
  buyer: BuyerIdentity,
  settings: MappingSettings,
  notes: MappingNote[],
): { lines: InvoiceDocument['Lines']; exemptionCode: string | undefined } {
  if (planned.length === 0) throw new OrderMappingError(order.id, 'nothing to invoice: no lines with an amount');
  const targetCents = toCents(target);
  const drift = targetCents - plannedAmountCents(planned);
  // Per-line tax rounding moves a total by at most a cent per line and rate; more means the lines
  // do not describe the order (edited totals, an unknown plugin line) and a guess would be wrong.
  const allowed = BigInt(planned.length + 2);
  if (drift > allowed || drift < -allowed) {
    throw new OrderMappingError(
      order.id,
      `the lines add up to ${formatDecimal(fromCents(targetCents - drift), 2)} ` +
        `but ${totalLabel}; the difference ${formatDecimal(fromCents(drift), 2)} is more than rounding`,
    );
  }
  const balanced = balanceToTotal(
    planned,
    targetCents,
    wcTax,
    { code: settings.roundingLine.code, description: settings.roundingLine.description, unit: settings.unit },
    totalLabel,
  );
  if (balanced.addedRoundingLine && !settings.roundingLine.enabled) {
    throw new OrderMappingError(
      order.id,
      `${totalLabel} cannot be reached by the document's per-rate tax rounding without a 0% rounding line, ` +
        'and roundingLine.enabled is false',
    );
  }
  notes.push(...balanced.notes);
  let exemptionCode = exemptionCodeFor(order, planned, buyer, settings, notes);
  if (balanced.addedRoundingLine && !exemptionCode) {
    exemptionCode = settings.roundingLine.exemptionCode;
    notes.push(warning(`The rounding line uses exemption code ${exemptionCode} (roundingLine.exemptionCode)`));
  }
  const lines = balanced.lines.map(solveLine);
  const amount = computeTotals(lines).amount;
  if (compare(amount, fromCents(targetCents)) !== 0) {
    // Cannot happen if balancing is right; refusing beats issuing a wrong certified document.
    throw new OrderMappingError(order.id, `internal: document total ${formatDecimal(amount, 2)} differs from ${totalLabel}`);
  }
  return { lines, exemptionCode };
}

function documentType(
  order: WooOrder,
  buyer: BuyerIdentity,
  totalEur: Decimal,
  settings: MappingSettings,
  notes: MappingNote[],
): 'T' | 'I' | 'S' {
  const paid = order.date_paid !== null;
  const wanted = paid ? settings.documentType : settings.unpaidDocumentType;
  if (!paid && settings.documentType !== wanted) notes.push(info(`Order not paid yet: document type ${wanted}`));
  if (wanted !== 'S') return wanted;
  const simplified = settings.simplifiedInvoice;
  const retail = simplified.sellerIsRetailer && !buyer.isBusiness;
  const limit = retail ? simplified.retailConsumerLimit : simplified.otherLimit;
  if (compare(totalEur, parseDecimal(limit)) <= 0) return 'S';
  const fallback = paid ? simplified.fallbackType : 'I';
  notes.push(
    info(
      `Simplified invoice not allowed for ${euros(totalEur)} (limit EUR ${limit}${retail ? ', retail goods to consumers' : ''}): type ${fallback} used`,
    ),
  );
  return fallback;
}

/** The order's own day in the shop's zone (paid, else completed, else created). */
function orderDay(order: WooOrder, settings: MappingSettings): string {
  const zone = settings.shopTimeZone;
  const date =
    shopDay({ local: order.date_paid, gmt: order.date_paid_gmt }, zone) ??
    shopDay({ local: order.date_completed, gmt: order.date_completed_gmt }, zone) ??
    shopDay({ local: order.date_created, gmt: order.date_created_gmt }, zone);
  if (!date) throw new OrderMappingError(order.id, 'the order has no date_paid, date_completed or date_created');
  return date;
}

export function currencyFields(choice: CurrencyChoice): Pick<InvoiceDocument, 'Currency' | 'EuroRate'> {
  return choice.euroRate === undefined ? {} : { Currency: choice.currency, EuroRate: choice.euroRate };
}

/**
 * A WooCommerce order as the request that creates its invoice (T / I / S).
 * `issueDate` (yyyy-mm-dd, the shop's day the document is issued) is the document's legal date: the
 * caller decides it (the connector: today in the shop's zone, never before the series' latest).
 * The order's own day then stays on the document as information, in the Description. Without it the
 * document is dated with the order's day (fine only when issuing on that day).
 */
export function documentForOrder(orderInput: WooOrderInput, settingsInput?: MappingSettingsInput | MappingSettings, issueDate?: string): OrderDocument {
  const order = parseWooOrder(orderInput);
  const settings = settingsFrom(settingsInput);
  if (DRAFT_STATUSES.includes(order.status)) {
    throw new OrderMappingError(order.id, `status "${order.status}" is a cart, not an order: no document`);
  }
  const notes: MappingNote[] = [];
  const buyer = resolveBuyer(order, settings, notes);
  const client = clientFromBilling(order.billing, buyer, notes);
  const currency = currencyFor(order, settings, notes);
  const rates = resolveTaxRates(order, notes);

  const products = productLines(order, rates, settings, notes);
  spreadNegativeFees(order, products, notes);
  const planned = [...products, ...shippingLines(order, rates, settings, notes), ...positiveFeeLines(order, rates, settings, notes)];
  if (order.coupon_lines.length > 0) {
    const codes = order.coupon_lines.map((c) => c.code).join(', ');
    notes.push(info(`Coupons ${codes} shown as line discounts as WooCommerce spread them`));
  }
  const total = round(parseDecimal(order.total), 2);
  if (total.units < 0n) throw new OrderMappingError(order.id, `the order total ${order.total} is negative`);
  const { lines, exemptionCode } = finishLines(
    order,
    planned,
    order.total,
    `the order total ${formatDecimal(total, 2)}`,
    wooTaxByRate(order, rates),
    buyer,
    settings,
    notes,
  );

  const totalEur = inEuros(total, currency);
  const type = documentType(order, buyer, totalEur, settings, notes);
  let hold = false;
  // The rule binds Portuguese consumers (who have a NIF to give); a foreign consumer has none.
  if (buyer.kind === 'consumer' && buyer.countryCode === 'PT' && atLeast(totalEur, settings.identifiedBuyerFrom)) {
    hold = settings.holdUnidentifiedConsumerInvoices;
    notes.push(
      warning(
        `Invoice of ${euros(totalEur)} to a consumer without a valid NIF: from EUR ${settings.identifiedBuyerFrom} the buyer must be identified` +
          (hold ? '; held until a NIF is added' : ''),
      ),
    );
  }
  const ordered = orderDay(order, settings);
  const date = issueDate ?? ordered;
  const document: InvoiceDocument = {
    Type: type,
    Date: date,
    DueDate: addDays(date, settings.dueDays),
    Description: date === ordered ? `Encomenda #${order.number ?? order.id}` : `Encomenda #${order.number ?? order.id} de ${ordered}`,
    ExternalId: externalIdForOrder(order.id, settings),
    ...currencyFields(currency),
    Lines: lines,
  };
  const serie = settings.series[type];
  if (serie) document.Serie = serie;
  if (exemptionCode) document.TaxExemptionReasonCode = exemptionCode;
  const request: CreateDocumentRequest = { IsToClose: settings.closeDocuments, Client: client, Document: document };
  const email = usableEmail(order.billing);
  if (settings.sendToCustomer && email) request.SendTo = email;
  return { request: checkedRequest(order.id, request), notes, hold };
}

function checkedRequest(orderId: number, request: CreateDocumentRequest): CreateDocumentRequest {
  const result = CreateDocumentRequestSchema.safeParse(request);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ');
    throw new OrderMappingError(orderId, `the document would be refused: ${problems}`);
  }
  return request;
}
