import { formatDecimal, isZero } from '../client/money';
import { isPortugueseBusiness, type BuyerIdentity } from './buyer-identity';
import { isEuCountry, type PlaceForVat } from './countries';
import { PlannedLine, supplyNature } from './line-plan';
import { mappingError } from './mapping-errors';
import type { MappingMessage } from './mapping-messages';
import type { MappingSettings } from './mapping-settings';
import { DispatchRegion, ratesInForce, regionsWithRate } from './vat-rates';

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
 *   (6(6)(b)): the shop's region; to a Portuguese business (a company with a Portuguese NIF), where
 *   the business is established (6(6)(a)): its billing address's region only (a Madeira shop's
 *   service to a Lisbon company is 23 %, a mainland shop's to a Funchal company 22 %). A business
 *   whose region the address does not tell (no Portuguese postcode) is held with the reason.
 *   Anything else is held.
 * - A shop registered in OSS: a distance sale of goods to a consumer in another member state is
 *   taxed there (the connector cannot know whether the EUR 10,000 threshold is passed): held.
 */

export interface SupplyContext {
  orderId: number | string;
  /** The day the tax became due (the sale's date): the rate in force that day applies (CIVA art. 18(9)). */
  taxDay: string;
  region: DispatchRegion;
  /** Where the region came from, for the reason: the setting, the shop's store address, or assumed (mainland). */
  regionSource: 'setting' | 'load-address' | 'store-address' | 'assumed';
  destination: PlaceForVat;
  buyer: BuyerIdentity;
  /** The region of a Portuguese buyer's billing address, for a business's services (6(6)(a)). */
  buyerRegion: DispatchRegion | undefined;
  /** The billing postcode as the buyer typed it, for the reason when it tells no region. */
  buyerPostcode: string;
  settings: MappingSettings;
}

/** "23/13/6": a region's rates on a day, for the messages (empty: none known that day). */
function rates(region: DispatchRegion, day: string): string {
  return ratesInForce(region, day)
    .map((r) => r.percent)
    .join('/');
}

/** Reasons to hold the document (empty: the rates may be sent); throws for a rate Portugal does not have. */
export function checkLineRates(lines: readonly PlannedLine[], context: SupplyContext): MappingMessage[] {
  const holds: MappingMessage[] = [];
  const { taxDay, region, destination, buyer } = context;
  for (const line of lines) {
    if (isZero(line.rate)) continue;
    const regions = regionsWithRate(line.rate, taxDay);
    if (regions.length === 0) {
      const where = destination.territory === 'PT' ? 'Portugal' : destination.country;
      throw mappingError(context.orderId, 'rate-not-portuguese', {
        line: line.description,
        rate: formatDecimal(line.rate),
        day: taxDay,
        mainland: rates('mainland', taxDay),
        madeira: rates('madeira', taxDay),
        azores: rates('azores', taxDay),
        where,
      });
    }
    const nature = supplyNature(line, lines);
    // A service to a Portuguese business: where the business is established (art. 6(6)(a) as adapted to the regions).
    const toBusiness = nature === 'S' && isPortugueseBusiness(buyer);
    if (toBusiness && !context.buyerRegion) {
      holds.push({ code: 'service-buyer-region-unknown', params: { line: line.description, rate: formatDecimal(line.rate), postcode: context.buyerPostcode } });
      continue;
    }
    const allowed: DispatchRegion = toBusiness && context.buyerRegion ? context.buyerRegion : region;
    if (!regions.includes(allowed)) {
      holds.push({
        code: 'rate-wrong-region',
        params: {
          line: line.description,
          rate: formatDecimal(line.rate),
          regions: regions.join('/'),
          nature: toBusiness ? 'S-business' : nature,
          region,
          source: context.regionSource,
          allowed,
          day: taxDay,
          rates: rates(allowed, taxDay),
        },
      });
      continue;
    }
    if (context.settings.oss.registered && nature === 'P' && !buyer.isEuVatNumber && destination.territory === 'EU') {
      holds.push({ code: 'oss-distance-sale', params: { country: destination.country, rate: formatDecimal(line.rate) } });
    }
    // Electronic services to a consumer in another member state share the EUR 10,000 threshold (art. 6-A): under OSS, held like goods.
    if (context.settings.oss.registered && line.special === 'electronic' && !buyer.isEuVatNumber && buyer.countryCode !== 'PT' && isEuCountry(buyer.countryCode)) {
      holds.push({ code: 'oss-electronic-service', params: { line: line.description, country: buyer.countryCode, rate: formatDecimal(line.rate) } });
    }
  }
  // The same reason for several lines is said once.
  const seen = new Set<string>();
  return holds.filter((hold) => {
    const key = JSON.stringify(hold);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
