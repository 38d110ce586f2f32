import { formatDecimal, isZero } from '../../client/money';
import type { BuyerIdentity } from './buyer-identity';
import type { PlaceForVat } from './countries';
import { PlannedLine, supplyNature } from './line-plan';
import { OrderMappingError } from './mapping-errors';
import type { MappingSettings } from './mapping-settings';
import { DispatchRegion, rateList, regionName, regionsWithRate } from './vat-rates';

/**
 * Which VAT a line may carry: only a rate in force in Portugal, on the day the tax became due, for
 * the region where the supply takes place. One rule for invoices and credit notes.
 *
 * - A rate Portugal does not have that day (Spain's 21 %, France's 20 %, Madeira's former 5 %) is
 *   refused before anything is sent: a MagniFinance document line has one TaxValue and no tax
 *   country, so a foreign rate would be declared as Portuguese VAT. Since July 2021 an EU distance
 *   sale of goods above the EUR 10,000 threshold is taxed in the buyer's state and declared through
 *   OSS (CIVA art. 6-A, RITI art. 10, Lei 47/2020), not on a Portuguese document.
 * - Goods are taxed where their transport begins (CIVA art. 6(1)): the shop's dispatch region, not
 *   the buyer's postcode (a mainland shop shipping to Funchal charges 23 %). A goods line (shipping
 *   and fees follow the goods, art. 16(5)(b)) at another region's rate is held.
 * - Services (art. 6(6) as adapted to the regions): to a consumer, where the supplier is established
 *   (6(6)(b)): the shop's region; to a Portuguese business, where the business is established
 *   (6(6)(a)): its billing address's region, or the shop's. Anything else is held.
 * - A shop registered in OSS: a distance sale of goods to a consumer in another member state is
 *   taxed there (the connector cannot know whether the EUR 10,000 threshold is passed): held.
 */

export interface SupplyContext {
  orderId: number;
  /** The day the tax became due (the sale's date): the rate in force that day applies (CIVA art. 18(9)). */
  taxDay: string;
  region: DispatchRegion;
  /** Where the region came from, for the reason: the setting, or the shop's store address. */
  regionSource: string;
  destination: PlaceForVat;
  buyer: BuyerIdentity;
  /** The region of a Portuguese buyer's billing address, for a business's services (6(6)(a)). */
  buyerRegion: DispatchRegion | undefined;
  settings: MappingSettings;
}

/** Reasons to hold the document (empty: the rates may be sent); throws for a rate Portugal does not have. */
export function checkLineRates(lines: readonly PlannedLine[], context: SupplyContext): string[] {
  const holds: string[] = [];
  const { taxDay, region, destination, buyer } = context;
  for (const line of lines) {
    if (isZero(line.rate)) continue;
    const rate = formatDecimal(line.rate);
    const regions = regionsWithRate(line.rate, taxDay);
    if (regions.length === 0) {
      const where = destination.territory === 'PT' ? 'Portugal' : destination.country;
      throw new OrderMappingError(
        context.orderId,
        `line "${line.description}" is taxed at ${rate}%, which is no Portuguese VAT rate in force on ${taxDay} ` +
          `(mainland ${rateList('mainland', taxDay)}, Madeira ${rateList('madeira', taxDay)}, the Azores ${rateList('azores', taxDay)}). ` +
          `If it is the VAT of the buyer's country (${where}): an EU distance sale taxed there is declared through OSS ` +
          `(CIVA art. 6-A, RITI art. 10, Lei 47/2020), and a MagniFinance document carries Portuguese VAT only; nothing was sent. ` +
          `Correct the shop's tax rates, or invoice this sale outside the connector`,
      );
    }
    const nature = supplyNature(line, lines);
    const allowed: DispatchRegion[] = [region];
    if (nature === 'S' && buyer.isBusiness && buyer.countryCode === 'PT' && context.buyerRegion) allowed.push(context.buyerRegion);
    if (!regions.some((r) => allowed.includes(r))) {
      const why =
        nature === 'P'
          ? `goods are taxed where their transport begins (CIVA art. 6(1)), and the shop dispatches from ${regionName(region)} (${context.regionSource})`
          : `a service is taxed where ${allowed.length > 1 ? 'the business buying it or ' : ''}the shop is established (CIVA art. 6(6) as adapted to the regions): ${allowed.map(regionName).join(' or ')} (${context.regionSource})`;
      holds.push(
        `Line "${line.description}" carries ${rate}%, the VAT of ${regions.map(regionName).join(' / ')}, but ${why}, whose rates on ${taxDay} are ${rateList(region, taxDay)}. ` +
          `The buyer's postcode does not decide the rate: correct the shop's tax table, or the setting dispatchRegion if the goods leave from elsewhere`,
      );
      continue;
    }
    if (context.settings.oss.registered && nature === 'P' && !buyer.isEuVatNumber && destination.territory === 'EU') {
      holds.push(
        `The shop is registered in OSS: goods sent to a consumer in ${destination.country} are taxed in ${destination.country} once the shop's EU distance sales pass EUR 10,000 ` +
          `(CIVA art. 6-A, RITI art. 10, Lei 47/2020), and this document would carry Portuguese VAT (${rate}%). Held: issue it by hand as your accountant decides (oss.registered)`,
      );
    }
  }
  return [...new Set(holds)];
}
