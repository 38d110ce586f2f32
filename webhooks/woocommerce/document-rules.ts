import { compare, Decimal, formatDecimal, isZero, multiply, parseDecimal, round } from '../../client/money';
import { BuyerIdentity, billingCountry } from './buyer-identity';
import { isEuCountry, placeForVat, type PlaceForVat } from './countries';
import { PlannedLine } from './line-plan';
import { info, MappingNote, OrderMappingError } from './mapping-errors';
import { MappingSettings } from './mapping-settings';
import { WooOrder } from './order-schema';

/** Country the goods go to: shipping address, else billing. */
export function destinationCountry(order: WooOrder, settings: MappingSettings): string {
  const shipping = order.shipping?.country.trim().toUpperCase() ?? '';
  return shipping || billingCountry(order, settings);
}

/** Where the goods go for VAT (EU VAT territory by postcode): the shipping address, else billing. */
export function destinationPlace(order: WooOrder, settings: MappingSettings): PlaceForVat {
  const shipping = order.shipping?.country.trim() ? order.shipping : undefined;
  return placeForVat(destinationCountry(order, settings), shipping ? shipping.postcode : order.billing.postcode);
}

interface Reason {
  code: string | undefined;
  why: string;
}

/** Exemption reason of one 0% line of goods (P). */
function goodsReason(destination: string, buyer: BuyerIdentity): Reason {
  if (buyer.isEuVatNumber && buyer.countryCode !== 'PT' && isEuCountry(destination) && destination !== 'PT') {
    return { code: 'M16', why: `intra-EU supply of goods to VAT number ${buyer.countryCode}${buyer.nif} (RITI art. 14)` };
  }
  if (!isEuCountry(destination)) return { code: 'M05', why: `export of goods to ${destination} (CIVA art. 14)` };
  return { code: undefined, why: 'goods within Portugal or to an EU consumer' };
}

/** Exemption reason of one 0% service line (S). */
function serviceReason(buyer: BuyerIdentity): Reason {
  if (buyer.kind === 'foreign-vat' && buyer.countryCode !== 'PT') {
    return { code: 'M40', why: `service to a business established in ${buyer.countryCode}: reverse charge (CIVA art. 6(6)(a))` };
  }
  return { code: undefined, why: 'service to a consumer or a Portuguese business' };
}

/**
 * Exemption reason for the 0% lines, decided per line by its nature and the buyer: goods to an EU
 * business M16 (RITI art. 14), exported goods M05 (CIVA art. 14), services to a business abroad
 * M40 (CIVA art. 6(6)(a), reverse charge); any other 0% line takes the shop's configured code.
 * Shipping and fees follow the order's products. The service takes one code per document, so lines
 * that need different codes fail by name, as does a line with no code: a wrong legal basis on a
 * certified invoice cannot be undone.
 */
export function exemptionCodeFor(
  order: WooOrder,
  lines: readonly PlannedLine[],
  buyer: BuyerIdentity,
  settings: MappingSettings,
  notes: MappingNote[],
): string | undefined {
  const zeroLines = lines.filter((line) => isZero(line.rate));
  if (zeroLines.length === 0) return undefined;
  const destination = destinationCountry(order, settings);
  const products = lines.filter((line) => !line.ancillary);
  const natureOf = (line: PlannedLine): 'P' | 'S' => {
    if (!line.ancillary) return line.type;
    // A charge follows the products: services only when every product line is a service.
    return products.length > 0 && products.every((p) => p.type === 'S') ? 'S' : 'P';
  };
  const reasons = zeroLines.map((line) => {
    const reason = natureOf(line) === 'P' ? goodsReason(destination, buyer) : serviceReason(buyer);
    if (reason.code) return { line, ...reason };
    return settings.exemptionCode
      ? { line, code: settings.exemptionCode, why: `${reason.why}: configured exemption code` }
      : { line, ...reason };
  });
  const missing = reasons.filter((r) => r.code === undefined);
  if (missing.length > 0) {
    // The buyer's number is what a person must fix first (a malformed VAT number of a company):
    // say that rather than ask for an exemption code that would be wrong once it is fixed.
    if (buyer.holdReason) throw new OrderMappingError(order.id, buyer.holdReason);
    const names = missing.map((r) => `"${r.line.description}"`).join(', ');
    throw new OrderMappingError(
      order.id,
      `${names} ${missing.length === 1 ? 'has' : 'have'} 0% VAT but no exemption reason applies ` +
        `(${missing[0].why}: not goods to an EU VAT number, not an export of goods, not a service to a business abroad); ` +
        `set exemptionCode in the mapping settings with the code your accountant chose`,
    );
  }
  const codes = [...new Set(reasons.map((r) => r.code as string))];
  if (codes.length > 1) {
    const list = reasons.map((r) => `"${r.line.description}" ${r.code} (${r.why})`).join('; ');
    throw new OrderMappingError(
      order.id,
      `its 0% lines need different exemption codes and a document carries only one: ${list}. ` +
        `Issue it by hand as separate documents, or split the order`,
    );
  }
  for (const why of new Set(reasons.map((r) => r.why))) notes.push(info(`0% VAT: ${why} (${codes[0]})`));
  return codes[0];
}

export interface CurrencyChoice {
  currency: string;
  /** Euros per one unit of the order's currency; undefined for euro orders. */
  euroRate: string | undefined;
}

/** Currency and EuroRate for non-euro orders: order meta (the rate used at checkout) wins over settings. */
export function currencyFor(order: WooOrder, settings: MappingSettings, notes: MappingNote[]): CurrencyChoice {
  const currency = order.currency.toUpperCase();
  if (currency === 'EUR') return { currency, euroRate: undefined };
  for (const key of settings.euroRateMetaKeys) {
    const value = order.meta_data.find((m) => m.key === key)?.value;
    if ((typeof value === 'string' || typeof value === 'number') && /^\d+(\.\d+)?$/.test(String(value).trim())) {
      const rate = String(value).trim();
      if (parseDecimal(rate).units > 0n) {
        notes.push(info(`Order in ${currency}: EuroRate ${rate} from order meta ${key}`));
        return { currency, euroRate: rate };
      }
    }
  }
  const configured = settings.euroRates[currency];
  if (configured && parseDecimal(configured).units > 0n) {
    notes.push(info(`Order in ${currency}: EuroRate ${configured} from the mapping settings`));
    return { currency, euroRate: configured };
  }
  throw new OrderMappingError(
    order.id,
    `the order is in ${currency} and no EuroRate is known: set euroRates.${currency} in the mapping settings ` +
      `or store the rate in order meta ${settings.euroRateMetaKeys.join(' / ') || '(no keys configured)'}`,
  );
}

/** An amount of the document's currency in euros (for the legal limits). */
export function inEuros(amount: Decimal, choice: CurrencyChoice): Decimal {
  return choice.euroRate === undefined ? amount : round(multiply(amount, parseDecimal(choice.euroRate)), 2);
}

export function atLeast(a: Decimal, limit: string): boolean {
  return compare(a, parseDecimal(limit)) >= 0;
}

export function euros(amount: Decimal): string {
  return `EUR ${formatDecimal(round(amount, 2), 2)}`;
}
