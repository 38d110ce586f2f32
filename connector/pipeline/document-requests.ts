import type { CreateDocumentRequest } from '../../client/schemas/document';
import type { CreateWaybillRequest } from '../../client/schemas/waybill';
import { creditNoteForRefund } from '../../law/refund-to-credit-note';
import { asParsedSettings, documentForSale } from '../../law/order-to-document';
import { waybillForSale } from '../../law/order-to-waybill';
import type { IssueOptions } from '../../law/issue-date';
import { info, warning, type MappingNote } from '../../law/mapping-errors';
import { currencyParam, type MappingMessage } from '../../law/mapping-messages';
import type { WooOrder, WooRefund } from '../../platforms/woocommerce/order-schema';
import type { MappingSettings } from '../../law/mapping-settings';
import { vatPrefixOf, type VatNumberVerdict } from '../../law/vat-number';
import type { Shop } from '../shop/shop';
import { productTypeFromShop, type LineType, type ProductFacts } from '../../law/line-type';
import type { DispatchRegion } from '../../law/vat-rates';
import { saleDate } from '../../law/order-to-document';
import type { EcbRateSource } from '../rates/ecb-rates';
import { productExemptionFromShop } from '../../law/exemption-rules';
import { parseWooRefund } from '../../platforms/woocommerce/order-schema';
import { saleOfWooOrder } from '../../platforms/woocommerce/order-to-sale';
import { saleRefundOfWooRefund } from '../../platforms/woocommerce/refund-to-sale-refund';
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

/** Reads the ShopFacts of an order from its shop (all cached per shop by its Shop). */
export async function readShopFacts(shop: Pick<Shop, 'taxRoundAtSubtotal' | 'productFacts' | 'storeAddressRegion'>, order: WooOrder, now: number): Promise<ShopFacts> {
  return {
    taxRoundAtSubtotal: await shop.taxRoundAtSubtotal(now),
    products: await shop.productFacts(order.line_items, now),
    storeAddressRegion: await shop.storeAddressRegion(now),
  };
}

/**
 * The mapping settings with the ECB reference rate of the day the tax became due (the sale's day)
 * for an order in another currency (`referenceEuroRates`). When the ECB file cannot be read, the
 * static `euroRates` stay the fallback (the mapping warns they may be stale) and the reason is noted.
 */
export async function withReferenceRate(
  source: Pick<EcbRateSource, 'rateOn'> | undefined,
  order: WooOrder,
  settings: MappingSettings,
): Promise<{ settings: MappingSettings; note?: MappingNote }> {
  const currency = order.currency.toUpperCase();
  if (!source || currency === 'EUR') return { settings };
  try {
    const rate = await source.rateOn(currency, saleDate(saleOfWooOrder(order, settings), settings));
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
  for (const [id, product] of facts.products) {
    shopProductTypes[String(id)] = productTypeFromShop(product, settings.lineTypes);
    // The exemption code the accountant gave the product's category (exemptions.byProduct[].categories).
    const code = productExemptionFromShop(product, settings);
    if (code) shopProductCodes[String(id)] = code;
  }
  return asParsedSettings({ ...settings, lineTypes: { ...settings.lineTypes, shopProductTypes }, exemptions: { ...settings.exemptions, shopProductCodes } });
}

export function invoiceRequest(
  order: WooOrder,
  settings: MappingSettings,
  issue: IssueOptions,
  facts?: ShopFacts,
  vies?: { verdict?: VatNumberVerdict; note?: MappingNote; formatOnly?: boolean },
): IssueRequest {
  // whenUnavailable: format-check is the tenant's explicit choice to issue M16 on the format alone (noted on the order).
  const mappingSettings = vies?.formatOnly ? { ...settings, viesRequiredForM16: false } : settings;
  const mapped = documentForSale(saleOfWooOrder(order, settings), settingsWithShopFacts(mappingSettings, facts), issue, vies?.verdict);
  if (vies?.note) mapped.notes.push(vies.note);
  const confirmed = vies?.verdict?.valid ? vies.verdict : undefined;
  const viesConfirmed = confirmed ? `${vatPrefixOf(confirmed.countryCode)}${confirmed.number} ${mapped.request.Document.Date}` : undefined;
  if (mapped.totalDifference !== undefined && facts) {
    mapped.notes.push(facts.taxRoundAtSubtotal ? info('shop-rounds-at-subtotal', { difference: mapped.totalDifference, ...currencyParam(order.currency) }) : warning('shop-rounds-per-line', {}));
  }
  return { kind: 'document', request: mapped.request, notes: mapped.notes, hold: mapped.hold, holds: mapped.holds, totalDifference: mapped.totalDifference, viesConfirmed };
}

export function waybillRequest(order: WooOrder, settings: MappingSettings, now: Date, facts?: ShopFacts): IssueRequest {
  const mapped = waybillForSale(saleOfWooOrder(order, settings), settingsWithShopFacts(settings, facts), now);
  return { kind: 'waybill', request: mapped.request, notes: mapped.notes, hold: false, holds: [] };
}

/**
 * The refunds credited before `refund` (CIVA art. 29(7), 78(2): together never more than the invoice):
 * the order's other refunds made before it (WooCommerce ids grow), or all of them for a cancellation
 * credit note (its id is the order's own, see fullRefundOf).
 */
export function earlierRefundsOf(all: readonly WooRefund[], refund: WooRefund, orderId: number): WooRefund[] {
  return all.filter((other) => other.id !== refund.id && (refund.id === orderId || other.id < refund.id));
}

export function creditNoteRequest(
  order: WooOrder,
  refund: WooRefund,
  invoiceNumber: string,
  settings: MappingSettings,
  issue: IssueOptions,
  facts?: ShopFacts,
  earlier: readonly WooRefund[] = [],
): IssueRequest {
  const toSale = (one: WooRefund) => saleRefundOfWooRefund(one, order.id);
  const mapped = creditNoteForRefund(saleOfWooOrder(order, settings), toSale(refund), invoiceNumber, settingsWithShopFacts(settings, facts), issue, earlier.map(toSale));
  return { kind: 'document', request: mapped.request, notes: mapped.notes, hold: mapped.hold, holds: mapped.holds, totalDifference: mapped.totalDifference };
}

/**
 * A cancelled order credited in full: a refund of every line, shipping and fee, as WooCommerce
 * would record it if the shop owner refunded everything (amounts and quantities negative).
 * Its id is the order's own id: refunds and orders share WooCommerce's post ids, so no real refund
 * of this order can have it and the ExternalId (wc-<order>-R<order>) cannot collide.
 */
export function fullRefundOf(order: WooOrder, now: Date): WooRefund {
  const date = now.toISOString().slice(0, 19);
  const negative = (text: string): string => (text.startsWith('-') ? text.slice(1) : text === '0' || /^0(\.0+)?$/.test(text) ? text : `-${text}`);
  const negTaxes = (taxes: WooOrder['line_items'][number]['taxes']) => taxes.map((tax) => ({ ...tax, total: negative(tax.total), subtotal: tax.subtotal === undefined ? undefined : negative(tax.subtotal) }));
  return {
    id: order.id,
    date_created: date,
    date_created_gmt: date,
    amount: order.total,
    reason: 'Order cancelled',
    line_items: order.line_items.map((line) => ({
      ...line,
      quantity: -line.quantity,
      subtotal: negative(line.subtotal),
      total: negative(line.total),
      total_tax: line.total_tax === undefined ? undefined : negative(line.total_tax),
      taxes: negTaxes(line.taxes),
    })),
    shipping_lines: order.shipping_lines.map((line) => ({ ...line, total: negative(line.total), total_tax: line.total_tax === undefined ? undefined : negative(line.total_tax), taxes: negTaxes(line.taxes) })),
    fee_lines: order.fee_lines.map((line) => ({ ...line, total: negative(line.total), total_tax: line.total_tax === undefined ? undefined : negative(line.total_tax), taxes: negTaxes(line.taxes) })),
  } as WooRefund;
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
  tenant: Pick<TenantRuntime, 'shop' | 'mapping' | 'rates' | 'vies'>,
  order: WooOrder,
  job: { kind: PurposeKind; refundId?: number },
  invoice: Pick<LedgerEntry, 'documentDate' | 'documentNumber'> | null,
  now: number,
): Promise<IssueRequest> {
  const issue = { issueDate: shopToday(now, tenant.mapping.shopTimeZone), invoiceDate: invoice?.documentDate };
  const facts = await readShopFacts(tenant.shop, order, now);
  const earlier = async (refund: WooRefund): Promise<WooRefund[]> =>
    earlierRefundsOf((await tenant.shop.listRefunds(order.id)).map((raw) => parseWooRefund(raw, order.id)), refund, order.id);
  switch (job.kind) {
    case 'invoice': {
      const rated = await withReferenceRate(tenant.rates, order, tenant.mapping);
      // The goods/service types the shop gives decide whether VIES is asked (goods to another member state: M16).
      const vies = tenant.vies ? await viesVerdictFor(tenant.vies, saleOfWooOrder(order, tenant.mapping), settingsWithShopFacts(tenant.mapping, facts)) : undefined;
      const built = invoiceRequest(order, rated.settings, issue, facts, vies);
      if (rated.note) built.notes.push(rated.note);
      return built;
    }
    case 'waybill':
      return waybillRequest(order, tenant.mapping, new Date(now), facts);
    case 'credit-note': {
      // Order payloads only summarise refunds; the lines come from the refund itself.
      const refund = parseWooRefund(await tenant.shop.getRefund(order.id, job.refundId ?? 0), order.id);
      return creditNoteRequest(order, refund, invoice?.documentNumber ?? '', tenant.mapping, issue, facts, await earlier(refund));
    }
    case 'cancellation': {
      const refund = fullRefundOf(order, new Date(now));
      return creditNoteRequest(order, refund, invoice?.documentNumber ?? '', tenant.mapping, issue, facts, await earlier(refund));
    }
    case 'review':
      throw new UnrecoverableError('a review issues no document');
  }
}
