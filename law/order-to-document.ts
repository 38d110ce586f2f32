import { add, compare, Decimal, formatDecimal, fromCents, parseDecimal, round, subtract, toCents } from '../client/money';
import { CreateDocumentRequest, CreateDocumentRequestSchema, InvoiceDocument } from '../client/schemas/document';
import { computeTotals } from '../client/totals';
import { billingCountry, BuyerIdentity, resolveBuyer } from './buyer-identity';
import { chargedAgainstTreatment } from './charged-treatment';
import { businessAddressHold, clientFromBilling, usableEmail } from './document-client';
import { atLeast, currencyFor, CurrencyChoice, destinationPlace, exemptionContext, inEuros } from './document-rules';
import { withoutDonations } from './donations';
import { withoutVouchers, withoutVouchersSold } from './vouchers';
import { applyShippingRate } from './shipping-rate';
import { TAX_NOT_DUE_IN_PORTUGAL } from './exemption-codes';
import { exemptionCodeFor } from './exemption-rules';
import { checkLineRates, type SupplyContext } from './supply-place';
import { regionOfAddress } from './vat-rates';
import { balanceToTotal, plannedAmountCents, type TotalTarget } from './exact-total';
import { externalIdForOrder } from './external-id';
import { PlannedLine, solveLine } from './line-plan';
import { heldNote, info, MappingNote, mappingError, noteNamingPlatform, noteOf, refusedFields, warning } from './mapping-errors';
import { currencyParam, englishClause, type MappingMessage, namingPlatform } from './mapping-messages';
import { MappingSettings, MappingSettingsInput, MappingSettingsSchema } from './mapping-settings';
import { positiveFeeLines, productLines, shippingLines, shopTaxByRate, spreadNegativeFees } from './order-lines';
import { saleNumber, saleRef, type Sale } from './sale';
import { admitSale } from './sale-schema';
import { commonDocumentRequest } from './request-fast-path';
import { invoiceDeadline, issueDay, lateInvoiceNote, taxDueDay, type IssueOptions } from './issue-date';
import { shopDay, addDays } from './shop-date';
import { regimeLimitMessage, regimeOn } from './small-business-regime';
import { resolveTaxRates } from './tax-rates';
import { vatPrefixOf, type VatNumberVerdict } from './vat-number';

export interface OrderDocument {
  request: CreateDocumentRequest;
  notes: MappingNote[];
  /** Do not issue yet: a person must act first (a company's invalid NIF, a missing name or address, per settings an unreachable total). */
  hold: boolean;
  /**
   * The reasons that made `hold` true, in English (each also a warning in `notes`); empty when not held.
   * The English of `holds` (mappingText words them in any language), for the library's and the n8n node's users.
   */
  holdReasons: string[];
  /** The reasons that made `hold` true, coded, in the order of `holdReasons`; empty when not held. */
  holds: MappingMessage[];
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
  // A platform's adapter parses first and hands the law the parsed object: known too.
  parsedSettings.set(parsed, parsed);
  return parsed;
}

/** Parsed settings by input object; settings objects are treated as immutable once passed in. */
const parsedSettings = new WeakMap<object, MappingSettings>();

/**
 * Settings a caller derived from parsed ones with values the schema allows (the shop's facts merged
 * in for one order: connector/pipeline/document-requests.ts), taken as parsed: a new object per
 * order would otherwise be validated again, time zone included (4 % of the worker's CPU in the bench).
 */
export function asParsedSettings(settings: MappingSettings): MappingSettings {
  parsedSettings.set(settings, settings);
  return settings;
}

/**
 * Lines planned and balanced so the service's rule gives `target` cents; adds the exemption code the
 * 0% lines (or a rounding line) need. Shared by invoices and credit notes.
 */
export function finishLines(
  sale: Sale,
  planned: PlannedLine[],
  total: TotalTarget,
  wcTax: Map<string, Decimal>,
  buyer: BuyerIdentity,
  settings: MappingSettings,
  notes: MappingNote[],
  taxDay: string,
): { lines: InvoiceDocument['Lines']; exemptionCode: string | undefined; totalDifference: string | undefined; holds: MappingMessage[] } {
  if (planned.length === 0) throw mappingError(saleRef(sale), 'nothing-to-invoice', {});
  const holds = checkLineRates(planned, supplyContext(sale, buyer, settings, taxDay));
  const targetCents = toCents(total.amount);
  const totalParams = { totalKind: total.kind, total: total.amount, ...currencyParam(total.currency) };
  const drift = targetCents - plannedAmountCents(planned);
  // Per-line tax rounding moves a total by at most a cent per line and rate; more means the lines
  // do not describe the order (edited totals, an unknown plugin line) and a guess would be wrong.
  const allowed = BigInt(planned.length + 2);
  if (drift > allowed || drift < -allowed) {
    throw mappingError(saleRef(sale), 'lines-differ-from-total', {
      lines: formatDecimal(fromCents(targetCents - drift), 2),
      difference: formatDecimal(fromCents(drift), 2),
      ...totalParams,
    });
  }
  const rounding = settings.roundingLine.enabled ? { code: settings.roundingLine.code, description: settings.roundingLine.description, unit: settings.unit } : undefined;
  const balanced = balanceToTotal(planned, targetCents, wcTax, rounding, total);
  notes.push(...balanced.notes);
  let exemptionCode = exemptionCodeFor(planned, exemptionContext(sale, buyer, settings), notes);
  if (balanced.addedRoundingLine && !exemptionCode) {
    exemptionCode = settings.roundingLine.exemptionCode;
    notes.push(warning('rounding-line-exemption', { code: exemptionCode ?? '' }));
  }
  const lines = balanced.lines.map(solveLine);
  const amount = computeTotals(lines).amount;
  if (compare(amount, fromCents(targetCents - balanced.differenceCents)) !== 0) {
    // Cannot happen if balancing is right; refusing beats issuing a wrong certified document.
    throw mappingError(saleRef(sale), 'internal-total-mismatch', { amount: formatDecimal(amount, 2), ...totalParams });
  }
  const totalDifference = balanced.differenceCents === 0n ? undefined : formatDecimal(fromCents(balanced.differenceCents), 2);
  return { lines, exemptionCode, totalDifference, holds };
}

/** What the place-of-supply rules need to know of the sale (supply-place.ts). */
export function supplyContext(sale: Sale, buyer: BuyerIdentity, settings: MappingSettings, taxDay: string): SupplyContext {
  // Where the goods leave from (CIVA art. 6(1)): the setting, else the waybill's load address (where
  // transport begins), else the shop's store address, else mainland.
  const load = settings.waybill.loadAddress;
  const loadRegion = load ? regionOfAddress(load.countryCode, load.postalCode) : undefined;
  const region = settings.dispatchRegion ?? loadRegion ?? settings.storeAddressRegion ?? 'mainland';
  const regionSource = settings.dispatchRegion ? 'setting' : loadRegion ? 'load-address' : settings.storeAddressRegion ? 'store-address' : 'assumed';
  return {
    orderId: saleRef(sale),
    taxDay,
    region,
    regionSource,
    destination: destinationPlace(sale, settings),
    buyer,
    buyerRegion: regionOfAddress(billingCountry(sale, settings), sale.billing.postcode),
    buyerPostcode: sale.billing.postcode.trim(),
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
  sale: Sale,
  buyer: BuyerIdentity,
  products: readonly PlannedLine[],
  totalEur: Decimal,
  exemptionCode: string | undefined,
  settings: MappingSettings,
  notes: MappingNote[],
): 'T' | 'I' | 'S' {
  const paid = sale.paid !== undefined;
  const wanted = paid ? settings.documentType : settings.unpaidDocumentType;
  if (!paid && settings.documentType !== wanted) notes.push(info('unpaid-document-type', { type: wanted }));
  if (wanted !== 'S') return wanted;
  const simplified = settings.simplifiedInvoice;
  if (exemptionCode && TAX_NOT_DUE_IN_PORTUGAL.has(exemptionCode)) {
    // Exports, intra-EU supplies, reverse-charged services and services placed abroad: the tax is not due in Portugal.
    const fallback = paid ? simplified.fallbackType : 'I';
    notes.push(info('simplified-tax-abroad', { code: exemptionCode, type: fallback }));
    return fallback;
  }
  const services = products.some((line) => line.type === 'S');
  const retail = simplified.sellerIsRetailer && !buyer.isBusiness && !services;
  const limit = retail ? simplified.retailConsumerLimit : simplified.otherLimit;
  if (compare(totalEur, parseDecimal(limit)) <= 0) return 'S';
  const fallback = paid ? simplified.fallbackType : 'I';
  const why = retail ? 'retail' : services ? 'services' : buyer.isBusiness ? 'business' : 'not-retailer';
  notes.push(info('simplified-over-limit', { total: eurosText(totalEur), limit, why, type: fallback }));
  return fallback;
}

/** The day of the sale as the shop saw it: paid, else completed, else created (the document's description says it). */
export function saleDate(sale: Sale, settings: MappingSettings): string {
  const zone = settings.shopTimeZone;
  const date = shopDay(sale.paid, zone) ?? shopDay(sale.completed, zone) ?? shopDay(sale.created, zone);
  if (!date) throw mappingError(saleRef(sale), 'no-sale-date', {});
  return date;
}

/** The sale's days in the shop's zone: paid, completed, created (the sale's day when it has no creation day). */
export function saleDays(sale: Sale, settings: MappingSettings): { paid?: string; completed?: string; created: string } {
  const zone = settings.shopTimeZone;
  return { paid: shopDay(sale.paid, zone) ?? undefined, completed: shopDay(sale.completed, zone) ?? undefined, created: shopDay(sale.created, zone) ?? saleDate(sale, settings) };
}

/**
 * The day the tax of the sale's invoice became due, issued on `issued` (CIVA art. 8(1), law/issue-date.ts):
 * its payment day when paid before the invoice, else the invoice's day when issued in time, else the
 * deadline's. Its VAT rates, its exchange rate and the shop's regime are those of that day.
 */
export function saleTaxDay(sale: Sale, settings: MappingSettings, issued: string): string {
  return taxDueDay(saleDays(sale, settings), issued);
}

export function currencyFields(choice: CurrencyChoice): Pick<InvoiceDocument, 'Currency' | 'EuroRate'> {
  return choice.euroRate === undefined ? {} : { Currency: choice.currency, EuroRate: choice.euroRate };
}

/**
 * Whether the sale may be invoiced in its state: never a draft (a cart kept as an order: WooCommerce
 * #66995); an unpaid or cancelled sale only when the caller lists its status (`invoiceUnpaidStatuses`).
 */
function checkInvoiceable(sale: Sale, settings: MappingSettings): void {
  const { state } = sale.payment;
  if (state === 'draft') throw mappingError(saleRef(sale), 'draft-status', { status: sale.status });
  const listed: readonly string[] = settings.invoiceUnpaidStatuses;
  if ((state === 'unpaid' || state === 'cancelled') && !listed.includes(sale.status)) {
    throw mappingError(saleRef(sale), 'unpaid-status', { status: sale.status });
  }
}

/**
 * A sale as the request that creates its invoice (T / I / S), dated the day it is issued
 * (`issue.issueDate`, default today in the shop's time zone); the sale's date is kept in the
 * description. The sale comes from a platform's adapter (platforms/<name>/).
 */
export function documentForSale(
  sale: Sale,
  settingsInput?: MappingSettingsInput | MappingSettings,
  issue?: IssueOptions,
  /** A VAT registry's (VIES) answer on the buyer's EU VAT number, asked by the caller (`checkVatNumber`). */
  vatNumberVerdict?: VatNumberVerdict,
): OrderDocument {
  admitSale(sale);
  const parsed = settingsFrom(settingsInput);
  checkInvoiceable(sale, parsed);
  const date = issueDay(issue, parsed.shopTimeZone);
  // The day the tax becomes due (CIVA art. 8(1)): its rates (art. 18(9)) and the regime as it stood then.
  const taxDay = saleTaxDay(sale, parsed, date);
  // The shop-wide regime only up to the day the shop left it (exemptions.regimeUntil).
  const settings = parsed.exemptions.regimeUntil === undefined ? parsed : regimeOn(parsed, taxDay);
  const orderId = saleRef(sale);
  const notes: MappingNote[] = [];
  const buyer = resolveBuyer(sale, settings, notes, vatNumberVerdict);
  const client = clientFromBilling(sale.billing, buyer, notes);
  const currency = currencyFor(sale, settings, notes);
  const rates = resolveTaxRates(sale, notes);

  const donations = withoutDonations(sale, settings);
  // A multi-purpose voucher sold is no supply (CIVA art. 7(13)-(14)): not a line of this invoice.
  const vouchersSold = withoutVouchersSold(donations.sale, settings);
  const vouchers = withoutVouchers(vouchersSold.sale, settings);
  const invoiced = vouchers.sale;
  const products = productLines(invoiced, rates, settings, notes);
  spreadNegativeFees(invoiced, products, notes, rates);
  const planned = [...products, ...shippingLines(invoiced, rates, settings, notes), ...positiveFeeLines(invoiced, rates, settings, notes)];
  if (planned.length === 0 && vouchersSold.names.length > 0) {
    throw mappingError(orderId, 'only-vouchers-sold', { names: vouchersSold.names.map((n) => `"${n}"`).join(', '), count: vouchersSold.names.length });
  }
  const shippingHolds = applyShippingRate(planned, settings.shippingLineCode, settings, notes, sale.currency);
  if (sale.discounts.length > 0) {
    notes.push(info('coupons-as-line-discounts', { codes: sale.discounts.map((c) => c.code).join(', ') }));
  }
  // What the invoice comes to: the sale's total less donations, plus gift cards (a payment, not a discount).
  const total = round(add(subtract(subtract(parseDecimal(sale.total), donations.gross), vouchersSold.gross), vouchers.amount), 2);
  if (total.units < 0n) throw mappingError(orderId, 'negative-order-total', { total: sale.total, ...currencyParam(sale.currency) });
  const { lines, exemptionCode, totalDifference, holds } = finishLines(
    sale,
    planned,
    { kind: donations.names.length > 0 || donations.tips.length > 0 || vouchers.amount.units > 0n || vouchersSold.names.length > 0 ? 'order-less-donations' : 'order', amount: formatDecimal(total, 2), currency: sale.currency },
    shopTaxByRate(sale, rates),
    buyer,
    settings,
    notes,
    taxDay,
  );

  const totalEur = inEuros(total, currency);
  // Each reason to hold, in order: coded in `orderHolds`, in English in `holdReasons`, and as a warning.
  const orderHolds: MappingMessage[] = [];
  const holdFor = (reason: MappingMessage, note: MappingNote = noteOf('warning', reason)): void => {
    orderHolds.push(reason);
    notes.push(note);
  };
  if (totalDifference && settings.unreachableTotal === 'hold') {
    holdFor({ code: 'total-differs-held', params: { difference: totalDifference, ...currencyParam(sale.currency) } });
  }
  const type = documentType(sale, buyer, products, totalEur, exemptionCode, settings, notes);
  const noAddress = businessAddressHold(buyer, client, type);
  if (noAddress) holds.push(noAddress);
  let hold = totalDifference !== undefined && settings.unreachableTotal === 'hold';
  if (exemptionCode === 'M16' && settings.viesRequiredForM16 && !buyer.viesConfirmed) {
    holds.push({ code: 'm16-needs-vies', params: { vat: `${vatPrefixOf(buyer.countryCode)}${buyer.nif}` } });
  }
  // Reg. 282/2011 art. 18(1)(a): an EU buyer is a business for the services rule only with its number confirmed in VIES.
  if (exemptionCode === 'M40' && buyer.isEuVatNumber && settings.viesRequiredForM40 && !buyer.viesConfirmed) {
    holds.push({ code: 'm40-needs-vies', params: { vat: `${vatPrefixOf(buyer.countryCode)}${buyer.nif}` } });
  }
  holds.push(...chargedAgainstTreatment(planned, billingCountry(sale, settings), settings, { destination: destinationPlace(sale, settings), buyer }));
  holds.push(...shippingHolds);
  if (vouchersSold.names.length > 0) {
    const sold = { names: vouchersSold.names.map((n) => `"${n}"`).join(', '), count: vouchersSold.names.length, amount: formatDecimal(vouchersSold.gross, 2), ...currencyParam(sale.currency) };
    if (settings.giftCardSales === 'hold') holds.unshift({ code: 'voucher-sold-held', params: sold });
    else notes.push(info('voucher-sold-left-out', sold));
  }
  if (vouchers.named.length > 0) {
    notes.push(info('gift-card-redeemed', { names: vouchers.named.map((n) => `"${n}"`).join(', ') }));
  }
  if (vouchers.unknown.length > 0) {
    holds.unshift({ code: 'unknown-negative-fee', params: { names: vouchers.unknown.map((n) => `"${n}"`).join(', ') } });
  }
  if (donations.tips.length > 0) {
    holds.unshift({ code: 'tip-left-out', params: { names: donations.tips.map((n) => `"${n}"`).join(', '), count: donations.tips.length } });
  }
  if (donations.names.length > 0) {
    holds.unshift({
      code: 'donation-left-out',
      params: { names: donations.names.map((n) => `"${n}"`).join(', '), count: donations.names.length, amount: formatDecimal(donations.gross, 2), ...currencyParam(sale.currency) },
    });
  }
  for (const reason of holds) {
    hold = true;
    holdFor(reason, heldNote(reason));
  }
  if (buyer.hold) {
    hold = true;
    holdFor(buyer.hold);
  }
  // From EUR 1,000 a consumer's invoice carries name and address (the consumer NIF is fine): held
  // only when the order lacks them.
  if (buyer.kind === 'consumer' && !buyer.hold && atLeast(totalEur, settings.identifiedBuyerFrom)) {
    const missing = [client.Name === undefined || client.Name.trim() === '' || client.Name === 'Consumidor final' ? 'name' : '', client.Address ? '' : 'address'].filter(Boolean);
    if (missing.length > 0) {
      // Never lifts a hold another reason set.
      hold = hold || settings.holdUnidentifiedConsumerInvoices;
      const facts = { total: eurosText(totalEur), missing: missing.join('-'), from: settings.identifiedBuyerFrom };
      if (settings.holdUnidentifiedConsumerInvoices) holdFor({ code: 'consumer-invoice-unidentified-held', params: facts });
      else notes.push(warning('consumer-invoice-unidentified', facts));
    } else {
      notes.push(info('consumer-invoice-identified', { total: eurosText(totalEur) }));
    }
  }
  // The art. 53 regime's exit (DL 35/2025): the year's M10 documents as the connector counted them.
  const regime = exemptionCode === 'M10' ? regimeLimitMessage(settings, date, totalEur) : undefined;
  if (regime?.hold) {
    hold = true;
    holdFor(regime.message, heldNote(regime.message));
  } else if (regime) notes.push(noteOf('warning', regime.message));
  const deadline = invoiceDeadline(saleDays(sale, settings));
  const late = lateInvoiceNote({ subject: 'order', id: sale.number ?? orderId }, deadline, date);
  if (late) notes.push(late);
  // Every hold tells a person the deadline the wait runs against.
  if (hold) {
    holdFor({ code: 'invoice-deadline', params: { due: deadline.due, basis: deadline.rule, day: deadline.from } });
  }
  const document: InvoiceDocument = {
    Type: type,
    Date: date,
    DueDate: addDays(date, settings.dueDays),
    Description: `Encomenda #${saleNumber(sale)} de ${saleDate(sale, settings)}`,
    ExternalId: externalIdForOrder(saleRef(sale), settings),
    ...currencyFields(currency),
    Lines: lines,
  };
  const serie = settings.series[type];
  if (serie) document.Serie = serie;
  if (exemptionCode) document.TaxExemptionReasonCode = exemptionCode;
  const request: CreateDocumentRequest = { IsToClose: settings.closeDocuments, Client: client, Document: document };
  const email = usableEmail(sale.billing);
  if (settings.sendToCustomer && email) request.SendTo = email;
  // The notes that send a person to the platform name the sale's (law/sale.ts `platformTitle`).
  const named = orderHolds.map((hold) => namingPlatform(hold, sale.platformTitle));
  return {
    request: checkedRequest(orderId, request),
    notes: notes.map((note) => noteNamingPlatform(note, sale.platformTitle)),
    hold,
    holdReasons: holdTexts(named),
    holds: named,
    ...(totalDifference ? { totalDifference } : {}),
  };
}

/**
 * The request as the client's own schema reads it (blank optional text left out, the form the
 * service is sent), or the fields it refuses: callers may send it without checking it again.
 */
function checkedRequest(orderId: number | string, request: CreateDocumentRequest): CreateDocumentRequest {
  // The common request is read by hand as zod reads it (request-fast-path.ts); anything else is zod's to decide and word.
  const common = commonDocumentRequest(request);
  if (common) return common;
  const result = CreateDocumentRequestSchema.safeParse(request);
  if (!result.success) {
    throw mappingError(orderId, 'document-invalid', refusedFields(result.error));
  }
  return result.data;
}

/** The codes whose English never said "Held: " (the order's own reasons to wait), as `holdReasons` always had them. */
const UNPREFIXED_HOLDS = new Set(['total-differs-held', 'company-nif-invalid', 'company-vies-invalid', 'company-vat-format', 'company-typed-consumer-nif', 'consumer-invoice-unidentified-held', 'invoice-deadline']);

/** The English `holdReasons` of coded holds: "Held: " before the line-level reasons, as the library always wrote them. */
export function holdTexts(holds: readonly MappingMessage[]): string[] {
  return holds.map((hold) => (UNPREFIXED_HOLDS.has(hold.code) ? '' : 'Held: ') + englishClause(hold));
}

/** An amount in euros as the messages carry it ("1000.00"; the English says "EUR 1000.00"). */
function eurosText(amount: Decimal): string {
  return formatDecimal(round(amount, 2), 2);
}
