import { formatDecimal, isZero } from '../client/money';
import type { BuyerIdentity } from './buyer-identity';
import type { PlaceForVat } from './countries';
import { domesticGoodsCodeApplies } from './exemption-rules';
import { supplyNature, type PlannedLine } from './line-plan';
import type { MappingMessage } from './mapping-messages';
import { exemptionRegime, type MappingSettings } from './mapping-settings';

/**
 * The shop's charge against the legal treatment its configuration gives (issue 26.4). VAT written
 * on an invoice is owed by whoever writes it (CIVA art. 2(1)(c)): a line the shop taxed where the
 * configuration says no VAT is due is held, never issued (the holds are binding: credit-limits.ts).
 *  - the shop is in a regime whose sales carry no VAT (`exemptions.regime`: M10, art. 53; M20, art. 59-D);
 *  - a service the accountant gave a code that covers this buyer (`exemptions.byProduct`; M44 only
 *    for a buyer outside Portugal);
 *  - goods that stay in Portugal, or a fee, with a domestic regime's code that covers them
 *    (`exemptions.byProduct`, `exemptions.byFee`: M01, M11-M15, M19, M21, M25, M99; M30-M34, M43
 *    for a Portuguese business buyer), issue 26.7;
 *  - the sale of a multi-purpose voucher (a product named in `giftCardFeeNames`): its transfer is no
 *    supply, the VAT is due on redemption (art. 7(13)-(14)).
 */
export function chargedAgainstTreatment(
  lines: readonly PlannedLine[],
  buyerCountry: string,
  settings: MappingSettings,
  /** Where the goods go and who buys: a goods line whose domestic code covers them (issue 26.7) must not be taxed either. */
  goods?: { destination: PlaceForVat; buyer: BuyerIdentity },
): MappingMessage[] {
  const holds: MappingMessage[] = [];
  const regime = exemptionRegime(settings);
  for (const line of lines) {
    if (isZero(line.rate)) continue;
    const rate = formatDecimal(line.rate);
    if (regime) {
      holds.push({ code: 'taxed-under-regime', params: { line: line.description, rate, regime } });
      continue;
    }
    if (line.voucher) {
      holds.push({ code: 'voucher-sale-taxed', params: { line: line.description, rate } });
      continue;
    }
    // A product's code, or a fee's own (exemptions.byFee); charges that follow the goods have none.
    const code = line.exemption;
    if (!code) continue;
    const nature = supplyNature(line, lines);
    const covers =
      nature === 'S' ? code !== 'M44' || buyerCountry !== 'PT' : goods !== undefined && domesticGoodsCodeApplies(code, goods.destination, goods.buyer);
    if (covers) holds.push({ code: 'taxed-despite-code', params: { line: line.description, rate, code } });
  }
  return holds;
}
