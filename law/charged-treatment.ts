import { formatDecimal, isZero } from '../client/money';
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
 *  - the sale of a multi-purpose voucher (a product named in `giftCardFeeNames`): its transfer is no
 *    supply, the VAT is due on redemption (art. 7(13)-(14)).
 */
export function chargedAgainstTreatment(lines: readonly PlannedLine[], buyerCountry: string, settings: MappingSettings): MappingMessage[] {
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
    const code = line.ancillary ? undefined : line.exemption;
    if (code && supplyNature(line, lines) === 'S' && (code !== 'M44' || buyerCountry !== 'PT')) {
      holds.push({ code: 'taxed-despite-code', params: { line: line.description, rate, code } });
    }
  }
  return holds;
}
