import type { CreateDocumentRequest } from '../../client/schemas/document';
import type { CreateWaybillRequest } from '../../client/schemas/waybill';
import { creditedTaxDay, creditNoteForRefund } from '../../law/refund-to-credit-note';
import { asParsedSettings, documentForSale } from '../../law/order-to-document';
import { waybillForSale } from '../../law/order-to-waybill';
import type { IssueOptions } from '../../law/issue-date';
import { info, warning, type MappingNote } from '../../law/mapping-errors';
import { currencyParam, type MappingMessage } from '../../law/mapping-messages';
import { exemptionRegime, type MappingSettings } from '../../law/mapping-settings';
import { vatPrefixOf, type VatNumberVerdict } from '../../law/vat-number';
import type { Shop } from '../shop/shop';
import { buyerRecord } from '../shop/order-meta';
import { productTypeFromShop, supplyKindFromShop, type LineType, type ProductFacts } from '../../law/line-type';
import type { DispatchRegion } from '../../law/vat-rates';
import { saleDate, saleTaxDay } from '../../law/order-to-document';
import type { EcbRateSource } from '../rates/ecb-rates';
import { productExemptionFromShop } from '../../law/exemption-rules';
import { feeLinesOf, productLinesOf, shippingLinesOf, type Sale, type SaleRefund, type SaleRefundLine } from '../../law/sale';
import { platformOf } from '../../platforms/registry';
import { UnrecoverableError } from 'bullmq';
import type { PurposeKind } from '../core/jobs';
import type { LedgerEntry } from '../core/ledger';
import { viesVerdictFor } from '../vies/vies-registry';
import { shopToday } from './issue-date';
import type { TenantRuntime } from './tenant-runtime';

/** What the issue step sends to the service for one purpose, built by the pure mapping. */
export type IssueRequest =
  | { kind: 'document'; request: CreateDocumentRequest; notes: MappingNote[]; hold: boolean; holds: MappingMessage[]; totalDifference?: string; viesConfirmed?: string }
  | { kind: 'waybill'; request: CreateWaybillRequest; notes: MappingNote[]; hold: false; holds: []; totalDifference?: undefined; viesConfirmed?: undefined };

/** What the connector read from the shop for this order (cached per shop): see Shop. */
export interface ShopFacts {
  /** WooCommerce's "Round tax at subtotal level". */
  taxRoundAtSubtotal: boolean;
  /** The order lines' products as the shop describes them, by `lineProductId`. */
  products: ReadonlyMap<number, ProductFacts>;
  /** The VAT region of the shop's store address (CIVA art. 6(1)), when it is in Portugal. */
  storeAddressRegion?: DispatchRegion;
}

/** The sale's products and variants as the Shop port asks for them (numeric ids; 0 for none). */
function productRefs(sale: Sale): { product_id: number; variation_id: number }[] {
  const id = (text: string | undefined): number => (text !== undefined && /^\d+$/.test(text) ? Number(text) : 0);
  return productLinesOf(sale).map((line) => ({ product_id: id(line.productId), variation_id: id(line.variantId) }));
}

/** Reads the ShopFacts of a sale from its shop (all cached per shop by its Shop). */
export async function readShopFacts(shop: Pick<Shop, 'taxRoundAtSubtotal' | 'productFacts' | 'storeAddressRegion'>, sale: Sale, now: number): Promise<ShopFacts> {
  return {
    taxRoundAtSubtotal: await shop.taxRoundAtSubtotal(now),
    products: await shop.productFacts(productRefs(sale), now),
    storeAddressRegion: await shop.storeAddressRegion(now),
  };
}

/**
 * The mapping settings with the ECB reference rate of the day the tax became due (CIVA art. 8(1):
 * the payment's day when paid before the invoice, else the invoice's day `issued` when in time, else
 * the deadline's; law/issue-date.ts taxDueDay; the sale's day without `issued`) for an order in
 * another currency (`referenceEuroRates`). When the ECB file cannot be read, the static `euroRates`
 * stay the fallback (the mapping warns they may be stale) and the reason is noted.
 */
export async function withReferenceRate(
  source: Pick<EcbRateSource, 'rateOn'> | undefined,
  sale: Sale,
  settings: MappingSettings,
  issued?: string,
): Promise<{ settings: MappingSettings; note?: MappingNote }> {
  return referenceRateOn(source, sale, settings, () => (issued === undefined ? saleDate(sale, settings) : saleTaxDay(sale, settings, issued)));
}

/**
 * The mapping settings of a credit note with the ECB reference rate its invoice carried: the rate of
 * the day the invoice's tax became due (CIVA art. 8(1), 18(9), 29(7): law/refund-to-credit-note.ts
 * creditedTaxDay, from the invoice's date `invoiceDate`), never the credit note's own day.
 */
export async function withInvoiceReferenceRate(
  source: Pick<EcbRateSource, 'rateOn'> | undefined,
  sale: Sale,
  settings: MappingSettings,
  invoiceDate: string | undefined,
): Promise<{ settings: MappingSettings; note?: MappingNote }> {
  return referenceRateOn(source, sale, settings, () => creditedTaxDay(sale, settings, invoiceDate));
}

async function referenceRateOn(source: Pick<EcbRateSource, 'rateOn'> | undefined, sale: Sale, settings: MappingSettings, taxDay: () => string): Promise<{ settings: MappingSettings; note?: MappingNote }> {
  const currency = sale.currency.toUpperCase();
  if (!source || currency === 'EUR') return { settings };
  try {
    const rate = await source.rateOn(currency, taxDay());
    if (!rate) return { settings, note: warning('ecb-rate-missing', { currency }) };
    return { settings: { ...settings, referenceEuroRates: { ...settings.referenceEuroRates, [currency]: { euroRate: rate.euroRate, day: rate.day } } } };
  } catch (error) {
    return { settings, note: warning('ecb-rates-unreadable', { currency, error: error instanceof Error ? error.message : String(error) }) };
  }
}

/**
 * The mapping settings with what the shop says of the order's products (`lineTypes.shopProductTypes`:
 * categories, then `virtual`; see line-type.ts); the same object when the shop said nothing.
 */
export function settingsWithShopFacts(settings: MappingSettings, facts: ShopFacts | undefined): MappingSettings {
  if (!facts) return settings;
  // The store address's region stands in for an unset dispatchRegion (the setting always wins: mapping).
  if (facts.storeAddressRegion && settings.storeAddressRegion !== facts.storeAddressRegion) {
    settings = asParsedSettings({ ...settings, storeAddressRegion: facts.storeAddressRegion });
  }
  if (facts.products.size === 0) return settings;
  const shopProductTypes: Record<string, LineType> = { ...settings.lineTypes.shopProductTypes };
  const shopProductCodes: Record<string, string> = { ...settings.exemptions.shopProductCodes };
  const shopSupplyKinds: MappingSettings['services']['shopSupplyKinds'] = { ...settings.services.shopSupplyKinds };
  for (const [id, product] of facts.products) {
    shopProductTypes[String(id)] = productTypeFromShop(product, settings.lineTypes);
    // The exemption code the accountant gave the product's category (exemptions.byProduct[].categories).
    const code = productExemptionFromShop(product, settings);
    if (code) shopProductCodes[String(id)] = code;
    // Electronic or taxed where performed (issue 26.1-2): its categories, then virtual or downloadable.
    const kind = supplyKindFromShop(product, settings);
    if (kind) shopSupplyKinds[String(id)] = kind;
  }
  return asParsedSettings({ ...settings, lineTypes: { ...settings.lineTypes, shopProductTypes }, exemptions: { ...settings.exemptions, shopProductCodes }, services: { ...settings.services, shopSupplyKinds } });
}

/** The ledger's count of a year's M10 documents in euros ("18600.00"). */
export interface RegimeCounts {
  regimeTurnover(year: number): Promise<string>;
}

/**
 * The mapping settings with the year's M10 turnover (`exemptions.regimeTurnover`) when the shop is in
 * the art. 53 regime and the caller counts it: the law warns near EUR 18,750 and holds past it.
 */
export async function withRegimeTurnover(settings: MappingSettings, issueDate: string, counts: RegimeCounts | undefined): Promise<MappingSettings> {
  if (!counts || exemptionRegime(settings) !== 'M10') return settings;
  const year = Number(issueDate.slice(0, 4));
  return asParsedSettings({ ...settings, exemptions: { ...settings.exemptions, regimeTurnover: { year, total: await counts.regimeTurnover(year) } } });
}

export function invoiceRequest(
  sale: Sale,
  settings: MappingSettings,
  issue: IssueOptions,
  facts?: ShopFacts,
  vies?: { verdict?: VatNumberVerdict; note?: MappingNote; formatOnly?: boolean },
): IssueRequest {
  // whenUnavailable: format-check is the tenant's explicit choice to issue M16 on the format alone (noted on the order).
  const mappingSettings = vies?.formatOnly ? { ...settings, viesRequiredForM16: false, viesRequiredForM40: false } : settings;
  const mapped = documentForSale(sale, settingsWithShopFacts(mappingSettings, facts), issue, vies?.verdict);
  if (vies?.note) mapped.notes.push(vies.note);
  const confirmed = vies?.verdict?.valid ? vies.verdict : undefined;
  const viesConfirmed = confirmed ? `${vatPrefixOf(confirmed.countryCode)}${confirmed.number} ${mapped.request.Document.Date}` : undefined;
  if (mapped.totalDifference !== undefined && facts) {
    const shop = sale.platformTitle === undefined ? {} : { shop: sale.platformTitle };
    mapped.notes.push(facts.taxRoundAtSubtotal ? info('shop-rounds-at-subtotal', { difference: mapped.totalDifference, ...currencyParam(sale.currency), ...shop }) : warning('shop-rounds-per-line', shop));
  }
  return { kind: 'document', request: mapped.request, notes: mapped.notes, hold: mapped.hold, holds: mapped.holds, totalDifference: mapped.totalDifference, viesConfirmed };
}

export function waybillRequest(sale: Sale, settings: MappingSettings, now: Date, facts?: ShopFacts): IssueRequest {
  const mapped = waybillForSale(sale, settingsWithShopFacts(settings, facts), now);
  return { kind: 'waybill', request: mapped.request, notes: mapped.notes, hold: false, holds: [] };
}

/** Whether refund `a` was made before `b`: by their numeric ids (WooCommerce's and Shopify's grow), else by their times. */
function madeBefore(a: SaleRefund, b: SaleRefund): boolean {
  if (/^\d+$/.test(a.id) && /^\d+$/.test(b.id)) return BigInt(a.id) < BigInt(b.id);
  return (a.created ?? '') < (b.created ?? '');
}

/**
 * The refunds credited before `refund` (CIVA art. 29(7), 78(2): together never more than the invoice):
 * the sale's other refunds made before it, or all of them for a cancellation credit note (its id is
 * the sale's own, see fullRefundOf).
 */
export function earlierRefundsOf(all: readonly SaleRefund[], refund: SaleRefund, saleId: string): SaleRefund[] {
  return all.filter((other) => other.id !== refund.id && (refund.id === saleId || madeBefore(other, refund)));
}

export function creditNoteRequest(
  sale: Sale,
  refund: SaleRefund,
  invoiceNumber: string,
  settings: MappingSettings,
  issue: IssueOptions,
  facts?: ShopFacts,
  earlier: readonly SaleRefund[] = [],
): IssueRequest {
  const mapped = creditNoteForRefund(sale, refund, invoiceNumber, settingsWithShopFacts(settings, facts), issue, earlier);
  return { kind: 'document', request: mapped.request, notes: mapped.notes, hold: mapped.hold, holds: mapped.holds, totalDifference: mapped.totalDifference };
}

/**
 * A cancelled sale credited in full: a refund of every line, shipping and fee, as the shop would
 * record it if the shop owner refunded everything (a discount fee given back, negative). Its id is
 * the sale's own: refunds and orders share WooCommerce's post ids, so no real refund of this order
 * can have it and the ExternalId (wc-<order>-R<order>) cannot collide.
 */
export function fullRefundOf(sale: Sale, now: Date): SaleRefund {
  const whole = (line: Sale['lines'][number]): SaleRefundLine => ({
    id: line.id,
    kind: line.kind,
    name: line.name,
    sku: line.sku,
    saleLineId: line.id,
    ...(line.productId !== undefined ? { productId: line.productId } : {}),
    ...(line.variantId !== undefined ? { variantId: line.variantId } : {}),
    quantity: line.quantity,
    ...(line.kind === 'product' ? { subtotal: line.subtotal } : {}),
    total: line.total,
    ...(line.totalTax !== undefined ? { totalTax: line.totalTax } : {}),
    taxes: line.taxes,
    attributes: line.attributes,
  });
  return {
    id: sale.id,
    saleId: sale.id,
    created: `${now.toISOString().slice(0, 19)}Z`,
    amount: sale.total,
    reason: 'Order cancelled',
    lines: [...productLinesOf(sale), ...shippingLinesOf(sale), ...feeLinesOf(sale)].map(whole),
  };
}

/**
 * The request for one purpose of an order, as the pipeline sends it: dated today in the shop's zone
 * (a credit note never before its invoice), with the shop's facts (goods or services, its tax
 * rounding, its store address), the ECB reference rate of a sale in another currency and the VIES
 * verdict of an EU VAT number when the tenant reads them, then the pure mapping. One composition
 * for the pipeline, the console's preview and the doctor's dry run, so what a person is shown is
 * what would be issued.
 */
export async function composeIssueRequest(
  tenant: Pick<TenantRuntime, 'config' | 'shop' | 'mapping' | 'rates' | 'vies'>,
  sale: Sale,
  job: { kind: PurposeKind; refundId?: number },
  invoice: Pick<LedgerEntry, 'documentDate' | 'documentNumber' | 'buyerNif' | 'buyerCountry'> | null,
  now: number,
  /** What the connector counted (the ledger's M10 documents of a year), when the caller has the ledger. */
  counts?: RegimeCounts,
): Promise<IssueRequest> {
  // A credit note names the buyer its invoice carried (CIVA art. 29(7), 78(2)): as the service issued it
  // (the ledger, at numbering), else as the order keeps it with the invoice's number (META.buyer).
  const credits = job.kind === 'credit-note' || job.kind === 'cancellation';
  const invoiceNif = credits ? (invoice?.buyerNif ?? buyerRecord(sale.attributes)?.nif) : undefined;
  const issueDate = shopToday(now, tenant.mapping.shopTimeZone);
  const issue: IssueOptions = {
    issueDate,
    invoiceDate: invoice?.documentDate,
    ...(invoiceNif ? { invoiceBuyer: { nif: invoiceNif, ...(invoice?.buyerNif && invoice.buyerCountry ? { countryCode: invoice.buyerCountry } : {}) } } : {}),
  };
  const facts = await readShopFacts(tenant.shop, sale, now);
  const platform = platformOf(tenant.config);
  const orderId = Number(sale.id);
  const earlier = async (refund: SaleRefund): Promise<SaleRefund[]> =>
    earlierRefundsOf((await tenant.shop.listRefunds(orderId)).map((raw) => platform.refundOf(raw, sale)), refund, sale.id);
  switch (job.kind) {
    case 'invoice': {
      const rated = await withReferenceRate(tenant.rates, sale, await withRegimeTurnover(tenant.mapping, issueDate, counts), issueDate);
      // The goods/service types the shop gives decide whether VIES is asked (goods to another member state: M16).
      const vies = tenant.vies ? await viesVerdictFor(tenant.vies, sale, settingsWithShopFacts(tenant.mapping, facts)) : undefined;
      const built = invoiceRequest(sale, rated.settings, issue, facts, vies);
      if (rated.note) built.notes.push(rated.note);
      return built;
    }
    case 'waybill':
      return waybillRequest(sale, tenant.mapping, new Date(now), facts);
    // A credit note carries its invoice's exchange rate: the ECB's of the invoice's tax day (CIVA art. 8(1), 18(9), 29(7)).
    case 'credit-note': {
      // Order payloads only summarise refunds; the lines come from the refund itself.
      const refund = platform.refundOf(await tenant.shop.getRefund(orderId, job.refundId ?? 0), sale);
      return creditNoteAtInvoiceRate(await withInvoiceReferenceRate(tenant.rates, sale, tenant.mapping, invoice?.documentDate), (settings, before) => creditNoteRequest(sale, refund, invoice?.documentNumber ?? '', settings, issue, facts, before), await earlier(refund));
    }
    case 'cancellation': {
      const refund = fullRefundOf(sale, new Date(now));
      return creditNoteAtInvoiceRate(await withInvoiceReferenceRate(tenant.rates, sale, tenant.mapping, invoice?.documentDate), (settings, before) => creditNoteRequest(sale, refund, invoice?.documentNumber ?? '', settings, issue, facts, before), await earlier(refund));
    }
    case 'review':
      throw new UnrecoverableError('a review issues no document');
  }
}


/** A credit note composed with the settings its invoice's rate gave, the reason noted when the ECB could not be read. */
function creditNoteAtInvoiceRate(rated: { settings: MappingSettings; note?: MappingNote }, compose: (settings: MappingSettings, earlier: readonly SaleRefund[]) => IssueRequest, earlier: readonly SaleRefund[]): IssueRequest {
  const built = compose(rated.settings, earlier);
  if (rated.note) built.notes.push(rated.note);
  return built;
}
