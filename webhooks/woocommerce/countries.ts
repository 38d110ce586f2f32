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
