import { add, compare, Decimal, formatDecimal, fromCents, parseDecimal, round, subtract, toCents } from '../../client/money';
import { CreateDocumentRequest, CreateDocumentRequestSchema, InvoiceDocument } from '../../client/schemas/document';
import { computeTotals } from '../../client/totals';
import { BuyerIdentity, resolveBuyer } from './buyer-identity';
import { clientFromBilling, usableEmail } from './document-client';
import { atLeast, currencyFor, CurrencyChoice, destinationPlace, euros, exemptionContext, inEuros } from './document-rules';
import { withoutDonations } from './donations';
import { withoutVouchers } from './vouchers';
import { applyShippingRate } from './shipping-rate';
import { TAX_NOT_DUE_IN_PORTUGAL } from './exemption-codes';
import { exemptionCodeFor } from './exemption-rules';
import { checkLineRates, type SupplyContext } from './supply-place';
import { regionOfAddress } from './vat-rates';
import { balanceToTotal, plannedAmountCents } from './exact-total';
import { externalIdForOrder } from './external-id';
import { PlannedLine, solveLine } from './line-plan';
import { info, MappingNote, OrderMappingError, warning } from './mapping-errors';
import { MappingSettings, MappingSettingsInput, MappingSettingsSchema } from './mapping-settings';
import { parseWooOrder, WooOrder, WooOrderSchema } from './order-schema';
import { positiveFeeLines, productLines, shippingLines, spreadNegativeFees, wooTaxByRate } from './order-lines';
import { invoiceDeadline, issueDay, lateInvoiceNote, type IssueOptions } from './issue-date';
import { shopDay, addDays } from './shop-date';
import { resolveTaxRates } from './tax-rates';
import { vatPrefixOf, type VatNumberVerdict } from './vat-number';
import { z } from 'zod';

export type WooOrderInput = z.input<typeof WooOrderSchema>;

/** Block checkout keeps carts as orders in these statuses; their webhooks leak through (WooCommerce #66995). */
const DRAFT_STATUSES = ['checkout-draft', 'draft', 'auto-draft'];
/** Not a sale (yet, or any more): never invoiced unless the caller lists them (settings.invoiceUnpaidStatuses). */
const UNPAID_STATUSES = ['pending', 'on-hold', 'failed', 'cancelled'] as const;

export interface OrderDocument {
  request: CreateDocumentRequest;
  notes: MappingNote[];
  /** Do not issue yet: a person must act first (a company's invalid NIF, a missing name or address, per settings an unreachable total). */
  hold: boolean;
  /** The reasons that made `hold` true (each also a warning in `notes`); empty when not held. */
  holdReasons: string[];
  /**
   * Shop total minus document total ("0.01", "-0.01") when per-rate tax rounding cannot reach the
   * shop's total; absent when they are equal. Shown on the order and to the shop owner.
   */
  totalDifference?: string;
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
  taxDay: string,
): { lines: InvoiceDocument['Lines']; exemptionCode: string | undefined; totalDifference: string | undefined; holds: string[] } {
  if (planned.length === 0) throw new OrderMappingError(order.id, 'nothing to invoice: no lines with an amount');
  const holds = checkLineRates(planned, supplyContext(order, buyer, settings, taxDay));
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
  const rounding = settings.roundingLine.enabled ? { code: settings.roundingLine.code, description: settings.roundingLine.description, unit: settings.unit } : undefined;
  const balanced = balanceToTotal(planned, targetCents, wcTax, rounding, totalLabel);
  notes.push(...balanced.notes);
  let exemptionCode = exemptionCodeFor(planned, exemptionContext(order, buyer, settings), notes);
  if (balanced.addedRoundingLine && !exemptionCode) {
    exemptionCode = settings.roundingLine.exemptionCode;
    notes.push(warning(`The rounding line uses exemption code ${exemptionCode} (roundingLine.exemptionCode)`));
  }
  const lines = balanced.lines.map(solveLine);
  const amount = computeTotals(lines).amount;
  if (compare(amount, fromCents(targetCents - balanced.differenceCents)) !== 0) {
    // Cannot happen if balancing is right; refusing beats issuing a wrong certified document.
    throw new OrderMappingError(order.id, `internal: document total ${formatDecimal(amount, 2)} differs from ${totalLabel}`);
  }
  const totalDifference = balanced.differenceCents === 0n ? undefined : formatDecimal(fromCents(balanced.differenceCents), 2);
  return { lines, exemptionCode, totalDifference, holds };
}

/** What the place-of-supply rules need to know of the order (supply-place.ts). */
export function supplyContext(order: WooOrder, buyer: BuyerIdentity, settings: MappingSettings, taxDay: string): SupplyContext {
  const region = settings.dispatchRegion ?? settings.storeAddressRegion ?? 'mainland';
  const regionSource = settings.dispatchRegion
    ? 'setting dispatchRegion'
    : settings.storeAddressRegion
      ? "the shop's store address"
      : 'dispatchRegion not set, no store address read: mainland assumed';
  return {
    orderId: order.id,
    taxDay,
    region,
    regionSource,
    destination: destinationPlace(order, settings),
    buyer,
    buyerRegion: regionOfAddress(order.billing.country, order.billing.postcode),
    settings,
  };
}

/**
 * The document type. A simplified invoice only within CIVA art. 40(1): (a) goods sold by a retailer
 * to a non-taxable buyer up to EUR 1000; (b) any other sale (a business buyer, a non-retail seller,
 * or any service line) up to EUR 100. Shipping and fees follow the goods they carry (art. 16(5)(b)),
 * so only the product lines decide goods vs services.
 */
function documentType(
  order: WooOrder,
  buyer: BuyerIdentity,
  products: readonly PlannedLine[],
  totalEur: Decimal,
  exemptionCode: string | undefined,
  settings: MappingSettings,
  notes: MappingNote[],
): 'T' | 'I' | 'S' {
  const paid = order.date_paid !== null;
  const wanted = paid ? settings.documentType : settings.unpaidDocumentType;
  if (!paid && settings.documentType !== wanted) notes.push(info(`Order not paid yet: document type ${wanted}`));
  if (wanted !== 'S') return wanted;
  const simplified = settings.simplifiedInvoice;
  if (exemptionCode && TAX_NOT_DUE_IN_PORTUGAL.has(exemptionCode)) {
    // Exports, intra-EU supplies, reverse-charged services and services placed abroad: the tax is not due in Portugal.
    const fallback = paid ? simplified.fallbackType : 'I';
    notes.push(info(`Simplified invoice only where the tax is due in Portugal (CIVA art. 40(1)); ${exemptionCode} sales get a full invoice: type ${fallback} used`));
    return fallback;
  }
  const services = products.some((line) => line.type === 'S');
  const retail = simplified.sellerIsRetailer && !buyer.isBusiness && !services;
  const limit = retail ? simplified.retailConsumerLimit : simplified.otherLimit;
  if (compare(totalEur, parseDecimal(limit)) <= 0) return 'S';
  const fallback = paid ? simplified.fallbackType : 'I';
  const why = retail
    ? 'retail goods to consumers'
    : services
      ? 'the order includes services'
      : buyer.isBusiness
        ? 'business buyer'
        : 'seller is not a retailer';
  notes.push(info(`Simplified invoice not allowed for ${euros(totalEur)} (CIVA art. 40(1): limit EUR ${limit}, ${why}): type ${fallback} used`));
  return fallback;
}

/** The day of the sale as the shop saw it: paid, else completed, else created. */
export function saleDate(order: WooOrder, settings: MappingSettings): string {
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
 * A WooCommerce order as the request that creates its invoice (T / I / S), dated the day it is
 * issued (`issue.issueDate`, default today in the shop's time zone); the sale's date is kept in the
 * description.
 */
export function documentForOrder(
  orderInput: WooOrderInput,
  settingsInput?: MappingSettingsInput | MappingSettings,
  issue?: IssueOptions,
  /** A VAT registry's (VIES) answer on the buyer's EU VAT number, asked by the caller (`checkVatNumber`). */
  vatNumberVerdict?: VatNumberVerdict,
): OrderDocument {
  const order = parseWooOrder(orderInput);
  const settings = settingsFrom(settingsInput);
  if (DRAFT_STATUSES.includes(order.status)) {
    throw new OrderMappingError(order.id, `status "${order.status}" is a cart, not an order: no document`);
  }
  const unpaid = UNPAID_STATUSES.find((status) => status === order.status);
  if (unpaid && !settings.invoiceUnpaidStatuses.includes(unpaid)) {
    throw new OrderMappingError(
      order.id,
      `status "${order.status}" is not a paid order: no invoice is issued for it. To invoice orders in this status (e.g. bank transfers on hold), list it in the mapping setting invoiceUnpaidStatuses`,
    );
  }
  const notes: MappingNote[] = [];
  const buyer = resolveBuyer(order, settings, notes, vatNumberVerdict);
  const client = clientFromBilling(order.billing, buyer, notes);
  const currency = currencyFor(order, settings, notes);
  const rates = resolveTaxRates(order, notes);

  const donations = withoutDonations(order, settings);
  const vouchers = withoutVouchers(donations.sale, settings);
  const sale = vouchers.sale;
  const products = productLines(sale, rates, settings, notes);
  spreadNegativeFees(sale, products, notes, rates);
  const planned = [...products, ...shippingLines(sale, rates, settings, notes), ...positiveFeeLines(sale, rates, settings, notes)];
  const shippingHolds = applyShippingRate(planned, settings.shippingLineCode, settings, notes);
  if (order.coupon_lines.length > 0) {
    const codes = order.coupon_lines.map((c) => c.code).join(', ');
    notes.push(info(`Coupons ${codes} shown as line discounts as WooCommerce spread them`));
  }
  // What the invoice comes to: the order total less donations, plus gift cards (a payment, not a discount).
  const total = round(add(subtract(parseDecimal(order.total), donations.gross), vouchers.amount), 2);
  if (total.units < 0n) throw new OrderMappingError(order.id, `the order total ${order.total} is negative`);
  const sold = saleDate(order, settings);
  const { lines, exemptionCode, totalDifference, holds } = finishLines(
    order,
    planned,
    formatDecimal(total, 2),
    donations.names.length > 0 || vouchers.amount.units > 0n ? `the order total less donations and before gift cards ${formatDecimal(total, 2)}` : `the order total ${formatDecimal(total, 2)}`,
    wooTaxByRate(order, rates),
    buyer,
    settings,
    notes,
    sold,
  );

  const totalEur = inEuros(total, currency);
  const holdReasons: string[] = [];
  if (totalDifference && settings.unreachableTotal === 'hold') {
    const reason = `Held: the document total would differ from the shop's by ${totalDifference} (unreachableTotal: hold)`;
    holdReasons.push(reason);
    notes.push(warning(reason));
  }
  const type = documentType(order, buyer, products, totalEur, exemptionCode, settings, notes);
  let hold = totalDifference !== undefined && settings.unreachableTotal === 'hold';
  if (exemptionCode === 'M16' && settings.viesRequiredForM16 && !buyer.viesConfirmed) {
    holds.push(
      `M16 (intra-EU supply, RITI art. 14) needs the buyer's VAT number ${vatPrefixOf(buyer.countryCode)}${buyer.nif} valid in VIES (RITI art. 14(1)(a), Lei 49/2020), and no VIES answer confirmed it. ` +
        "The connector asks VIES by default (the tenant's vies block); a caller of the library passes checkVatNumber's verdict; viesRequiredForM16: false issues on the number's format alone",
    );
  }
  holds.push(...shippingHolds);
  if (vouchers.named.length > 0) {
    notes.push(info(`Gift card ${vouchers.named.map((n) => `"${n}"`).join(', ')} redeemed: a voucher is a payment, not a discount (CIVA art. 7(14)): invoiced at the full price`));
  }
  if (vouchers.unknown.length > 0) {
    holds.unshift(
      `${vouchers.unknown.map((n) => `"${n}"`).join(', ')}: a negative fee without VAT on a taxed order. If it is a redeemed gift card, it is a payment and does not lower the taxable amount (CIVA art. 7(14)): ` +
        'name such fees in giftCardFeeNames and the invoice (at the full price) is issued; if it is a discount, it must lower the VAT too (art. 16(6)(b)): give the fee the tax in WooCommerce',
    );
  }
  if (donations.names.length > 0) {
    holds.unshift(
      `${donations.names.map((n) => `"${n}"`).join(', ')} ${donations.names.length === 1 ? 'is a donation' : 'are donations'} of ${formatDecimal(donations.gross, 2)}: ` +
        'a donation is no consideration for a supply (CIVA art. 1(1)(a), 4(1)) and is never an invoice line. The invoice leaves it out; record the donation apart, ' +
        'or, if it is a charge, take its word out of exemptions.donationWords',
    );
  }
  for (const reason of holds) {
    hold = true;
    holdReasons.push(`Held: ${reason}`);
    notes.push(warning(`Held: ${reason}`));
  }
  if (buyer.holdReason) {
    hold = true;
    holdReasons.push(buyer.holdReason);
    notes.push(warning(buyer.holdReason));
  }
  // From EUR 1,000 a consumer's invoice carries name and address (the consumer NIF is fine): held
  // only when the order lacks them.
  if (buyer.kind === 'consumer' && !buyer.holdReason && atLeast(totalEur, settings.identifiedBuyerFrom)) {
    const missing = [client.Name === undefined || client.Name.trim() === '' || client.Name === 'Consumidor final' ? 'name' : '', client.Address ? '' : 'address'].filter(Boolean);
    if (missing.length > 0) {
      // Never lifts a hold another reason set.
      hold = hold || settings.holdUnidentifiedConsumerInvoices;
      const message =
        `Invoice of ${euros(totalEur)} to a consumer without the buyer's ${missing.join(' and ')}: from EUR ${settings.identifiedBuyerFrom} the invoice names the buyer` +
        (settings.holdUnidentifiedConsumerInvoices ? '; held until the billing name and address are on the order' : '');
      if (settings.holdUnidentifiedConsumerInvoices) holdReasons.push(message);
      notes.push(warning(message));
    } else {
      notes.push(info(`Invoice of ${euros(totalEur)} to a consumer: issued with the consumer NIF and the buyer's name and address`));
    }
  }
  const date = issueDay(issue, settings.shopTimeZone);
  const zone = settings.shopTimeZone;
  const deadline = invoiceDeadline({
    paid: shopDay({ local: order.date_paid, gmt: order.date_paid_gmt }, zone) ?? undefined,
    completed: shopDay({ local: order.date_completed, gmt: order.date_completed_gmt }, zone) ?? undefined,
    created: shopDay({ local: order.date_created, gmt: order.date_created_gmt }, zone) ?? sold,
  });
  const late = lateInvoiceNote(`Order #${order.number ?? order.id}`, deadline, date);
  if (late) notes.push(late);
  // Every hold tells a person the deadline the wait runs against.
  if (hold) {
    const due = `Deadline for this invoice: ${deadline.due} (${deadline.basis})`;
    holdReasons.push(due);
    notes.push(warning(due));
  }
  const document: InvoiceDocument = {
    Type: type,
    Date: date,
    DueDate: addDays(date, settings.dueDays),
    Description: `Encomenda #${order.number ?? order.id} de ${sold}`,
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
  return { request: checkedRequest(order.id, request), notes, hold, holdReasons, ...(totalDifference ? { totalDifference } : {}) };
}

function checkedRequest(orderId: number, request: CreateDocumentRequest): CreateDocumentRequest {
  const result = CreateDocumentRequestSchema.safeParse(request);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ');
    throw new OrderMappingError(orderId, `the document would be refused: ${problems}`);
  }
  return request;
}
