import { compare, Decimal, multiply, parseDecimal, round } from '../client/money';
import { BuyerIdentity, billingCountry } from './buyer-identity';
import { ExemptionContext } from './exemption-rules';
import { placeForVat, type PlaceForVat } from './countries';
import { info, MappingNote, mappingError, warning } from './mapping-errors';
import { MappingSettings } from './mapping-settings';
import { saleRef, type Sale } from './sale';

/** Country the goods go to: shipping address, else billing. */
export function destinationCountry(sale: Sale, settings: MappingSettings): string {
  const shipping = sale.shipping?.country.trim().toUpperCase() ?? '';
  return shipping || billingCountry(sale, settings);
}

/** What the exemption rules need to know of the order (exemption-rules.ts). */
export function exemptionContext(sale: Sale, buyer: BuyerIdentity, settings: MappingSettings): ExemptionContext {
  return { orderId: saleRef(sale), destination: destinationPlace(sale, settings), buyer, buyerCountry: billingCountry(sale, settings), settings };
}

/** Where the goods go for VAT (EU VAT territory by postcode): the shipping address, else billing. */
export function destinationPlace(sale: Sale, settings: MappingSettings): PlaceForVat {
  const shipping = sale.shipping?.country.trim() ? sale.shipping : undefined;
  return placeForVat(destinationCountry(sale, settings), shipping ? shipping.postcode : sale.billing.postcode);
}

export interface CurrencyChoice {
  currency: string;
  /** Euros per one unit of the order's currency; undefined for euro orders. */
  euroRate: string | undefined;
}

/** Currency and EuroRate for non-euro sales: the sale's attribute (the rate used at checkout) wins over settings. */
export function currencyFor(sale: Sale, settings: MappingSettings, notes: MappingNote[]): CurrencyChoice {
  const currency = sale.currency.toUpperCase();
  if (currency === 'EUR') return { currency, euroRate: undefined };
  const reference = settings.referenceEuroRates[currency];
  if (reference && parseDecimal(reference.euroRate).units > 0n) {
    notes.push(info('euro-rate-ecb', { currency, rate: reference.euroRate, day: reference.day }));
    return { currency, euroRate: reference.euroRate };
  }
  for (const key of settings.euroRateMetaKeys) {
    const value = sale.attributes.find((m) => m.key === key)?.value;
    if ((typeof value === 'string' || typeof value === 'number') && /^\d+(\.\d+)?$/.test(String(value).trim())) {
      const rate = String(value).trim();
      if (parseDecimal(rate).units > 0n) {
        notes.push(info('euro-rate-meta', { currency, rate, key }));
        return { currency, euroRate: rate };
      }
    }
  }
  const configured = settings.euroRates[currency];
  if (configured && parseDecimal(configured).units > 0n) {
    // A fixed rate goes stale: the law wants the rate of the day the tax is due (the ECB's, which the connector reads).
    notes.push(warning('euro-rate-static', { currency, rate: configured }));
    return { currency, euroRate: configured };
  }
  throw mappingError(saleRef(sale), 'euro-rate-unknown', { currency, keys: settings.euroRateMetaKeys.join(' / ') });
}

/** An amount of the document's currency in euros (for the legal limits). */
export function inEuros(amount: Decimal, choice: CurrencyChoice): Decimal {
  return choice.euroRate === undefined ? amount : round(multiply(amount, parseDecimal(choice.euroRate)), 2);
}

export function atLeast(a: Decimal, limit: string): boolean {
  return compare(a, parseDecimal(limit)) >= 0;
}
