import { isZero } from '../../client/money';
import type { BuyerIdentity } from './buyer-identity';
import type { PlaceForVat } from './countries';
import { exemptionCodeInfo } from './exemption-codes';
import { PlannedLine, supplyNature } from './line-plan';
import { lineProductId, type ProductFacts } from './line-type';
import { info, MappingNote, OrderMappingError } from './mapping-errors';
import { exemptionRegime, type MappingSettings } from './mapping-settings';
import type { WooLineItem } from './order-schema';

/**
 * The exemption code of a document's 0% lines: the real reason of each line (CIVA art. 36(5)(e)),
 * never one configured catch-all. Per line, in this order:
 *
 * Goods (and the shipping and fees that follow them, art. 16(5)(b)), by where they go (countries.ts):
 *  - outside the EU VAT territory (the Canary Islands and the other excluded places by postcode):
 *    M05, an export (CIVA art. 14);
 *  - to another member state, buyer with an EU VAT number: M16 (RITI art. 14); the number is
 *    checked in VIES by the connector (a number VIES calls invalid makes the buyer a consumer);
 *  - staying in Portugal or going to an EU consumer: only the shop-wide regime (M10, art. 53). A
 *    per-product code never covers them: they are taxed where they are, and a wrong legal basis on
 *    a certified invoice cannot be undone.
 * Services:
 *  - to a business established abroad: M40 (art. 6(6)(a), the buyer reverse-charges);
 *  - a per-product code (M07, M99...; M44 only for a buyer abroad, art. 6(7) and following);
 *  - the shop-wide regime.
 * Any 0% line left without a reason is refused by name; lines needing different codes too (the
 * service takes one code per document).
 */

interface Reason {
  code: string | undefined;
  why: string;
}

export interface ExemptionContext {
  orderId: number;
  destination: PlaceForVat;
  buyer: BuyerIdentity;
  /** The billing country (a service's buyer location). */
  buyerCountry: string;
  settings: MappingSettings;
}

/** The code the accountant gave a product (`exemptions.byProduct`: ids, SKU prefixes, then categories read from the shop). */
export function configuredExemption(item: Pick<WooLineItem, 'sku' | 'product_id' | 'variation_id'>, settings: MappingSettings): string | undefined {
  const ids = [item.product_id, item.variation_id].filter((id) => id > 0);
  for (const rule of settings.exemptions.byProduct) {
    if (ids.some((id) => rule.productIds.includes(id))) return rule.code;
    if (item.sku && rule.skuPrefixes.some((prefix) => item.sku.startsWith(prefix))) return rule.code;
  }
  return settings.exemptions.shopProductCodes[String(lineProductId(item))];
}

/** What the connector puts in `exemptions.shopProductCodes` for a product: the first byProduct entry naming one of its categories. */
export function productExemptionFromShop(facts: ProductFacts, settings: MappingSettings): string | undefined {
  return settings.exemptions.byProduct.find((rule) =>
    facts.categories.some((category) => rule.categories.some((wanted) => (typeof wanted === 'number' ? wanted === category.id : wanted === category.slug))),
  )?.code;
}

const fold = (text: string): string => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** A fee or product named like a donation, or listed as one (`exemptions.donationWords`, `.donationProductIds`). */
export function isDonation(name: string, productIds: readonly number[], settings: MappingSettings): boolean {
  if (productIds.some((id) => id > 0 && settings.exemptions.donationProductIds.includes(id))) return true;
  const text = fold(name);
  return settings.exemptions.donationWords.some((word) => text.includes(fold(word)));
}

function goodsReason(context: ExemptionContext, regime: string | undefined): Reason {
  const { destination, buyer } = context;
  const where = destination.why ? ` (${destination.why})` : '';
  if (destination.territory === 'outside') return { code: 'M05', why: `export of goods to ${destination.country}${where} (CIVA art. 14)` };
  if (destination.territory === 'EU' && buyer.isEuVatNumber && buyer.countryCode !== 'PT') {
    return { code: 'M16', why: `intra-EU supply of goods to VAT number ${buyer.countryCode}${buyer.nif} in ${destination.country}${where} (RITI art. 14)` };
  }
  const situation = destination.territory === 'PT' ? 'goods that stay in Portugal' : `goods to a consumer in ${destination.country}`;
  if (regime) return { code: regime, why: `${situation}: shop-wide regime ${regime} (${exemptionCodeInfo(regime)?.basis ?? ''})` };
  return { code: undefined, why: `${situation} are taxed (CIVA art. 6(1)); a per-product code does not cover them, only a shop-wide regime (exemptions.regime)` };
}

function serviceReason(context: ExemptionContext, configured: string | undefined, regime: string | undefined): Reason {
  const { buyer } = context;
  if (buyer.kind === 'foreign-vat' && buyer.isBusiness && buyer.countryCode !== 'PT') {
    return { code: 'M40', why: `service to a business established in ${buyer.countryCode}: reverse charge (CIVA art. 6(6)(a))` };
  }
  if (configured === 'M44' && context.buyerCountry === 'PT') {
    return { code: undefined, why: 'M44 (art. 6(7) and following: a service placed outside Portugal) is configured for it, but the buyer is in Portugal' };
  }
  if (configured) return { code: configured, why: `configured for this product: ${configured} (${exemptionCodeInfo(configured)?.basis ?? ''})` };
  if (regime) return { code: regime, why: `shop-wide regime ${regime} (${exemptionCodeInfo(regime)?.basis ?? ''})` };
  return { code: undefined, why: 'a service to a consumer or a Portuguese business, with no code configured for it (exemptions.byProduct)' };
}

/** The one exemption code of a document whose lines include 0% ones (undefined when none has 0%). */
export function exemptionCodeFor(lines: readonly PlannedLine[], context: ExemptionContext, notes: MappingNote[]): string | undefined {
  const zeroLines = lines.filter((line) => isZero(line.rate));
  if (zeroLines.length === 0) return undefined;
  const regime = exemptionRegime(context.settings);
  // A charge follows its products: the code they were configured with when they all share one.
  const productCodes = [...new Set(lines.filter((l) => !l.ancillary).map((l) => l.exemption))];
  const reasons = zeroLines.map((line) => {
    const configured = line.ancillary ? (productCodes.length === 1 ? productCodes[0] : undefined) : line.exemption;
    const reason = supplyNature(line, lines) === 'P' ? goodsReason(context, regime) : serviceReason(context, configured, regime);
    return { line, ...reason };
  });
  const missing = reasons.filter((r) => r.code === undefined);
  if (missing.length > 0) {
    // The buyer's number is what a person must fix first (a malformed VAT number of a company):
    // say that rather than ask for a code that would be wrong once it is fixed.
    if (context.buyer.holdReason) throw new OrderMappingError(context.orderId, context.buyer.holdReason);
    const names = missing.map((r) => `"${r.line.description}"`).join(', ');
    throw new OrderMappingError(
      context.orderId,
      `${names} ${missing.length === 1 ? 'has' : 'have'} 0% VAT but no exemption reason applies (${missing[0].why}). ` +
        'A document must state the real reason of each exemption (CIVA art. 36(5)(e)): correct the shop\'s tax for this line, ' +
        'or set the reason your accountant chose (exemptions.regime for the shop, exemptions.byProduct for the product)',
    );
  }
  const codes = [...new Set(reasons.map((r) => r.code as string))];
  if (codes.length > 1) {
    const list = reasons.map((r) => `"${r.line.description}" ${r.code} (${r.why})`).join('; ');
    throw new OrderMappingError(
      context.orderId,
      `its 0% lines need different exemption codes and a document carries only one: ${list}. Issue it by hand as separate documents, or split the order`,
    );
  }
  for (const why of new Set(reasons.map((r) => r.why))) notes.push(info(`0% VAT: ${why} (${codes[0]})`));
  return codes[0];
}
