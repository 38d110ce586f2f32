/**
 * EU VAT numbers: the format each member state gives its numbers (the European Commission's VIES
 * format table), checked on the number without its country prefix. A format check is not a VIES
 * check: it catches typing errors and a prefix typed into the wrong country, not a closed company.
 */
const EU_VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-Z0-9]{2}\d{9}$/,
  GR: /^\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/**
 * Northern Ireland's traders registered for EU VAT on goods (Windsor Framework) carry the prefix XI
 * and a UK number: 9 or 12 digits, or GD/HA and 3 digits.
 */
const XI_VAT_FORMAT = /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/;

/** The VAT prefix of a country (Greece writes EL; a GB number that is an EU VAT number is Northern Ireland's XI). */
export function vatPrefixOf(country: string): string {
  if (country === 'GR') return 'EL';
  if (country === 'GB') return 'XI';
  return country;
}

/** True when `number` (without prefix, upper case, no separators) has the format of `country`'s VAT numbers. */
export function hasEuVatFormat(country: string, number: string): boolean {
  if (country === 'GB') return XI_VAT_FORMAT.test(number);
  const format = EU_VAT_FORMATS[country];
  return format !== undefined && format.test(number);
}

/**
 * A VAT-number registry's answer (VIES) for the buyer's number, obtained by the caller before
 * mapping (the mapping does no I/O): see `vatNumberToCheck` and `VatNumberRegistry`.
 */
export interface VatNumberVerdict {
  countryCode: string;
  number: string;
  valid: boolean;
}

/**
 * What a VIES client implements (the seam: no client ships here, there is no network in this
 * project's environment). `undefined` = could not ask (VIES down): the format check alone decides.
 */
export type VatNumberRegistry = (countryCode: string, number: string) => Promise<VatNumberVerdict | undefined>;
