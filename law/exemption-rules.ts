import { isZero } from '../client/money';
import { isPortugueseBusiness, type BuyerIdentity } from './buyer-identity';
import type { PlaceForVat } from './countries';
import { exemptionCodeInfo } from './exemption-codes';
import { PlannedLine, supplyNature } from './line-plan';
import { lineProductId, listsProduct, productIdsOf, type ProductFacts, type ProductRef } from './line-type';
import { info, MappingNote, mappingError, OrderMappingError } from './mapping-errors';
import type { ExemptionReasonParams } from './mapping-words';
import { exemptionRegime, type MappingSettings } from './mapping-settings';

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
  /** Why, as a message's params (mapping-words.ts words it). */
  why: ExemptionReasonParams;
}

/** A reason's params: `why` and only the facts it needs (the others empty). */
function reason(why: string, facts: Partial<ExemptionReasonParams> = {}): ExemptionReasonParams {
  return { why, country: '', vat: '', regime: '', placeWhy: '', place: '', placeCode: '', ...facts };
}

export interface ExemptionContext {
  orderId: number | string;
  destination: PlaceForVat;
  buyer: BuyerIdentity;
  /** The billing country (a service's buyer location). */
  buyerCountry: string;
  settings: MappingSettings;
}

/** Accents off, lower case; plain ASCII (most names and words) has no accent to take off. */
const fold = (text: string): string => (/^[\x00-\x7f]*$/.test(text) ? text.toLowerCase() : text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase());

/** Each settings list of words folded once (the lists are asked about for every line of every order). */
const foldedLists = new WeakMap<readonly string[], readonly string[]>();
function folded(words: readonly string[]): readonly string[] {
  let known = foldedLists.get(words);
  if (!known) {
    known = words.map(fold);
    foldedLists.set(words, known);
  }
  return known;
}

/** The code the accountant gave a product (`exemptions.byProduct`: ids, SKU prefixes, then categories read from the shop). */
export function configuredExemption(item: ProductRef, settings: MappingSettings): string | undefined {
  const ids = productIdsOf(item);
  for (const rule of settings.exemptions.byProduct) {
    if (listsProduct(rule.productIds, ids)) return rule.code;
    if (item.sku && rule.skuPrefixes.some((prefix) => item.sku.startsWith(prefix))) return rule.code;
  }
  return settings.exemptions.shopProductCodes[lineProductId(item)];
}

/** The code the accountant gave a fee by its name (`exemptions.byFee`). */
export function configuredFeeExemption(name: string, settings: MappingSettings): string | undefined {
  const text = fold(name);
  return settings.exemptions.byFee.find((rule) => folded(rule.names).some((word) => text.includes(word)))?.code;
}

/** What the connector puts in `exemptions.shopProductCodes` for a product: the first byProduct entry naming one of its categories. */
export function productExemptionFromShop(facts: ProductFacts, settings: MappingSettings): string | undefined {
  return settings.exemptions.byProduct.find((rule) =>
    facts.categories.some((category) => rule.categories.some((wanted) => (typeof wanted === 'number' ? wanted === category.id : wanted === category.slug))),
  )?.code;
}

/** A fee or product named like a donation, or listed as one (`exemptions.donationWords`, `.donationProductIds`). */
export function isDonation(name: string, productIds: readonly string[], settings: MappingSettings): boolean {
  if (listsProduct(settings.exemptions.donationProductIds, productIds)) return true;
  const text = fold(name);
  return folded(settings.exemptions.donationWords).some((word) => text.includes(word));
}

function goodsReason(context: ExemptionContext, regime: string | undefined, configured: string | undefined): Reason {
  const { destination, buyer } = context;
  const place = destination.reason ?? {};
  if (destination.territory === 'outside') return { code: 'M05', why: reason('export', { country: destination.country, ...place }) };
  if (destination.territory === 'EU' && buyer.isEuVatNumber && buyer.countryCode !== 'PT') {
    return { code: 'M16', why: reason('intra-eu', { vat: `${buyer.countryCode}${buyer.nif}`, country: destination.country, ...place }) };
  }
  const situation = destination.territory === 'PT' ? 'goods-pt' : 'goods-eu';
  // The shop-wide regime covers all its sales (a product's code does not split the document's one code).
  if (regime) return { code: regime, why: reason(`${situation}-regime`, { country: destination.country, regime }) };
  if (destination.territory === 'PT' && configured) return domesticGoodsReason(context, configured);
  return { code: undefined, why: reason(`${situation}-taxed`, { country: destination.country }) };
}

/**
 * Goods that stay in Portugal with a code the accountant configured (issue 26.7): a code whose basis
 * is a domestic goods regime covers them (M01 amounts excluded from the taxable amount, art. 16(6),
 * such as returnable packaging deposits; M11-M15 special and margin schemes, e.g. second-hand goods
 * under DL 199/96; M19, M21, M25, M99 where their article applies); a domestic reverse charge
 * (M30-M34, M43) only for a Portuguese business buyer; any other code (an art. 9 exemption on
 * ordinary goods) would hide a taxable sale: refused.
 */
function domesticGoodsReason(context: ExemptionContext, configured: string): Reason {
  const use = exemptionCodeInfo(configured)?.domesticGoods;
  if (use === 'goods') return { code: configured, why: reason('goods-pt-domestic', { regime: configured }) };
  if (use === 'reverse-charge') {
    if (isPortugueseBusiness(context.buyer)) return { code: configured, why: reason('goods-pt-reverse-charge', { regime: configured }) };
    return { code: undefined, why: reason('goods-pt-reverse-charge-consumer', { regime: configured }) };
  }
  return { code: undefined, why: reason('goods-pt-code-blocked', { regime: configured }) };
}

/** Whether a configured code covers this goods line, which the shop then must not tax (charged-treatment.ts). */
export function domesticGoodsCodeApplies(code: string, destination: PlaceForVat, buyer: BuyerIdentity): boolean {
  if (destination.territory !== 'PT') return false;
  const use = exemptionCodeInfo(code)?.domesticGoods;
  return use === 'goods' || (use === 'reverse-charge' && isPortugueseBusiness(buyer));
}

function serviceReason(context: ExemptionContext, line: PlannedLine, configured: string | undefined, regime: string | undefined, performedHere: boolean): Reason {
  const { buyer } = context;
  // Taxed where performed even for a business (art. 6(7)): never 0 %, whoever buys; nor the
  // shipping or fees charged with it (art. 16(5)(b): they follow the supply).
  if (line.special === 'where-performed' || (line.ancillary && performedHere)) return { code: undefined, why: reason('service-where-performed') };
  if (buyer.kind === 'foreign-vat' && buyer.isBusiness && buyer.countryCode !== 'PT') {
    return { code: 'M40', why: reason('service-reverse-charge', { country: buyer.countryCode }) };
  }
  if (configured === 'M44' && context.buyerCountry === 'PT') return { code: undefined, why: reason('service-m44-in-pt') };
  if (configured) return { code: configured, why: reason('service-configured', { regime: configured }) };
  if (regime) return { code: regime, why: reason('service-regime', { regime }) };
  return { code: undefined, why: reason('service-no-code') };
}

/** The one exemption code of a document whose lines include 0% ones (undefined when none has 0%). */
export function exemptionCodeFor(lines: readonly PlannedLine[], context: ExemptionContext, notes: MappingNote[]): string | undefined {
  const zeroLines = lines.filter((line) => isZero(line.rate));
  if (zeroLines.length === 0) return undefined;
  const regime = exemptionRegime(context.settings);
  // A charge follows its products: the code they were configured with when they all share one.
  const productCodes = [...new Set(lines.filter((l) => !l.ancillary).map((l) => l.exemption))];
  const performedHere = lines.some((l) => !l.ancillary && l.special === 'where-performed');
  const reasons = zeroLines.map((line) => {
    // A fee with its own code (exemptions.byFee) keeps it; other charges follow their products.
    const configured = line.ancillary ? (line.exemption ?? (productCodes.length === 1 ? productCodes[0] : undefined)) : line.exemption;
    const reason = supplyNature(line, lines) === 'P' ? goodsReason(context, regime, configured) : serviceReason(context, line, configured, regime, performedHere);
    return { line, ...reason };
  });
  const missing = reasons.filter((r) => r.code === undefined);
  if (missing.length > 0) {
    // The buyer's number is what a person must fix first (a malformed VAT number of a company):
    // say that rather than ask for a code that would be wrong once it is fixed.
    if (context.buyer.hold) throw new OrderMappingError(context.orderId, context.buyer.hold);
    const names = missing.map((r) => `"${r.line.description}"`).join(', ');
    throw mappingError(context.orderId, 'zero-vat-no-reason', { names, count: missing.length, ...missing[0].why });
  }
  const codes = [...new Set(reasons.map((r) => r.code as string))];
  if (codes.length > 1) {
    const list: Record<string, string | number> = { count: reasons.length };
    reasons.forEach((r, i) => {
      list[`line_${i}`] = r.line.description;
      list[`code_${i}`] = r.code ?? '';
      for (const [key, value] of Object.entries(r.why)) list[`${key}_${i}`] = value;
    });
    throw mappingError(context.orderId, 'zero-vat-codes-differ', list);
  }
  // One note per distinct reason (reasons with the same words are the same reason).
  const seen = new Set<string>();
  for (const r of reasons) {
    const key = JSON.stringify(r.why);
    if (seen.has(key)) continue;
    seen.add(key);
    notes.push(info('zero-vat-reason', { code: codes[0], ...r.why }));
  }
  return codes[0];
}
