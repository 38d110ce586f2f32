import { placeWhyWords } from './mapping-words';

/** EU member states (ISO codes) for the exemption rules: intra-EU B2B (M16) versus exports (M05). */
export const EU_COUNTRIES: ReadonlySet<string> = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '),
);

export function isEuCountry(code: string): boolean {
  return EU_COUNTRIES.has(code);
}

/** VAT number prefixes that are not the ISO code of their country. */
export function countryOfVatPrefix(prefix: string): string {
  if (prefix === 'EL') return 'GR';
  if (prefix === 'XI') return 'GB';
  return prefix;
}

/** Where goods go for VAT: Portugal, the rest of the EU VAT territory, or outside it (an export). */
export type VatTerritory = 'PT' | 'EU' | 'outside';

/**
 * Parts of member states outside the EU VAT territory (CIVA art. 1(2); Directive 2006/112 art. 6),
 * by country and postcode: goods sent there are exports (M05), not intra-EU supplies.
 * Each postcode was checked against the postal code of the place.
 */
const OUTSIDE_VAT_TERRITORY: readonly { country: string; postcode: RegExp; place: string }[] = [
  { country: 'ES', postcode: /^3[58]/, place: 'canary-islands' },
  { country: 'ES', postcode: /^51/, place: 'ceuta' },
  { country: 'ES', postcode: /^52/, place: 'melilla' },
  { country: 'FI', postcode: /^22/, place: 'aland' },
  { country: 'GR', postcode: /^63086/, place: 'mount-athos' },
  { country: 'DE', postcode: /^78266/, place: 'busingen' },
  { country: 'DE', postcode: /^27498/, place: 'heligoland' },
  { country: 'IT', postcode: /^23041/, place: 'livigno' },
  { country: 'IT', postcode: /^22061/, place: 'campione' },
  // The French overseas departments are outside too; WooCommerce usually gives them their own codes (GP, MQ, GF, RE, YT).
  { country: 'FR', postcode: /^97[1-6]/, place: 'french-overseas' },
];
// Their names, in English and Portuguese, are in mapping-words.ts (OUTSIDE_PLACES).

/** Country codes WooCommerce may use for a place that is, for VAT, part of a member state. */
const PART_OF_MEMBER_STATE: Readonly<Record<string, string>> = {
  // Monaco is inside the French VAT territory.
  MC: 'FR',
};

export interface PlaceForVat {
  territory: VatTerritory;
  /** The member state for VAT (Monaco -> FR, Northern Ireland -> XI), or the ISO country outside the EU. */
  country: string;
  /** Why a place of an EU country is outside the VAT territory, or Northern Ireland is inside for goods (English). */
  why?: string;
  /** The same as a message's params (`placeWhy`, `place`: a key of OUTSIDE_PLACES or the member state, `placeCode`). */
  reason?: PlaceReason;
}

export interface PlaceReason {
  placeWhy: 'aland' | 'northern-ireland' | 'outside' | 'part-of';
  place: string;
  placeCode: string;
}

function place(territory: VatTerritory, country: string, reason: PlaceReason): PlaceForVat {
  return { territory, country, why: placeWhyWords('en', reason), reason };
}

/**
 * Where goods delivered to `country` / `postcode` go for VAT. Northern Ireland (GB with a BT
 * postcode) follows the EU VAT rules for goods (Windsor Framework): it is treated as a member state
 * with the VAT prefix XI.
 */
export function placeForVat(country: string, postcode: string): PlaceForVat {
  const code = country.trim().toUpperCase();
  const compact = postcode.replace(/[\s-]/g, '').toUpperCase();
  if (code === 'AX') return place('outside', 'AX', { placeWhy: 'aland', place: '', placeCode: code });
  if ((code === 'GB' && compact.startsWith('BT')) || code === 'XI') {
    return place('EU', 'XI', { placeWhy: 'northern-ireland', place: '', placeCode: code });
  }
  const member = PART_OF_MEMBER_STATE[code] ?? code;
  if (!isEuCountry(member)) return { territory: 'outside', country: code };
  const outside = OUTSIDE_VAT_TERRITORY.find((o) => o.country === member && o.postcode.test(compact));
  if (outside) return place('outside', member, { placeWhy: 'outside', place: outside.place, placeCode: code });
  if (member === 'PT') return { territory: 'PT', country: 'PT' };
  return member === code ? { territory: 'EU', country: member } : place('EU', member, { placeWhy: 'part-of', place: member, placeCode: code });
}
