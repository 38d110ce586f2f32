import { compare, Decimal, formatDecimal, isZero, multiply, parseDecimal, round } from '../../client/money';
import { BuyerIdentity, billingCountry } from './buyer-identity';
import { isEuCountry } from './countries';
import { PlannedLine } from './line-plan';
import { info, MappingNote, OrderMappingError } from './mapping-errors';
import { MappingSettings } from './mapping-settings';
import { WooOrder } from './order-schema';

/** Country the goods go to: shipping address, else billing. */
export function destinationCountry(order: WooOrder, settings: MappingSettings): string {
  const shipping = order.shipping?.country.trim().toUpperCase() ?? '';
  return shipping || billingCountry(order, settings);
}

/**
 * Exemption reason for 0% lines. Intra-EU supply to a VAT-registered buyer: M16 (art. 14 RITI);
 * export outside the EU: M05 (art. 14 CIVA); otherwise the shop's configured code. With none
 * configured the order fails by name: a wrong legal basis on a certified invoice cannot be undone.
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
  if (buyer.isEuVatNumber && buyer.countryCode !== 'PT' && isEuCountry(destination) && destination !== 'PT') {
    notes.push(info(`0% VAT: intra-EU supply to VAT number ${buyer.countryCode}${buyer.nif} (M16)`));
    return 'M16';
  }
  if (!isEuCountry(destination)) {
    notes.push(info(`0% VAT: export to ${destination} (M05)`));
    return 'M05';
  }
  if (settings.exemptionCode) {
    notes.push(info(`0% VAT: configured exemption code ${settings.exemptionCode}`));
    return settings.exemptionCode;
  }
  // The buyer's number is what a person must fix first (a malformed VAT number of a company):
  // say that rather than ask for an exemption code that would be wrong once it is fixed.
  if (buyer.holdReason) throw new OrderMappingError(order.id, buyer.holdReason);
  const names = zeroLines.map((line) => `"${line.description}"`).join(', ');
  throw new OrderMappingError(
    order.id,
    `${names} ${zeroLines.length === 1 ? 'has' : 'have'} 0% VAT but no exemption reason applies ` +
      `(not an EU VAT number, not an export); set exemptionCode in the mapping settings`,
  );
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
