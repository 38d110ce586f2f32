import { isValidPortugueseNif } from '../client/nif';

/**
 * The service validates tax ids itself. Portugal gets the full NIF check (digits, prefix, check
 * digit, via client/nif.ts); other countries only a format check, since their check digits are
 * not the service's business. An optional leading country prefix ("ES", "DE") is tolerated.
 */
const FOREIGN_FORMATS: Readonly<Record<string, RegExp>> = {
  ES: /^[0-9A-Z]\d{7}[0-9A-Z]$/,
  FR: /^[0-9A-Z]{2}\d{9}$/,
  DE: /^\d{9}$/,
  IT: /^\d{11}$/,
  NL: /^\d{9}B\d{2}$/,
  BE: /^[01]\d{9}$/,
  GB: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  IE: /^\d{7}[A-Z]{1,2}$|^\d[A-Z+*]\d{5}[A-Z]$/,
};

const GENERIC_FORMAT = /^[0-9A-Z][0-9A-Z.\-/]{3,19}$/;

export function isValidTaxId(countryCode: string, taxId: string): boolean {
  const country = countryCode.toUpperCase();
  const compact = taxId.replace(/\s+/g, '').toUpperCase();
  if (country === 'PT') return /^(PT)?\d{9}$/.test(compact) && isValidPortugueseNif(compact);
  const withoutPrefix = compact.startsWith(country) ? compact.slice(country.length) : compact;
  const format = FOREIGN_FORMATS[country];
  return format ? format.test(withoutPrefix) : GENERIC_FORMAT.test(withoutPrefix);
}

/** "PT509442013" and "509 442 013" are stored as "509442013". */
export function normaliseTaxId(taxId: string): string {
  return taxId.replace(/\s+/g, '').toUpperCase().replace(/^PT(?=\d{9}$)/, '');
}
